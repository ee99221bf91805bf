#!/bin/sh
# Runs bench/point_ops.sh in interleaved pairs under two sets of server flags and prints
# the read and create throughput of each run and the difference of the medians.
#
#   ORRERY_COMPARE_A="--initial-partitions 1" ORRERY_COMPARE_B="--initial-partitions 16" \
#     sh bench/compare_point_ops.sh
#
# Environment: ORRERY_COMPARE_A / ORRERY_COMPARE_B (server flags), ORRERY_COMPARE_A_NAME /
# ORRERY_COMPARE_B_NAME (labels), ORRERY_COMPARE_PAIRS (default 3), and everything
# point_ops.sh reads (ORRERY_BENCH_DURATION defaults to 10s here).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
PAIRS=${ORRERY_COMPARE_PAIRS:-3}
A_NAME=${ORRERY_COMPARE_A_NAME:-a}
B_NAME=${ORRERY_COMPARE_B_NAME:-b}
OUT=$(mktemp -d /tmp/orrery-compare.XXXXXX)
trap 'rm -rf "$OUT"' EXIT
export ORRERY_BENCH_STARTUP_RUNS=${ORRERY_BENCH_STARTUP_RUNS:-1}
export ORRERY_BENCH_DURATION=${ORRERY_BENCH_DURATION:-10s}
i=1
while [ "$i" -le "$PAIRS" ]; do
  for side in a b; do
    if [ "$side" = a ]; then args=${ORRERY_COMPARE_A:-}; else args=${ORRERY_COMPARE_B:-}; fi
    echo "compare_point_ops.sh: pair $i, $side: $args" >&2
    ORRERY_BENCH_SERVER_ARGS="$args" ORRERY_BENCH_RESULTS="$OUT/$side-$i.json" \
      sh "$HERE/point_ops.sh" >"$OUT/$side-$i.log" 2>&1 ||
      { echo "compare_point_ops.sh: point_ops.sh failed ($side, pair $i):" >&2; tail -20 "$OUT/$side-$i.log" >&2; exit 1; }
  done
  i=$((i + 1))
done
node -e '
const fs = require("fs"), path = require("path");
const [dir, aName, bName] = process.argv.slice(1);
const runs = (side, op) => fs.readdirSync(dir).filter((f) => f.startsWith(side + "-") && f.endsWith(".json"))
  .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), "utf8"))[op].rps);
const median = (a) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };
for (const op of ["read", "create"]) {
  const a = runs("a", op), b = runs("b", op);
  const change = (median(b) / median(a) - 1) * 100;
  console.log(`${op.padEnd(7)} ${aName} ${a.map((x) => x.toFixed(0)).join("/")} ops/s, ` +
    `${bName} ${b.map((x) => x.toFixed(0)).join("/")} ops/s; ${bName} vs ${aName} (medians) ${change >= 0 ? "+" : ""}${change.toFixed(1)}%`);
}' "$OUT" "$A_NAME" "$B_NAME"
