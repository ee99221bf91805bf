#include "api/work_kind.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace orrery::api {
namespace {

using http::WorkKind;

http::Request Make(std::string method, std::string target, std::vector<http::Header> headers = {}) {
  http::Request request;
  request.method = std::move(method);
  request.target = std::move(target);
  request.headers = std::move(headers);
  return request;
}

WorkKind Classify(const http::Request& request, bool item_writes_sync = false) {
  return ClassifyWork(request, WorkKindOptions{.item_writes_sync = item_writes_sync});
}

TEST(WorkKindTest, ScansRunOnTheLongPool) {
  EXPECT_EQ(Classify(Make("GET", "/dbs/d/colls/c/docs")), WorkKind::kLong);
  EXPECT_EQ(Classify(Make("GET", "/dbs/d/colls/c/docs/", {{"a-im", "Incremental feed"}})),
            WorkKind::kLong);
  EXPECT_EQ(Classify(Make("POST", "/dbs/d/colls/c/docs", {{"x-ms-documentdb-isquery", "True"}})),
            WorkKind::kLong);
  EXPECT_EQ(Classify(Make("POST", "/dbs/d/colls/c/docs",
                          {{"content-type", "application/query+json; charset=utf-8"}})),
            WorkKind::kLong);
  // By rid, as some SDKs address containers.
  EXPECT_EQ(Classify(Make("POST", "/dbs/AAAA==/colls/AAAAAA==/docs",
                          {{"x-ms-documentdb-isquery", "true"}})),
            WorkKind::kLong);
  EXPECT_EQ(Classify(Make("GET", "/_orrery/stats")), WorkKind::kLong);
  EXPECT_EQ(Classify(Make("POST", "/_orrery/compact")), WorkKind::kLong);
}

TEST(WorkKindTest, PointRequestsAndCatalogReadsStayInline) {
  EXPECT_EQ(Classify(Make("GET", "/")), WorkKind::kInline);
  EXPECT_EQ(Classify(Make("GET", "/dbs/d/colls/c/docs/item1")), WorkKind::kInline);
  EXPECT_EQ(Classify(Make("GET", "/dbs/d/colls/c/docs/a?b")), WorkKind::kInline);
  EXPECT_EQ(Classify(Make("GET", "/dbs/d/colls/c/pkranges")), WorkKind::kInline);
  EXPECT_EQ(Classify(Make("GET", "/dbs/d/colls")), WorkKind::kInline);
  EXPECT_EQ(Classify(Make("GET", "/dbs")), WorkKind::kInline);
  EXPECT_EQ(Classify(Make("GET", "/offers")), WorkKind::kInline);
  EXPECT_EQ(Classify(Make("POST", "/dbs", {{"x-ms-documentdb-isquery", "true"}})),
            WorkKind::kInline);
  EXPECT_EQ(Classify(Make("POST", "/dbs/d/colls/c/docs",
                          {{"content-type", "application/query+json"},
                           {"x-ms-cosmos-is-query-plan-request", "True"}})),
            WorkKind::kInline);
}

TEST(WorkKindTest, ItemWritesBlockOnlyWhenTheySync) {
  for (const bool sync : {false, true}) {
    const WorkKind expected = sync ? WorkKind::kBlocking : WorkKind::kInline;
    EXPECT_EQ(Classify(Make("POST", "/dbs/d/colls/c/docs"), sync), expected);
    EXPECT_EQ(
        Classify(Make("POST", "/dbs/d/colls/c/docs", {{"x-ms-cosmos-is-batch-request", "True"}}),
                 sync),
        expected);
    EXPECT_EQ(Classify(Make("PUT", "/dbs/d/colls/c/docs/1"), sync), expected);
    EXPECT_EQ(Classify(Make("PATCH", "/dbs/d/colls/c/docs/1"), sync), expected);
    EXPECT_EQ(Classify(Make("DELETE", "/dbs/d/colls/c/docs/1"), sync), expected);
  }
}

TEST(WorkKindTest, CatalogWritesAlwaysBlock) {
  EXPECT_EQ(Classify(Make("POST", "/dbs")), WorkKind::kBlocking);
  EXPECT_EQ(Classify(Make("DELETE", "/dbs/d")), WorkKind::kBlocking);
  EXPECT_EQ(Classify(Make("POST", "/dbs/d/colls")), WorkKind::kBlocking);
  EXPECT_EQ(Classify(Make("PUT", "/dbs/d/colls/c")), WorkKind::kBlocking);
  EXPECT_EQ(Classify(Make("DELETE", "/dbs/d/colls/c")), WorkKind::kBlocking);
  EXPECT_EQ(Classify(Make("PUT", "/offers/abcd")), WorkKind::kBlocking);
}

}  // namespace
}  // namespace orrery::api
