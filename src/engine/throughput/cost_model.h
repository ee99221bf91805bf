#pragma once

// The request-unit cost model: one deterministic function per kind of operation,
// calibrated to the reference charges in shared/docs/ru-model.md (a.2, a.3).
// Point operations:
//   read    R(s)  = max(1, 1 + 9 (s_KB - 1) / 99)        1 KB -> 1, 100 KB -> 10
//   create  W(s)  = 5 + 45 (s_KB - 1) / 99 + 0.05 t       1 KB, ~10 properties -> 5.7
//   replace       = 2 x create - 0.75                      1 KB -> 10.65 (planner row 9)
//   delete        = create                                 1 KB -> 5.7
// where s_KB is the stored item size in KiB, at least 1, and t the number of range-index
// terms the item version has under the container's indexing policy (each indexed
// scalar, array or object; 0 with indexing off): writes cost more the more they index.

#include <cstddef>

namespace orrery::throughput {

// RU per index term written (or removed): a 1 KB item with its 10 properties and
// system properties has about 14 terms, which the capacity planner's 5.71 RU create
// (rows 4 and 9: 5 RU without indexing) fits.
inline constexpr double kWritePerIndexTermCharge = 0.05;

double PointReadCharge(size_t item_bytes);
double CreateCharge(size_t item_bytes, size_t index_terms);
double ReplaceCharge(size_t item_bytes, size_t index_terms);
double DeleteCharge(size_t item_bytes, size_t index_terms);

// Metadata operations (databases, containers, pkranges, account): the service charges
// small fixed amounts that do not depend on size.
inline constexpr double kMetadataReadCharge = 1.0;
inline constexpr double kMetadataWriteCharge = 1.0;
// A request rejected before it did any work (validation, precondition, auth).
inline constexpr double kRejectedCharge = 1.0;
// Query base charge for one partition (ru-model.md a.2 row 13).
inline constexpr double kQueryBaseCharge = 2.3;
inline constexpr double kQueryPerExtraPartitionCharge = 2.5;
// Loading an item costs mostly per item, a little per byte (ru-model.md a.2 rows 16
// and 19: 2,000 items of 563 B cost 604 RU, and a query projecting a few fields of a
// large item costs less than reading it).
inline constexpr double kQueryPerLoadedItemCharge = 0.295;
inline constexpr double kQueryPerLoadedKbCharge = 0.01;
// Index terms read and bytes returned (ru-model.md a.3 "Query"): reading an index term
// costs a small fraction of loading an item, so an indexed lookup stays near the base
// charge while a full scan grows with the container.
inline constexpr double kQueryPerIndexTermCharge = 0.01;
inline constexpr double kQueryPerReturnedKbCharge = 0.05;

// The work one query page did.
struct QueryWork {
  double base = kQueryBaseCharge;  // kMetadataReadCharge for a plain read feed
  int partitions = 1;              // physical partitions contacted
  size_t loaded_items = 0;         // items loaded from storage (retrievedDocumentCount)
  size_t loaded_bytes = 0;         // their bytes (retrievedDocumentSize)
  size_t index_terms = 0;          // range-index entries read
  size_t output_bytes = 0;         // bytes of the rows returned
};
//   base + 2.5 (partitions - 1) + 0.295 loaded + 0.01 loaded_KB + 0.01 terms
//        + 0.05 output_KB
// e.g. 2,000 items of 563 B loaded, few returned: 2.3 + 590 + 11 = 603.3 (row 16: 604.42).
double QueryCharge(const QueryWork& work);

// A change feed read (ru-model.md a.2 row 20): 1 RU for a poll that finds nothing,
// about 2 RU for a first page of a few items, and a large page like a query that
// loads the same:  1 + 0.295 loaded + 0.01 loaded_KB.
double ChangeFeedCharge(size_t loaded_items, size_t loaded_bytes);

// Consistency levels, strongest first. Reads at Strong and Bounded staleness read two
// replicas (a local minority) and cost twice the relaxed charge (ru-model.md a.2 row
// 3); writes cost the same at every level (row 8).
enum class Consistency { kStrong, kBoundedStaleness, kSession, kConsistentPrefix, kEventual };
inline constexpr double kTwoReplicaReadFactor = 2.0;
double ReadChargeAt(double relaxed_charge, Consistency level);

// Rounds to two decimals as the service reports charges.
double RoundCharge(double charge);

}  // namespace orrery::throughput
