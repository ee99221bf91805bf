// Service::Handle's checks of request headers, end to end over an in-memory account:
// what is refused, with which answer, and that a refused request changes nothing.

#include "api/service.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "api/auth.h"
#include "api/resource_path.h"
#include "json/json.h"

namespace orrery::api {
namespace {

class ServiceHeaderChecksTest : public ::testing::Test {
 protected:
  void SetUp() override {
    engine::AccountOptions options;
    options.store.in_memory = true;
    options.background_ttl_purge = false;
    options.background_splits = false;
    account_ = std::move(engine::Account::Open(options)).value();
    service_ = std::make_unique<Service>(
        *account_,
        std::move(Authenticator::Create({kEmulatorMasterKey, "", ""}, Clock::System())).value(),
        ServiceOptions{});
    ASSERT_EQ(Handle(Signed("POST", "/dbs", R"({"id":"db"})")).status, 201);
    ASSERT_EQ(Handle(Signed("POST", "/dbs/db/colls",
                            R"({"id":"c","partitionKey":{"paths":["/pk"],"version":2}})"))
                  .status,
              201);
  }

  // A request signed with the account key, carrying `extra` headers after the signature.
  static http::Request Signed(std::string method, std::string target, std::string body = "",
                              std::vector<http::Header> extra = {}) {
    const Result<ResourcePath> path = ParseResourcePath(target);
    EXPECT_TRUE(path.ok()) << target;
    const std::string date = Rfc1123Now();
    http::Request request;
    request.headers = {
        {"x-ms-date", date},
        {"authorization",
         MasterKeyAuthorization(kEmulatorMasterKey, SignaturePayload(method, path->resource_type,
                                                                     path->resource_link, date))},
        {"content-type", "application/json"},
    };
    request.headers.insert(request.headers.end(), extra.begin(), extra.end());
    request.method = std::move(method);
    request.target = std::move(target);
    request.body = std::move(body);
    return request;
  }

  http::Response Handle(const http::Request& request) { return service_->Handle(request); }

  bool ItemExists(const std::string& id, const std::string& pk) {
    return Handle(Signed("GET", "/dbs/db/colls/c/docs/" + id, "",
                         {{"x-ms-documentdb-partitionkey", "[\"" + pk + "\"]"}}))
               .status == 200;
  }

  bool ContainerExists(const std::string& id) {
    return Handle(Signed("GET", "/dbs/db/colls/" + id)).status == 200;
  }

  // A 400 with the service's body: code BadRequest, the message naming `fragment`.
  static void ExpectBadRequest(const http::Response& response, const std::string& fragment) {
    EXPECT_EQ(response.status, 400) << response.body;
    const Result<json::Value> body = json::Parse(response.body);
    ASSERT_TRUE(body.ok()) << response.body;
    ASSERT_NE(body->Find("code"), nullptr);
    EXPECT_EQ(body->Find("code")->as_string(), "BadRequest");
    ASSERT_NE(body->Find("message"), nullptr);
    EXPECT_NE(body->Find("message")->as_string().find(fragment), std::string::npos)
        << body->Find("message")->as_string();
  }

