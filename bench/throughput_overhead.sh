#!/bin/sh
# Overhead of charging and enforcing throughput on point reads and creates (issue 4:
# < 5% on point-read throughput). Runs bench/point_ops.sh in interleaved pairs — plain,
# then with --enforce-throughput — against the same container (200,000 RU/s over 20
# physical partitions: 10,000 each, far above what the load uses, so nothing is
# throttled and the difference is the bookkeeping), and prints the median of each.
#
#   sh bench/throughput_overhead.sh          # or: make bench-throughput
#   ORRERY_OVERHEAD_PAIRS=3 ORRERY_BENCH_DURATION=10s sh bench/throughput_overhead.sh
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
PAIRS=${ORRERY_OVERHEAD_PAIRS:-3}
OUT=$(mktemp -d /tmp/orrery-overhead.XXXXXX)
trap 'rm -rf "$OUT"' EXIT
export ORRERY_BENCH_THROUGHPUT=200000 ORRERY_BENCH_STARTUP_RUNS=${ORRERY_BENCH_STARTUP_RUNS:-1}
export ORRERY_BENCH_DURATION=${ORRERY_BENCH_DURATION:-10s}
i=1
while [ "$i" -le "$PAIRS" ]; do
  for mode in plain enforced; do
    args="--initial-partitions 20"
    [ "$mode" = enforced ] && args="$args --enforce-throughput"
    echo "throughput_overhead.sh: pair $i, $mode" >&2
    ORRERY_BENCH_SERVER_ARGS="$args" ORRERY_BENCH_RESULTS="$OUT/$mode-$i.json" \
      sh "$HERE/point_ops.sh" >"$OUT/$mode-$i.log" 2>&1 ||
      { echo "throughput_overhead.sh: point_ops.sh failed ($mode, pair $i):" >&2; tail -20 "$OUT/$mode-$i.log" >&2; exit 1; }
  done
  i=$((i + 1))
done
node -e '
const fs = require("fs"), path = require("path");
const dir = process.argv[1];
const runs = (mode, op) => fs.readdirSync(dir).filter((f) => f.startsWith(mode + "-") && f.endsWith(".json"))
  .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), "utf8"))[op].rps);
const median = (a) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };
for (const op of ["read", "create"]) {
  const plain = runs("plain", op), enforced = runs("enforced", op);
  const overhead = (1 - median(enforced) / median(plain)) * 100;
  console.log(`${op.padEnd(7)} plain ${plain.map((x) => x.toFixed(0)).join("/")} ops/s, ` +
    `enforced ${enforced.map((x) => x.toFixed(0)).join("/")} ops/s; overhead of the medians ${overhead.toFixed(1)}%`);
}' "$OUT"
