#!/bin/sh
# Orrery point-operation benchmark: start-up time, idle RSS, 1 KB point reads and creates
# under wrk, and nginx serving a 1 KB static file as the yardstick. 127.0.0.1 only; the
# whole run is bounded (ORRERY_BENCH_TIME_LIMIT seconds, default 175). See bench/README.md.
#
#   sh bench/point_ops.sh                       # or: make bench
#   ORRERY_BIN=build-bench/orrery sh bench/point_ops.sh
#
# Environment (all optional):
#   ORRERY_BIN                 server binary (default: <repo>/build/orrery); never built here
#   ORRERY_BENCH_STORAGE       disk (default: --data-dir in a fresh temp dir) | memory (--in-memory)
#   ORRERY_BENCH_SERVER_ARGS   extra `orrery serve` flags, e.g. "--sync-writes"
#   ORRERY_BENCH_DURATION      wrk duration per benchmark (default 15s)
#   ORRERY_BENCH_WARMUP        un-measured wrk warm-up before each benchmark (default 2s; 0 = none)
#   ORRERY_BENCH_THREADS / ORRERY_BENCH_CONNECTIONS   wrk -t / -c (default 2 / 64)
#   ORRERY_BENCH_THROUGHPUT    the container's RU/s (default: the service's 400)
#   ORRERY_BENCH_ITEMS         items preloaded for the read benchmark (default 10000)
#   ORRERY_BENCH_STARTUP_RUNS  start-up repetitions per mode (default 5)
#   ORRERY_BENCH_TIME_LIMIT    hard limit for the whole run in seconds (default 175)
#   ORRERY_BENCH_STRICT=1      exit 3 when a number misses its target (default: report only)
#   ORRERY_BENCH_KEEP=1        keep the work directory (wrk outputs, results.json, server logs)
#   ORRERY_BENCH_RESULTS=FILE  also copy results.json to FILE
#
# Exit status: 0 ok; 1 a benchmark failed (non-2xx responses, socket errors, a step failed);
# 2 missing tools or binary; 3 a target missed under ORRERY_BENCH_STRICT=1; 124 time limit.

set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")

BENCH_NAME=point_ops.sh
. "$HERE/lib/driver.sh"
. "$HERE/lib/nginx.sh"
bench_time_limit 175 "$@"

ORRERY_BIN=${ORRERY_BIN:-$ROOT/build/orrery}
STORAGE=${ORRERY_BENCH_STORAGE:-disk}
SERVER_ARGS=${ORRERY_BENCH_SERVER_ARGS:-}
DURATION=${ORRERY_BENCH_DURATION:-15s}
WARMUP=${ORRERY_BENCH_WARMUP:-2s}
THREADS=${ORRERY_BENCH_THREADS:-2}
CONNS=${ORRERY_BENCH_CONNECTIONS:-64}
ITEMS=${ORRERY_BENCH_ITEMS:-10000}
STARTUP_RUNS=${ORRERY_BENCH_STARTUP_RUNS:-5}
ITEM_SIZE=1024
DB=benchdb
COLL=items
HELPER="$HERE/lib/cosmos_bench.mjs"
LUA="$HERE/lua"

# ---- preconditions -----------------------------------------------------------------------
require_tools node wrk nginx curl timeout awk
case "$ORRERY_BIN" in /*) ;; *) ORRERY_BIN=$(pwd)/$ORRERY_BIN ;; esac
[ -x "$ORRERY_BIN" ] || die "no executable server at ORRERY_BIN=$ORRERY_BIN (build it first: cmake --build build --target orrery)" 2
case "$STORAGE" in
  disk|memory) ;;
  *) die "ORRERY_BENCH_STORAGE must be 'disk' or 'memory', not '$STORAGE'" 2 ;;
esac

bench_work_dir orrery-bench

# child_cpu_s: sets CHILD_CPU_S to the user+system CPU seconds of this shell's finished
# children so far (wrk). Not usable in $(...): `times` reports the calling shell's children.
child_cpu_s() {
  times >"$WORK/times.txt"
  CHILD_CPU_S=$(awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, p, "m"); sub(/s$/, "", p[2]); t += p[1] * 60 + p[2] } print t }' "$WORK/times.txt")
}

rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }
hwm_kb() { awk '/^VmHWM:/ {print $2}' "/proc/$1/status"; }

# run_wrk NAME URL SCRIPT PID [-- ARGS...]: optional warm-up, then the measured run into
# wrk-NAME.txt, and the CPU time PID (the server) and wrk used during it into cpu-NAME.json.
run_wrk() {
  name=$1 url=$2 script=$3 pid=$4
  shift 4
  wrk_warmup "$WORK/wrk-$name-warmup.txt" "$script" "$url" "$@"
  log "wrk $name: -t$THREADS -c$CONNS -d$DURATION --latency $url"
  server_before=$(cpu_ticks "$pid")
  child_cpu_s
  client_before=$CHILD_CPU_S
  BENCH_WRK_PHASE=measure timeout --foreground 90 wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" --latency -s "$script" "$url" "$@" \
    >"$WORK/wrk-$name.txt" 2>&1 || die "wrk $name failed: $(tail -5 "$WORK/wrk-$name.txt")"
  server_after=$(cpu_ticks "$pid")
  child_cpu_s
  client_after=$CHILD_CPU_S
  printf '{"server_cpu_s": %s, "wrk_cpu_s": %s}\n' \
    "$(awk -v a="$server_before" -v b="$server_after" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", (b - a) / hz }')" \
    "$(awk -v a="$client_before" -v b="$client_after" 'BEGIN { printf "%.2f", b - a }')" >"$WORK/cpu-$name.json"
  if grep -q 'Non-2xx or 3xx responses' "$WORK/wrk-$name.txt"; then
    log "!!! wrk $name: $(grep 'Non-2xx or 3xx responses' "$WORK/wrk-$name.txt" | sed 's/^ *//')"
  fi
}

