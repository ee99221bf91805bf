#include "engine/throughput/cost_model.h"

#include <algorithm>
#include <cmath>

namespace orrery::throughput {
namespace {

double SizeKb(size_t bytes) { return std::max(1.0, static_cast<double>(bytes) / 1024.0); }

}  // namespace

double RoundCharge(double charge) { return std::round(charge * 100.0) / 100.0; }

double PointReadCharge(size_t item_bytes) {
  return RoundCharge(std::max(1.0, 1.0 + 9.0 * (SizeKb(item_bytes) - 1.0) / 99.0));
}

double CreateCharge(size_t item_bytes, const IndexWrite& index) {
  const double kb = SizeKb(item_bytes);
  return RoundCharge(5.0 + 45.0 * (kb - 1.0) / 99.0 +
                     kWritePerIndexTermCharge * static_cast<double>(index.terms) +
                     kWritePerVectorKbCharge * index.vector_kb +
                     kWritePerGraphVectorKbCharge * index.graph_vector_kb);
}

double ReplaceCharge(size_t item_bytes, const IndexWrite& index) {
  return RoundCharge(2.0 * CreateCharge(item_bytes, index) - 0.75);
}

double DeleteCharge(size_t item_bytes, const IndexWrite& index) {
  return CreateCharge(item_bytes, index);
}

double QueryCharge(const QueryWork& work) {
  return RoundCharge(work.base + kQueryPerExtraPartitionCharge * std::max(0, work.partitions - 1) +
                     kQueryPerLoadedItemCharge * static_cast<double>(work.loaded_items) +
                     kQueryPerLoadedKbCharge * static_cast<double>(work.loaded_bytes) / 1024.0 +
                     kQueryPerIndexTermCharge * static_cast<double>(work.index_terms) +
                     kQueryPerReturnedKbCharge * static_cast<double>(work.output_bytes) / 1024.0 +
                     kQueryPerScannedVectorKbCharge * work.scanned_vector_kb +
                     kQueryPerCandidateVectorKbCharge * work.candidate_vector_kb);
}

double ReadChargeAt(double relaxed_charge, Consistency level) {
  const bool two_replicas =
      level == Consistency::kStrong || level == Consistency::kBoundedStaleness;
  return RoundCharge(two_replicas ? relaxed_charge * kTwoReplicaReadFactor : relaxed_charge);
}

double ChangeFeedCharge(size_t loaded_items, size_t loaded_bytes) {
  return RoundCharge(kMetadataReadCharge +
                     kQueryPerLoadedItemCharge * static_cast<double>(loaded_items) +
                     kQueryPerLoadedKbCharge * static_cast<double>(loaded_bytes) / 1024.0);
}

}  // namespace orrery::throughput
