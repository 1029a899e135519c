#!/usr/bin/env bash
# CI step: the MCP conformance suite (@modelcontextprotocol/conformance) for test/agents/conformance.test.ts.
# The suite needs Node >= 22: it goes into a prefix outside the repository and runs on the Node 24 of
# scripts/node24.sh (the same binary the npm test pass runs on); nothing in the project's own
# dependencies changes. The suite's version is pinned: the committed baseline
# (test/agents/conformance-baseline.json) is only meaningful against the suite version it was made with.
set -euo pipefail
CONFORMANCE_VERSION=0.2.0-alpha.12
PREFIX="${MCP_CONFORMANCE_PREFIX:-/tmp/wf-conformance}"
NODE24_HOME="$(bash "$(dirname "$0")/../node24.sh")"
mkdir -p "$PREFIX"
npm install --prefix "$PREFIX" --no-save --no-audit --no-fund --loglevel=error \
  "@modelcontextprotocol/conformance@${CONFORMANCE_VERSION}"
"$NODE24_HOME/bin/node" --version
test -f "$PREFIX/node_modules/@modelcontextprotocol/conformance/dist/index.js"
{
  echo "MCP_CONFORMANCE_DIR=$PREFIX"
  echo "MCP_CONFORMANCE_NODE=$NODE24_HOME/bin/node"
  # In CI a missing suite is a failure, not a skip.
  echo "TEST_REQUIRE_MCP_CONFORMANCE=1"
} >> "${CI_ENV_FILE:?CI_ENV_FILE is set by .ci/run}"
