#!/bin/sh
# Overhead of charging and enforcing throughput on point reads and creates (issue 4:
# < 5% on point-read throughput): bench/compare_point_ops.sh, plain against
# --enforce-throughput, on a container of 200,000 RU/s over 20 physical partitions
# (10,000 each, far above what the load uses, so nothing is throttled and the
# difference is the bookkeeping).
#
#   sh bench/throughput_overhead.sh          # or: make bench-throughput
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
export ORRERY_BENCH_THROUGHPUT=200000
export ORRERY_COMPARE_A="--initial-partitions 20" ORRERY_COMPARE_A_NAME=plain
export ORRERY_COMPARE_B="--initial-partitions 20 --enforce-throughput" ORRERY_COMPARE_B_NAME=enforced
exec sh "$HERE/compare_point_ops.sh"
