#!/usr/bin/env python3
"""Judges fixed fixtures with each language's own parser (used by tests/reference_parsers.rs).

    reference_parsers.py MANIFEST

MANIFEST is a JSON list of {"name", "ext", "before", "after"} (paths of the original and fixed
text). A fixed file is judged only when its original passes the same parser; it must pass too,
and a JSON object may not hold more duplicate keys than before. Parsers that are not installed
(node, bash, the `typescript` package) are skipped and counted. Prints one JSON summary line;
exits 1 when a fixed file is broken.
"""
import ast, json, os, re, shutil, subprocess, sys, tempfile, tomllib

MAGIC = re.compile(r"^\s*[%!]")


def py_ok(text):
    try:
        ast.parse(text)
        return True
    except (SyntaxError, ValueError):
        return False


def dup_keys(text):
    count = 0

    def hook(pairs):
        nonlocal count
        keys = [k for k, _ in pairs]
        count += len(keys) - len(set(keys))
        return dict(pairs)

    json.loads(text, object_pairs_hook=hook)
    return count


def json_ok(text):
    try:
        return dup_keys(text)
    except ValueError:
        return None


def notebook_ok(text):
    try:
        nb = json.loads(text)
    except ValueError:
        return False
    for cell in nb.get("cells", []):
        if cell.get("cell_type") != "code":
            continue
        src = cell.get("source", "")
        src = "".join(src) if isinstance(src, list) else src
        lines = ["" if MAGIC.match(l) or l.lstrip().startswith("%%") else l for l in src.split("\n")]
        if src.lstrip().startswith("%%"):
            continue
        if not py_ok("\n".join(lines)):
            return False
    return True


def toml_ok(text):
    try:
        tomllib.loads(text)
        return True
    except tomllib.TOMLDecodeError:
        return False


def run_ok(cmd):
    return subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0


def bash_ok(path):
    return run_ok(["bash", "-n", path])


def node_ok(path):
    if run_ok(["node", "--check", path]):
        return True
    # ES modules in a .js file: check it as a module.
    with tempfile.TemporaryDirectory() as d:
        m = os.path.join(d, "m.mjs")
        shutil.copy(path, m)
        return run_ok(["node", "--check", m])


TS_CHECK = r"""
const ts = require('typescript');
const fs = require('fs');
const path = process.argv[2];
const kind = path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
const sf = ts.createSourceFile(path, fs.readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true, kind);
process.exit(sf.parseDiagnostics.length === 0 ? 0 : 1);
"""


def has_typescript():
    return shutil.which("node") is not None and run_ok(["node", "-e", "require('typescript')"])


def main():
    items = json.load(open(sys.argv[1]))
    tools = {"bash": shutil.which("bash") is not None, "node": shutil.which("node") is not None}
    tools["typescript"] = has_typescript()
    script = None
    if tools["typescript"]:
        script = tempfile.NamedTemporaryFile("w", suffix=".js", delete=False)
        script.write(TS_CHECK)
        script.close()
    judged, skipped, broken = {}, {}, []

    for item in items:
        ext = item["ext"]
        read = lambda p: open(p, encoding="utf-8").read()
        if ext in ("py", "pyi"):
            before, after = py_ok(read(item["before"])), py_ok(read(item["after"]))
        elif ext == "ipynb":
            before, after = notebook_ok(read(item["before"])), notebook_ok(read(item["after"]))
        elif ext == "json":
            b, a = json_ok(read(item["before"])), json_ok(read(item["after"]))
            before, after = b is not None, a is not None and a <= b if b is not None else False
        elif ext == "toml":
            before, after = toml_ok(read(item["before"])), toml_ok(read(item["after"]))
        elif ext in ("sh", "bash") and tools["bash"]:
            before, after = bash_ok(item["before"]), bash_ok(item["after"])
        elif ext in ("js", "mjs", "cjs") and tools["node"]:
            before, after = node_ok(item["before"]), node_ok(item["after"])
        elif ext in ("ts", "tsx", "mts", "cts") and script is not None:
            before = run_ok(["node", script.name, item["before"]])
            after = run_ok(["node", script.name, item["after"]])
        else:
            skipped[ext] = skipped.get(ext, 0) + 1
            continue
        if not before:
            skipped[ext + " (original invalid)"] = skipped.get(ext + " (original invalid)", 0) + 1
            continue
        judged[ext] = judged.get(ext, 0) + 1
        if not after:
            broken.append(item["name"])
    print(json.dumps({"judged": judged, "skipped": skipped, "tools": tools, "broken": broken}))
    sys.exit(1 if broken else 0)


if __name__ == "__main__":
    main()
