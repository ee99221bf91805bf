#!/bin/sh
# Sustained writes and what they leave behind (issue 16, deliverable 8): on disk, preload
# 10,000 items of 1 KB, run creates (or upserts) from 32 connections for
# ORRERY_BENCH_WRITE_SECONDS, then 8 s of point reads of the preloaded items (32
# connections) and 8 s of an indexed query (8 connections). The 8 s windows of
# bench/point_vs_nginx.sh end before compactions catch up with the writes; here the
# compactions a write causes are paid inside the run, and the reads and queries after it
# meet the files it left. Each argument is a server binary, optionally followed by
# environment variables for that server only (for throwaway builds with knobs):
#
#   sh bench/sustained_writes.sh /tmp/orrery-before build/orrery
#   sh bench/sustained_writes.sh /tmp/orrery-knobs:X_KNOB=1 /tmp/orrery-knobs
#
# Environment (all optional):
#   ORRERY_BENCH_WRITE_OP        create (default; a new item and partition key each) | upsert
#   ORRERY_BENCH_WRITE_SECONDS   seconds of writes (default 40)
#   ORRERY_BENCH_ROUNDS          rounds, the arguments alternating within each (default 1)
#   ORRERY_BENCH_QUERY           the indexed query (default SELECT * FROM c WHERE c.n = 5)
#   ORRERY_BENCH_SERVER_ARGS     extra `orrery serve` flags
#   ORRERY_BENCH_TIME_LIMIT      hard limit for the whole run in seconds (default 900)
# us/op is the server's CPU (user + system, all threads, compactions included) per request.
# Loopback only. Exit status: 0 ok; 1 a step failed; 2 missing tools; 124 time limit.

set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
BENCH_NAME=sustained_writes.sh
. "$HERE/lib/driver.sh"
bench_time_limit 900 "$@"

OP=${ORRERY_BENCH_WRITE_OP:-create}
SECONDS_OF_WRITES=${ORRERY_BENCH_WRITE_SECONDS:-40}
ROUNDS=${ORRERY_BENCH_ROUNDS:-1}
QUERY=${ORRERY_BENCH_QUERY:-SELECT * FROM c WHERE c.n = 5}
SERVER_ARGS=${ORRERY_BENCH_SERVER_ARGS:-}
HELPER="$HERE/lib/cosmos_bench.mjs"
LUA="$HERE/lua"
DB=benchdb
COLL=items
ITEMS=10000

require_tools node wrk timeout awk du
case $OP in create | upsert) ;; *) die "ORRERY_BENCH_WRITE_OP must be create or upsert" 2 ;; esac
[ "$#" -ge 1 ] || set -- "$(dirname "$HERE")/build/orrery"

bench_work_dir orrery-sustained
ticks_per_second=$(getconf CLK_TCK)

start_server() {  # start_server BIN ENV: sets SERVER_PID and URL
  rm -rf "$WORK/data" "$WORK/server.out"
  mkdir -p "$WORK/data"
  # shellcheck disable=SC2086  # ENV is a list of VAR=VALUE words, SERVER_ARGS of flags
  start_orrery "$WORK/server.out" env $(printf '%s' "$2" | tr ',' ' ') "$1" serve --port 0 --no-tls \
    --data-dir "$WORK/data" $SERVER_ARGS
}

stop_server() {
  kill -TERM "$SERVER_PID" 2>/dev/null || true
  wait "$SERVER_PID" 2>/dev/null || true
  SERVER_PID=
}

# measure NAME SECONDS CONNECTIONS SCRIPT ARGS...: one wrk run; prints "ops/s us/op p99_ms".
measure() {
  name=$1 secs=$2 conns=$3
  shift 3
  before=$(cpu_ticks "$SERVER_PID")
  BENCH_WRK_PHASE=$name wrk -t2 -c"$conns" -d"${secs}s" --timeout 30s -s "$@" >"$WORK/$name.txt"
  after=$(cpu_ticks "$SERVER_PID")
  n=$(field requests "$WORK/$name.txt")
  errors=$(($(field status_errors "$WORK/$name.txt") + $(field timeouts "$WORK/$name.txt")))
  [ "$errors" -eq 0 ] || die "$name: $errors failed requests"
  [ "${n:-0}" -gt 0 ] || die "$name: no requests completed"
  awk -v n="$n" -v us="$(field duration_us "$WORK/$name.txt")" -v t=$((after - before)) \
      -v hz="$ticks_per_second" -v p99="$(field p99_us "$WORK/$name.txt")" \
      'BEGIN { printf "%9.0f %7.1f %7.2f", n / (us / 1e6), t / hz * 1e6 / n, p99 / 1000 }'
}

run_one() {  # run_one BIN ENV: one line of the table
  start_server "$1" "$2"
  node "$HELPER" setup --url "$URL" --db "$DB" --coll "$COLL" --items "$ITEMS" --size 1024 \
    --concurrency 64 >"$WORK/setup.json"
  node "$HELPER" gen-reads --db "$DB" --coll "$COLL" --items "$ITEMS" --out "$WORK/reads.lua" \
    >/dev/null
  signed=$(node "$HELPER" sign-create --db "$DB" --coll "$COLL")
  date=$(printf '%s' "$signed" | cut -f1)
  auth=$(printf '%s' "$signed" | cut -f2)
  if [ "$OP" = create ]; then
    writes=$(measure writes "$SECONDS_OF_WRITES" 32 "$LUA/create.lua" "$URL" -- "$DB" "$COLL" \
      "$date" "$auth" "s$$" 1024)
  else
    writes=$(measure writes "$SECONDS_OF_WRITES" 32 "$LUA/upsert.lua" "$URL" -- "$DB" "$COLL" \
      "$date" "$auth" "$ITEMS" 1024)
  fi
  megabytes=$(du -sm "$WORK/data" | cut -f1)
  reads=$(measure reads 8 32 "$LUA/read.lua" "$URL" -- "$WORK/reads.lua")
  queries=$(measure queries 8 8 "$LUA/scan.lua" "$URL" -- "$DB" "$COLL" "$date" "$auth" "$QUERY")
  stop_server
  label=$(basename "$1")
  [ -z "$2" ] || label="$label:$2"
  printf '%-28s %s %6s | %s | %s\n' "$label" "$writes" "$megabytes" "$reads" "$queries"
}

log "$OP for $SECONDS_OF_WRITES s, then reads and '$QUERY'; $ROUNDS round(s) of $# server(s)"
printf '%-28s %9s %7s %7s %6s | %9s %7s %7s | %9s %7s %7s\n' server "$OP/s" us/op p99_ms MB \
  reads/s us/op p99_ms queries/s us/op p99_ms
round=1
while [ "$round" -le "$ROUNDS" ]; do
  for spec in "$@"; do
    bin=${spec%%:*}
    env_list=
    [ "$bin" = "$spec" ] || env_list=${spec#*:}
    [ -x "$bin" ] || die "not an executable: $bin" 2
    run_one "$bin" "$env_list"
  done
  round=$((round + 1))
done
