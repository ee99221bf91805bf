#!/bin/sh
# Point reads while other clients scan (issue 16, deliverable 5): p50/p99 of 1 KB point
# reads alone, then while SCAN_CONNS clients each run full-container scans back to back
# (bench/lua/scan.lua), for each server binary given. Give the binary before a change and
# the one after, to compare them in one run on a shared machine (ratios, not absolutes):
#
#   sh bench/point_reads_under_scans.sh /work/main/build/orrery build/orrery
#
# Environment (all optional):
#   ORRERY_BENCH_STORAGE      memory (default, --in-memory) | disk (a fresh temp dir)
#   ORRERY_BENCH_ITEMS        items in the container (default 50000, 1 KB each)
#   ORRERY_BENCH_DURATION     wrk duration of each read measurement (default 10s)
#   ORRERY_BENCH_READ_CONNS   read connections (default 8)
#   ORRERY_BENCH_SCAN_CONNS   scanning connections (default 8)
#   ORRERY_BENCH_SERVER_ARGS  extra `orrery serve` flags
#   ORRERY_BENCH_TIME_LIMIT   hard limit for the whole run in seconds (default 300)
# Loopback only. Exit status: 0 ok; 1 a step failed; 2 missing tools; 124 time limit.

set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
BENCH_NAME=point_reads_under_scans.sh
. "$HERE/lib/driver.sh"
bench_time_limit 300 "$@"

STORAGE=${ORRERY_BENCH_STORAGE:-memory}
ITEMS=${ORRERY_BENCH_ITEMS:-50000}
DURATION=${ORRERY_BENCH_DURATION:-10s}
READ_CONNS=${ORRERY_BENCH_READ_CONNS:-8}
SCAN_CONNS=${ORRERY_BENCH_SCAN_CONNS:-8}
SERVER_ARGS=${ORRERY_BENCH_SERVER_ARGS:-}
HELPER="$HERE/lib/cosmos_bench.mjs"
LUA="$HERE/lua"
DB=benchdb
COLL=items

require_tools node wrk timeout awk
[ "$#" -ge 1 ] || set -- "$(dirname "$HERE")/build/orrery"

bench_work_dir orrery-scan-bench
# summary FILE: "req/s p50_ms p99_ms" of a wrk run.
summary() {
  # shellcheck disable=SC2046  # two numbers
  printf '%8.0f %8.2f %8.2f' "$(wrk_rate "$1")" $(wrk_latency_ms "$1")
}
errors() { awk -v s="$(field status_errors "$1")" -v t="$(field timeouts "$1")" 'BEGIN { print s + t }'; }

start_server() {  # start_server BIN: sets SERVER_PID and URL
  if [ "$STORAGE" = memory ]; then
    set -- "$1" --in-memory
  else
    rm -rf "$WORK/data"
    mkdir -p "$WORK/data"
    set -- "$1" --data-dir "$WORK/data"
  fi
  bin=$1
  shift
  # shellcheck disable=SC2086  # SERVER_ARGS is a list of flags
  start_orrery "$WORK/server-$n$mode.out" "$bin" serve --port 0 --no-tls "$@" $SERVER_ARGS
}

n=0
mode=
for BIN in "$@"; do
  n=$((n + 1))
  case "$BIN" in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
  [ -x "$BIN" ] || die "no executable server at $BIN" 2
  start_server "$BIN"
  log "[$n] $BIN ($STORAGE) at $URL: loading $ITEMS items"
  node "$HELPER" setup --url "$URL" --db "$DB" --coll "$COLL" --items "$ITEMS" --size 1024 \
    --concurrency 32 >"$WORK/setup.json" || die "setup failed: $(cat "$WORK/setup.json")"
  node "$HELPER" gen-reads --db "$DB" --coll "$COLL" --items "$ITEMS" --out "$WORK/reads.lua" \
    >/dev/null || die "generating the reads failed"
  SIGNED=$(node "$HELPER" sign-create --db "$DB" --coll "$COLL") || die "signing failed"
  DATE=$(printf '%s' "$SIGNED" | cut -f1)
  AUTH=$(printf '%s' "$SIGNED" | cut -f2)

  log "[$n] reads alone: wrk -t1 -c$READ_CONNS -d$DURATION"
  wrk -t1 -c"$READ_CONNS" -d2s -s "$LUA/read.lua" "$URL" -- "$WORK/reads.lua" >/dev/null 2>&1
  wrk -t1 -c"$READ_CONNS" -d"$DURATION" --latency -s "$LUA/read.lua" "$URL" -- "$WORK/reads.lua" \
    >"$WORK/alone-$n.txt" 2>&1 || die "wrk reads failed"

  secs=${DURATION%s}
  log "[$n] reads while $SCAN_CONNS clients scan: wrk -t1 -c$SCAN_CONNS -d$((secs + 6))s scan.lua"
  # --timeout: a scan may take seconds; wrk's default of 2 s would count it as an error.
  wrk -t1 -c"$SCAN_CONNS" -d"$((secs + 6))s" --timeout 60s -s "$LUA/scan.lua" "$URL" \
    -- "$DB" "$COLL" "$DATE" "$AUTH" >"$WORK/scans-$n.txt" 2>&1 &
  BENCH_PIDS=$!
  sleep 3
  wrk -t1 -c"$READ_CONNS" -d"$DURATION" --latency --timeout 60s -s "$LUA/read.lua" "$URL" \
    -- "$WORK/reads.lua" >"$WORK/loaded-$n.txt" 2>&1 || die "wrk reads under scans failed"
  wait "$BENCH_PIDS" || die "wrk scans failed: $(tail -3 "$WORK/scans-$n.txt")"
  BENCH_PIDS=
  kill -TERM "$SERVER_PID"
  wait "$SERVER_PID" 2>/dev/null || true
  SERVER_PID=
  printf '%s\n' "$BIN" >"$WORK/bin-$n.txt"
done

printf '\nPoint reads (1 KB, %s connections) alone and while %s connections scan %s items (%s)\n' \
  "$READ_CONNS" "$SCAN_CONNS" "$ITEMS" "$STORAGE"
printf '%-3s %-44s %8s %8s %8s | %8s %8s %8s | %7s %6s\n' '#' binary 'reads/s' 'p50 ms' 'p99 ms' \
  'reads/s' 'p50 ms' 'p99 ms' 'scans/s' errors
i=1
while [ "$i" -le "$n" ]; do
  scans=$(printf '%.1f' "$(wrk_rate "$WORK/scans-$i.txt")")
  errs=$(( $(errors "$WORK/alone-$i.txt") + $(errors "$WORK/loaded-$i.txt") + $(errors "$WORK/scans-$i.txt") ))
  printf '%-3s %-44s %s | %s | %7s %6s\n' "$i" "$(cat "$WORK/bin-$i.txt")" \
    "$(summary "$WORK/alone-$i.txt")" "$(summary "$WORK/loaded-$i.txt")" "$scans" "$errs"
  i=$((i + 1))
done
