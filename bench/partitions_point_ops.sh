#!/bin/sh
# Point read and create throughput with 16 physical partitions against one (issue 5:
# within 10%): bench/compare_point_ops.sh with --initial-partitions 1 and 16.
#
#   sh bench/partitions_point_ops.sh          # or: make bench-partitions
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
export ORRERY_COMPARE_A="--initial-partitions 1" ORRERY_COMPARE_A_NAME="1 partition"
export ORRERY_COMPARE_B="--initial-partitions 16" ORRERY_COMPARE_B_NAME="16 partitions"
exec sh "$HERE/compare_point_ops.sh"
