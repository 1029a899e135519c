#!/usr/bin/env bash
# Installs the tool packages under tools/ (`bash scripts/tools.sh`; scripts/test.sh and .ci/run call
# it). Each is a small package with its own package.json and lockfile, installed by `npm ci --prefix`
# into its own node_modules, apart from the project's: tools/openapi-types holds openapi-typescript
# with the TypeScript 5 it prints with, where the project's `typescript` is 7 (docs/decisions.md).
# A tool is installed again only when its package.json or lockfile changed since its last install.
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in tools/*/; do
  tool="${tool%/}"
  [ -f "$tool/package-lock.json" ] || continue
  stamp="$tool/node_modules/.installed-from"
  if cat "$tool/package.json" "$tool/package-lock.json" | cmp -s - "$stamp" 2>/dev/null; then continue; fi
  echo "== npm ci --prefix $tool" >&2
  npm ci --prefix "$tool" --no-audit --no-fund --loglevel=error >&2
  cat "$tool/package.json" "$tool/package-lock.json" > "$stamp"
done
