#!/usr/bin/env bash
# Speed and peak memory of `interlint check` against `rg` searching the same words, on one tree,
# in one run (benches/bench.py). Usage:
#   benches/bench.sh [TREE]            # default: a generated tree under target/bench-tree
#   benches/bench.sh ../corpus/large   # a real tree (../shared/bench/setup-corpus.sh builds them)
# RUNS=N (default 3); SG_CONFIG=../shared/bench/rules/sgconfig.yml adds ast-grep with the
# equivalent rules; SCALING=1 times 25/50/100 % of the tree's folders instead.
# Needs: rg, python3, GNU time. Not part of CI.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin="${CARGO_TARGET_DIR:-$PWD/target}/release/interlint"
tree="${1:-}"
if [ -z "$tree" ]; then
  tree="$PWD/target/bench-tree"
  [ -d "$tree" ] || python3 benches/make_tree.py "$tree"
fi
args=(--runs "${RUNS:-3}")
[ -n "${SG_CONFIG:-}" ] && args+=(--sg-config "$SG_CONFIG")
[ -n "${SCALING:-}" ] && args+=(--scaling)
python3 benches/bench.py "$bin" "$tree" "${args[@]}"
