#!/bin/sh
# Runs one libFuzzer target (`make fuzz`): for FUZZ_SECONDS from a scratch copy of its seed
# corpus in fuzz/corpus/<target>/ (which stays as it is), its output kept in
# $FUZZ_DIR/artifacts/<target>.log and shown at the end (all of it when it fails, so that
# two targets running at once do not interleave their lines). Any crash, sanitizer report,
# leak (but RocksDB's own at exit: fuzz/lsan.supp), >10 s input or >2 GB RSS fails; the
# reproducer is left in $FUZZ_DIR/artifacts/.
#   FUZZ_DIR=build-asan FUZZ_SECONDS=30 sh fuzz/run_one.sh query_parser
set -u
target="$1"
: "${FUZZ_DIR:?}" "${FUZZ_SECONDS:?}"
root="$(cd "$(dirname "$0")/.." && pwd)"
log="$FUZZ_DIR/artifacts/$target.log"
corpus=$(mktemp -d)
cp "$root/fuzz/corpus/$target/"* "$corpus"/
dict=""
[ -f "$root/fuzz/$target.dict" ] && dict="-dict=$root/fuzz/$target.dict"
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
LSAN_OPTIONS=suppressions=$root/fuzz/lsan.supp \
"$FUZZ_DIR/orrery_${target}_fuzz" -max_total_time="$FUZZ_SECONDS" -timeout=10 \
  -rss_limit_mb=2048 -max_len=16384 $dict -print_final_stats=1 \
  -artifact_prefix="$FUZZ_DIR/artifacts/$target-" "$corpus" >"$log" 2>&1
status=$?
rm -rf "$corpus"
if [ "$status" -ne 0 ]; then
  echo "fuzz: $target FAILED (exit $status); its log:"
  cat "$log"
  exit 1
fi
echo "fuzz: $target for $FUZZ_SECONDS s: $(grep -E '^stat::number_of_executed_units' "$log" | tr -s ' ')"
