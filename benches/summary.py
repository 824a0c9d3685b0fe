#!/usr/bin/env python3
"""The default command's cost: `interlint check TREE` (text, with the summary's fix counts)
against `interlint check TREE --format json -q` (no counts), and against `rg` searching the
trigger words, timed in one run, alternating, median of RUNS. Not part of CI.

    python3 benches/summary.py BINARY TREE [--runs 5]

Prints one line per command (median and every run, in seconds), then
    summary: text/json X.XXx  json/rg Y.YYx
"""
import argparse, statistics, subprocess, time, shutil

ap = argparse.ArgumentParser()
ap.add_argument("binary")
ap.add_argument("tree")
ap.add_argument("--runs", type=int, default=5)
a = ap.parse_args()

base = [a.binary, "check", a.tree, "--no-progress", "--exit-zero"]
commands = {
    "text": base,
    "json": base + ["--format", "json", "-q"],
}
if shutil.which("rg"):
    commands["rg"] = ["rg", "-l", "-e", "generateContent", "-e", "generate_content", "-e", "gemini-", "-e", "model-", a.tree]
times = {name: [] for name in commands}
for _ in range(a.runs):
    for name, cmd in commands.items():
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times[name].append(time.perf_counter() - start)
med = {name: statistics.median(t) for name, t in times.items()}
for name, t in times.items():
    print(f"{name:5} median {med[name]:.2f} s  runs {' '.join(f'{x:.2f}' for x in t)}")
line = f"summary: text/json {med['text'] / med['json']:.2f}x"
if "rg" in med:
    line += f"  json/rg {med['json'] / med['rg']:.2f}x"
print(line)
