#!/usr/bin/env bash
# A fix run over a whole tree (issue 18): on a copy of TREE, `check --fix --unsafe-fixes`, then
# a second run, and the proof that nothing broke.
#
#   benches/fix-monorepo.sh TREE [BINARY]     (BINARY: target/release/interlint by default)
#
# 1. Copies TREE (cp -a) and commits every file of the copy (git add -f: ignored files too, so
#    a change to any file shows).
# 2. Runs the fix with /usr/bin/time: wall time, peak memory; --show-fixes names the files it
#    fixed.
# 3. benches/validate_changed.py: every changed file is parsed with its language's parser
#    (broken = parsed before, not after), new duplicate JSON keys are counted, and the files
#    changed must be exactly the files with a reported fix.
# 4. A second run must change no file.
# 5. No panic and no internal-error notice in either run.
#
# Set KEEP=1 to keep the copy (its path is printed). NODE_PATH with `typescript` lets .ts files
# be validated. Exit status 0 when every check passes.
set -euo pipefail

tree=$(realpath "$1")
here=$(cd "$(dirname "$0")/.." && pwd)
binary=$(realpath "${2:-$here/target/release/interlint}")
work=$(mktemp -d "${TMPDIR:-/tmp}/fix-monorepo.XXXXXX")
if [ "${KEEP:-0}" != 1 ]; then
  trap 'rm -rf "$work"' EXIT
fi
echo "copy: $work/tree"

started=$(date +%s)
cp -a "$tree" "$work/tree"
cd "$work/tree"
git init -q
git -c core.autocrlf=false add -A -f .
git -c user.name=bench -c user.email=bench@example.com commit -q -m before --no-verify
echo "copied and committed in $(($(date +%s) - started)) s: $(git ls-files | wc -l) files"

run() { # NAME: one fix run; its stderr in $work/NAME.err, time and peak memory in $work/NAME.time
  /usr/bin/time -f "%e %M" -o "$work/$1.time" \
    "$binary" check --fix --unsafe-fixes --show-fixes --format json --no-progress . \
    > "$work/$1.json" 2> "$work/$1.err" || true
}

run first
read -r first_wall first_kib < <(tail -n 1 "$work/first.time")
grep -E '^- .*:$' "$work/first.err" | sed -e 's/^- //' -e 's/:$//' > "$work/fixed.txt" || true
problems=0
if grep -qE 'panicked|internal error' "$work/first.err"; then
  echo "FAIL: the first run panicked or reported an internal error:"
  grep -E 'panicked|internal error' "$work/first.err" | head -5
  problems=1
fi
python3 "$here/benches/validate_changed.py" . --fixed-list "$work/fixed.txt" || problems=1

git add -A -f .
git -c user.name=bench -c user.email=bench@example.com commit -q -m fixed --no-verify --allow-empty
run second
read -r second_wall second_kib < <(tail -n 1 "$work/second.time")
second_changes=$(git status --porcelain | wc -l)
if [ "$second_changes" != 0 ]; then
  echo "FAIL: the second run changed $second_changes files:"
  git status --porcelain | head -10
  problems=1
fi
if grep -qE 'panicked|internal error' "$work/second.err"; then
  echo "FAIL: the second run panicked or reported an internal error"
  problems=1
fi
remaining=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["summary"]["findings"])' "$work/second.json")
echo "first run: $first_wall s, peak $((first_kib / 1024)) MiB, $(wc -l < "$work/fixed.txt") files fixed ($(grep -m1 -E '^Fixed' "$work/first.err" || echo 'Fixed nothing'))"
echo "second run: $second_wall s, peak $((second_kib / 1024)) MiB, $second_changes files changed, $remaining findings left (no fix, or a fix left out)"
echo "fix-monorepo: $([ $problems = 0 ] && echo pass || echo FAIL)"
exit $problems
