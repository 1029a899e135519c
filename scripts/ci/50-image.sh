#!/usr/bin/env bash
# CI step: the container image (test/ops/image.test.ts). Installs podman, buildah, runc and mmdebstrap
# from Debian when missing. The test builds the image itself (scripts/image/build.sh; its base, the
# Debian root filesystem, is cached in /var/cache/webfolder-image, so only the first run on a machine
# pays its ~3 minutes), and .ci/run runs that file while the checks and the build run, before the
# browser tests, so the build's minutes are spent neither in this step nor beside the browsers.
# In CI a missing podman fails the image test instead of skipping it; the same for systemd-analyze,
# which scores the documented systemd unit (test/ops/systemd-unit.test.ts).
set -euo pipefail
cd "$(dirname "$0")/../.."
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
need=()
for tool in podman buildah runc mmdebstrap podman-compose; do command -v "$tool" >/dev/null 2>&1 || need+=("$tool"); done
if [ "${#need[@]}" -gt 0 ]; then
  echo "installing: ${need[*]}"
  $SUDO apt-get update -q -o DPkg::Lock::Timeout=300
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q -o DPkg::Lock::Timeout=300 --no-install-recommends \
    podman buildah runc mmdebstrap podman-compose uidmap
fi
podman --version
command -v systemd-analyze >/dev/null 2>&1 || DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends systemd
echo "TEST_REQUIRE_SYSTEMD_ANALYZE=1" >> "${CI_ENV_FILE:?CI_ENV_FILE is set by .ci/run}"
echo "TEST_REQUIRE_PODMAN=1" >> "${CI_ENV_FILE:?CI_ENV_FILE is set by .ci/run}"
