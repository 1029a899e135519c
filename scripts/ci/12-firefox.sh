#!/usr/bin/env bash
# Firefox for the site's Firefox suite (test/site/firefox.test.ts): Debian's Firefox ESR, driven over
# WebDriver BiDi by puppeteer-core (an npm devDependency). There is no geckodriver package, and
# Playwright's Firefox is a patched build that cannot be downloaded from CI machines.
set -euo pipefail
if ! command -v firefox-esr >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -q -o DPkg::Lock::Timeout=300
  $SUDO apt-get install -y -q -o DPkg::Lock::Timeout=300 --no-install-recommends firefox-esr
fi
path="$(command -v firefox-esr)"
"$path" --version || true
echo "FIREFOX_PATH=$path" >> "$CI_ENV_FILE"
# In CI a missing Firefox is a failure, not a skip.
echo "TEST_REQUIRE_FIREFOX=1" >> "$CI_ENV_FILE"
