#include "api/auth.h"

#include <time.h>

#include <vector>

#include "api/headers.h"
#include "common/crypto.h"
#include "common/encoding.h"

namespace orrery::api {
namespace {

constexpr const char* kMissingAuthorization =
    "Required Header authorization is missing. Ensure a valid Authorization token is passed.";
constexpr const char* kMissingDate =
    "The input authorization token can't serve the request. The request must carry an x-ms-date "
    "header (or a Date header) in RFC 1123 format.";

struct AuthToken {
  std::string type;
  std::string version;
  std::string signature;
};

std::optional<AuthToken> ParseAuthToken(std::string_view header) {
  std::string decoded(header);
  if (header.find('%') != std::string_view::npos) {
    std::optional<std::string> d = PercentDecode(header);
    if (!d) return std::nullopt;
    decoded = std::move(*d);
  }
  AuthToken token;
  std::string_view rest = decoded;
  while (!rest.empty()) {
    size_t amp = rest.find('&');
    std::string_view part = rest.substr(0, amp);
    size_t eq = part.find('=');
    if (eq != std::string_view::npos) {
      std::string_view name = part.substr(0, eq);
      std::string_view value = part.substr(eq + 1);
      if (name == "type")
        token.type = value;
      else if (name == "ver")
        token.version = value;
      else if (name == "sig")
        token.signature = value;
    }
    rest = amp == std::string_view::npos ? std::string_view() : rest.substr(amp + 1);
  }
  return token;
}

std::string UnauthorizedMessage(const std::string& payload) {
  std::string shown;
  for (char c : payload) {
    if (c == '\n')
      shown += "\\n";
    else
      shown += c;
  }
  return "The input authorization token can't serve the request. The wrong key is being used or "
         "the expected payload is not built as per the protocol. For more info: "
         "https://aka.ms/cosmosdb-tsg-mac-signature. Server used the following payload to sign: '" +
         shown + "'";
}

}  // namespace

std::optional<std::chrono::system_clock::time_point> ParseRfc1123(std::string_view text) {
  std::string copy(text);
  struct tm tm {};
  const char* end = strptime(copy.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &tm);
  if (end == nullptr || *end != '\0') {
    return std::nullopt;
  }
  time_t t = timegm(&tm);
  if (t == -1) return std::nullopt;
  return std::chrono::system_clock::from_time_t(t);
}

Authenticator::Authenticator(std::string primary, std::string secondary, std::string read_only,
                             const Clock& clock)
    : primary_(std::move(primary)),
      secondary_(std::move(secondary)),
      read_only_(std::move(read_only)),
      clock_(&clock) {}

Result<Authenticator> Authenticator::Create(const AccountKeys& keys, const Clock& clock) {
  auto decode = [](const std::string& key, const char* name) -> Result<std::string> {
    if (key.empty()) return std::string();
    std::optional<std::string> bytes = Base64Decode(key);
    if (!bytes || bytes->empty()) {
      return Status::BadRequest(std::string("the ") + name + " is not valid base64");
    }
    return std::move(*bytes);
  };
  ORRERY_ASSIGN_OR_RETURN(std::string primary, decode(keys.primary, "--key"));
  ORRERY_ASSIGN_OR_RETURN(std::string secondary, decode(keys.secondary, "--secondary-key"));
  ORRERY_ASSIGN_OR_RETURN(std::string read_only, decode(keys.read_only, "--readonly-key"));
  if (primary.empty()) {
    return Status::BadRequest("the --key must not be empty");
  }
  return Authenticator(std::move(primary), std::move(secondary), std::move(read_only), clock);
}

Result<Access> Authenticator::Authenticate(const http::Request& request,
                                           const ResourcePath& path) const {
  const std::string* header = request.FindHeader(headers::kAuthorization);
  if (header == nullptr || header->empty()) {
    return Status::Unauthorized(kMissingAuthorization);
  }
  std::optional<AuthToken> token = ParseAuthToken(*header);
  if (!token || token->signature.empty()) {
    return Status::Unauthorized(
        "The authorization token is malformed: expected type=master&ver=1.0&sig=<signature>.");
  }
  if (token->type != "master") {
    return Status::Unauthorized("Authorization tokens of type '" + token->type +
                                "' are not accepted by this account: sign requests with a "
                                "master key (type=master).");
  }
  const std::string* date = request.FindHeader(headers::kMsDate);
  if (date == nullptr) date = request.FindHeader(headers::kDate);
  if (date == nullptr || date->empty()) {
    return Status::Unauthorized(kMissingDate);
  }

  const std::string payload = LowerAscii(request.method) + "\n" + LowerAscii(path.resource_type) +
                              "\n" + path.resource_link + "\n" + LowerAscii(*date) + "\n\n";
  std::optional<std::string> given = Base64Decode(token->signature);
  Access access = Access::kReadWrite;
  bool matched = false;
  if (given) {
    for (const std::string* key : {&primary_, &secondary_, &read_only_}) {
      if (!key->empty() && ConstantTimeEquals(HmacSha256(*key, payload), *given)) {
        matched = true;
        access = key == &read_only_ ? Access::kReadOnly : Access::kReadWrite;
        break;
      }
    }
  }
  if (!matched) {
    return Status::Unauthorized(UnauthorizedMessage(payload));
  }

  std::optional<std::chrono::system_clock::time_point> when = ParseRfc1123(*date);
  if (!when) {
    return Status::Unauthorized("The x-ms-date header '" + *date +
                                "' is not a valid RFC 1123 date.");
  }
  auto now = clock_->Now();
  auto skew = now > *when ? now - *when : *when - now;
  if (skew > kAllowedClockSkew) {
    return Status::Forbidden(
        "The authorization token is not valid at the current time. Please create another token "
        "and retry (token start time: " +
        *date +
        ", current server time: " + std::to_string(std::chrono::system_clock::to_time_t(now)) +
        " seconds since epoch; allowed clock skew: 15 minutes).");
  }
  return access;
}

}  // namespace orrery::api
