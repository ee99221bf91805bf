#!/bin/sh
# Runs the JavaScript SDK suites (tests/sdk/js/*.test.mjs): the shared scenarios through
# @azure/cosmos 4.10.1 and 3.17.3, and the 3.x suite; against in-memory servers, then
# on-disk servers (ORRERY_SDK_STORAGE=memory|disk runs one of them). Prints, per
# storage, the tests passed/failed/skipped/todo and the wall time.
#
#   ORRERY_BIN=/path/to/orrery tests/sdk/js/run.sh [test files...]
set -eu
cd "$(dirname "$0")/../../.."

: "${ORRERY_BIN:=$PWD/build/orrery}"
export ORRERY_BIN
if [ ! -x "$ORRERY_BIN" ]; then
  echo "tests/sdk/js/run.sh: server binary not found or not executable: $ORRERY_BIN" >&2
  exit 2
fi
if [ ! -d node_modules/@azure/cosmos-v3 ] || [ ! -d node_modules/@azure/cosmos ]; then
  echo "tests/sdk/js/run.sh: node_modules incomplete; running npm ci" >&2
  npm ci --no-audit --no-fund --engine-strict=false >&2
fi
if [ "$#" -eq 0 ]; then
  set -- tests/sdk/js/*.test.mjs
fi
storages="${ORRERY_SDK_STORAGE:-memory disk}"
status=0
summary=""
for storage in $storages; do
  log=$(mktemp)
  start=$(date +%s)
  # timeout(1) is the last-resort bound of one storage's run; each file has its own.
  ORRERY_SDK_STORAGE=$storage timeout --kill-after=10 240 \
    node --test --test-concurrency=2 --test-timeout=200000 --test-reporter=spec "$@" >"$log" 2>&1 || status=1
  secs=$(( $(date +%s) - start ))
  cat "$log"
  count() { sed -n "s/^ℹ $1 \([0-9]*\)$/\1/p" "$log" | tail -1; }
  summary="$summary
test-sdk-js [$storage]: $(count pass) passed, $(count fail) failed, $(count skipped) skipped, $(count todo) todo (expected failures) of $(count tests) tests in ${secs}s"
  rm -f "$log"
done
echo "$summary"
exit $status
