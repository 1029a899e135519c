#!/usr/bin/env bash
# CI step: Debian's nginx, Caddy and openssl for the reverse-proxy tests (test/ops/nginx.test.ts,
# test/ops/caddy.test.ts), which run their own proxy on a loopback port with a certificate they make
# themselves. Only the binaries are needed: the packages' own services must not start (they would
# take ports 80 and 443).
set -euo pipefail

need=()
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need+=(nginx)
command -v caddy >/dev/null 2>&1 || need+=(caddy)
command -v openssl >/dev/null 2>&1 || need+=(openssl)

if [ "${#need[@]}" -gt 0 ]; then
  echo "installing: ${need[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  # Keep the package from starting its service during installation (policy-rc.d exit 101 = deny),
  # unless the machine already has a policy of its own.
  policy=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    policy=/usr/sbin/policy-rc.d
    printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$policy" >/dev/null
    $SUDO chmod +x "$policy"
  fi
  $SUDO apt-get update -q -o DPkg::Lock::Timeout=300
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q -o DPkg::Lock::Timeout=300 --no-install-recommends "${need[@]}"
  [ -z "$policy" ] || $SUDO rm -f "$policy"
fi

{ command -v nginx || echo /usr/sbin/nginx; } | head -1
/usr/sbin/nginx -v 2>&1 || nginx -v
caddy version
openssl version

# In CI the proxy tests must run, not skip.
echo "TEST_REQUIRE_NGINX=1" >> "$CI_ENV_FILE"
echo "TEST_REQUIRE_CADDY=1" >> "$CI_ENV_FILE"
