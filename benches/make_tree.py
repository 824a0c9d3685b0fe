"""Generates a monorepo-like tree where few files use the old API: the benchmark's default."""
import os
import random
import sys

root = sys.argv[1]
random.seed(7)
N_FILES = int(os.environ.get("FILES", "20000"))
USES_API = 0.01

plain_py = '''import json
import requests


def fetch(url: str) -> dict:
    response = requests.get(url, timeout=30)
    response.raise_for_status()
    return json.loads(response.text)


class Model:
    """A data model, not a language model."""

    def __init__(self, name: str, size: int) -> None:
        self.name = name
        self.size = size

    def describe(self) -> str:
        return f"{self.name} ({self.size})"
'''
plain_ts = '''export async function load(url: string): Promise<string> {
  const r = await fetch(url);
  return r.text();
}

export interface Model {
  name: string;
  flash: boolean;
}
'''
api_py = '''from google import genai

client = genai.Client()


def summarize(text: str) -> str:
    response = client.models.generate_content(model="gemini-2.0-flash", contents=text)
    return response.text
'''
api_ts = '''import { GoogleGenAI } from "@google/genai";

const ai = new GoogleGenAI({});
export async function run(prompt: string) {
  const response = await ai.models.generateContent({ model: "gemini-2.5-flash", contents: prompt });
  return response.text;
}
'''
docs = "# Notes\n\nThis package has no model dependency. " * 20 + "\n"

for i in range(N_FILES):
    d = os.path.join(root, f"pkg{i % 200:03d}", f"mod{i % 7}")
    os.makedirs(d, exist_ok=True)
    kind = i % 4
    api = random.random() < USES_API
    if kind == 0:
        name, body = f"f{i}.py", (api_py if api else plain_py) * 3
    elif kind == 1:
        name, body = f"f{i}.ts", (api_ts if api else plain_ts) * 3
    elif kind == 2:
        name, body = f"f{i}.md", docs + ("Uses gemini-1.5-pro.\n" if api else "")
    else:
        name, body = f"f{i}.yaml", "name: x\nreplicas: 3\n" * 20 + ("model: gemini-2.5-pro\n" if api else "")
    with open(os.path.join(d, name), "w") as f:
        f.write(body)
