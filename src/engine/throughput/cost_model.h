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

// Vector indexes, from the service's published estimates ("Tips for optimizing vector
// indexing & search performance", RU cost estimates; docs/research/search-charges.md): a
// 1 KB write ~5 RU, the same with one 1536-dimension float32 vector (6 KB of vector, an
// item of about 25 KB with the vector path excluded from the range index) ~35 RU under
// quantizedFlat and ~65 RU under diskANN; "float16 or int8 reduce ... insert cost" and
// more dimensions raise it. So per KB of the vector in its declared data type: flat and
// quantizedFlat 3 RU (a 25 KB item's 15.9 + 18 = ~34), a diskANN graph 8 RU (~64).
inline constexpr double kWritePerVectorKbCharge = 3.0;
inline constexpr double kWritePerGraphVectorKbCharge = 8.0;

// What writing (or removing) one item version does to the container's indexes.
struct IndexWrite {
  size_t terms = 0;            // range, composite, spatial and full-text entries
  double vector_kb = 0;        // vectors entering flat and quantizedFlat indexes
  double graph_vector_kb = 0;  // vectors entering diskANN graphs
};

double PointReadCharge(size_t item_bytes);
double CreateCharge(size_t item_bytes, const IndexWrite& index);
double ReplaceCharge(size_t item_bytes, const IndexWrite& index);
double DeleteCharge(size_t item_bytes, const IndexWrite& index);
inline double CreateCharge(size_t item_bytes, size_t index_terms) {
  return CreateCharge(item_bytes, IndexWrite{.terms = index_terms});
}
inline double ReplaceCharge(size_t item_bytes, size_t index_terms) {
  return ReplaceCharge(item_bytes, IndexWrite{.terms = index_terms});
}
inline double DeleteCharge(size_t item_bytes, size_t index_terms) {
  return DeleteCharge(item_bytes, IndexWrite{.terms = index_terms});
}

// Metadata operations (databases, containers, pkranges, account): the service charges
// small fixed amounts that do not depend on size.
inline constexpr double kMetadataReadCharge = 1.0;
inline constexpr double kMetadataWriteCharge = 1.0;
// A request rejected before it did any work (validation, precondition, auth).
inline constexpr double kRejectedCharge = 1.0;
// Query base charge for one partition (ru-model.md a.2 row 13).
inline constexpr double kQueryBaseCharge = 2.3;
// A server-side script's run costs a base and its JavaScript CPU time, besides the
// operations it performs, set so that the REST reference's hello-world stored procedure
// (7.3 RU, create-a-stored-procedure.md) comes out near it.
inline constexpr double kScriptBaseCharge = 6.0;
inline constexpr double kScriptChargePerCpuMillisecond = 1.3;
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
// Vector search (docs/research/search-charges.md): a TOP 10 over a diskANN index of
// 1536-dimension float32 vectors costs "up to ~45 RU" per physical partition searched,
// one over a quantizedFlat index of up to 40-50K vectors "< 40 RU", and flat's cost is
// "highest at scale". A search pays per KB of vectors it scans (flat's full vectors,
// quantizedFlat's quantized bytes) and per KB of the candidates it compares at full
// precision (a graph's search list, quantizedFlat's re-ranked list): 180 candidates of
// 6 KB and 18 items of 25 KB loaded come to 2.3 + 30.2 + 9.8 = 42 RU; 50,000 SQ8 vectors
// of 1.5 KB scanned, 90 re-ranked and 18 loaded to 2.3 + 11.3 + 15.1 + 9.8 = 38.5 RU.
inline constexpr double kQueryPerScannedVectorKbCharge = 0.00015;
inline constexpr double kQueryPerCandidateVectorKbCharge = 0.028;

// The work one query page did.
struct QueryWork {
  double base = kQueryBaseCharge;  // kMetadataReadCharge for a plain read feed
  int partitions = 1;              // physical partitions contacted
  size_t loaded_items = 0;         // items loaded from storage (retrievedDocumentCount)
  size_t loaded_bytes = 0;         // their bytes (retrievedDocumentSize)
  size_t index_terms = 0;          // range-index entries read
  size_t output_bytes = 0;         // bytes of the rows returned
  double scanned_vector_kb = 0;    // vector bytes a vector search scanned
  double candidate_vector_kb = 0;  // vector bytes it compared at full precision
};
//   base + 2.5 (partitions - 1) + 0.295 loaded + 0.01 loaded_KB + 0.01 terms
//        + 0.05 output_KB + 0.00015 scanned_vector_KB + 0.028 candidate_vector_KB
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
