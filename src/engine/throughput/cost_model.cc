#include "engine/throughput/cost_model.h"

#include <algorithm>
#include <cmath>

namespace orrery::throughput {
namespace {

double SizeKb(size_t bytes) { return std::max(1.0, static_cast<double>(bytes) / 1024.0); }

// Indexing cost grows with indexed content; at 1 KB under the default policy the
// capacity planner reports 5.71 for a create against 5 with indexing off.
constexpr double kIndexingChargePerKb = 0.71;

}  // namespace

double RoundCharge(double charge) { return std::round(charge * 100.0) / 100.0; }

double PointReadCharge(size_t item_bytes) {
  return RoundCharge(std::max(1.0, 1.0 + 9.0 * (SizeKb(item_bytes) - 1.0) / 99.0));
}

double CreateCharge(size_t item_bytes, bool indexed) {
  double kb = SizeKb(item_bytes);
  double charge = 5.0 + 45.0 * (kb - 1.0) / 99.0;
  if (indexed) {
    charge += kIndexingChargePerKb * kb;
  }
  return RoundCharge(charge);
}

double ReplaceCharge(size_t item_bytes, bool indexed) {
  return RoundCharge(2.0 * CreateCharge(item_bytes, indexed) - 0.75);
}

double DeleteCharge(size_t item_bytes, bool indexed) { return CreateCharge(item_bytes, indexed); }

double QueryCharge(const QueryWork& work) {
  return RoundCharge(work.base + kQueryPerExtraPartitionCharge * std::max(0, work.partitions - 1) +
                     kQueryPerLoadedKbCharge * static_cast<double>(work.loaded_bytes) / 1024.0 +
                     kQueryPerIndexTermCharge * static_cast<double>(work.index_terms) +
                     kQueryPerReturnedKbCharge * static_cast<double>(work.output_bytes) / 1024.0);
}

}  // namespace orrery::throughput
