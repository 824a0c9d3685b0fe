#!/usr/bin/env bash
# Speed of `interlint check` against `rg` searching the same trigger words on the same tree,
# measured in one hyperfine run. Usage:
#   benches/bench.sh [TREE]     # default: a generated tree under target/bench-tree
# Needs: rg, hyperfine, python3. Not part of CI.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin="$PWD/target/release/interlint"
tree="${1:-}"
if [ -z "$tree" ]; then
  tree="$PWD/target/bench-tree"
  [ -d "$tree" ] || python3 benches/make_tree.py "$tree"
fi
patterns="$(mktemp)"
trap 'rm -f "$patterns"' EXIT
# The trigger words of the default rule set, as the prefilter searches them.
"$bin" rules --triggers > "$patterns"
files=$(rg --files "$tree" | wc -l)
echo "tree: $tree ($files files)"
hyperfine --warmup 2 --runs "${RUNS:-10}" --export-json target/bench.json \
  -n rg "rg -c -F -f $patterns $tree" \
  -n interlint "$bin check --no-progress --exit-zero --format concise $tree"
python3 - <<'PY'
import json
r = {x["command"]: x["mean"] for x in json.load(open("target/bench.json"))["results"]}
print(f"interlint / rg = {r['interlint'] / r['rg']:.2f}x  (rg {r['rg']*1000:.1f} ms, interlint {r['interlint']*1000:.1f} ms)")
PY
