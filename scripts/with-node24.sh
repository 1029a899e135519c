#!/usr/bin/env bash
# Runs a command with Node 24 LTS first on PATH, in this tree: `bash scripts/with-node24.sh npm test`.
# scripts/node24.sh installs Node 24 outside the repository (once). Nothing needs rebuilding: on Node
# 22 and later the SQLite store loads better-sqlite3 13 (the alias better-sqlite3-napi, a Node-API
# build that ships prebuilt), on Node 20 better-sqlite3 12 (see src/store/sqlite/connection.ts).
set -euo pipefail
cd "$(dirname "$0")/.."
NODE24_HOME="$(bash scripts/node24.sh)"
export PATH="$NODE24_HOME/bin:$PATH"
echo "== on Node $(node --version): $*" >&2
"$@"
