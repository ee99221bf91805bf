// Service::Handle's checks of request headers, end to end over an in-memory account:
// what is refused, with which answer, and that a refused request changes nothing.

#include "api/service.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/auth.h"
#include "api/resource_path.h"
#include "common/encoding.h"
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

  // A request signed over the given resource type and link (rid-based paths sign the
  // rid; operations their container).
  static http::Request SignedAs(std::string method, std::string target, std::string type,
                                std::string link, std::vector<http::Header> extra = {},
                                std::string body = "") {
    const std::string date = Rfc1123Now();
    http::Request request;
    request.headers = {
        {"x-ms-date", date},
        {"authorization",
         MasterKeyAuthorization(kEmulatorMasterKey, SignaturePayload(method, type, link, date))}};
    request.headers.insert(request.headers.end(), extra.begin(), extra.end());
    request.method = std::move(method);
    request.target = std::move(target);
    request.body = std::move(body);
    return request;
  }

  http::Response Handle(const http::Request& request) { return service_->Handle(request); }

  static json::Value Body(const http::Response& response) {
    Result<json::Value> body = json::Parse(response.body);
    EXPECT_TRUE(body.ok()) << response.body;
    return body.ok() ? *body : json::Value();
  }

  static std::string HeaderOf(const http::Response& response, std::string_view name) {
    for (const auto& h : response.headers) {
      if (h.name == name) return h.value;
    }
    return "";
  }

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

// A direct-mode client's address resolution gets a 400 that says what to change,
// signed or not (the SDK signs it as the container's documents).
TEST(ServiceDirectModeTest, AddressResolutionSaysOrreryServesGatewayModeOnly) {
  engine::AccountOptions options;
  options.store.in_memory = true;
  options.background_ttl_purge = false;
  options.background_splits = false;
  auto account = std::move(engine::Account::Open(options)).value();
  Service service(
      *account,
      std::move(Authenticator::Create({kEmulatorMasterKey, "", ""}, Clock::System())).value(),
      ServiceOptions{});
  http::Request request;
  request.method = "GET";
  request.target =
      "/addresses/?$resolveFor=dbs%2FAQAAAA%3D%3D%2Fcolls%2FAQAAAIAAAAE%3D%2Fdocs&$filter="
      "protocol%20eq%20rntbd&$partitionKeyRangeIds=0";
  const std::string date = Rfc1123Now();
  request.headers = {{"x-ms-date", date},
                     {"authorization", MasterKeyAuthorization(
                                           kEmulatorMasterKey,
                                           SignaturePayload("GET", "docs", "aqaaaiaaaae=", date))}};
  for (bool sign : {true, false}) {
    if (!sign) request.headers.clear();
    const http::Response response = service.Handle(request);
    EXPECT_EQ(response.status, 400) << response.body;
    const Result<json::Value> body = json::Parse(response.body);
    ASSERT_TRUE(body.ok()) << response.body;
    const std::string message = body->Find("message")->as_string();
    EXPECT_NE(message.find("gateway mode only"), std::string::npos) << message;
    EXPECT_NE(message.find(".gatewayMode() on CosmosClientBuilder"), std::string::npos) << message;
  }
}

// Rid-based paths (the Java SDK reads a container and its pkranges by rid) are served
// by names, signed with the addressed resource's rid in lower case.
TEST_F(ServiceHeaderChecksTest, RidBasedContainerAndPartitionKeyRangeReads) {
  const http::Response container = Handle(Signed("GET", "/dbs/db/colls/c"));
  ASSERT_EQ(container.status, 200);
  const std::string self = json::Parse(container.body)->Find("_self")->as_string();
  const std::string rid = json::Parse(container.body)->Find("_rid")->as_string();
  // The Java and .NET parsers tell a collection from a user by the high bit of byte 4.
  std::string rid_text = rid;
  std::replace(rid_text.begin(), rid_text.end(), '-', '/');
  const std::optional<std::string> bytes = Base64Decode(rid_text);
  ASSERT_TRUE(bytes.has_value());
  ASSERT_EQ(bytes->size(), 8u);
  EXPECT_NE(static_cast<unsigned char>((*bytes)[4]) & 0x80, 0) << rid;

  const std::string lower = LowerAscii(rid);
  const http::Response by_rid = Handle(SignedAs("GET", "/" + self, "colls", lower));
  EXPECT_EQ(by_rid.status, 200) << by_rid.body;
  EXPECT_EQ(json::Parse(by_rid.body)->Find("id")->as_string(), "c");
  // The owner's name-based path, from which the Java SDK builds the container's altLink.
  std::string owner;
  for (const auto& h : by_rid.headers) {
    if (h.name == "x-ms-alt-content-path") owner = h.value;
  }
  EXPECT_EQ(owner, "dbs/db");
  const http::Response ranges = Handle(SignedAs("GET", "/" + self + "pkranges", "pkranges", lower));
  EXPECT_EQ(ranges.status, 200) << ranges.body;
  EXPECT_NE(ranges.body.find("PartitionKeyRanges"), std::string::npos);
  // Signed with the names' link instead: the signature does not cover this request.
  EXPECT_EQ(Handle(SignedAs("GET", "/" + self, "colls", "dbs/db/colls/c")).status, 401);
}

