#!/bin/sh
# Point reads, creates and upserts against Orrery, on disk and in memory, each printed as a
# ratio to nginx serving a static 1 KB file in the same run, with the same wrk settings
# (default -t2 -c32) on the same cores; nginx twice, with `sendfile on` as Debian configures
# it and tuned for small files (bench/lib/nginx.sh). Up to two binaries (ORRERY_BIN and, optionally,
# ORRERY_BASE_BIN) are measured in one run, interleaved with nginx, so "before" and "after"
# share the machine's state. Bounded: ORRERY_BENCH_TIME_LIMIT seconds (default 300 per
# round); with the defaults one binary takes about 2 minutes, two about 3, per round.
# See bench/README.md.
#
#   sh bench/point_vs_nginx.sh
#   ORRERY_BASE_BIN=/tmp/orrery-before ORRERY_BIN=build/orrery sh bench/point_vs_nginx.sh
#
# Environment (all optional):
#   ORRERY_BIN / ORRERY_BASE_BIN     binaries (default build/orrery / none); never built here
#   ORRERY_BENCH_MODES               storage modes, default "disk memory"
#   ORRERY_BENCH_DURATION            measured wrk time per run (default 8s)
#   ORRERY_BENCH_WARMUP              un-measured warm-up before each run (default 1s)
#   ORRERY_BENCH_THREADS / _CONNECTIONS   wrk -t / -c (default 2 / 32)
#   ORRERY_BENCH_ITEMS               preloaded items, read and upserted (default 10000)
#   ORRERY_BENCH_SERVER_ARGS         extra `orrery serve` flags (e.g. --sync-writes)
#   ORRERY_BENCH_ROUNDS              repeat the whole sequence N times (default 1)
#   ORRERY_BENCH_KEEP=1              keep the work directory
#
# Output: one line per run, then a table of ops/s and ratios to both nginx baselines per
# binary, mode and operation (median over rounds; each baseline = median of all its runs),
# with the server's CPU per request and the rest of the machine's (the client's, which
# shares the cores). Exit 1 on any non-2xx or socket error (a fast 4xx is not a result), 2
# on a missing tool, 124 on the time limit.

set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")

BENCH_NAME=point_vs_nginx.sh
. "$HERE/lib/driver.sh"
. "$HERE/lib/nginx.sh"
bench_time_limit "$((300 * ${ORRERY_BENCH_ROUNDS:-1}))" "$@"

ORRERY_BIN=${ORRERY_BIN:-$ROOT/build/orrery}
BASE_BIN=${ORRERY_BASE_BIN:-}
MODES=${ORRERY_BENCH_MODES:-disk memory}
DURATION=${ORRERY_BENCH_DURATION:-8s}
WARMUP=${ORRERY_BENCH_WARMUP:-1s}
THREADS=${ORRERY_BENCH_THREADS:-2}
CONNS=${ORRERY_BENCH_CONNECTIONS:-32}
ITEMS=${ORRERY_BENCH_ITEMS:-10000}
ROUNDS=${ORRERY_BENCH_ROUNDS:-1}
SERVER_ARGS=${ORRERY_BENCH_SERVER_ARGS:-}
ITEM_SIZE=1024
DB=benchdb
COLL=items
HELPER="$HERE/lib/cosmos_bench.mjs"
LUA="$HERE/lua"

