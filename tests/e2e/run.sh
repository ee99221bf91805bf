#!/bin/sh
# Runs the end-to-end suite against the real server binary.
#
#   tests/e2e/run.sh                          # in-memory storage (default)
#   ORRERY_E2E_STORAGE=disk tests/e2e/run.sh  # on-disk storage (enables durability tests)
#   ORRERY_BIN=/path/to/orrery tests/e2e/run.sh
#   tests/e2e/run.sh tests/e2e/items.test.mjs # a subset
#
# Each test file has its own timeout (120-180 s) and --test-timeout bounds every
# test, so a hung server cannot stall the run; the whole suite takes well under
# 10 minutes (a few tens of seconds against a healthy server).
set -eu
cd "$(dirname "$0")/../.."

: "${ORRERY_BIN:=$PWD/build/orrery}"
export ORRERY_BIN
if [ ! -x "$ORRERY_BIN" ]; then
  echo "run.sh: server binary not found or not executable: $ORRERY_BIN (build it, or set ORRERY_BIN)" >&2
  exit 2
fi
if [ ! -d node_modules/@azure/cosmos ]; then
  echo "run.sh: node_modules missing; running npm ci" >&2
  npm ci --no-audit --no-fund --engine-strict=false >&2
fi

if [ "$#" -eq 0 ]; then
  set -- tests/e2e/
fi
# timeout(1) is a last-resort bound on the whole run.
exec timeout --kill-after=10 540 node --test --test-concurrency=2 --test-timeout=200000 "$@"
