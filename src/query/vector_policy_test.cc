// vectorEmbeddingPolicy and vectorIndexes validation (vector_policy.h), with the
// service's messages as its own SDK tests assert them.

#include "query/vector_policy.h"

#include <gtest/gtest.h>

#include "json/json.h"

namespace orrery::query {
namespace {

json::Value J(std::string_view text) { return json::Parse(text).value(); }

Status ParseBoth(std::string_view embeddings, std::string_view indexes = "null") {
  const json::Value e = J(embeddings);
  const json::Value i = J(indexes);
  return VectorPolicy::Parse(&e, &i).status();
}

constexpr std::string_view kOne =
    R"({"vectorEmbeddings": [{"path": "/e", "dataType": "float32", "distanceFunction": "euclidean", "dimensions": 256}]})";

TEST(VectorPolicyTest, ParsesEmbeddingsWithDefaults) {
  const json::Value e = J(R"({"vectorEmbeddings": [
      {"path": "/a/b", "dataType": "int8", "distanceFunction": "DotProduct", "dimensions": 8},
      {"path": "/c"}]})");
  auto policy = VectorPolicy::Parse(&e, nullptr);
  ASSERT_TRUE(policy.ok()) << policy.status().ToString();
  const VectorEmbedding* ab = (*policy)->Find({"a", "b"});
  ASSERT_NE(ab, nullptr);
  EXPECT_EQ(ab->data_type, VectorDataType::kInt8);
  EXPECT_EQ(ab->distance, DistanceFunction::kDotProduct);
  EXPECT_EQ(ab->dimensions, 8);
  const VectorEmbedding* c = (*policy)->Find({"c"});
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->data_type, VectorDataType::kFloat32);
  EXPECT_EQ(c->distance, DistanceFunction::kCosine);
  EXPECT_EQ(c->dimensions, 1536);
  EXPECT_EQ((*policy)->Find({"a"}), nullptr);
}

TEST(VectorPolicyTest, EmbeddingErrorsUseTheServiceMessages) {
  const auto message = [](std::string_view embeddings) { return ParseBoth(embeddings).message(); };
  EXPECT_NE(message(R"({"vectorEmbeddings": [{"path": "/e", "dataType": "float33"}]})")
                .find("Vector Embedding Policy has an invalid DataType"),
            std::string::npos);
  EXPECT_NE(message(R"({"vectorEmbeddings": [{"path": "/e", "dimensions": 8000}]})")
                .find("Vector Embedding Policy has Dimensions:8000 which is more than the "
                      "maximum supported value"),
            std::string::npos);
  EXPECT_NE(message(R"({"vectorEmbeddings": [{"path": "/e", "dimensions": -1}]})")
                .find("The Vector Embedding Policy has Dimensions:-1"),
            std::string::npos);
  EXPECT_NE(message(R"({"vectorEmbeddings": [{"path": "/e", "distanceFunction": "handMeasured"}]})")
                .find("The Vector Embedding Policy has an invalid DistanceFunction:handMeasured"),
            std::string::npos);
  for (const char* path : {"e", "/", "/a/*", "/a/[]", "/a//b"}) {
    const std::string policy =
        std::string(R"({"vectorEmbeddings": [{"path": ")") + path + R"("}]})";
    EXPECT_FALSE(ParseBoth(policy).ok()) << path;
  }
  EXPECT_FALSE(ParseBoth(R"({"vectorEmbeddings": [{"path": "/e"}, {"path": "/e"}]})").ok());
}

TEST(VectorPolicyTest, IndexErrorsUseTheServiceMessages) {
  EXPECT_EQ(ParseBoth(kOne, R"([{"path": "/other", "type": "flat"}])").message(),
            "The Vector Indexing Policy's path::/other not matching in Embedding's path.");
  EXPECT_EQ(ParseBoth(kOne, R"([{"path": "/e", "type": "notFlat"}])")
                .message()
                .find("Index Type::notFlat is invalid"),
            0u);
  EXPECT_EQ(
      ParseBoth(kOne, R"([{"path": "/e", "type": "quantizedFlat", "quantizationByteSize": 0}])")
          .message(),
      "The Vector Indexing Policy parameter QuantizationByteSize value :: 0 is out of range. "
      "The allowed range is between 1 and 256.");
  // The upper bound is the smaller of the dimensions and 512.
  EXPECT_TRUE(
      ParseBoth(kOne, R"([{"path": "/e", "type": "diskANN", "quantizationByteSize": 256}])").ok());
  EXPECT_EQ(
      ParseBoth(kOne, R"([{"path": "/e", "type": "diskANN", "indexingSearchListSize": 5}])")
          .message(),
      "The Vector Indexing Policy parameter IndexingSearchListSize value :: 5 is out of range. "
      "The allowed range is between 25 and 500.");
  EXPECT_EQ(
      ParseBoth(kOne, R"([{"path": "/e", "type": "diskANN", "vectorIndexShardKey": ["country"]}])")
          .message(),
      "The Vector Indexing Policy has an invalid Shard Path: country.");
  EXPECT_EQ(
      ParseBoth(kOne,
                R"([{"path": "/e", "type": "diskANN", "vectorIndexShardKey": ["/a", "/b", "/c"]}])")
          .message(),
      "The number of shard paths defined in the Vector Indexing Policy: 3 exceeds the maximum: 1.");
  EXPECT_EQ(ParseBoth(kOne, R"([{"path": "/e", "type": "diskANN", "vectorIndexShardKey": "/a"}])")
                .message(),
            "One of the specified inputs is invalid");
  EXPECT_TRUE(
      ParseBoth(kOne,
                R"([{"path": "/e", "type": "DiskANN", "vectorIndexShardKey": ["/country/city"]}])")
          .ok());
}

TEST(VectorPolicyTest, FlatIndexesHoldAtMost505Dimensions) {
  EXPECT_TRUE(ParseBoth(R"({"vectorEmbeddings": [{"path": "/e", "dimensions": 505}]})",
                        R"([{"path": "/e", "type": "flat"}])")
                  .ok());
  EXPECT_FALSE(ParseBoth(R"({"vectorEmbeddings": [{"path": "/e", "dimensions": 506}]})",
                         R"([{"path": "/e", "type": "flat"}])")
                   .ok());
  EXPECT_TRUE(ParseBoth(R"({"vectorEmbeddings": [{"path": "/e", "dimensions": 4096}]})",
                        R"([{"path": "/e", "type": "quantizedFlat"}])")
                  .ok());
}

TEST(VectorPolicyTest, DirectionIsMostSimilarFirst) {
  EXPECT_TRUE(RanksDescending(DistanceFunction::kCosine));
  EXPECT_TRUE(RanksDescending(DistanceFunction::kDotProduct));
  EXPECT_FALSE(RanksDescending(DistanceFunction::kEuclidean));
}

}  // namespace
}  // namespace orrery::query
