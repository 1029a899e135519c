#!/usr/bin/env bash
# CI step: build tools' telemetry and update checks off for the test runs (Scarf, Redocly, npm's
# update notifier; DO_NOT_TRACK for the tools that follow that convention). The install itself
# (`npm ci` in .ci/run) is covered by package.json: scarfSettings.enabled=false, and allowScripts,
# which denies @scarf/scarf's and core-js's install scripts.
set -euo pipefail
{
  echo "SCARF_ANALYTICS=false"
  echo "DO_NOT_TRACK=1"
  echo "REDOCLY_TELEMETRY=off"
  echo "REDOCLY_SUPPRESS_UPDATE_NOTICE=true"
  echo "NPM_CONFIG_UPDATE_NOTIFIER=false"
} >> "${CI_ENV_FILE:?CI_ENV_FILE is set by .ci/run}"
