#!/usr/bin/env bash
# Fonts for the browsers' screenshots (artifacts/screenshots/): without them Chinese, Japanese and
# Korean text and emoji render as empty boxes in headless Chromium, Firefox and WebKit. The tests do
# not depend on them; the screenshots people read do.
set -euo pipefail
need=()
for pkg in fonts-noto-cjk fonts-noto-color-emoji fonts-nanum; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || need+=("$pkg")
done
if [ "${#need[@]}" -gt 0 ]; then
  echo "installing: ${need[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -q -o DPkg::Lock::Timeout=300
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q -o DPkg::Lock::Timeout=300 --no-install-recommends "${need[@]}"
fi
