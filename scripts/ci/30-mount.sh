#!/usr/bin/env bash
# CI step: the disk-full tests (test/blobs/disk-full.test.ts) mount a small tmpfs of their own to fill
# it. That needs root (CI runs as root); elsewhere they skip with a message. In CI they must run, so a
# machine that cannot mount fails them instead of skipping.
set -euo pipefail
echo "TEST_REQUIRE_MOUNT=1" >> "$CI_ENV_FILE"
