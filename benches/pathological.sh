#!/usr/bin/env bash
# Wall time and peak memory of `interlint check` on files whose size, not whose content, is
# extreme: every surface must stay linear in the file size ("never hang"). Usage:
#   benches/pathological.sh [BIN]   # default: the release build of this checkout
# SCALE=0.5 halves every case (compare a run at SCALE=1 to see what doubling costs);
# TIMEOUT=S stops a case after S seconds (its time then shows as S).
# Needs: python3, GNU time (/usr/bin/time). Not part of CI.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-}"
if [ -z "$bin" ]; then
  cargo build --release --quiet
  bin="$PWD/target/release/interlint"
  [ -n "${CARGO_TARGET_DIR:-}" ] && bin="$CARGO_TARGET_DIR/release/interlint"
fi
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
python3 benches/make_pathological.py "$dir" "${SCALE:-1}"
cd "$dir"
printf '%-42s %10s %9s %10s\n' case size "wall (s)" "peak (MB)"
run() {
  local name="$1" file="$2"
  shift 2
  /usr/bin/time -o time.txt -f '%e %M' timeout "${TIMEOUT:-0}" "$bin" check --no-progress --exit-zero "$@" "$file" >/dev/null 2>&1 || true
  read -r wall kb < <(tail -1 time.txt)
  printf '%-42s %10s %9s %10s\n' "$name" "$(du -h "$file" | cut -f1)" "$wall" "$((kb / 1024))"
}
run "Python, 30,000-line comment run" comments.py
run "TypeScript, 30,000-line comment run" comments.ts
run "Bash, 30,000-line comment run" comments.sh
run "JavaScript, one 10 MB minified line" minified.js
run "  the same, --format concise" minified.js --format concise
run "notebook, 5,000 cells" cells.ipynb
run "notebook, one cell of 20,000 deprecated ids" bigcell.ipynb
run "  the same, --diff" bigcell.ipynb --diff
run "notebook, 9 MB base64 output" output.ipynb
run "JSON, 1,000,000 keys" keys.json
run "Python, 20,000 deprecated ids" deprecated.py
run "  the same, --diff" deprecated.py --diff
run "Markdown, 5,000 code blocks" blocks.md
run "YAML, 100,000 lines" config.yaml
run "HTTP, 5,000 requests" requests.http
run "Rust, 40,000 lines" long.rs
run "Bash, one 8 MB line" longline.sh
