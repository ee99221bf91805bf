#include "api/resource_path.h"

#include <gtest/gtest.h>

namespace orrery::api {
namespace {

void ExpectPath(std::string_view target, std::string_view type, std::string_view link, bool feed) {
  Result<ResourcePath> p = ParseResourcePath(target);
  ASSERT_TRUE(p.ok()) << target;
  EXPECT_EQ(p->resource_type, type) << target;
  EXPECT_EQ(p->resource_link, link) << target;
  EXPECT_EQ(p->is_feed, feed) << target;
}

// wire-protocol.md §3.1: feeds sign the parent link with the child type, single
// resources their own link; ids are percent-decoded and keep their case.
TEST(ResourcePathTest, DerivesTypeAndLinkLikeTheService) {
  ExpectPath("/", "", "", false);
  ExpectPath("/dbs", "dbs", "", true);
  ExpectPath("/dbs/db1", "dbs", "dbs/db1", false);
  ExpectPath("/dbs/db1/colls", "colls", "dbs/db1", true);
  ExpectPath("/dbs/db1/colls/c/docs", "docs", "dbs/db1/colls/c", true);
  ExpectPath("/dbs/db1/colls/c/docs/a%20b", "docs", "dbs/db1/colls/c/docs/a b", false);
  ExpectPath("/dbs/db1/colls/c/docs/%C3%BC%E6%97%A5", "docs",
             "dbs/db1/colls/c/docs/\xC3\xBC\xE6\x97\xA5", false);
  ExpectPath("/dbs/db1/colls/c/docs/a+b;'~", "docs", "dbs/db1/colls/c/docs/a+b;'~", false);
  ExpectPath("/dbs/db1/colls/c/pkranges", "pkranges", "dbs/db1/colls/c", true);
  ExpectPath("/dbs/DB1/colls/Multi/", "colls", "dbs/DB1/colls/Multi", false);
  ExpectPath("/offers/KQWU", "offers", "kqwu", false);
  ExpectPath("/offers", "offers", "", true);
  ExpectPath("/dbs/db1?x=1", "dbs", "dbs/db1", false);
}

// The JS SDK leaves '?' unencoded in item URLs (encodeURI) and signs the id as is.
TEST(ResourcePathTest, AQuestionMarkInAnItemIdBelongsToTheId) {
  ExpectPath("/dbs/db1/colls/c/docs/a?b", "docs", "dbs/db1/colls/c/docs/a?b", false);
  ExpectPath("/dbs/db1/colls/c/docs/?", "docs", "dbs/db1/colls/c/docs/?", false);
  ExpectPath("/dbs/db1/colls/c/docs/a?b=c&d", "docs", "dbs/db1/colls/c/docs/a?b=c&d", false);
  ExpectPath("/dbs/db1/colls/c/docs/a%3Fb", "docs", "dbs/db1/colls/c/docs/a?b", false);
  ExpectPath("/dbs/db1/colls/c/docs/a%20b?c%20d", "docs", "dbs/db1/colls/c/docs/a b?c d", false);
  // Elsewhere a query string is not part of the resource.
  ExpectPath("/dbs/db1/colls/c/docs?x=1", "docs", "dbs/db1/colls/c", true);
  ExpectPath("/dbs/db1/colls/c?x=1", "colls", "dbs/db1/colls/c", false);
  ExpectPath("/dbs/db1/colls/c/pkranges/0?x=1", "pkranges", "dbs/db1/colls/c/pkranges/0", false);
}

TEST(ResourcePathTest, RejectsMalformedEscapesAndEmptySegments) {
  EXPECT_FALSE(ParseResourcePath("/dbs/%zz").ok());
  EXPECT_FALSE(ParseResourcePath("/dbs//colls").ok());
}

}  // namespace
}  // namespace orrery::api