// A feed request that reads one range gets that range's session token alone (the Java
// SDK parses a response's token as one "<range>:<token>"); one that reads all, a list.
TEST_F(ServiceHeaderChecksTest, AQueryOfOnePartitionGetsOneRangesSessionToken) {
  ASSERT_EQ(Handle(Signed("POST", "/dbs/db/colls",
                          R"({"id":"two","partitionKey":{"paths":["/pk"],"version":2}})",
                          {{"x-ms-offer-throughput", "12000"}}))
                .status,
            201);
  auto token_of = [](const http::Response& r) {
    for (const auto& h : r.headers) {
      if (h.name == "x-ms-session-token") return h.value;
    }
    return std::string();
  };
  const std::vector<http::Header> query = {{"x-ms-documentdb-isquery", "true"}};
  std::vector<http::Header> one = query;
  one.push_back({"x-ms-documentdb-partitionkey", "[\"a\"]"});
  const http::Response scoped =
      Handle(Signed("POST", "/dbs/db/colls/two/docs", R"({"query":"SELECT * FROM c"})", one));
  ASSERT_EQ(scoped.status, 200) << scoped.body;
  EXPECT_EQ(token_of(scoped).find(','), std::string::npos) << token_of(scoped);
  EXPECT_NE(token_of(scoped).find(":-1#"), std::string::npos) << token_of(scoped);
  std::vector<http::Header> range = query;
  range.push_back({"x-ms-documentdb-partitionkeyrangeid", "1"});
  const http::Response ranged =
      Handle(Signed("POST", "/dbs/db/colls/two/docs", R"({"query":"SELECT * FROM c"})", range));
  ASSERT_EQ(ranged.status, 200) << ranged.body;
  EXPECT_EQ(token_of(ranged).rfind("1:", 0), 0u) << token_of(ranged);
  EXPECT_EQ(token_of(ranged).find(','), std::string::npos) << token_of(ranged);
}

// An item by its _self link (the Python SDK's read, replace, patch and delete of an item
// passed as a dict), signed with the item's rid in lower case, for every verb.
TEST_F(ServiceHeaderChecksTest, ItemsByTheirRidLinks) {
  const http::Response created = Handle(Signed("POST", "/dbs/db/colls/c/docs", kItem, {kItemKey}));
  ASSERT_EQ(created.status, 201);
  const std::string self = Body(created).Find("_self")->as_string();
  const std::string rid = LowerAscii(Body(created).Find("_rid")->as_string());
  const http::Response read = Handle(SignedAs("GET", "/" + self, "docs", rid, {kItemKey}));
  EXPECT_EQ(read.status, 200) << read.body;
  EXPECT_EQ(Body(read).Find("id")->as_string(), "a");
  const http::Response replaced =
      Handle(SignedAs("PUT", "/" + self, "docs", rid, {kItemKey}, R"({"id":"a","pk":"p","n":2})"));
  EXPECT_EQ(replaced.status, 200) << replaced.body;
  EXPECT_EQ(Body(replaced).Find("n")->as_int(), 2);
  EXPECT_EQ(Handle(SignedAs("PATCH", "/" + self, "docs", rid, {kItemKey},
                            R"({"operations":[{"op":"incr","path":"/n","value":1}]})"))
                .status,
            200);
  EXPECT_EQ(Handle(SignedAs("DELETE", "/" + self, "docs", rid, {kItemKey})).status, 204);
  // The rid names nothing now, whatever the verb.
  EXPECT_EQ(Handle(SignedAs("GET", "/" + self, "docs", rid, {kItemKey})).status, 404);
  EXPECT_EQ(Handle(SignedAs("PUT", "/" + self, "docs", rid, {kItemKey}, kItem)).status, 404);
  EXPECT_FALSE(ItemExists("a", "p"));
  // Signed over the names instead: not this request's signature.
  ASSERT_EQ(Handle(Signed("POST", "/dbs/db/colls/c/docs", kItem, {kItemKey})).status, 201);
  EXPECT_EQ(Handle(SignedAs("GET", "/" + self, "docs", "dbs/db/colls/c/docs/a", {kItemKey})).status,
            401);
}

