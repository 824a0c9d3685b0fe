#!/usr/bin/env bash
# Seeds each fuzz target's corpus (fuzz/corpus/TARGET, not committed) with the fixtures of its
# surface. Targets that pick the file name from the first byte get the byte of each name.
set -euo pipefail
cd "$(dirname "$0")"
fixtures=../fixtures
seed() { # TARGET PREFIX-BYTE(or -) FIND-ARGS...
  local target=$1 byte=$2; shift 2
  mkdir -p "corpus/$target"
  find "$fixtures" -type f "$@" -print0 | while IFS= read -r -d '' f; do
    local out="corpus/$target/$(basename "$f")-$(cksum < "$f" | cut -d' ' -f1)"
    if [ "$byte" = - ]; then cp "$f" "$out"; else { printf "\\x$(printf %02x "$byte")"; cat "$f"; } > "$out"; fi
  done
}
seed python - -name '*.py'
seed notebook - -name '*.ipynb'
seed javascript - \( -name '*.js' -o -name '*.mjs' \)
seed typescript 0 -name '*.ts'
seed typescript 1 -name '*.tsx'
seed shell - -name '*.sh'
seed http - \( -name '*.http' -o -name '*.rest' \)
seed json - \( -name '*.json' -o -name '*.jsonc' \)
seed markdown - -name '*.md'
seed rust - -name '*.rs'
seed manifests 0 -name 'pyproject.toml'
seed manifests 1 -name 'requirements*.txt'
seed manifests 2 -name 'package.json'
seed manifests 4 \( -name '*.yaml' -o -name '*.yml' \)
seed manifests 5 -name '*.env'
seed benchmark_manifest - -path '*manifest*' -name '*.json'
seed tool_server 0 -path '*mcp*' -name '*.py'
seed tool_server 1 -path '*mcp*' -name '*.ts'
seed fix 0 -name '*.py'
seed fix 1 -name '*.ts'
seed fix 2 -name '*.js'
seed fix 3 -name '*.ipynb'
seed fix 4 -name '*.sh'
seed fix 5 -name '*.json'
seed fix 6 -name '*.md'
seed fix 7 -name '*.rs'
seed fix 8 \( -name '*.yaml' -o -name '*.yml' \)
seed fix 9 -name 'pyproject.toml'
seed fix 10 -name '*.http'
for d in corpus/*; do echo "$d: $(ls "$d" | wc -l) seeds"; done
