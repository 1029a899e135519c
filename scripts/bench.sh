#!/usr/bin/env bash
# Runs the benchmarks (not part of the test run). Each prints ratios against a baseline measured in
# the same run; results are appended to bench/results.log. Usage: npm run bench [-- bench/x.ts ...]
set -euo pipefail
cd "$(dirname "$0")/.."
shopt -s nullglob
files=("$@")
if [ "${#files[@]}" -eq 0 ]; then files=(bench/create.ts bench/ingest.ts); fi
npm run build --silent
for f in "${files[@]}"; do
  echo "== $f"
  npx tsx "$f"
done
