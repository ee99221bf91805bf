#include "api/auth.h"

#include <atomic>
#include <ctime>
#include <vector>

#include "api/headers.h"
#include "common/civil_date.h"
#include "common/crypto.h"
#include "common/encoding.h"

namespace orrery::api {
namespace {

constexpr const char* kMissingAuthorization =
    "Required Header authorization is missing. Ensure a valid Authorization token is passed.";
constexpr const char* kMissingDate =
    "The input authorization token can't serve the request. The request must carry an x-ms-date "
    "header (or a Date header) in RFC 1123 format.";

// Views into the header, or into `decoded` when the header was percent-encoded: no
// copy per request of a header that is almost never encoded.
struct AuthToken {
  std::string decoded;
  std::string_view type;
  std::string_view version;
  std::string_view signature;
};

bool ParseAuthToken(std::string_view header, AuthToken& token) {
  std::string_view rest = header;
  if (header.find('%') != std::string_view::npos) {
    std::optional<std::string> d = PercentDecode(header);
    if (!d) return false;
    token.decoded = std::move(*d);
    rest = token.decoded;
  }
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
  return true;
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

namespace {

int MonthIndex(std::string_view m) {
  static constexpr std::string_view kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                 "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  for (int i = 0; i < 12; ++i) {
    if (EqualsIgnoreCase(m, kMonths[i])) return i;
  }
  return -1;
}

bool ParseDigits(std::string_view s, int& out) {
  if (s.empty()) return false;
  out = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    out = out * 10 + (c - '0');
  }
  return true;
}

}  // namespace

// "Wed, 02 Dec 2026 16:30:47 GMT", fixed layout (JavaScript's toUTCString and .NET's
// "r" format both produce it). Parsed by hand: this runs on every request.
std::optional<std::chrono::system_clock::time_point> ParseRfc1123(std::string_view text) {
  if (text.size() != 29 || text[3] != ',' || text[4] != ' ' || text[7] != ' ' || text[11] != ' ' ||
      text[16] != ' ' || text[19] != ':' || text[22] != ':' || text[25] != ' ' ||
      !EqualsIgnoreCase(text.substr(26), "GMT")) {
    return std::nullopt;
  }
  int day = 0, year = 0, hour = 0, minute = 0, second = 0;
  const int month = MonthIndex(text.substr(8, 3));
  if (month < 0 || !ParseDigits(text.substr(5, 2), day) || !ParseDigits(text.substr(12, 4), year) ||
      !ParseDigits(text.substr(17, 2), hour) || !ParseDigits(text.substr(20, 2), minute) ||
      !ParseDigits(text.substr(23, 2), second) || day < 1 || day > 31 || hour > 23 || minute > 59 ||
      second > 60) {
    return std::nullopt;
  }
  const int64_t seconds =
      DaysFromCivil(year, month + 1, day) * 86400 + hour * 3600 + minute * 60 + second;
  return std::chrono::system_clock::time_point(std::chrono::seconds(seconds));
}

Authenticator::Authenticator(std::vector<Key> keys, const Clock& clock)
    : keys_(std::move(keys)), clock_(&clock) {
  static std::atomic<uint64_t> next_id{1};
  id_ = next_id.fetch_add(1);
}

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
  std::vector<Key> entries;
  entries.push_back({HmacSha256Key(primary), Access::kReadWrite});
  if (!secondary.empty()) entries.push_back({HmacSha256Key(secondary), Access::kReadWrite});
  if (!read_only.empty()) entries.push_back({HmacSha256Key(read_only), Access::kReadOnly});
  return Authenticator(std::move(entries), clock);
}

std::optional<Access> Authenticator::Verify(std::string_view payload,
                                            std::string_view signature) const {
  // SDKs sign with a one-second date, so concurrent requests to one resource link
  // (every create into a container, say) carry identical payload and signature.
  // A small per-thread memo of verified pairs spares the HMAC for those.
  struct Memo {
    uint64_t owner = 0;
    std::string payload;
    std::string signature;
    Access access = Access::kReadWrite;
  };
  constexpr size_t kMemoSize = 16;
  thread_local Memo memo[kMemoSize];
  thread_local size_t next_slot = 0;
  for (const Memo& m : memo) {
    if (m.owner == id_ && m.signature == signature && m.payload == payload) return m.access;
  }
  std::optional<std::string> given = Base64Decode(signature);
  if (!given) return std::nullopt;
  for (const Key& key : keys_) {
    if (ConstantTimeEquals(key.mac.Sign(payload), *given)) {
      // Assigned member by member, the slot's strings keep their capacity.
      Memo& slot = memo[next_slot];
      slot.owner = id_;
      slot.payload.assign(payload);
      slot.signature.assign(signature);
      slot.access = key.access;
      next_slot = (next_slot + 1) % kMemoSize;
      return key.access;
    }
  }
  return std::nullopt;
}

std::string Rfc1123Now() {
  char out[64];
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  std::strftime(out, sizeof(out), "%a, %d %b %Y %H:%M:%S GMT", &tm);
  return out;
}

std::string SignaturePayload(std::string_view verb, std::string_view resource_type,
                             std::string_view resource_link, std::string_view date) {
  // Built in one string: this runs for every request.
  std::string out;
  out.reserve(verb.size() + resource_type.size() + resource_link.size() + date.size() + 5);
  const auto append_lower = [&out](std::string_view text) {
    for (char c : text) out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  };
  append_lower(verb);
  out += '\n';
  append_lower(resource_type);
  out += '\n';
  out += resource_link;
  out += '\n';
  append_lower(date);
  out += "\n\n";
  return out;
}

std::string MasterKeyAuthorization(std::string_view key_base64, std::string_view payload) {
  const std::string signature = Base64Encode(HmacSha256(*Base64Decode(key_base64), payload));
  return PercentEncode("type=master&ver=1.0&sig=" + signature);
}

Status ReadOnlyKeyCannotWrite(const http::Request& request, const ResourcePath& path) {
  const std::string* date = request.FindHeader(headers::kMsDate);
  if (date == nullptr) date = request.FindHeader(headers::kDate);
  return Status::Unauthorized(UnauthorizedMessage(SignaturePayload(
      request.method, path.resource_type, path.resource_link, date ? *date : std::string())));
}

Result<Access> Authenticator::Authenticate(const http::Request& request,
                                           const ResourcePath& path) const {
  const std::string* header = request.FindHeader(headers::kAuthorization);
  if (header == nullptr || header->empty()) {
    return Status::Unauthorized(kMissingAuthorization);
  }
  AuthToken parsed;
  const AuthToken* token = ParseAuthToken(*header, parsed) ? &parsed : nullptr;
  if (!token || token->signature.empty()) {
    return Status::Unauthorized(
        "The authorization token is malformed: expected type=master&ver=1.0&sig=<signature>.");
  }
  if (token->type != "master") {
    return Status::Unauthorized("Authorization tokens of type '" + std::string(token->type) +
                                "' are not accepted by this account: sign requests with a "
                                "master key (type=master).");
  }
  const std::string* date = request.FindHeader(headers::kMsDate);
  if (date == nullptr) date = request.FindHeader(headers::kDate);
  if (date == nullptr || date->empty()) {
    return Status::Unauthorized(kMissingDate);
  }

  const std::string payload =
      SignaturePayload(request.method, path.resource_type, path.resource_link, *date);
  std::optional<Access> access = Verify(payload, token->signature);
  if (!access) {
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
  return *access;
}

}  // namespace orrery::api
