#!/usr/bin/env python3
"""The import circles of interlint's modules.

A module is a top-level module of src/ (src/config.rs, src/rules/...), except under src/lang/,
where each file or folder is a module of its own (lang::python, lang::json, ...). A module
imports another when one of its files names it: `use crate::...` (groups included),
`crate::X::...` in code, or `super::...` that reaches it (from the file's module, or from the
inline `mod tests { ... }` it is written in). Comments, doc links and string literals are not
imports; a parent's own `mod child;` declarations and relative paths (`python::parse` in
lang/mod.rs) are not counted.

    python3 benches/layers.py              # the circles (strongly connected components)
    python3 benches/layers.py -v           # and the imports inside each, with their files
    python3 benches/layers.py --no-tests   # leave out `#[cfg(test)] mod ...` blocks
    python3 benches/layers.py --edges      # every module's imports
    python3 benches/layers.py --files      # each .rs file a node of its own (rules/mig.rs, ...)
    python3 benches/layers.py SRC          # another source folder (an old tree from git archive)

With --files a path names the file of its longest prefix that is a file's module
(`crate::rules::mig::client_words` -> rules/mig.rs, `super::CheckArgs` from cli/check.rs ->
cli/mod.rs); paths to the crate's root (lib.rs, main.rs) are left out as in the module graph.
`cargo test --test layers` computes the same file-level circles and fails on one that is not
in its allow-list.
"""

import os
import re
import sys

args = [a for a in sys.argv[1:] if not a.startswith('-')]
ROOT = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'src')
VERBOSE = '-v' in sys.argv
NO_TESTS = '--no-tests' in sys.argv
FILES = '--files' in sys.argv

LANG = os.path.join(ROOT, 'lang')
TOP_MODULES = {f[:-3] if f.endswith('.rs') else f for f in os.listdir(ROOT)}
LANG_MODULES = {f[:-3] if f.endswith('.rs') else f for f in os.listdir(LANG) if f != 'mod.rs'}


def module_path(rel):
    """The Rust module path of a file: lang/python/facts/legacy.rs -> [lang, python, facts, legacy]."""
    parts = rel[:-3].split('/')
    if parts[-1] == 'mod':
        parts.pop()
    return parts


def file_modules():
    """Every file's module path: (rules, mig) -> rules/mig.rs."""
    found = {}
    for folder, _, files in os.walk(ROOT):
        for name in files:
            if name.endswith('.rs'):
                rel = os.path.relpath(os.path.join(folder, name), ROOT).replace(os.sep, '/')
                found[tuple(module_path(rel))] = rel
    return found


FILE_MODULES = file_modules() if FILES else {}


def node(path):
    """The graph's module of a path below `crate` (with --files, the file of its longest prefix
    that is a file's module)."""
    if FILES:
        for k in range(len(path), 0, -1):
            if tuple(path[:k]) in FILE_MODULES:
                return FILE_MODULES[tuple(path[:k])]
        return None
    if not path or path[0] in ('lib', 'main'):
        return None
    if path[0] == 'lang':
        return 'lang::' + path[1] if len(path) > 1 and path[1] in LANG_MODULES else 'lang'
    return path[0]


