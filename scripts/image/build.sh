#!/usr/bin/env bash
# `npm run image`: builds the container image localhost/webfolder:<version> (and :latest) from the
# Containerfile, with podman (CONTAINER_ENGINE=docker works too where a docker with BuildKit is what
# the machine has). The base comes from scripts/image/base.sh (made once, then reused). Rebuilding
# with nothing changed reuses every layer (the engine's layer cache), so a second build in the same
# CI run costs seconds. Prints the image's tag on the last line.
set -euo pipefail
cd "$(dirname "$0")/../.."
ENGINE="${CONTAINER_ENGINE:-podman}"
BASE="$(bash scripts/image/base.sh | tail -n 1)"
VERSION="$(node -p "require('./package.json').version")"
TAG="localhost/webfolder:$VERSION"
COMMIT="$(git rev-parse HEAD 2>/dev/null || echo unknown)"
args=(--format docker --build-arg "BASE=$BASE" --build-arg "WEBFOLDER_COMMIT=$COMMIT" --tag "$TAG" --tag localhost/webfolder:latest --file Containerfile)
# RUN steps under chroot isolation: on hosts with hybrid cgroups (as these VMs) the default fails.
[ "$ENGINE" = podman ] && args+=(--isolation=chroot)
# The registry may sit behind a TLS-intercepting proxy: give npm in the build the CA bundle npm uses
# here (its cafile, else the system's), as a build secret (never a layer of the image).
ca="${NPM_CA_FILE:-$(npm config get cafile 2>/dev/null || true)}"
{ [ -n "$ca" ] && [ "$ca" != null ] && [ "$ca" != undefined ]; } || ca=/etc/ssl/certs/ca-certificates.crt
[ -s "$ca" ] && args+=(--secret "id=npm_ca,src=$ca")
start=$(date +%s)
"$ENGINE" build "${args[@]}" . >&2
echo "image: built $TAG in $(($(date +%s) - start)) s" >&2
echo "$TAG"
