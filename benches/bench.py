#!/usr/bin/env python3
"""Times `interlint check` against `rg` (and ast-grep, when given its rules) on one tree, in one
run: runs alternate so a drift of the machine's speed hits every tool, medians are reported and
the ratio to rg is taken run by run. rg counts the words interlint's prefilter searches
(`interlint rules --triggers`), so its time is the floor for reading the tree and matching them.

    bench.py BIN TREE [--runs N] [--sg-config FILE] [--scaling]

--scaling times interlint and rg on 25 %, 50 % and 100 % of the tree's folders (every fourth,
every second, all of the folders three levels down, as paths on one command line) to show how
the cost grows. Needs rg and GNU time (/usr/bin/time). Not part of CI.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile


def timed(cmd):
    """Wall seconds, CPU seconds and peak resident MiB of one run."""
    with tempfile.NamedTemporaryFile("r") as t:
        subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M", "-o", t.name, *cmd],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wall, user, sys_, rss = t.read().strip().splitlines()[-1].split()
    return float(wall), float(user) + float(sys_), int(rss) / 1024


def measure(tools, runs):
    res = {k: [] for k in tools}
    for i in range(runs + 1):  # the first round warms the page cache
        for name, cmd in tools.items():
            r = timed(cmd)
            if i > 0:
                res[name].append(r)
    return res


def table(res, title):
    print(title)
    print(f"{'tool':10} {'wall s':>8} {'cpu s':>8} {'peak MiB':>9} {'/ rg':>6}")
    rg = res["rg"]
    for name, rs in res.items():
        ratio = statistics.median(x[0] / y[0] for x, y in zip(rs, rg))
        print(f"{name:10} {statistics.median(r[0] for r in rs):8.2f} {statistics.median(r[1] for r in rs):8.2f}"
              f" {max(r[2] for r in rs):9.1f} {ratio:6.2f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bin")
    ap.add_argument("tree")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--sg-config", help="an ast-grep sgconfig.yml: ast-grep scans the tree with its rules too")
    ap.add_argument("--scaling", action="store_true")
    a = ap.parse_args()
    if not shutil.which("rg"):
        sys.exit("bench: rg is not on PATH")
    tree = os.path.abspath(a.tree)
    words = subprocess.run([a.bin, "rules", "--triggers"], capture_output=True, text=True, check=True).stdout
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(words)
    interlint = [a.bin, "check", "--no-progress", "-q", "--exit-zero", "--format", "json"]
    rg = ["rg", "-c", "-F", "-f", f.name]
    try:
        if a.scaling:
            folders = [tree]
            for _ in range(3):
                folders = sorted(
                    os.path.join(d, e) for d in folders for e in os.listdir(d)
                    if os.path.isdir(os.path.join(d, e)) and not os.path.islink(os.path.join(d, e))
                )
            for share, step in (("25 %", 4), ("50 %", 2), ("100 %", 1)):
                paths = folders[::step]
                res = measure({"interlint": interlint + paths, "rg": rg + paths}, a.runs)
                table(res, f"{share} of the folders of {tree} ({len(paths)} folders)")
            return
        tools = {"interlint": interlint + [tree], "rg": rg + [tree]}
        if a.sg_config:
            tools["ast-grep"] = ["ast-grep", "scan", "-c", a.sg_config, tree]
        files = sum(len(fs) for _, _, fs in os.walk(tree))
        res = measure(tools, a.runs)
        table(res, f"{tree}: {files} files; {a.runs} runs after a warm-up; {os.cpu_count()} CPUs")
    finally:
        os.unlink(f.name)


if __name__ == "__main__":
    main()
