#pragma once

// Master-key authorization exactly as the service checks it (wire-protocol.md §3):
// HMAC-SHA256 over verb, resource type, resource link and date under one of the
// account's keys, the date within 15 minutes of the server's clock. Thread-safe.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/resource_path.h"
#include "common/clock.h"
#include "common/crypto.h"
#include "common/http_message.h"
#include "common/status.h"

namespace orrery::api {

// The well-known key of the Cosmos DB emulator, so SDKs configured for it work as-is.
inline constexpr const char* kEmulatorMasterKey =
    "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==";

struct AccountKeys {
  std::string primary;    // base64, as users configure them
  std::string secondary;  // optional
  std::string read_only;  // optional: may read and query, never write
};

enum class Access { kReadWrite, kReadOnly };

class Authenticator {
 public:
  // Errors: BadRequest naming the key that is not valid base64.
  static Result<Authenticator> Create(const AccountKeys& keys, const Clock& clock);

  // The access the request's signature grants. Errors: Unauthorized (missing,
  // malformed or wrong signature; other token types), Forbidden (date out of range).
  Result<Access> Authenticate(const http::Request& request, const ResourcePath& path) const;

  static constexpr std::chrono::minutes kAllowedClockSkew{15};

 private:
  struct Key {
    HmacSha256Key mac;
    Access access;
  };
  Authenticator(std::vector<Key> keys, const Clock& clock);
  // The access granted by the first key whose MAC of payload equals signature.
  std::optional<Access> Verify(std::string_view payload, std::string_view signature) const;

  std::vector<Key> keys_;
  const Clock* clock_;
  uint64_t id_;  // tells apart the verification caches of different authenticators
};

// The string a master-key signature covers (wire-protocol.md §3.1), and a client's
// Authorization header signing it: "type=master&ver=1.0&sig=<base64>" percent-encoded.
// REQUIRES: key_base64 is valid base64.
std::string SignaturePayload(std::string_view verb, std::string_view resource_type,
                             std::string_view resource_link, std::string_view date);
std::string MasterKeyAuthorization(std::string_view key_base64, std::string_view payload);

// The answer to a write signed with the read-only key: the service checks a write's
// signature against the read-write keys only, so it refuses it as a wrong signature
// (401, "The input authorization token can't serve the request..."), not as a 403.
Status ReadOnlyKeyCannotWrite(const http::Request& request, const ResourcePath& path);

// Parses an RFC 1123 date ("Wed, 02 Dec 2026 16:30:47 GMT").
// The current time as an RFC 1123 date, as clients put it in x-ms-date.
std::string Rfc1123Now();
std::optional<std::chrono::system_clock::time_point> ParseRfc1123(std::string_view text);

}  // namespace orrery::api