def strip(text):
    """The text with comments, string and char literals blanked out."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('//', i):
            j = text.find('\n', i)
            i = n if j < 0 else j
            continue
        if text.startswith('/*', i):
            depth = 0
            while i < n:
                if text.startswith('/*', i):
                    depth, i = depth + 1, i + 2
                elif text.startswith('*/', i):
                    depth, i = depth - 1, i + 2
                    if depth == 0:
                        break
                else:
                    i += 1
            continue
        raw = re.match(r'b?r(#*)"', text[i:i + 40])
        if raw and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == '_')):
            end = '"' + raw.group(1)
            j = text.find(end, i + raw.end())
            i = n if j < 0 else j + len(end)
            out.append('""')
            continue
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == '\\' else 1
            i = j + 1
            out.append('""')
            continue
        if c == "'":
            char = re.match(r"'(\\(x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]+\}|.)|[^\\'])'", text[i:i + 14])
            if char:
                i += char.end()
                out.append("' '")
                continue
        out.append(c)
        i += 1
    return ''.join(out)


def without_tests(text):
    """The text without its `#[cfg(test)] mod NAME { ... }` blocks."""
    out, i = [], 0
    while True:
        m = re.search(r'#\[cfg\(test\)\]\s*mod\s+\w+\s*\{', text[i:])
        if not m:
            out.append(text[i:])
            return ''.join(out)
        out.append(text[i:i + m.start()])
        j, depth = i + m.end(), 1
        while depth and j < len(text):
            depth += {'{': 1, '}': -1}.get(text[j], 0)
            j += 1
        i = j


def use_paths(tree, prefix=()):
    """Every path a use tree names: `a::{b, c::{d, e}}` -> a::b, a::c::d, a::c::e."""
    tree = tree.strip()
    if '{' not in tree:
        segments = [s.strip() for s in tree.split(' as ')[0].split('::') if s.strip()]
        yield list(prefix) + [s for s in segments if s != 'self']
        return
    k = tree.index('{')
    head = [s.strip() for s in tree[:k].split('::') if s.strip()]
    depth, part = 0, ''
    for c in tree[k + 1:tree.rindex('}')] + ',':
        depth += {'{': 1, '}': -1}.get(c, 0)
        if c == ',' and depth == 0:
            if part.strip():
                yield from use_paths(part, tuple(prefix) + tuple(head))
            part = ''
        else:
            part += c


def inline_modules(text):
    """The `mod NAME { ... }` blocks of a file: (start, end, NAME)."""
    blocks = []
    for m in re.finditer(r'\bmod\s+(\w+)\s*\{', text):
        j, depth = m.end(), 1
        while depth and j < len(text):
            depth += {'{': 1, '}': -1}.get(text[j], 0)
            j += 1
        blocks.append((m.start(), j, m.group(1)))
    return blocks


def module_at(here, blocks, at):
    """The module path at an offset of a file: the file's, and the inline modules around it."""
    return list(here) + [name for start, end, name in blocks if start <= at < end]


def absolute(path, here):
    """A path as written in module `here`, from `crate`; None when it starts elsewhere."""
    if path[0] == 'crate':
        return path[1:]
    if path[0] in ('super', 'self'):
        base = list(here)
        while path and path[0] in ('super', 'self'):
            if path[0] == 'super':
                base.pop()
            path = path[1:]
        return base + path
    return None


edges = {}
for folder, _, files in os.walk(ROOT):
    for name in files:
        if not name.endswith('.rs'):
            continue
        rel = os.path.relpath(os.path.join(folder, name), ROOT).replace(os.sep, '/')
        here = module_path(rel)
        source = node(here)
        if source is None:
            continue
        text = strip(open(os.path.join(folder, name), encoding='utf-8').read())
        if NO_TESTS:
            text = without_tests(text)
        blocks = inline_modules(text)
        paths = []
        uses = r'\buse\s+((?:crate|super|self)\b[^;]*);'
        for m in re.finditer(uses, text):
            paths.extend((p, module_at(here, blocks, m.start())) for p in use_paths(m.group(1)))
        code = re.sub(uses, lambda m: ' ' * len(m.group(0)), text)
        for m in re.finditer(r'(?<![\w:])((?:crate|super)(?:::\w+)+)', code):
            paths.append((m.group(1).split('::'), module_at(here, blocks, m.start())))
        for path, at in paths:
            target = node(absolute(path, at) or [])
            if target is None:
                continue
            if not FILES and target not in TOP_MODULES and not target.startswith('lang::'):
                continue
            if target and target != source:
                edges.setdefault(source, {}).setdefault(target, set()).add(rel)

# Tarjan's strongly connected components.
nodes = sorted(set(edges) | {t for targets in edges.values() for t in targets})
index, low, stack, on_stack, components = {}, {}, [], set(), []
sys.setrecursionlimit(10_000)


def visit(v):
    index[v] = low[v] = len(index)
    stack.append(v)
    on_stack.add(v)
    for w in edges.get(v, {}):
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in on_stack:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        component = []
        while True:
            w = stack.pop()
            on_stack.discard(w)
            component.append(w)
            if w == v:
                break
        components.append(sorted(component))


for v in nodes:
    if v not in index:
        visit(v)
circles = sorted((c for c in components if len(c) > 1), key=lambda c: (-len(c), c))
print(f'{len(nodes)} modules, {sum(len(t) for t in edges.values())} imports, {len(circles)} circle(s)')
for circle in circles:
    print(f'circle of {len(circle)}: ' + ', '.join(circle))
    if VERBOSE:
        for a in circle:
            for b, files in sorted(edges.get(a, {}).items()):
                if b in circle:
                    print(f'    {a} -> {b}   ({", ".join(sorted(files))})')
if '--edges' in sys.argv:
    for a in sorted(edges):
        print(f'{a} -> ' + ', '.join(sorted(edges[a])))
