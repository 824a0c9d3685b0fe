"""Generates the pathological inputs of benches/pathological.sh: files whose size, not whose
content, is extreme. Usage: make_pathological.py DIR [SCALE] (SCALE multiplies every count)."""
import base64
import json
import os
import sys

root = sys.argv[1]
scale = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
os.makedirs(root, exist_ok=True)


def n(count):
    return max(1, int(count * scale))


def write(name, text):
    with open(os.path.join(root, name), "w") as f:
        f.write(text)


def comment_run(head, marker, count):
    return head + "".join(f"{marker} comment line {i}\n" for i in range(count))


py_head = '''from google import genai
client = genai.Client()
r = client.models.generate_content(model="gemini-2.0-flash", contents="hi")
print(r.text)
'''
ts_head = '''import { GoogleGenAI } from "@google/genai";
const ai = new GoogleGenAI({});
const r = await ai.models.generateContent({ model: "gemini-2.0-flash", contents: "hi" });
console.log(r.text);
'''
sh_head = '''curl "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent" \\
  -H "x-goog-api-key: $KEY" -d '{"contents": [{"parts": [{"text": "hi"}]}]}'
'''
write("comments.py", comment_run(py_head, "#", n(30000)))
write("comments.ts", comment_run(ts_head, "//", n(30000)))
write("comments.sh", comment_run(sh_head, "#", n(30000)))

# A minified bundle: one line of ~10 MB (under the default 10 MiB limit), a call to the old
# endpoint every few kilobytes.
chunk = "var a{i}=function(b,c){{return b.map(function(d){{return d+c*{i}}}).filter(Boolean)}};"
call = 'ai.models.generateContent({{model:"gemini-2.0-flash",contents:"q{i}"}}).then(function(r){{return r.text}});'
parts, size, i = [], 0, 0
target = int(10_000_000 * scale)
while size < target:
    piece = call.format(i=i) if i % 40 == 0 else chunk.format(i=i)
    parts.append(piece)
    size += len(piece)
    i += 1
write("minified.js", "".join(parts) + "\n")


def notebook(cells):
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1)


def code_cell(source, outputs=()):
    return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": list(outputs),
            "source": source.splitlines(keepends=True)}


cells = []
for i in range(n(5000)):
    if i % 10 == 0:
        cells.append(code_cell(f'r{i} = client.models.generate_content(model="gemini-2.0-flash", contents="q{i}")\nprint(r{i}.text)\n'))
    elif i % 10 == 5:
        cells.append({"cell_type": "markdown", "metadata": {}, "source": [f"## Step {i}\n", "Some text.\n"]})
    else:
        cells.append(code_cell(f"x{i} = [j * {i} for j in range(10)]\nprint(sum(x{i}))\n"))
cells.insert(0, code_cell("from google import genai\nclient = genai.Client()\n"))
write("cells.ipynb", notebook(cells))

# One cell holding many findings: each is carried from the cell to the file.
write("bigcell.ipynb", notebook([code_cell(py_head + "".join(f'm{i} = "gemini-2.0-flash"\n' for i in range(n(20000))))]))

png = base64.b64encode(os.urandom(int(9_000_000 * scale) * 3 // 4)).decode()
write("output.ipynb", notebook([
    code_cell(py_head),
    code_cell("plot()\n", [{"output_type": "display_data", "metadata": {},
                             "data": {"image/png": png, "text/plain": ["<Figure>"]}}]),
]))

# 1,000,000 keys with short names so the file stays under the default 10 MiB limit.
digits = "0123456789abcdefghijklmnopqrstuvwxyz"


def key(k):
    s = ""
    while True:
        s = digits[k % 36] + s
        k //= 36
        if k == 0:
            return s


write("keys.json", "{" + ",".join(f'"{key(k)}":{k % 10}' for k in range(n(1_000_000))) + "}\n")

write("deprecated.py", py_head + "".join(f'm{i} = "gemini-2.0-flash"\n' for i in range(n(20000))))

# Neighbouring surfaces.
blocks = []
for i in range(n(5000)):
    blocks.append(f"Step {i}.\n\n```python\nr = client.models.generate_content(model=\"gemini-2.0-flash\", contents=\"{i}\")\n```\n\n")
write("blocks.md", "".join(blocks))
write("config.yaml", "".join(f"key{i}: value {i}  # note\n" for i in range(n(100000))) + "model: gemini-2.0-flash\n")
write("requests.http", "".join(
    f"### {i}\nPOST https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent\n"
    f"Content-Type: application/json\n\n{{\"contents\": [{{\"parts\": [{{\"text\": \"{i}\"}}]}}]}}\n\n"
    for i in range(n(5000))))
write("long.rs", "".join(f"// comment line {i}\nfn f{i}() -> &'static str {{ \"gemini-2.0-flash\" }}\n" for i in range(n(20000))))
write("longline.sh", "echo " + " ".join(f"word{i}" for i in range(int(800_000 * scale))) + "\n")
