#include "api/auth.h"

#include <gtest/gtest.h>

#include "common/encoding.h"

namespace orrery::api {
namespace {

// The worked example of Microsoft's REST documentation ("Access control on Cosmos DB
// resources"): this key, verb, link and date sign to c09PEVJrgp2u...
constexpr const char* kDocKey =
    "dsZQi3KtZmCv1ljt3VNWNm7sQUF1y5rJfC6kv5JiwvW0EndXdDku/dkKBp8/ufDToSxLzR4y+O/0H/t4bQtVNw==";
constexpr const char* kDocDate = "Thu, 27 Apr 2017 00:51:12 GMT";
constexpr const char* kDocSignature = "c09PEVJrgp2uQRkr934kFbTqhByc7TVr3OHyqlu+c+c=";

http::Request SignedGet(std::string target, std::string auth, std::string date = kDocDate) {
  http::Request r;
  r.method = "GET";
  r.target = std::move(target);
  r.headers.push_back({"authorization", std::move(auth)});
  r.headers.push_back({"x-ms-date", std::move(date)});
  return r;
}

std::string EncodedToken(const std::string& signature) {
  std::string raw = "type=master&ver=1.0&sig=" + signature;
  std::string out;
  for (char c : raw) {
    if (c == '=' || c == '&' || c == '+' || c == '/') {
      static const char* hex = "0123456789ABCDEF";
      out += '%';
      out += hex[(c >> 4) & 0xF];
      out += hex[c & 0xF];
    } else {
      out += c;
    }
  }
  return out;
}

class AuthTest : public ::testing::Test {
 protected:
  ManualClock clock_{*ParseRfc1123(kDocDate)};
  Authenticator Make(AccountKeys keys) {
    return std::move(Authenticator::Create(keys, clock_)).value();
  }
  Result<Access> Check(const Authenticator& auth, const http::Request& r) {
    return auth.Authenticate(r, *ParseResourcePath(r.target));
  }
};

TEST_F(AuthTest, AcceptsTheDocumentedSignatureEncodedOrNot) {
  Authenticator auth = Make({kDocKey, "", ""});
  EXPECT_TRUE(Check(auth, SignedGet("/dbs/ToDoList", EncodedToken(kDocSignature))).ok());
  EXPECT_TRUE(Check(auth, SignedGet("/dbs/ToDoList",
                                    std::string("type=master&ver=1.0&sig=") + kDocSignature))
                  .ok());
}

TEST_F(AuthTest, WrongKeyOrLinkIsUnauthorizedAndShowsThePayload) {
  Authenticator auth = Make({kEmulatorMasterKey, "", ""});
  Result<Access> r = Check(auth, SignedGet("/dbs/ToDoList", EncodedToken(kDocSignature)));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kUnauthorized);
  EXPECT_NE(r.status().message().find("get\\ndbs\\ndbs/ToDoList\\nthu, 27 apr 2017"),
            std::string::npos)
      << r.status().message();
  Authenticator right_key = Make({kDocKey, "", ""});
  EXPECT_FALSE(Check(right_key, SignedGet("/dbs/todolist", EncodedToken(kDocSignature))).ok());
}

TEST_F(AuthTest, SecondaryAndReadOnlyKeys) {
  Authenticator auth = Make({kEmulatorMasterKey, kDocKey, ""});
  EXPECT_EQ(*Check(auth, SignedGet("/dbs/ToDoList", EncodedToken(kDocSignature))),
            Access::kReadWrite);
  Authenticator read_only = Make({kEmulatorMasterKey, "", kDocKey});
  EXPECT_EQ(*Check(read_only, SignedGet("/dbs/ToDoList", EncodedToken(kDocSignature))),
            Access::kReadOnly);
}

TEST_F(AuthTest, MissingHeaderAndOtherTokenTypesAreUnauthorized) {
  Authenticator auth = Make({kDocKey, "", ""});
  http::Request r = SignedGet("/dbs/ToDoList", "");
  r.headers.erase(r.headers.begin());
  Result<Access> missing = Check(auth, r);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("Required Header authorization is missing"),
            std::string::npos);
  Result<Access> resource = Check(auth, SignedGet("/dbs/ToDoList", "type=resource&ver=1&sig=x"));
  EXPECT_EQ(resource.status().code(), StatusCode::kUnauthorized);
}

TEST_F(AuthTest, DatesBeyondFifteenMinutesAreForbidden) {
  Authenticator auth = Make({kDocKey, "", ""});
  clock_.Advance(std::chrono::minutes(14));
  EXPECT_TRUE(Check(auth, SignedGet("/dbs/ToDoList", EncodedToken(kDocSignature))).ok());
  clock_.Advance(std::chrono::minutes(2));
  Result<Access> late = Check(auth, SignedGet("/dbs/ToDoList", EncodedToken(kDocSignature)));
  ASSERT_FALSE(late.ok());
  EXPECT_EQ(late.status().code(), StatusCode::kForbidden);
}

TEST(Rfc1123Test, ParsesAndRejects) {
  auto t = ParseRfc1123("Wed, 02 Dec 2026 16:30:47 GMT");
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(std::chrono::system_clock::to_time_t(*t), 1796229047);
  EXPECT_EQ(std::chrono::system_clock::to_time_t(*ParseRfc1123("Thu, 01 Jan 1970 00:00:00 GMT")),
            0);
  EXPECT_EQ(std::chrono::system_clock::to_time_t(*ParseRfc1123("Tue, 29 Feb 2028 23:59:59 GMT")),
            1835481599);
  EXPECT_FALSE(ParseRfc1123("2026-12-02T16:30:47Z").has_value());
  EXPECT_FALSE(ParseRfc1123("Wed, 02 Foo 2026 16:30:47 GMT").has_value());
  EXPECT_FALSE(ParseRfc1123("Wed, 02 Dec 2026 16:30:47 UTC").has_value());
  EXPECT_FALSE(ParseRfc1123("Wed, 02 Dec 2026 25:30:47 GMT").has_value());
}

TEST_F(AuthTest, RepeatedRequestsVerifyTheSameAndAnotherKeyIsNotFooledByTheMemo) {
  Authenticator auth = Make({kDocKey, "", ""});
  Authenticator other = Make({kEmulatorMasterKey, "", ""});
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(Check(auth, SignedGet("/dbs/ToDoList", EncodedToken(kDocSignature))).ok());
    EXPECT_FALSE(Check(other, SignedGet("/dbs/ToDoList", EncodedToken(kDocSignature))).ok());
  }
}

}  // namespace
}  // namespace orrery::api