require_tools node wrk nginx curl awk
abs() { case "$1" in /*) printf '%s' "$1" ;; *) printf '%s/%s' "$(pwd)" "$1" ;; esac; }
ORRERY_BIN=$(abs "$ORRERY_BIN")
[ -x "$ORRERY_BIN" ] || die "no executable at ORRERY_BIN=$ORRERY_BIN" 2
BINS="new=$ORRERY_BIN"
if [ -n "$BASE_BIN" ]; then
  BASE_BIN=$(abs "$BASE_BIN")
  [ -x "$BASE_BIN" ] || die "no executable at ORRERY_BASE_BIN=$BASE_BIN" 2
  BINS="base=$BASE_BIN $BINS"
fi

bench_work_dir orrery-vs-nginx

RESULTS="$WORK/results.tsv"   # label<TAB>op<TAB>ops/s
: >"$RESULTS"

HZ=$(getconf CLK_TCK)
# machine_busy_ticks: CPU ticks the whole machine spent busy (user, nice, system, irq,
# softirq; not idle, iowait or steal), to count what the load generator cost beside the
# server: a ratio to nginx depends on it, since wrk shares the cores.
machine_busy_ticks() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8; exit }' /proc/stat; }

# wrk_run LABEL OP PID URL SCRIPT [ARGS...]: warm-up, measured run, one line into RESULTS:
# ops/s and the server's CPU microseconds per request (all its threads), which says what
# a request costs whatever share of the cores the server got.
wrk_run() {
  label=$1 op=$2 pid=$3 url=$4 script=$5
  shift 5
  out="$WORK/wrk-$label-$op.txt"
  wrk_warmup "$out.warmup" "$script" "$url" "$@"
  before=$(cpu_ticks "$pid")
  busy_before=$(machine_busy_ticks)
  BENCH_WRK_PHASE="m$RUN" timeout --foreground 90 wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" -s "$script" "$url" "$@" \
    >"$out" 2>&1 || die "wrk $label $op failed: $(tail -3 "$out")"
  line=$(grep '^BENCH_RESULT' "$out") || die "wrk $label $op printed no result"
  bad=$(printf '%s\n' "$line" | awk '{ n = 0; for (i = 2; i <= NF; i++) { split($i, kv, "=");
    if (kv[1] ~ /errors$|timeouts/) n += kv[2] } print n }')
  [ "$bad" = 0 ] || die "wrk $label $op: $bad errors or non-2xx responses ($line)"
  after=$(cpu_ticks "$pid")
  busy_after=$(machine_busy_ticks)
  set -- $(printf '%s\n' "$line" | awk -v t="$((after - before))" -v m="$((busy_after - busy_before))" -v hz="$HZ" '{
    for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
    printf "%.0f %.1f %.1f", v["requests"] / (v["duration_us"] / 1e6), t / hz * 1e6 / v["requests"],
      (m - t) / hz * 1e6 / v["requests"] }')
  printf '%s\t%s\t%s\t%s\t%s\n' "$label" "$op" "$1" "$2" "$3" >>"$RESULTS"
  log "$label $op: $1 ops/s, server $2 us/op, client and the rest $3 us/op"
}

# ---- nginx ---------------------------------------------------------------------------------
nginx_prepare "$WORK/nginx"
nginx_conf "$NGX/nginx.conf" "$NGINX_DEBIAN"
nginx_conf "$NGX/nginx-tuned.conf" "$NGINX_TUNED"
nginx_run() {  # nginx runs only while it is measured, so it never competes with Orrery
  for baseline in nginx nginx-tuned; do
    nginx_start "$NGX/$baseline.conf"
    wrk_run "$baseline" static "$NGINX_PID" "http://127.0.0.1:$NGX_PORT/1k.txt" "$LUA/static.lua"
    stop_pid "$NGINX_PID"
    NGINX_PID=
  done
}

# ---- one Orrery server: preload, reads, creates, upserts -------------------------------------
orrery_run() {  # orrery_run NAME BIN MODE
  name=$1 bin=$2 mode=$3
  if [ "$mode" = memory ]; then
    set -- --in-memory
  else
    rm -rf "$WORK/data"
    mkdir -p "$WORK/data"
    set -- --data-dir "$WORK/data"
  fi
  # shellcheck disable=SC2086  # SERVER_ARGS is a list of flags
  start_orrery "$WORK/server.out" "$bin" serve --port 0 --no-tls "$@" $SERVER_ARGS
  url=$URL
  timeout --foreground 90 node "$HELPER" setup --url "$url" --db "$DB" --coll "$COLL" --items "$ITEMS" \
    --size "$ITEM_SIZE" --concurrency 64 >"$WORK/setup.json" || die "$name preload failed: $(cat "$WORK/setup.json")"
  label="$name-$mode"
  wrk_run "$label" read "$SERVER_PID" "$url" "$LUA/read.lua" -- "$WORK/reads_data.lua"
  signed=$(node "$HELPER" sign-create --db "$DB" --coll "$COLL") || die "signing failed"
  date=$(printf '%s' "$signed" | cut -f1)
  auth=$(printf '%s' "$signed" | cut -f2)
  wrk_run "$label" create "$SERVER_PID" "$url" "$LUA/create.lua" -- "$DB" "$COLL" "$date" "$auth" "r$RUN" "$ITEM_SIZE"
  wrk_run "$label" upsert "$SERVER_PID" "$url" "$LUA/upsert.lua" -- "$DB" "$COLL" "$date" "$auth" "$ITEMS" "$ITEM_SIZE"
  kill -0 "$SERVER_PID" 2>/dev/null || die "$name server died under load: $(tail -3 "$WORK/server.err")"
  stop_pid "$SERVER_PID"
  SERVER_PID=
}

log "binaries: $BINS; modes: $MODES; wrk -t$THREADS -c$CONNS -d$DURATION (warm-up $WARMUP); load $(cut -d' ' -f1-3 /proc/loadavg)"
node "$HELPER" gen-reads --db "$DB" --coll "$COLL" --items "$ITEMS" --out "$WORK/reads_data.lua" >/dev/null \
  || die "generating the read requests failed"
RUN=1
while [ "$RUN" -le "$ROUNDS" ]; do
  nginx_run
  for mode in $MODES; do
    for entry in $BINS; do
      orrery_run "${entry%%=*}" "${entry#*=}" "$mode"
    done
    nginx_run
  done
  RUN=$((RUN + 1))
done

log "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
awk -F'\t' -v bins="$BINS" -v modes="$MODES" '
  function median(list,   n, a, i, j, t) {
    n = split(list, a, " ")
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  { runs[$1 "/" $2] = runs[$1 "/" $2] " " $3; cpu[$1 "/" $2] = cpu[$1 "/" $2] " " $4
    client[$1 "/" $2] = client[$1 "/" $2] " " $5 }
  END {
    ngx = median(runs["nginx/static"]); tuned = median(runs["nginx-tuned/static"])
    printf "nginx static 1 KB: %.0f ops/s, %.1f us/op, client %.1f us/op (medians of runs:%s)\n", ngx,
      median(cpu["nginx/static"]), median(client["nginx/static"]), runs["nginx/static"]
    printf "nginx-tuned:       %.0f ops/s, %.1f us/op, client %.1f us/op (medians of runs:%s)\n", tuned,
      median(cpu["nginx-tuned/static"]), median(client["nginx-tuned/static"]), runs["nginx-tuned/static"]
    printf "%-8s %-7s %-7s %10s %8s %8s %8s %8s   %s\n", "binary", "storage", "op", "ops/s", "/nginx", "/tuned", "us/op", "client", "runs (ops/s)"
    nb = split(bins, b, " "); nm = split(modes, m, " ")
    for (i = 1; i <= nb; i++) { split(b[i], nv, "="); for (j = 1; j <= nm; j++) {
      split("read create upsert", ops, " ")
      for (k = 1; k <= 3; k++) { key = nv[1] "-" m[j] "/" ops[k]; v = median(runs[key])
        printf "%-8s %-7s %-7s %10.0f %8.2f %8.2f %8.1f %8.1f  %s\n", nv[1], m[j], ops[k], v, v / ngx, v / tuned,
          median(cpu[key]), median(client[key]), runs[key] } } }
    printf "us/op = server CPU (user+system, all threads) per request; client = all other busy CPU\n"
    printf "on the machine (wrk above all) per request; /nginx, /tuned = ops/s over the median rate of\n"
    printf "nginx with sendfile, and of nginx-tuned\n"
  }' "$RESULTS"
