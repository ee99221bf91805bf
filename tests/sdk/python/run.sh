#!/bin/sh
# Runs the Python SDK suite against fresh orrery servers (ORRERY_BIN), in memory then on
# disk (or only ORRERY_SDK_STORAGE if set); extra arguments go to pytest.
set -u
cd "$(dirname "$0")"
: "${ORRERY_BIN:?ORRERY_BIN must name the orrery binary}"
modes=${ORRERY_SDK_STORAGE:-memory disk}
status=0
summary=""
for mode in $modes; do
  echo "=== azure-cosmos (Python) suite, storage: $mode ==="
  start=$(date +%s)
  ORRERY_SDK_STORAGE=$mode ORRERY_BIN=$ORRERY_BIN timeout -k 10 300 .venv/bin/python -m pytest -q "$@" > ".last-run-$mode.log" 2>&1
  rc=$?
  cat ".last-run-$mode.log"
  wall=$(( $(date +%s) - start ))
  scen=$(grep "^shared scenarios" ".last-run-$mode.log" | tail -1)
  line=$(grep -E ' in [0-9.]+s( \([0-9:]+\))? *=*$' ".last-run-$mode.log" | tail -1 | tr -d '=')
  summary="$summary
python sdk [$mode]: $line (exit $rc, wall ${wall}s)
  $scen"
  [ $rc -eq 0 ] || status=1
done
echo "$summary"
exit $status
