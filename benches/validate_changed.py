#!/usr/bin/env python3
"""Validates every file a fix run changed in a git work tree, with its language's own parser.

    validate_changed.py REPO [--fixed-list FILE]

For each file `git diff --name-only` lists, the old text (HEAD) and the new text (the work tree)
go through the validator of its extension; a file counts as broken when the old text passed and
the new one fails. JSON files (and notebooks) also count keys that appear twice in an object,
new ones only. With --fixed-list (one path per line: the files interlint said it fixed), a
changed file not in the list, or a listed file not changed, is an error.

Validators: .py/.pyi ast.parse; .ipynb JSON + each code cell ast.parse (IPython magic and shell
lines blanked); .json json.loads; .toml tomllib; .sh/.bash bash -n; .js/.mjs/.cjs node --check;
.ts/.tsx/.mts/.cts TypeScript's syntactic diagnostics (when NODE_PATH has `typescript`); .yaml/
.yml PyYAML when installed. Other extensions are counted as not validated.

Prints a table per extension (changed / validated / broken / duplicate keys) and a last line
  validate: changed C broken B dupkeys D unlisted U unchanged-listed L
Exit status 0 when B, D, U and L are all 0.
"""
import argparse
import ast
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

MAGIC = re.compile(r"^\s*[%!?]")


def dup_keys(text):
    count = 0

    def hook(pairs):
        nonlocal count
        keys = [k for k, _ in pairs]
        count += len(keys) - len(set(keys))
        return dict(pairs)

    json.loads(text, object_pairs_hook=hook)
    return count


def py(text):
    ast.parse(text)


def notebook(text):
    nb = json.loads(text)
    for cell in nb.get("cells", []):
        if cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else source
        if source.lstrip().startswith("%%"):
            continue
        lines = ["" if MAGIC.match(line) else line for line in source.split("\n")]
        ast.parse("\n".join(lines))


def toml(text):
    tomllib.loads(text)


def yaml_(text):
    import yaml  # noqa: PLC0415 (optional)

    list(yaml.safe_load_all(text))


def external(command, suffix):
    def check(text):
        with tempfile.NamedTemporaryFile("w", suffix=suffix, delete=False, encoding="utf-8") as f:
            f.write(text)
            name = f.name
        try:
            result = subprocess.run(command + [name], capture_output=True, text=True)
            if result.returncode != 0:
                raise ValueError(result.stderr.strip().splitlines()[-1:] or ["fails"])
        finally:
            os.unlink(name)

    return check


TS_SCRIPT = r"""
const ts = require('typescript');
const fs = require('fs');
const name = process.argv[1];
const text = fs.readFileSync(name, 'utf8');
const kind = name.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
const file = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true, kind);
process.exit(file.parseDiagnostics.length ? 1 : 0);
"""


def typescript_available():
    probe = subprocess.run(["node", "-e", "require('typescript')"], capture_output=True)
    return probe.returncode == 0


def validators():
    table = {
        ".py": py,
        ".pyi": py,
        ".ipynb": notebook,
        ".json": lambda t: json.loads(t),
        ".toml": toml,
        ".sh": external(["bash", "-n"], ".sh"),
        ".bash": external(["bash", "-n"], ".sh"),
        ".js": external(["node", "--check"], ".js"),
        ".cjs": external(["node", "--check"], ".cjs"),
        ".mjs": external(["node", "--check"], ".mjs"),
    }
    if typescript_available():
        for ext in (".ts", ".mts", ".cts", ".tsx"):
            table[ext] = external(["node", "-e", TS_SCRIPT], ext)
    try:
        import yaml  # noqa: F401, PLC0415

        table[".yaml"] = yaml_
        table[".yml"] = yaml_
    except ImportError:
        pass
    return table


def passes(check, text):
    try:
        check(text)
        return True
    except Exception:  # noqa: BLE001 (any parser error is a failure)
        return False


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("repo", type=Path)
    parser.add_argument("--fixed-list", type=Path)
    args = parser.parse_args()
    git = lambda *a: subprocess.run(["git", "-C", str(args.repo), *a], capture_output=True, check=True).stdout  # noqa: E731
    changed = [p for p in git("diff", "--name-only", "-z").decode().split("\0") if p]
    table = validators()
    rows = collections.defaultdict(lambda: collections.Counter())
    broken_files = []
    for path in changed:
        ext = Path(path).suffix.lower() or Path(path).name
        row = rows[ext]
        row["changed"] += 1
        try:
            old = git("show", f"HEAD:{path}").decode("utf-8")
            new = (args.repo / path).read_text(encoding="utf-8")
        except (UnicodeDecodeError, subprocess.CalledProcessError, OSError):
            row["unreadable"] += 1
            continue
        if ext in (".json", ".ipynb") and passes(json.loads, old) and passes(json.loads, new):
            extra = dup_keys(new) - dup_keys(old)
            if extra > 0:
                row["dupkeys"] += extra
                broken_files.append(f"{path}: {extra} new duplicate keys")
        check = table.get(ext)
        if check is None:
            row["not validated"] += 1
            continue
        if not passes(check, old):
            row["invalid before"] += 1
            continue
        row["validated"] += 1
        if not passes(check, new):
            row["broken"] += 1
            broken_files.append(f"{path}: parsed before the fix, not after")
    unlisted = unchanged = 0
    if args.fixed_list:
        listed = {line for line in args.fixed_list.read_text().splitlines() if line}
        unlisted_files = sorted(set(changed) - listed)
        unchanged_files = sorted(listed - set(changed))
        unlisted, unchanged = len(unlisted_files), len(unchanged_files)
        for path in unlisted_files[:20]:
            print(f"changed without a reported fix: {path}")
        for path in unchanged_files[:20]:
            print(f"reported fixed, not changed: {path}")
    columns = ["changed", "validated", "invalid before", "not validated", "broken", "dupkeys", "unreadable"]
    print("| extension | " + " | ".join(columns) + " |")
    print("|---" * (len(columns) + 1) + "|")
    for ext, row in sorted(rows.items(), key=lambda kv: -kv[1]["changed"]):
        print(f"| {ext} | " + " | ".join(str(row[c]) for c in columns) + " |")
    for line in broken_files[:50]:
        print(f"BROKEN {line}")
    broken = sum(r["broken"] for r in rows.values())
    dupkeys = sum(r["dupkeys"] for r in rows.values())
    print(
        f"validate: changed {len(changed)} broken {broken} dupkeys {dupkeys} "
        f"unlisted {unlisted} unchanged-listed {unchanged}"
    )
    return 0 if broken == dupkeys == unlisted == unchanged == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
