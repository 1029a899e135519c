#!/usr/bin/env bash
# WebKit for the site's WebKit suites (test/site/webkit*.test.ts): Debian's WebKitGTK (the engine of
# Safari) with its WebDriver (WebKitWebDriver, package webkit2gtk-driver, which brings the MiniBrowser
# of libwebkit2gtk-4.1-0), and Xvfb, because WebKitGTK has no headless mode. python3 checks the
# downloaded zips. Driven from the tests by selenium-webdriver (an npm devDependency).
set -euo pipefail

APT_OPTS=(-y -q -o DPkg::Lock::Timeout=300)
need=()
command -v WebKitWebDriver >/dev/null 2>&1 || need+=(webkit2gtk-driver)
command -v Xvfb >/dev/null 2>&1 || need+=(xvfb)
command -v python3 >/dev/null 2>&1 || need+=(python3)

if [ "${#need[@]}" -gt 0 ]; then
  echo "installing: ${need[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -q -o DPkg::Lock::Timeout=300
  # With recommends: the fonts and GStreamer/GL bits the MiniBrowser expects come that way.
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install "${APT_OPTS[@]}" "${need[@]}"
fi

driver="$(command -v WebKitWebDriver)"
browser=""
for candidate in /usr/lib/*/webkit2gtk-4.1/MiniBrowser /usr/lib/*/webkitgtk-6.0/MiniBrowser; do
  if [ -x "$candidate" ]; then browser="$candidate"; break; fi
done
if [ -z "$browser" ]; then
  echo "WebKitGTK MiniBrowser not found under /usr/lib/*/webkit2gtk-4.1 or webkitgtk-6.0" >&2
  exit 1
fi
dpkg-query -W -f='${Package} ${Version}\n' webkit2gtk-driver libwebkit2gtk-4.1-0 xvfb 2>/dev/null || true

echo "WEBKIT_DRIVER_PATH=$driver" >> "$CI_ENV_FILE"
echo "WEBKIT_BROWSER_PATH=$browser" >> "$CI_ENV_FILE"
# In CI a missing WebKit is a failure, not a skip.
echo "TEST_REQUIRE_WEBKIT=1" >> "$CI_ENV_FILE"
