#!/usr/bin/env bash
# The test command (npm test): type-check, build what the tests serve, then every test file with
# node's test runner through tsx. Suites that need PostgreSQL, Redis, S3 or Chromium skip with a
# message when those are not configured (see .ci/run, which provides them).
#
#   npm test                              everything: what a newcomer runs, and CI on Node 24
#   bash scripts/test.sh --node-line      the build and the files whose result can depend on the
#                                         Node that runs the tests (CI's second pass, on Node 20)
#   bash scripts/test.sh FILE...          those files only (no checks, no build)
#
# Run once, not on each Node line (the list `once` below): the page's tests (test/site: a browser runs
# the page, or its state code runs under Node as it would in a browser; test/docs/browser.test.ts),
# the container image (test/ops/image.test.ts: the image brings its own Node 24) and the OpenAPI
# document under the API tools (test/api/openapi-tools.test.ts: the tools read a document, which the
# test files on both lines already compare with the routes). The server, the stores, the CLI and the
# agents run in the test's own Node, so every other file runs on both lines.
set -euo pipefail
cd "$(dirname "$0")/.."
shopt -s globstar nullglob
once=(test/site/**/*.test.ts test/docs/browser.test.ts test/ops/image.test.ts test/api/openapi-tools.test.ts)
node_line=0
[ "${1:-}" = --node-line ] && { node_line=1; shift; }
# Off a terminal (CI, logs) the TAP reporter on every Node: Node 20 defaults to it there, Node 24 to
# spec, and CI reads the summary lines.
reporter=()
[ -t 1 ] || reporter=(--test-reporter=tap)
runner=(npx tsx --test --test-timeout=600000 "${reporter[@]}")
if [ "$#" -gt 0 ]; then exec "${runner[@]}" --test-concurrency=2 "$@"; fi
if [ "$node_line" = 1 ]; then
  # The checks below (lockfile, lint, types) read files and do not depend on the Node line; the
  # build is made again so that the server the tests run is this Node's own build.
  npm run --silent build
  rest=()
  for f in test/**/*.test.ts; do [[ " ${once[*]} " == *" $f "* ]] || rest+=("$f"); done
  exec "${runner[@]}" --test-concurrency=2 "${rest[@]}"
fi
# The lockfile must stay installable by `npm ci` (what CI and a fresh clone run): see
# scripts/lockfile-platforms.mjs for the way it has gone out of sync on these machines.
if ! npm ci --dry-run --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null; then
  echo 'package-lock.json is out of sync with package.json: npm ci would refuse it.' >&2
  echo 'Run npm install, then npm run lockfile:platforms, and commit package-lock.json.' >&2
  exit 1
fi
# The tool packages under tools/ (their own package.json and lockfile): installed when they changed.
bash scripts/tools.sh
# Lint and format (Biome): the code base stays clean under them. No unused export in src/ (knip,
# knip.jsonc): an export nothing uses is removed, not left to drift.
npx biome ci .
npm run --silent lint:exports
npx tsc -p tsconfig.json --noEmit
# The build, as npm start makes it: the server into dist/ (which bin/webfolder.js runs, so its tests
# run what an installed copy runs, never a stale earlier build) and the browser site into dist/web,
# which the server and the site tests serve.
npm run --silent build
# The WebKit files (test/site/webkit*.test.ts; their set-up is test/site/webkit.ts) run on their own,
# before the rest, one file at a time: beside the ZIP64 test (4 GiB through Chromium; node's runner
# orders files by path, so the two always ran side by side at the end), WebKit's MiniBrowser stalled
# in a WebDriver command for the whole 300 s page-load timeout in two CI runs out of four
# (docs/site.md). Each file starts its own Xvfb and WebKitWebDriver, so they could run side by side,
# but one at a time keeps the WebKit run as it was when it was one file. Both runs always happen; the
# exit status fails if either failed.
webkit=(test/site/webkit*.test.ts)
rest=()
for f in test/**/*.test.ts; do [[ "$f" == test/site/webkit*.test.ts ]] || rest+=("$f"); done
status=0
"${runner[@]}" --test-concurrency=1 "${webkit[@]}" || status=$?
"${runner[@]}" --test-concurrency=2 "${rest[@]}" || status=$?
exit "$status"
