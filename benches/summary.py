#!/usr/bin/env python3
"""The default command's cost: `interlint check TREE` (text, with the summary's fix counts)
against `interlint check TREE --format json -q` (no counts), and against `rg` searching the
trigger words, timed in one run, alternating, median of RUNS. Not part of CI.

    python3 benches/summary.py BINARY TREE [--runs 5]

Prints one line per command (median and every run, in seconds; and the median CPU time, user
plus system, which a machine busy with other work disturbs less than the wall clock), then
    summary: text/json X.XXx (cpu Z.ZZx)  json/rg Y.YYx
"""
import argparse, resource, statistics, subprocess, time, shutil

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
cpu = {name: [] for name in commands}


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


for _ in range(a.runs):
    for name, cmd in commands.items():
        start, start_cpu = time.perf_counter(), children_cpu()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times[name].append(time.perf_counter() - start)
        cpu[name].append(children_cpu() - start_cpu)
med = {name: statistics.median(t) for name, t in times.items()}
med_cpu = {name: statistics.median(t) for name, t in cpu.items()}
for name, t in times.items():
    print(f"{name:5} median {med[name]:.2f} s  cpu {med_cpu[name]:.2f} s  runs {' '.join(f'{x:.2f}' for x in t)}")
line = f"summary: text/json {med['text'] / med['json']:.2f}x (cpu {med_cpu['text'] / med_cpu['json']:.2f}x)"
if "rg" in med:
    line += f"  json/rg {med['json'] / med['rg']:.2f}x"
print(line)
