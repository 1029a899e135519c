#!/usr/bin/env bash
# Chromium for the browser site's end-to-end tests (test/site/), driven by playwright-core.
# Debian's package: playwright's own browser download is not reachable from CI machines.
set -euo pipefail
if [ ! -x /usr/bin/chromium ]; then
  export DEBIAN_FRONTEND=noninteractive
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update
  $SUDO apt-get install -y --no-install-recommends chromium
fi
/usr/bin/chromium --version || true
echo "CHROMIUM_PATH=/usr/bin/chromium" >> "$CI_ENV_FILE"
# In CI a missing Chromium is a failure, not a skip.
echo "TEST_REQUIRE_CHROMIUM=1" >> "$CI_ENV_FILE"
