#!/usr/bin/env bash
# CI step: the servers behind the scale-out suites (test/store, test/blobs, test/scale).
# The tests start their own throwaway instances on loopback (test/support/services.ts); this step only
# makes sure the binaries exist, and tells the test run to fail rather than skip when one is missing.
#   - Redis: redis-server from Debian.
#   - PostgreSQL: initdb/pg_ctl of Debian's postgresql-15 (run as user `postgres` when CI is root).
#   - S3: Ceph's RADOS Gateway (ceph-mon, ceph-osd, radosgw from Debian): the tests start a throwaway
#     single-node cluster per test process (test/support/ceph.ts).
set -euo pipefail

APT_OPTS=(-y -q -o DPkg::Lock::Timeout=300)
need=()
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
have_pg=""
if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then have_pg=1; fi
for dir in /usr/lib/postgresql/*/bin; do
  if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then have_pg=1; fi
done
[ -n "$have_pg" ] || need+=(postgresql-15)
for bin in ceph-mon ceph-osd radosgw radosgw-admin; do
  if ! command -v "$bin" >/dev/null 2>&1; then
    need+=(ceph-mon ceph-osd radosgw)
    break
  fi
done

if [ "${#need[@]}" -gt 0 ]; then
  echo "installing: ${need[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -q -o DPkg::Lock::Timeout=300
  # The packages' own services are not wanted: the tests run their own instances. Without the
  # recommended packages Ceph's three come to ~270 MB.
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install "${APT_OPTS[@]}" --no-install-recommends "${need[@]}"
fi

if [ "$(id -u)" -eq 0 ] && ! id -u postgres >/dev/null 2>&1; then
  # initdb refuses to run as root; the tests run the throwaway cluster as this user.
  useradd --system --home-dir /var/lib/postgresql --shell /bin/bash postgres
fi

redis-server --version
radosgw --version
ls -d /usr/lib/postgresql/*/bin 2>/dev/null || command -v initdb

# In CI a missing service is a failure, not a skip.
echo "TEST_REQUIRE_SERVICES=1" >> "$CI_ENV_FILE"
