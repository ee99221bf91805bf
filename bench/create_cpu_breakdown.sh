#!/bin/sh
# Where a create's CPU goes, by thread (issue 16, point 8): starts a fresh on-disk server,
# preloads 10,000 items (bench/lib/cosmos_bench.mjs setup), runs 1 KB creates with wrk
# (-t2 -c32, 1 s warm-up, 8 s measured; bench/lua/create.lua) into a container with the
# indexing policy given, and prints creates/s and the CPU ticks (1/100 s) each thread
# group used meanwhile: the request threads ("orrery"), RocksDB's flushes ("rocksdb:high")
# and compactions ("rocksdb:low"). Compare policies, binaries or serve flags in one run:
#
#   sh bench/create_cpu_breakdown.sh                                   # the default policy
#   POLICY='{"indexingMode":"none","automatic":false}' sh bench/create_cpu_breakdown.sh
#   ORRERY_BIN=/tmp/orrery-before ORRERY_SERVER_ARGS=--sync-writes sh bench/create_cpu_breakdown.sh
#
# Loopback only; about 20 s a run, stopped after ORRERY_BENCH_TIME_LIMIT (default 180) seconds.
# Needs wrk (make bench-deps).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
BENCH_NAME=create_cpu_breakdown.sh
. "$HERE/lib/driver.sh"
bench_time_limit 180 "$@"
BIN=${ORRERY_BIN:-$HERE/../build/orrery}
POLICY=${POLICY:-}
HELPER="$HERE/lib/cosmos_bench.mjs"
require_tools node wrk timeout awk join
bench_work_dir orrery-create-cpu
# shellcheck disable=SC2086  # ORRERY_SERVER_ARGS is a list of flags
start_orrery "$WORK/server.out" "$BIN" serve --port 0 --no-tls --data-dir "$WORK/data" ${ORRERY_SERVER_ARGS:-}
SERVER=$SERVER_PID
timeout 90 node "$HELPER" setup --url "$URL" --db benchdb --coll items --items 10000 --size 1024 --concurrency 64 >/dev/null
COLL=items
if [ -n "$POLICY" ]; then
  COLL=policy
  timeout 30 node "$HELPER" create-container --url "$URL" --db benchdb --coll "$COLL" --policy "$POLICY" >/dev/null
fi
SIGNED=$(node "$HELPER" sign-create --db benchdb --coll "$COLL")
DATE=$(printf '%s' "$SIGNED" | cut -f1)
AUTH=$(printf '%s' "$SIGNED" | cut -f2)
BENCH_WRK_PHASE=warmup wrk -t2 -c32 -d1s -s "$HERE/lua/create.lua" "$URL" -- benchdb "$COLL" "$DATE" "$AUTH" r 1024 >/dev/null
ticks() {  # per thread name: utime + stime
  for t in /proc/"$SERVER"/task/*; do
    awk '{ name = $0; sub(/^[^(]*\(/, "", name); sub(/\).*/, "", name); rest = $0; sub(/^.*\) /, "", rest);
           split(rest, f, " "); print name, f[12] + f[13] }' "$t/stat"
  done | awk '{ sum[$1] += $2 } END { for (k in sum) print k, sum[k] }' | sort
}
ticks >"$WORK/before"
BENCH_WRK_PHASE=measured wrk -t2 -c32 -d8s -s "$HERE/lua/create.lua" "$URL" -- benchdb "$COLL" "$DATE" "$AUTH" r 1024 |
  awk '/^BENCH_RESULT/ { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
        printf "creates/s %.0f  ", v["requests"] / (v["duration_us"] / 1e6) }'
ticks >"$WORK/after"
join "$WORK/before" "$WORK/after" | awk '{ printf "%s=%d ", $1, $3 - $2 } END { print "" }'