log "binary $ORRERY_BIN; storage $STORAGE; work dir $WORK"
cut -d" " -f1-3 /proc/loadavg >"$WORK/loadavg-start.txt"
log "load average at start: $(cat "$WORK/loadavg-start.txt") (other busy processes skew every number below)"

# ---- 1. start-up time and fresh idle RSS, both storage modes -------------------------------
for mode in memory disk; do
  log "start-up: $STARTUP_RUNS x spawn -> first answered GET / ($mode)"
  TMPDIR="$WORK" timeout --foreground 60 node "$HELPER" startup --bin "$ORRERY_BIN" --mode "$mode" \
    --runs "$STARTUP_RUNS" --rss-after-ms 1000 >"$WORK/startup-$mode.json" \
    || die "start-up measurement ($mode) failed"
done

# ---- 2. the server under test -------------------------------------------------------------
if [ "$STORAGE" = memory ]; then
  set -- --in-memory
else
  mkdir -p "$WORK/data"
  set -- --data-dir "$WORK/data"
fi
# shellcheck disable=SC2086  # SERVER_ARGS is a list of flags
start_orrery "$WORK/server.out" "$ORRERY_BIN" serve --port 0 --no-tls "$@" $SERVER_ARGS
log "server pid $SERVER_PID at $URL"
sleep 1
rss_kb "$SERVER_PID" >"$WORK/rss-idle.kb"

# ---- 3. database, container (/pk, hash v2) and preload ------------------------------------
log "preload: $ITEMS items of $ITEM_SIZE B"
timeout --foreground 90 node "$HELPER" setup --url "$URL" --db "$DB" --coll "$COLL" --items "$ITEMS" \
  --size "$ITEM_SIZE" --concurrency 64 ${ORRERY_BENCH_THROUGHPUT:+--throughput "$ORRERY_BENCH_THROUGHPUT"} >"$WORK/setup.json" || die "setup/preload failed: $(cat "$WORK/setup.json")"

# ---- 4. reads: one signed request per preloaded id, generated into a Lua table -------------
node "$HELPER" gen-reads --db "$DB" --coll "$COLL" --items "$ITEMS" --out "$WORK/reads_data.lua" \
  >/dev/null || die "generating the read requests failed"
run_wrk read "$URL" "$LUA/read.lua" "$SERVER_PID" -- "$WORK/reads_data.lua"

# ---- 5. nginx baseline: 1 KB static file, same wrk settings -------------------------------
# Run right after the reads (the Orrery server idles meanwhile), so that the read/nginx ratio
# compares two runs taken as close together in time as possible on a shared machine.
nginx_prepare "$WORK/nginx"
nginx_conf "$NGX/nginx.conf" "$NGINX_TUNED"
nginx_start "$NGX/nginx.conf"
run_wrk nginx "http://127.0.0.1:$NGX_PORT/1k.txt" "$LUA/static.lua" "$NGINX_PID"
stop_pid "$NGINX_PID"
NGINX_PID=

# ---- 6. creates: unique ids, one shared signature -----------------------------------------
SIGNED=$(node "$HELPER" sign-create --db "$DB" --coll "$COLL") || die "signing failed"
DATE=$(printf '%s' "$SIGNED" | cut -f1)
AUTH=$(printf '%s' "$SIGNED" | cut -f2)
RUNID="w$(date +%s)"
run_wrk create "$URL" "$LUA/create.lua" "$SERVER_PID" -- "$DB" "$COLL" "$DATE" "$AUTH" "$RUNID" "$ITEM_SIZE"

sleep 1
kill -0 "$SERVER_PID" 2>/dev/null || die "server died during the load: $(tail -5 "$WORK/server.err")"
rss_kb "$SERVER_PID" >"$WORK/rss-after.kb"
hwm_kb "$SERVER_PID" >"$WORK/hwm-after.kb"
stop_pid "$SERVER_PID"
SERVER_PID=

# ---- 7. report ----------------------------------------------------------------------------
rc=0
node "$HELPER" report --dir "$WORK" --bin "$ORRERY_BIN" --storage "$STORAGE" \
  --wrk "-t$THREADS -c$CONNS -d$DURATION --latency" || rc=$?
if [ -n "${ORRERY_BENCH_RESULTS:-}" ] && [ -f "$WORK/results.json" ]; then
  cp "$WORK/results.json" "$ORRERY_BENCH_RESULTS"
fi
exit "$rc"
