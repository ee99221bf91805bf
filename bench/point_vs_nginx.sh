#!/bin/sh
# Point reads, creates and upserts against Orrery, on disk and in memory, each printed as a
# ratio to nginx serving a static 1 KB file in the same run, with the same wrk settings
# (default -t2 -c32) on the same cores; nginx twice, with `sendfile on` as Debian configures
# it and tuned for small files (see nginx_conf below). Up to two binaries (ORRERY_BIN and, optionally,
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

if [ -z "${ORRERY_BENCH_INNER:-}" ]; then
  ORRERY_BENCH_INNER=1
  export ORRERY_BENCH_INNER
  command -v timeout >/dev/null 2>&1 || { echo "point_vs_nginx.sh: 'timeout' is not installed" >&2; exit 2; }
  rc=0
  timeout -k 5 "${ORRERY_BENCH_TIME_LIMIT:-$((300 * ${ORRERY_BENCH_ROUNDS:-1}))}" sh "$HERE/point_vs_nginx.sh" "$@" || rc=$?
  [ "$rc" -eq 124 ] && echo "point_vs_nginx.sh: FAILED: time limit reached" >&2
  exit "$rc"
fi

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

log() { printf '[vs-nginx %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { printf 'point_vs_nginx.sh: FAILED: %s\n' "$*" >&2; exit "${2:-1}"; }

for tool in node wrk nginx curl awk; do
  command -v "$tool" >/dev/null 2>&1 || die "'$tool' is not installed (make bench-deps)" 2
done
abs() { case "$1" in /*) printf '%s' "$1" ;; *) printf '%s/%s' "$(pwd)" "$1" ;; esac; }
ORRERY_BIN=$(abs "$ORRERY_BIN")
[ -x "$ORRERY_BIN" ] || die "no executable at ORRERY_BIN=$ORRERY_BIN" 2
BINS="new=$ORRERY_BIN"
if [ -n "$BASE_BIN" ]; then
  BASE_BIN=$(abs "$BASE_BIN")
  [ -x "$BASE_BIN" ] || die "no executable at ORRERY_BASE_BIN=$BASE_BIN" 2
  BINS="base=$BASE_BIN $BINS"
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/orrery-vs-nginx.XXXXXX")
SERVER_PID=
NGINX_PID=
stop_pid() {
  [ -n "$1" ] || return 0
  kill -TERM "$1" 2>/dev/null || return 0
  i=0
  while kill -0 "$1" 2>/dev/null && [ "$i" -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
  kill -KILL "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}
cleanup() {
  rc=$?
  trap - EXIT INT TERM
  stop_pid "$SERVER_PID"
  stop_pid "$NGINX_PID"
  if [ "${ORRERY_BENCH_KEEP:-0}" = 1 ]; then log "work directory kept: $WORK"; else rm -rf "$WORK"; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 124' TERM

RESULTS="$WORK/results.tsv"   # label<TAB>op<TAB>ops/s
: >"$RESULTS"

# cpu_ticks PID: utime+stime (clock ticks) of PID and its direct children (nginx workers).
cpu_ticks() {
  cat /proc/[0-9]*/stat 2>/dev/null | awk -v root="$1" '
    { pid = $1; line = $0; sub(/^.*\) /, "", line); split(line, f, " ")
      if (pid == root || f[2] == root) sum += f[12] + f[13] }
    END { print sum + 0 }'
}
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
  if [ "$WARMUP" != 0 ] && [ "$WARMUP" != 0s ]; then
    BENCH_WRK_PHASE=warmup timeout --foreground 60 wrk -t"$THREADS" -c"$CONNS" -d"$WARMUP" -s "$script" "$url" "$@" \
      >"$out.warmup" 2>&1 || die "wrk warm-up $label $op failed"
  fi
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
NGX="$WORK/nginx"
mkdir -p "$NGX/www" "$NGX/tmp"
awk 'BEGIN { s = ""; for (i = 0; i < 1024; i++) s = s "x"; printf "%s", s }' >"$NGX/www/1k.txt"
chmod 755 "$WORK" "$NGX" "$NGX/www"
chmod 644 "$NGX/www/1k.txt"
NGX_PORT=$(node "$HELPER" free-port)
# nginx_conf FILE FILE_DIRECTIVES: the baseline's configuration. Two are measured: "nginx",
# nginx's defaults but for sendfile on, as Debian's own nginx.conf sets it (the baseline of
# every figure in bench/README.md up to 2026-12-06), and "nginx-tuned", with the file read
# into the response (sendfile off: a 1 KB body goes out with its head in one send) and the
# open file cached (no open/fstat/close per request), which served the 1 KB file up to
# twice as fast on some machines. The tuned one is the stricter bar.
nginx_conf() {
  cat >"$1" <<EOF
daemon off;
worker_processes auto;
pid $NGX/nginx.pid;
error_log $NGX/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  $2
  keepalive_requests 1000000;
  client_body_temp_path $NGX/tmp/body;
  proxy_temp_path $NGX/tmp/proxy;
  fastcgi_temp_path $NGX/tmp/fastcgi;
  uwsgi_temp_path $NGX/tmp/uwsgi;
  scgi_temp_path $NGX/tmp/scgi;
  default_type text/plain;
  server { listen 127.0.0.1:$NGX_PORT; root $NGX/www; }
}
EOF
}
nginx_conf "$NGX/nginx.conf" "sendfile on;"
nginx_conf "$NGX/nginx-tuned.conf" "sendfile off; open_file_cache max=100;"
nginx_run() {  # nginx runs only while it is measured, so it never competes with Orrery
  for baseline in nginx nginx-tuned; do
    nginx -p "$NGX" -c "$NGX/$baseline.conf" -e "$NGX/error.log" >"$NGX/stdout" 2>&1 &
    NGINX_PID=$!
    i=0
    until curl -fsS -o /dev/null "http://127.0.0.1:$NGX_PORT/1k.txt" 2>/dev/null; do
      kill -0 "$NGINX_PID" 2>/dev/null || die "nginx did not start: $(tail -3 "$NGX/error.log" 2>/dev/null)"
      [ "$i" -lt 100 ] || die "nginx did not answer within 5 s"
      sleep 0.05
      i=$((i + 1))
    done
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
  : >"$WORK/server.out"
  # shellcheck disable=SC2086
  "$bin" serve --port 0 --no-tls "$@" $SERVER_ARGS >"$WORK/server.out" 2>"$WORK/server.err" &
  SERVER_PID=$!
  port=
  i=0
  while [ "$i" -lt 200 ]; do
    port=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9][0-9]*\)/.*|\1|p' "$WORK/server.out" | head -n 1)
    [ -n "$port" ] && break
    kill -0 "$SERVER_PID" 2>/dev/null || die "$name server exited: $(tail -3 "$WORK/server.err")"
    sleep 0.05
    i=$((i + 1))
  done
  [ -n "$port" ] || die "$name server did not start"
  url="http://127.0.0.1:$port"
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
