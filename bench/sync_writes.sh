#!/bin/sh
# Creates on disk with and without `serve --sync-writes` (issue 16, deliverable 5): 1 KB
# creates from CONNS connections (bench/lua/create.lua), for each server binary given,
# each in a fresh data directory. Synced writes should share their syncs (RocksDB's
# group commit), so the synced rate should stay within about 2x of the unsynced one.
# Give the binary before a change and the one after to compare them in one run:
#
#   sh bench/sync_writes.sh /work/main/build/orrery build/orrery
#
# Environment (all optional):
#   ORRERY_BENCH_DURATION     wrk duration of each measurement (default 10s)
#   ORRERY_BENCH_CONNECTIONS  wrk connections (default 32)
#   ORRERY_BENCH_TIME_LIMIT   hard limit for the whole run in seconds (default 300)
#   TMPDIR                    where the data directories go (the disk under test)
# Loopback only. Exit status: 0 ok; 1 a step failed; 2 missing tools; 124 time limit.

set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
BENCH_NAME=sync_writes.sh
. "$HERE/lib/driver.sh"
bench_time_limit 300 "$@"

DURATION=${ORRERY_BENCH_DURATION:-10s}
CONNS=${ORRERY_BENCH_CONNECTIONS:-32}
HELPER="$HERE/lib/cosmos_bench.mjs"
LUA="$HERE/lua"
DB=benchdb
COLL=items

require_tools node wrk timeout awk
[ "$#" -ge 1 ] || set -- "$(dirname "$HERE")/build/orrery"

bench_work_dir orrery-sync-bench
# summary FILE: "req/s p50_ms p99_ms errors" of a wrk run.
summary() {
  # shellcheck disable=SC2046  # two numbers
  printf '%9.0f %8.2f %8.2f %6d' "$(wrk_rate "$1")" $(wrk_latency_ms "$1") "$(field status_errors "$1")"
}

n=0
for BIN in "$@"; do
  n=$((n + 1))
  case "$BIN" in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
  [ -x "$BIN" ] || die "no executable server at $BIN" 2
  printf '%s\n' "$BIN" >"$WORK/bin-$n.txt"
  for mode in unsynced synced; do
    rm -rf "$WORK/data"
    mkdir -p "$WORK/data"
    flags=
    [ "$mode" = synced ] && flags=--sync-writes
    # shellcheck disable=SC2086  # flags is empty or one flag
    start_orrery "$WORK/server-$n$mode.out" "$BIN" serve --port 0 --no-tls --data-dir "$WORK/data" $flags
    node "$HELPER" setup --url "$URL" --db "$DB" --coll "$COLL" --items 1 >"$WORK/setup.json" \
      || die "setup failed: $(cat "$WORK/setup.json")"
    SIGNED=$(node "$HELPER" sign-create --db "$DB" --coll "$COLL") || die "signing failed"
    DATE=$(printf '%s' "$SIGNED" | cut -f1)
    AUTH=$(printf '%s' "$SIGNED" | cut -f2)
    log "[$n] $mode creates: wrk -t2 -c$CONNS -d$DURATION ($BIN)"
    BENCH_WRK_PHASE=warmup wrk -t2 -c"$CONNS" -d2s -s "$LUA/create.lua" "$URL" \
      -- "$DB" "$COLL" "$DATE" "$AUTH" "r$n$mode" 1024 >/dev/null 2>&1
    BENCH_WRK_PHASE=measure wrk -t2 -c"$CONNS" -d"$DURATION" --latency -s "$LUA/create.lua" "$URL" \
      -- "$DB" "$COLL" "$DATE" "$AUTH" "r$n$mode" 1024 >"$WORK/$mode-$n.txt" 2>&1 \
      || die "wrk failed: $(tail -3 "$WORK/$mode-$n.txt")"
    kill -TERM "$SERVER_PID"
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=
  done
done

printf '\n1 KB creates on disk (%s), %s connections\n' "${TMPDIR:-/tmp}" "$CONNS"
printf '%-3s %-40s %9s %8s %8s %6s | %9s %8s %8s %6s | %s\n' '#' binary 'unsynced/s' 'p50 ms' 'p99 ms' \
  errors 'synced/s' 'p50 ms' 'p99 ms' errors 'synced/unsynced'
i=1
while [ "$i" -le "$n" ]; do
  printf '%-3s %-40s %s | %s | %.2f\n' "$i" "$(cat "$WORK/bin-$i.txt")" \
    "$(summary "$WORK/unsynced-$i.txt")" "$(summary "$WORK/synced-$i.txt")" \
    "$(awk -v s="$(wrk_rate "$WORK/synced-$i.txt")" -v u="$(wrk_rate "$WORK/unsynced-$i.txt")" 'BEGIN { print s / u }')"
  i=$((i + 1))
done