  std::unique_ptr<engine::Account> account_;
  std::unique_ptr<Service> service_;
};

constexpr const char* kItem = R"({"id":"a","pk":"p"})";
const http::Header kItemKey{"x-ms-documentdb-partitionkey", R"(["p"])"};

TEST_F(ServiceHeaderChecksTest, AGoodCreateIsStored) {
  EXPECT_EQ(Handle(Signed("POST", "/dbs/db/colls/c/docs", kItem, {kItemKey})).status, 201);
  EXPECT_TRUE(ItemExists("a", "p"));
}

// The header means nothing to a create, and still a malformed one refuses it.
TEST_F(ServiceHeaderChecksTest, ACreateWithAMalformedNumericHeaderIsNotStored) {
  for (const char* value : {"99999999999999999999", "+5", "5abc", "0x10", "", "0"}) {
    ExpectBadRequest(Handle(Signed("POST", "/dbs/db/colls/c/docs", kItem,
                                   {kItemKey, {"x-ms-max-item-count", value}})),
                     "for header x-ms-max-item-count");
  }
  ExpectBadRequest(
      Handle(Signed("POST", "/dbs/db/colls/c/docs", kItem,
                    {kItemKey, {"x-ms-documentdb-responsecontinuationtokenlimitinkb", "-1"}})),
      "x-ms-documentdb-responsecontinuationtokenlimitinkb");
  EXPECT_FALSE(ItemExists("a", "p"));
}

TEST_F(ServiceHeaderChecksTest, ACreateWithTwoPartitionKeyHeadersIsNotStored) {
  ExpectBadRequest(Handle(Signed("POST", "/dbs/db/colls/c/docs", kItem,
                                 {kItemKey, {"x-ms-documentdb-partitionkey", R"(["q"])"}})),
                   "x-ms-documentdb-partitionkey appears more than once");
  EXPECT_FALSE(ItemExists("a", "p"));
}

TEST_F(ServiceHeaderChecksTest, TwoAuthorizationOrDateLinesAreRefusedEvenWhenBothAreValid) {
  http::Request twice = Signed("POST", "/dbs/db/colls/c/docs", kItem, {kItemKey});
  twice.headers.push_back(twice.headers[1]);  // the same valid authorization again
  ExpectBadRequest(Handle(twice), "authorization appears more than once");
  http::Request dates = Signed("POST", "/dbs/db/colls/c/docs", kItem, {kItemKey});
  dates.headers.push_back(dates.headers[0]);
  ExpectBadRequest(Handle(dates), "x-ms-date appears more than once");
  EXPECT_FALSE(ItemExists("a", "p"));
}

TEST_F(ServiceHeaderChecksTest, AContainerWithAMalformedThroughputIsNotCreated) {
  const std::string body = R"({"id":"c2","partitionKey":{"paths":["/pk"],"version":2}})";
  for (const char* value : {"99999999999999999999", "400abc", "-400", "+400", "4e2"}) {
    ExpectBadRequest(
        Handle(Signed("POST", "/dbs/db/colls", body, {{"x-ms-offer-throughput", value}})),
        "for header x-ms-offer-throughput");
  }
  for (const char* value :
       {R"({"maxThroughput":1e300})", R"({"maxThroughput":99999999999999999999})",
        R"({"maxThroughput":4000.5})"}) {
    ExpectBadRequest(Handle(Signed("POST", "/dbs/db/colls", body,
                                   {{"x-ms-cosmos-offer-autopilot-settings", value}})),
                     "x-ms-cosmos-offer-autopilot-settings");
  }
  EXPECT_FALSE(ContainerExists("c2"));
  // In range for the parser, out of range for the service: the engine's own 400.
  ExpectBadRequest(
      Handle(Signed("POST", "/dbs/db/colls", body, {{"x-ms-offer-throughput", "2147483647"}})),
      "manual throughput must be between 400 and 1000000");
  EXPECT_EQ(
      Handle(Signed("POST", "/dbs/db/colls", body, {{"x-ms-offer-throughput", "400"}})).status,
      201);
  EXPECT_TRUE(ContainerExists("c2"));
}

TEST_F(ServiceHeaderChecksTest, AReadFeedPagesByAValidMaxItemCountOnly) {
  for (const char* id : {"a", "b", "c"}) {
    ASSERT_EQ(Handle(Signed("POST", "/dbs/db/colls/c/docs",
                            std::string(R"({"pk":"p","id":")") + id + "\"}", {kItemKey}))
                  .status,
              201);
  }
  const auto page = [&](const char* max) {
    return Handle(Signed("GET", "/dbs/db/colls/c/docs", "", {{"x-ms-max-item-count", max}}));
  };
  http::Response two = page("2");
  ASSERT_EQ(two.status, 200);
  EXPECT_EQ(json::Parse(two.body)->Find("_count")->as_int(), 2);
  EXPECT_EQ(json::Parse(page("-1").body)->Find("_count")->as_int(), 3);
  EXPECT_EQ(json::Parse(page("2147483647").body)->Find("_count")->as_int(), 3);
  ExpectBadRequest(page("2147483648"), "expected -1 or an integer from 1 to 2147483647");
  ExpectBadRequest(page("99999999999999999999"), "'99999999999999999999'");
}

TEST_F(ServiceHeaderChecksTest, AChangeFeedEtagThatOverflowsIsABadRequest) {
  ExpectBadRequest(
      Handle(Signed("GET", "/dbs/db/colls/c/docs", "",
                    {{"a-im", "Incremental Feed"}, {"if-none-match", "\"99999999999999999999\""}})),
      "was not issued by this server");
}

// The signature is checked first: an unauthenticated caller learns nothing more.
TEST_F(ServiceHeaderChecksTest, AnUnsignedRequestIsUnauthorizedWhateverItsHeaders) {
  http::Request request = Signed("GET", "/dbs", "", {{"x-ms-max-item-count", "abc"}});
  request.headers[1].value = "type%3Dmaster%26ver%3D1.0%26sig%3Dwrong";
  EXPECT_EQ(Handle(request).status, 401);
}

}  // namespace
}  // namespace orrery::api
