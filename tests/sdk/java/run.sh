#!/usr/bin/env bash
# The Java SDK suite (com.azure:azure-cosmos, pinned in pom.xml / deps.lock) against
# $ORRERY_BIN: once with in-memory servers, once with on-disk servers
# (ORRERY_SDK_STORAGE=memory|disk runs one of them only). Prints per storage mode the
# scenarios passed/failed/skipped and the wall time, then one closing line.
set -uo pipefail
cd "$(dirname "$0")"
: "${ORRERY_BIN:?ORRERY_BIN must name the orrery binary}"
export ORRERY_BIN
export MAVEN_OPTS="${MAVEN_OPTS:-} -Djansi.passthrough=false -Dstyle.color=never"
MVN=(mvn -B -q --no-transfer-progress -Dstyle.color=never)

# The lock: the resolved dependency tree must be the one deps.lock records.
"${MVN[@]}" dependency:list -DoutputFile=target/deps.txt -Dsort=true >/dev/null 2>&1 || { echo "java sdk: dependency resolution failed"; exit 1; }
if ! diff <(grep '^ ' target/deps.txt | sed 's/^ *//' | sort) deps.lock >/dev/null; then
  echo "java sdk: resolved dependencies differ from deps.lock:"
  diff <(grep '^ ' target/deps.txt | sed 's/^ *//' | sort) deps.lock
  exit 1
fi

modes=(memory disk)
[[ -n "${ORRERY_SDK_STORAGE:-}" ]] && modes=("$ORRERY_SDK_STORAGE")
total_p=0 total_f=0 total_s=0 rc=0
for mode in "${modes[@]}"; do
  start=$(date +%s)
  rm -rf "target/surefire-reports/$mode"
  "${MVN[@]}" test -Dorrery.storage="$mode" 2>&1 | sed 's/\x1b\[[0-9;]*m//g'
  (( PIPESTATUS[0] == 0 )) || rc=1
  secs=$(( $(date +%s) - start ))
  t=0 f=0 e=0 s=0
  for x in target/surefire-reports/"$mode"/TEST-*.xml; do
    [[ -f "$x" ]] || continue
    head=$(grep -m1 -o '<testsuite [^>]*>' "$x")
    t=$((t + $(sed -E 's/.* tests="([0-9]+)".*/\1/' <<<"$head")))
    f=$((f + $(sed -E 's/.* failures="([0-9]+)".*/\1/' <<<"$head")))
    e=$((e + $(sed -E 's/.* errors="([0-9]+)".*/\1/' <<<"$head")))
    s=$((s + $(sed -E 's/.* skipped="([0-9]+)".*/\1/' <<<"$head")))
  done
  p=$((t - f - e - s))
  echo "java sdk ($mode): $p passed, $((f + e)) failed, $s skipped in ${secs}s"
  # Skips (expected failures of known server gaps) with their reasons.
  grep -ho 'TestAbortedException: .*' target/surefire-reports/"$mode"/TEST-*.xml 2>/dev/null \
    | sed -E 's/^TestAbortedException: /  skipped: /; s/ \| .*//' | cut -c1-300
  total_p=$((total_p + p)) total_f=$((total_f + f + e)) total_s=$((total_s + s))
  if (( t == 0 )); then echo "java sdk ($mode): no test ran"; rc=1; fi
done
echo "java-sdk: $total_p passed, $total_f failed, $total_s skipped"
(( total_f > 0 )) && rc=1
exit $rc