// A container created without a partition key by a client of before 2018-12-31 is
// non-partitioned: newer clients see the system key, and every SDK's "no value" ([],
// [{}], [null], or no header at all) addresses its items without one.
TEST_F(ServiceHeaderChecksTest, NonPartitionedContainersOfOlderVersions) {
  const http::Header old_version{"x-ms-version", "2018-06-18"};
  const http::Header new_version{"x-ms-version", "2020-07-15"};
  ExpectBadRequest(Handle(Signed("POST", "/dbs/db/colls", R"({"id":"legacy"})", {new_version})),
                   "A Partition key definition is not specified in the request.");
  const http::Response created =
      Handle(Signed("POST", "/dbs/db/colls", R"({"id":"legacy"})", {old_version}));
  ASSERT_EQ(created.status, 201) << created.body;
  EXPECT_EQ(Body(created).Find("partitionKey"), nullptr);
  const http::Response read = Handle(Signed("GET", "/dbs/db/colls/legacy", "", {new_version}));
  ASSERT_EQ(read.status, 200);
  EXPECT_EQ(json::Write(*Body(read).Find("partitionKey")),
            R"({"paths":["/_partitionKey"],"kind":"Hash","systemKey":true})");

  const std::string docs = "/dbs/db/colls/legacy/docs";
  const http::Response old_item =
      Handle(Signed("POST", docs, R"({"id":"old"})", {{"x-ms-documentdb-partitionkey", "[]"}}));
  EXPECT_EQ(old_item.status, 201) << old_item.body;
  EXPECT_EQ(Handle(Signed("POST", docs, R"({"id":"keyed","_partitionKey":"k"})",
                          {{"x-ms-documentdb-partitionkey", R"(["k"])"}}))
                .status,
            201);
  for (const char* none : {"[]", "[{}]", "[null]"}) {
    EXPECT_EQ(
        Handle(Signed("GET", docs + "/old", "", {{"x-ms-documentdb-partitionkey", none}})).status,
        200)
        << none;
  }
  EXPECT_EQ(Handle(Signed("GET", docs + "/old")).status, 200);
  EXPECT_EQ(
      Handle(Signed("GET", docs + "/keyed", "", {{"x-ms-documentdb-partitionkey", "[]"}})).status,
      404);
  const http::Response none_only = Handle(SignedAs("POST", docs, "docs", "dbs/db/colls/legacy",
                                                   {{"x-ms-documentdb-isquery", "true"},
                                                    {"content-type", "application/query+json"},
                                                    {"x-ms-documentdb-partitionkey", "[]"}},
                                                   R"({"query":"SELECT VALUE c.id FROM c"})"));
  ASSERT_EQ(none_only.status, 200) << none_only.body;
  EXPECT_EQ(json::Write(*Body(none_only).Find("Documents")), R"(["old"])");
  // A replace through an SDK that drops systemKey (Go's) keeps the key.
  json::Value replace = Body(read);
  json::Value pk = *replace.Find("partitionKey");
  pk.Remove("systemKey");
  replace.Set("partitionKey", pk);
  const http::Response replaced =
      Handle(Signed("PUT", "/dbs/db/colls/legacy", json::Write(replace), {new_version}));
  EXPECT_EQ(replaced.status, 200) << replaced.body;
  EXPECT_EQ(json::Write(*Body(replaced).Find("partitionKey")),
            R"({"paths":["/_partitionKey"],"kind":"Hash","systemKey":true})");
}

// POST .../operations/partitionkeydelete, signed as the container (type colls, its link):
// the items of the key are gone at once, the others stay.
TEST_F(ServiceHeaderChecksTest, DeletingTheItemsOfAPartitionKey) {
  ASSERT_EQ(Handle(Signed("POST", "/dbs/db/colls/c/docs", kItem, {kItemKey})).status, 201);
  ASSERT_EQ(Handle(Signed("POST", "/dbs/db/colls/c/docs", R"({"id":"b","pk":"q"})",
                          {{"x-ms-documentdb-partitionkey", R"(["q"])"}}))
                .status,
            201);
  const std::string target = "/dbs/db/colls/c/operations/partitionkeydelete";
  // Signed over the operation's own path: not how the SDKs sign it.
  EXPECT_EQ(Handle(SignedAs("POST", target, "operations",
                            "dbs/db/colls/c/operations/partitionkeydelete", {kItemKey}))
                .status,
            401);
  EXPECT_TRUE(ItemExists("a", "p"));
  const http::Response deleted =
      Handle(SignedAs("POST", target, "colls", "dbs/db/colls/c", {kItemKey}));
  EXPECT_EQ(deleted.status, 200) << deleted.body;
  EXPECT_TRUE(deleted.body.empty());
  EXPECT_FALSE(ItemExists("a", "p"));
  EXPECT_TRUE(ItemExists("b", "q"));
  // Without a key: the service's 400/1001.
  const http::Response no_key = Handle(SignedAs("POST", target, "colls", "dbs/db/colls/c"));
  EXPECT_EQ(no_key.status, 400);
  EXPECT_EQ(HeaderOf(no_key, "x-ms-substatus"), "1001");
  // Of a container that does not exist: the owner is missing.
  const http::Response missing =
      Handle(SignedAs("POST", "/dbs/db/colls/none/operations/partitionkeydelete", "colls",
                      "dbs/db/colls/none", {kItemKey}));
  EXPECT_EQ(missing.status, 404);
  EXPECT_EQ(HeaderOf(missing, "x-ms-substatus"), "1003");
}

}  // namespace
}  // namespace orrery::api
