// The service's floor for a throughput replace (ru-model.md b.3), and reading one offer.

#include <gtest/gtest.h>

#include "engine/account.h"
#include "json/json.h"

namespace orrery::engine {
namespace {

constexpr uint64_t kGb = 1024ull * 1024 * 1024;

TEST(MinimumThroughputTest, ManualIsTheLargestOfItsThreeRules) {
  EXPECT_EQ(MinimumThroughput(false, 400, 0), 400);
  EXPECT_EQ(MinimumThroughput(false, 100000, 0), 1000);      // 1/100 of the highest
  EXPECT_EQ(MinimumThroughput(false, 45000, 0), 500);        // rounded up to 100
  EXPECT_EQ(MinimumThroughput(false, 400, 750 * kGb), 800);  // 1 RU/s per GB, in steps of 100
  EXPECT_EQ(MinimumThroughput(false, 400, 401 * kGb + 1), 500);
}

TEST(MinimumThroughputTest, AutoscaleUsesATenthAndTenPerGb) {
  EXPECT_EQ(MinimumThroughput(true, 4000, 0), 1000);
  EXPECT_EQ(MinimumThroughput(true, 50000, 0), 5000);
  EXPECT_EQ(MinimumThroughput(true, 50001, 0), 6000);  // rounded up to 1,000
  EXPECT_EQ(MinimumThroughput(true, 1000, 250 * kGb), 3000);
}

TEST(ReadOfferTest, FindsTheOfferItsIdNamesAndOnlyResourcesWithTheirOwnThroughput) {
  AccountOptions options;
  options.store.in_memory = true;
  options.background_ttl_purge = false;
  std::unique_ptr<Account> account = std::move(Account::Open(options)).value();
  ASSERT_TRUE(account->CreateDatabase(*json::Parse(R"({"id":"shared"})"), {.manual = 1000}).ok());
  ASSERT_TRUE(account->CreateDatabase(*json::Parse(R"({"id":"plain"})"), {}).ok());
  const json::Value pk = *json::Parse(R"({"paths":["/pk"],"version":2})");
  auto container = [&](const char* db, const char* id, const ThroughputRequest& throughput) {
    json::Value body = json::Value::MakeObject({{"id", json::Value::String(id)}});
    body.Set("partitionKey", pk);
    return account->CreateContainer(db, std::move(body), throughput).ok();
  };
  ASSERT_TRUE(container("shared", "inside", {}));
  ASSERT_TRUE(container("plain", "own", {.manual = 600}));
  ASSERT_TRUE(container("plain", "auto", {.autoscale_max = 4000}));

  const std::vector<json::Value> offers = account->ListOffers();
  ASSERT_EQ(offers.size(), 3u);  // the shared database and the two containers of their own
  for (const json::Value& listed : offers) {
    const std::string id = listed.Find("id")->as_string();
    Result<OfferResult> read = account->ReadOffer(id);
    ASSERT_TRUE(read.ok()) << id;
    EXPECT_EQ(json::Write(read->offer), json::Write(listed)) << id;
    EXPECT_FALSE(read->replace_pending);
  }
  // The container inside the shared database has no offer of its own.
  const std::shared_ptr<Container> inside = *account->GetContainer("shared", "inside");
  EXPECT_EQ(account->ReadOffer("c" + std::to_string(inside->settings().number)).status().code(),
            StatusCode::kNotFound);
  EXPECT_EQ(account->ReadOffer("c999").status().code(), StatusCode::kNotFound);
  EXPECT_EQ(account->ReadOffer("").status().code(), StatusCode::kNotFound);
  // The floors: 400 for manual, 1,000 for an autoscale maximum.
  const std::shared_ptr<Container> own = *account->GetContainer("plain", "own");
  EXPECT_EQ(account->ReadOffer("c" + std::to_string(own->settings().number))->min_throughput, 400);
  const std::shared_ptr<Container> autoscaled = *account->GetContainer("plain", "auto");
  EXPECT_EQ(account->ReadOffer("c" + std::to_string(autoscaled->settings().number))->min_throughput,
            1000);
}

}  // namespace
}  // namespace orrery::engine
