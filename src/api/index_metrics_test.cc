// The index-utilization header in both versions: V1 is base64 of the flat JSON, V2 the
// URI-encoded nested JSON @azure/cosmos 4.x decodes (decodeURIComponent, JSON.parse).
// Expected texts are written out here from the documented shapes.

#include "api/index_metrics.h"

#include <gtest/gtest.h>

#include "common/encoding.h"

namespace orrery::api {
namespace {

// Undoes encodeURIComponent (what the SDK does with the header).
std::string UriDecode(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size()) {
      out += static_cast<char>(std::stoi(std::string(text.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

engine::IndexUtilization Sample() {
  engine::IndexUtilization use;
  use.utilized_single = {"/name/?"};
  use.potential_single = {"/age/?"};
  use.utilized_composite = {{"/a ASC", "/b DESC"}};
  return use;
}

TEST(IndexMetricsTest, VersionOneIsBase64OfTheFlatShape) {
  const std::optional<std::string> json = Base64Decode(IndexMetricsV1(Sample()));
  ASSERT_TRUE(json.has_value());
  EXPECT_EQ(
      *json,
      R"({"UtilizedSingleIndexes":[{"FilterExpression":"","IndexSpec":"/name/?",)"
      R"("FilterPreciseSet":true,"IndexPreciseSet":true,"IndexImpactScore":"High"}],)"
      R"("PotentialSingleIndexes":[{"FilterExpression":"","IndexSpec":"/age/?",)"
      R"("FilterPreciseSet":true,"IndexPreciseSet":true,"IndexImpactScore":"High"}],)"
      R"("UtilizedCompositeIndexes":[{"IndexSpecs":["/a ASC","/b DESC"],)"
      R"("IndexPreciseSet":true,"IndexImpactScore":"High"}],"PotentialCompositeIndexes":[]})");
}

TEST(IndexMetricsTest, VersionTwoIsTheUriEncodedNestedShape) {
  const std::string header = IndexMetricsV2(Sample());
  // Nothing a header value or decodeURIComponent would trip over.
  EXPECT_EQ(header.find_first_of("{}\"/ ,:[]"), std::string::npos) << header;
  EXPECT_EQ(
      UriDecode(header),
      R"({"UtilizedIndexes":{"SingleIndexes":[{"IndexSpec":"/name/?","IndexImpactScore":"High"}],)"
      R"("CompositeIndexes":[{"IndexSpecs":["/a ASC","/b DESC"],"IndexImpactScore":"High"}]},)"
      R"("PotentialIndexes":{"SingleIndexes":[{"IndexSpec":"/age/?","IndexImpactScore":"High"}],)"
      R"("CompositeIndexes":[]}})");
}

}  // namespace
}  // namespace orrery::api
