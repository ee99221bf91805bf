# Sourced by the bench/*.sh drivers (POSIX sh) after `set -eu`; the driver names itself in
# BENCH_NAME before sourcing this file.
#
#   bench_time_limit SECONDS "$@"   run the driver again under timeout(1), once: the whole
#                                   run stops after ORRERY_BENCH_TIME_LIMIT (default SECONDS)
#   bench_work_dir PREFIX           WORK: a fresh temporary directory, removed at exit
#                                   (kept with ORRERY_BENCH_KEEP=1) after the processes in
#                                   BENCH_PIDS, SERVER_PID and NGINX_PID are stopped
#   require_tools TOOL...           exit 2 naming the first one missing
#   stop_pid PID                    SIGTERM, up to 5 s to exit, then SIGKILL
#   start_orrery OUT COMMAND...     run COMMAND (`orrery serve --port 0 ...`) in the background,
#                                   its stdout to OUT and stderr to OUT with .err for .out:
#                                   SERVER_PID, then PORT and URL from its listening line
#   cpu_ticks PID                   CPU clock ticks (user + system) of PID and its direct
#                                   children (nginx's workers), all threads
#   field NAME FILE                 a value of the BENCH_RESULT line common.lua prints
#   wrk_rate FILE                   requests per second of that wrk run
#   wrk_latency_ms FILE             "p50 p99" of that wrk run, in milliseconds
#   wrk_warmup OUT SCRIPT URL [ARGS...]  a wrk run of WARMUP (none when 0) with THREADS and
#                                   CONNS, its output to OUT
#   log / die MESSAGE [STATUS]      progress on stderr / give up with STATUS (default 1)

bench_time_limit() {
  limit=$1
  shift
  if [ -z "${ORRERY_BENCH_INNER:-}" ]; then
    ORRERY_BENCH_INNER=1
    export ORRERY_BENCH_INNER
    require_tools timeout
    # timeout(1) puts the run in a process group of its own, away from the terminal's
    # Ctrl-C: pass an interrupt on, and wait for the run's own clean-up.
    timeout -k 5 "${ORRERY_BENCH_TIME_LIMIT:-$limit}" sh "$0" "$@" &
    inner=$!
    interrupted=0
    trap 'interrupted=1; kill -TERM "$inner" 2>/dev/null' INT TERM
    rc=0
    wait "$inner" || rc=$?
    while kill -0 "$inner" 2>/dev/null; do  # the trap cut the wait short
      rc=0
      wait "$inner" || rc=$?
    done
    [ "$interrupted" = 0 ] || die "interrupted" 130
    [ "$rc" -ne 124 ] || die "time limit of ${ORRERY_BENCH_TIME_LIMIT:-$limit} s reached" 124
    exit "$rc"
  fi
}

log() { printf '[%s %s] %s\n' "$BENCH_NAME" "$(date +%H:%M:%S)" "$*" >&2; }
die() { printf '%s: FAILED: %s\n' "$BENCH_NAME" "$1" >&2; exit "${2:-1}"; }

bench_cleanup() {
  rc=$?
  trap - EXIT INT TERM
  for pid in ${BENCH_PIDS:-} ${SERVER_PID:-} ${NGINX_PID:-}; do
    stop_pid "$pid"
  done
  [ "${ORRERY_BENCH_KEEP:-0}" = 1 ] && log "work directory kept: $WORK" || rm -rf "$WORK"
  exit "$rc"
}

require_tools() {
  for tool in "$@"; do
    command -v "$tool" >/dev/null 2>&1 || die "'$tool' is not installed (make bench-deps)" 2
  done
}

stop_pid() {
  [ -n "$1" ] || return 0
  kill -TERM "$1" 2>/dev/null || return 0
  i=0
  while kill -0 "$1" 2>/dev/null && [ "$i" -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
  kill -KILL "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}

start_orrery() {
  out=$1
  shift
  err=${out%.out}.err
  # Emptied first: the background job may open (and truncate) OUT only after the loop below
  # has read a listening line that an earlier server left there.
  : >"$out"
  "$@" >"$out" 2>"$err" &
  SERVER_PID=$!
  PORT=
  i=0
  while [ "$i" -lt 200 ]; do
    PORT=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9][0-9]*\)/.*|\1|p' "$out" 2>/dev/null | head -n 1)
    [ -n "$PORT" ] && break
    kill -0 "$SERVER_PID" 2>/dev/null || die "server exited: $(tail -5 "$err")"
    sleep 0.05
    i=$((i + 1))
  done
  [ -n "$PORT" ] || die "server did not print its listening line within 10 s: $(tail -3 "$err")"
  URL="http://127.0.0.1:$PORT"
}

cpu_ticks() {
  cat /proc/[0-9]*/stat 2>/dev/null | awk -v root="$1" '
    { pid = $1; line = $0; sub(/^.*\) /, "", line); split(line, f, " ")
      if (pid == root || f[2] == root) sum += f[12] + f[13] }
    END { print sum + 0 }'
}

bench_work_dir() {
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")
  SERVER_PID=
  NGINX_PID=
  BENCH_PIDS=
  trap bench_cleanup EXIT
  trap 'exit 130' INT
  trap 'exit 124' TERM
}

field() { sed -n "s/.*BENCH_RESULT.* $1=\([0-9]*\).*/\1/p" "$2"; }
wrk_rate() { awk -v n="$(field requests "$1")" -v us="$(field duration_us "$1")" 'BEGIN { print n / (us / 1e6) }'; }
wrk_latency_ms() {
  awk -v p50="$(field p50_us "$1")" -v p99="$(field p99_us "$1")" 'BEGIN { printf "%.2f %.2f", p50 / 1000, p99 / 1000 }'
}

# In a subshell: sh has no local variables, and its callers name theirs out, script, url.
wrk_warmup() (
  out=$1 script=$2 url=$3
  shift 3
  [ "$WARMUP" != 0 ] && [ "$WARMUP" != 0s ] || exit 0
  BENCH_WRK_PHASE=warmup timeout --foreground 60 wrk -t"$THREADS" -c"$CONNS" -d"$WARMUP" -s "$script" "$url" "$@" \
    >"$out" 2>&1 || die "wrk warm-up failed ($out): $(tail -3 "$out")"
)
