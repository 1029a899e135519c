#!/usr/bin/env bash
# The test command (npm test): the checks, the build of what the tests serve, then every test file
# with node's test runner through tsx. Suites that need PostgreSQL, Redis, S3 or Chromium skip with a
# message when those are not configured (see .ci/run, which provides them).
#
#   npm test                              everything: the checks, the build, the WebKit files, the
#                                         image's, the rest
#   bash scripts/test.sh --checks         the checks only (lockfile, lint, exports, types)
#   bash scripts/test.sh --build          the build only
#   bash scripts/test.sh --webkit         the WebKit files, one at a time (against the build there is)
#   bash scripts/test.sh --image          the container image's file (it builds the image itself)
#   bash scripts/test.sh --rest           every other test file (against the build there is)
#   bash scripts/test.sh --node-line      the files whose result can depend on the Node that runs the
#                                         tests (CI's Node 20 lane; against the build there is)
#   bash scripts/test.sh FILE...          those files only (no checks, no build)
#
# .ci/run runs the parts side by side (see there); npm test runs them one after the other. The test
# runner runs TEST_CONCURRENCY files at once (2 unless set; the WebKit files always one at a time).
#
# Run once, not on each Node line (the list `once` below): the page's tests (test/site: a browser runs
# the page, or its state code runs under Node as it would in a browser; test/docs/browser.test.ts;
# test/release/integrity-browsers.test.ts: browsers refuse an altered script),
# the container image (test/ops/image.test.ts: the image brings its own Node 24) and the OpenAPI
# document under the API tools (test/api/openapi-tools.test.ts: the tools read a document, which the
# test files on both lines already compare with the routes) and the scale-out files (test/scale: several
# nodes on PostgreSQL, Redis and S3, killed and restarted; a scale-out deployment runs the image, whose
# Node is 24, and the stores' contract suites run PostgreSQL and S3 on both lines). The server, the
# stores, the CLI and the agents run in the test's own Node, so every other file runs on both lines.
set -euo pipefail
cd "$(dirname "$0")/.."
shopt -s globstar nullglob
once=(test/site/**/*.test.ts test/docs/browser.test.ts test/release/integrity-browsers.test.ts test/ops/image.test.ts test/api/openapi-tools.test.ts test/scale/*.test.ts)
part=all
case "${1:-}" in
  --checks | --build | --webkit | --image | --rest | --node-line)
    part="${1#--}"
    shift
    ;;
esac
# Off a terminal (CI, logs) the TAP reporter on every Node: Node 20 defaults to it there, Node 24 to
# spec, and CI reads the summary lines.
reporter=()
[ -t 1 ] || reporter=(--test-reporter=tap)
runner=(npx tsx --test --test-timeout=600000 "${reporter[@]}")
concurrency="${TEST_CONCURRENCY:-2}"
if [ "$#" -gt 0 ]; then exec "${runner[@]}" --test-concurrency="$concurrency" "$@"; fi
# The parts below run after the build (npm test, .ci/run) or against the build there is: the server
# and the CLI the tests start in child processes are then the build's (test/support/entries.ts), as
# an installed copy runs them, and start in half the CPU of the source through tsx. Files named on
# the command line (above) start the source, so a file run after an edit tests the edit.
export TEST_AGAINST_BUILD=1

checks() {
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
}

build() {
  # The build, as npm start makes it: the server into dist/ (which bin/webfolder.js runs, so its tests
  # run what an installed copy runs, never a stale earlier build) and the browser site into dist/web,
  # which the server and the site tests serve. tsc and Vite write the same files whichever Node runs
  # them, so one build serves both Node lines.
  npm run --silent build
}

# The WebKit files (test/site/webkit*.test.ts; their set-up is test/site/webkit.ts) run one at a time:
# beside the ZIP64 test (4 GiB through Chromium), WebKit's MiniBrowser stalled in a WebDriver command
# for the whole 300 s page-load timeout in two CI runs out of four (docs/site.md). npm test runs them
# before the rest, and .ci/run first in its first lane, before any other browser starts (beside the
# Chromium files it stalled in the same way). Each file starts its own Xvfb and WebKitWebDriver.
webkit=(test/site/webkit*.test.ts)
webkit() { "${runner[@]}" --test-concurrency=1 "${webkit[@]}"; }
# The container image's file on its own too: it builds the image (scripts/image/build.sh: minutes of
# CPU when the engine's layer cache is cold), which would otherwise run beside the browser tests.
image=test/ops/image.test.ts
image() { "${runner[@]}" "$image"; }
# TEST_PATHS narrows --rest and --node-line, for .ci/run's two lanes: folder prefixes to keep ("test/client/"), or,
# with a leading "!", to leave out ("!test/client/"). Unset: every file.
chosen() {
  local f="$1" p keep=1
  for p in ${TEST_PATHS:-}; do
    if [[ "$p" == '!'* ]]; then
      [[ "$f" == "${p#!}"* ]] && return 1
    else
      keep=0
      [[ "$f" == "$p"* ]] && return 0
    fi
  done
  return $((1 - keep))
}
rest() {
  local files=() f
  for f in test/**/*.test.ts; do
    [[ "$f" == test/site/webkit*.test.ts || "$f" == "$image" ]] && continue
    chosen "$f" && files+=("$f")
  done
  "${runner[@]}" --test-concurrency="$concurrency" "${files[@]}"
}
node_line() {
  local files=() f
  for f in test/**/*.test.ts; do [[ " ${once[*]} " == *" $f "* ]] || { chosen "$f" && files+=("$f"); }; done
  "${runner[@]}" --test-concurrency="$concurrency" "${files[@]}"
}

case "$part" in
  checks) checks ;;
  build) build ;;
  webkit) webkit ;;
  image) image ;;
  rest) rest ;;
  node-line) node_line ;;
  all)
    checks
    build
    # Every run happens; the exit status fails if one failed.
    status=0
    webkit || status=$?
    image || status=$?
    rest || status=$?
    exit "$status"
    ;;
esac
