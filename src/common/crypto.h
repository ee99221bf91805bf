#pragma once

// Cryptographic primitives (OpenSSL underneath).

#include <cstdint>
#include <string>
#include <string_view>

namespace orrery {

// Raw 32-byte HMAC-SHA256 of message under key.
std::string HmacSha256(std::string_view key, std::string_view message);

// HMAC-SHA256 under one fixed key, with the keyed inner and outer hash states
// computed once: signing a message then costs two hash continuations instead of a
// full HMAC set-up. Thread-safe: Sign() may run concurrently.
class HmacSha256Key {
 public:
  explicit HmacSha256Key(std::string_view key);
  ~HmacSha256Key();
  HmacSha256Key(HmacSha256Key&& other) noexcept;
  HmacSha256Key& operator=(HmacSha256Key&& other) noexcept;
  HmacSha256Key(const HmacSha256Key&) = delete;
  HmacSha256Key& operator=(const HmacSha256Key&) = delete;

  // Raw 32-byte MAC.
  std::string Sign(std::string_view message) const;

 private:
  void* inner_ = nullptr;  // EVP_MD_CTX*, kept opaque so OpenSSL stays out of headers
  void* outer_ = nullptr;
};

// Constant-time comparison, for signatures.
bool ConstantTimeEquals(std::string_view a, std::string_view b);

// Cryptographically random bytes / a random 64-bit value.
std::string RandomBytes(size_t n);
uint64_t RandomU64();

// A random GUID in the canonical 8-4-4-4-12 lowercase form, e.g. for activity ids.
std::string RandomGuid();

}  // namespace orrery
