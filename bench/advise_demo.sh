#!/bin/sh
# Wall time and peak RSS of `orrery advise --demo telemetry` (issue 19's Measure: 1,000,000
# generated items, 3 candidates, target under 60 s on the 2-core machine), with the time
# each phase took (from the progress lines, on a terminal given by script(1)) and the
# ranking it reached. ITEMS changes the count, DEMO the demo, ORRERY_BIN the binary.
#
#   sh bench/advise_demo.sh                 # 1,000,000 items
#   ITEMS=200000 sh bench/advise_demo.sh
#
# Bounded by the run itself (about two minutes for 1,000,000 items); no server, no network.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
BIN=${ORRERY_BIN:-$HERE/../build/orrery}
ITEMS=${ITEMS:-1000000}
DEMO=${DEMO:-telemetry}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/orrery-advise-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
/usr/bin/time -f "%e %M" -o "$WORK/time" "$BIN" advise --demo "$DEMO" --items "$ITEMS" --json >"$WORK/out.json"
read -r WALL RSS_KB <"$WORK/time"
echo "orrery advise --demo $DEMO --items $ITEMS: ${WALL} s wall, peak RSS $((RSS_KB / 1024)) MB"
node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
for (const s of r.studies || [r]) {
  console.log(`${s.study}: ${s.items} items, scale ${s.scale}, ${s.requestsPerSecond} requests/s`);
  for (const c of s.ranking) {
    console.log(`  ${c.rank}. ${c.label}  score ${c.score}  ${c.physicalPartitions.length} partitions  ${c.meanRequestUnits} RU/request  ${(100 * c.throttledFraction).toFixed(1)}% throttled`);
    console.log(`     ${c.reasons[0]}`);
  }
}' "$WORK/out.json"
