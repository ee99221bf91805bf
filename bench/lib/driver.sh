# Sourced by the bench/*.sh drivers (POSIX sh) after `set -eu`; the driver names itself in
# BENCH_NAME before sourcing this file.
#
#   bench_time_limit SECONDS "$@"   run the driver again under timeout(1), once: the whole
#                                   run stops after ORRERY_BENCH_TIME_LIMIT (default SECONDS)
#   bench_work_dir PREFIX           WORK: a fresh temporary directory, removed at exit
#                                   (kept with ORRERY_BENCH_KEEP=1) after the processes in
#                                   BENCH_PIDS and SERVER_PID are stopped
#   field NAME FILE                 a value of the BENCH_RESULT line common.lua prints
#   log / die MESSAGE [STATUS]      progress on stderr / give up with STATUS (default 1)

bench_time_limit() {
  limit=$1
  shift
  if [ -z "${ORRERY_BENCH_INNER:-}" ]; then
    ORRERY_BENCH_INNER=1
    export ORRERY_BENCH_INNER
    exec timeout -k 5 "${ORRERY_BENCH_TIME_LIMIT:-$limit}" sh "$0" "$@"
  fi
}

log() { printf '[%s %s] %s\n' "$BENCH_NAME" "$(date +%H:%M:%S)" "$*" >&2; }
die() { printf '%s: FAILED: %s\n' "$BENCH_NAME" "$1" >&2; exit "${2:-1}"; }

bench_cleanup() {
  rc=$?
  trap - EXIT INT TERM
  for pid in ${BENCH_PIDS:-} ${SERVER_PID:-}; do
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  [ "${ORRERY_BENCH_KEEP:-0}" = 1 ] && log "work directory kept: $WORK" || rm -rf "$WORK"
  exit "$rc"
}

bench_work_dir() {
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")
  SERVER_PID=
  BENCH_PIDS=
  trap bench_cleanup EXIT
  trap 'exit 130' INT
  trap 'exit 124' TERM
}

field() { sed -n "s/.*BENCH_RESULT.* $1=\([0-9]*\).*/\1/p" "$2"; }
