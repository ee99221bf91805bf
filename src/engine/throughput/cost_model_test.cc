#include "engine/throughput/cost_model.h"

#include <gtest/gtest.h>

namespace orrery::throughput {
namespace {

// Reference charges from shared/docs/ru-model.md a.2, within 10%.
void ExpectNear(double actual, double expected) {
  EXPECT_NEAR(actual, expected, expected * 0.10) << "expected about " << expected;
}

TEST(CostModelTest, PointReadsScaleFromOneToTenRu) {
  ExpectNear(PointReadCharge(1024), 1.0);         // row 1
  ExpectNear(PointReadCharge(100 * 1024), 10.0);  // row 2
  EXPECT_EQ(PointReadCharge(200), 1.0);           // small items still cost 1 RU
}

TEST(CostModelTest, WritesMatchThePublishedAnchors) {
  ExpectNear(CreateCharge(1024, 0), 5.0);         // row 4 (indexing off)
  ExpectNear(CreateCharge(100 * 1024, 0), 50.0);  // row 5
  ExpectNear(CreateCharge(1024, 0), 5.5);         // row 6: ~5.5
  // row 9: a 1 KB item of ~10 properties has ~14 index terms with its system properties.
  ExpectNear(CreateCharge(1024, 14), 5.71);
  ExpectNear(ReplaceCharge(1024, 14), 10.67);
  ExpectNear(DeleteCharge(1024, 14), 5.71);
  ExpectNear(ReplaceCharge(1024, 0), 2 * CreateCharge(1024, 0));  // row 7
  // Writes cost more the more they index.
  EXPECT_GT(CreateCharge(1024, 100), CreateCharge(1024, 14));
  // row 12: writes are about 5x reads.
  ExpectNear(CreateCharge(1024, 14) / PointReadCharge(1024), 5.71);
}

TEST(CostModelTest, QueriesMatchThePublishedAnchors) {
  // row 13: a trivial single-partition query over a 1 KB item, at least 2.3 RU.
  const double trivial = QueryCharge(
      QueryWork{.loaded_items = 1, .loaded_bytes = 1024, .index_terms = 1, .output_bytes = 1024});
  EXPECT_GE(trivial, 2.3);
  ExpectNear(trivial, 2.35 + 0.3);  // row 14 (2.35) plus the loaded item
  // row 16: 2,000 items loaded, 1,125,600 bytes, 604.42 RU.
  ExpectNear(QueryCharge(QueryWork{.loaded_items = 2000, .loaded_bytes = 1125600}), 604.42);
  // row 15: each further physical partition contacted adds about 2.5 RU.
  ExpectNear(QueryCharge(QueryWork{.partitions = 8}) - QueryCharge(QueryWork{}), 7 * 2.5);
  // An index seek that loads 10 of a million items costs what the 10 cost, not the
  // million: the index terms it reads are cheap.
  EXPECT_LT(QueryCharge(QueryWork{.loaded_items = 10,
                                  .loaded_bytes = 10 * 1024,
                                  .index_terms = 10,
                                  .output_bytes = 10 * 1024}),
            10.0);
}

TEST(CostModelTest, StrongReadsCostTwiceAndWritesDoNotChange) {
  // row 3: Strong and Bounded staleness read two replicas.
  ExpectNear(ReadChargeAt(PointReadCharge(1024), Consistency::kStrong), 2.0);
  const double query = QueryCharge(QueryWork{.loaded_items = 2000, .loaded_bytes = 1125600});
  ExpectNear(ReadChargeAt(query, Consistency::kBoundedStaleness), 2 * 604.42);
  for (Consistency relaxed :
       {Consistency::kSession, Consistency::kConsistentPrefix, Consistency::kEventual}) {
    EXPECT_EQ(ReadChargeAt(PointReadCharge(1024), relaxed), 1.0);
  }
}

TEST(CostModelTest, ChangeFeedReadsMatchTheReportedCharges) {
  // row 20: about 1 RU for a read that returns nothing, about 2 RU for a first call
  // that returns a few small items, and a page with items like a query loading them.
  ExpectNear(ChangeFeedCharge(0, 0), 1.0);
  ExpectNear(ChangeFeedCharge(3, 3 * 400), 2.0);
  const QueryWork page{.loaded_items = 2000, .loaded_bytes = 1125600};
  ExpectNear(ChangeFeedCharge(page.loaded_items, page.loaded_bytes), QueryCharge(page));
}

TEST(CostModelTest, AProjectionOfALargeItemCostsLessThanReadingIt) {
  // row 19: a 300 KB item, of which a query returns a few fields.
  const double read = PointReadCharge(300 * 1024);
  const double query = QueryCharge(QueryWork{
      .loaded_items = 1, .loaded_bytes = 300 * 1024, .index_terms = 1, .output_bytes = 50});
  EXPECT_LT(query, read);
}

// The service's published estimates for vector search (docs/research/search-charges.md:
// "Tips for optimizing vector indexing & search performance", RU cost estimates).
// A 1536-dimension float32 embedding is 6 KB of vector; as JSON text an item holding it
// is 19 to 31 KB (12 to 20 characters a number), 25 KB here.
constexpr size_t kEmbeddingItemBytes = 25 * 1024;
constexpr double kEmbeddingKb = 1536 * 4 / 1024.0;

void ExpectWithin(double actual, double estimate, double tolerance) {
  EXPECT_NEAR(actual, estimate, estimate * tolerance) << "the published estimate is ~" << estimate;
}

TEST(CostModelTest, VectorIndexWritesMatchThePublishedEstimates) {
  // "Point write/upsert, 1 KB: ~5"; with one 1536-dimension vector, its path excluded
  // from the range index (about 10 terms left): quantizedFlat ~35, diskANN ~65.
  ExpectWithin(CreateCharge(1024, 14), 5, 0.15);
  const double quantized =
      CreateCharge(kEmbeddingItemBytes, IndexWrite{.terms = 10, .vector_kb = kEmbeddingKb});
  const double graph =
      CreateCharge(kEmbeddingItemBytes, IndexWrite{.terms = 10, .graph_vector_kb = kEmbeddingKb});
  ExpectWithin(quantized, 35, 0.15);
  ExpectWithin(graph, 65, 0.15);
  // The smallest and largest JSON renderings of the vector stay near the estimates too.
  ExpectWithin(CreateCharge(19 * 1024, IndexWrite{.terms = 10, .vector_kb = kEmbeddingKb}), 35,
               0.15);
  ExpectWithin(CreateCharge(31 * 1024, IndexWrite{.terms = 10, .graph_vector_kb = kEmbeddingKb}),
               65, 0.15);
  // "float16 or int8 reduce storage and insert cost"; more dimensions "raise RU cost
  // slightly for inserts".
  EXPECT_LT(CreateCharge(kEmbeddingItemBytes, IndexWrite{.terms = 10, .vector_kb = 1536 / 1024.0}),
            quantized);
  EXPECT_GT(
      CreateCharge(kEmbeddingItemBytes, IndexWrite{.terms = 10, .vector_kb = 3072 * 4 / 1024.0}),
      quantized);
  // "Not adding the vector path to excludedPaths results in higher RU charge": each
  // element is then a range-index term.
  EXPECT_GT(
      CreateCharge(kEmbeddingItemBytes, IndexWrite{.terms = 10 + 1536, .vector_kb = kEmbeddingKb}),
      quantized * 2);
}

TEST(CostModelTest, VectorSearchesMatchThePublishedEstimates) {
  // TOP 10 with diskANN on one partition, "up to ~45 RUs": (10 + 8) x 10 candidates of
  // 6 KB, 18 items of 25 KB read, the ids and scores returned.
  const QueryWork graph{.loaded_items = 18,
                        .loaded_bytes = 18 * kEmbeddingItemBytes,
                        .output_bytes = 10 * 60,
                        .candidate_vector_kb = 180 * kEmbeddingKb};
  EXPECT_LE(QueryCharge(graph), 45.0);
  EXPECT_GE(QueryCharge(graph), 45.0 * 0.75);
  // Cross-partition, "~45 RUs x N partitions hit".
  QueryWork two = graph;
  two.partitions = 2;
  two.loaded_items *= 2;
  two.loaded_bytes *= 2;
  two.candidate_vector_kb *= 2;
  ExpectWithin(QueryCharge(two), 2 * QueryCharge(graph), 0.10);
  // TOP 10 with quantizedFlat and a partition-key filter, "< 40 RUs (on small
  // datasets)", up to 40-50K documents: every quantized vector (one byte a dimension)
  // scanned, (10 + 8) x 5 candidates compared at full precision.
  const auto quantized_over = [](double vectors) {
    return QueryCharge(QueryWork{.loaded_items = 18,
                                 .loaded_bytes = 18 * kEmbeddingItemBytes,
                                 .output_bytes = 10 * 60,
                                 .scanned_vector_kb = vectors * 1536 / 1024.0,
                                 .candidate_vector_kb = 90 * kEmbeddingKb});
  };
  EXPECT_LT(quantized_over(50'000), 40.0);
  // "Flat: highest at scale; quantizedFlat: balanced; diskANN: lowest at scale": at
  // 1,000,000 vectors of 505 dimensions (flat's most) flat scans 4 bytes a dimension.
  const double flat_at_scale = QueryCharge(QueryWork{
      .loaded_items = 10, .loaded_bytes = 10 * 1024, .scanned_vector_kb = 1e6 * 505 * 4 / 1024.0});
  const double quantized_at_scale = quantized_over(1e6);
  EXPECT_GT(flat_at_scale, quantized_at_scale);
  EXPECT_GT(quantized_at_scale, QueryCharge(graph));
  // "Higher searchListSizeMultiplier values ... increase query RU cost."
  QueryWork wider = graph;
  wider.candidate_vector_kb *= 2;
  EXPECT_GT(QueryCharge(wider), QueryCharge(graph));
}

TEST(CostModelTest, ChargesAreRoundedToHundredths) {
  double c = CreateCharge(1500, 17);
  EXPECT_DOUBLE_EQ(c, RoundCharge(c));
}

}  // namespace
}  // namespace orrery::throughput
