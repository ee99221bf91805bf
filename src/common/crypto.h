#pragma once

// Cryptographic primitives (OpenSSL underneath).

#include <cstdint>
#include <string>
#include <string_view>

namespace orrery {

// Raw 32-byte HMAC-SHA256 of message under key.
std::string HmacSha256(std::string_view key, std::string_view message);

// Constant-time comparison, for signatures.
bool ConstantTimeEquals(std::string_view a, std::string_view b);

// Cryptographically random bytes / a random 64-bit value.
std::string RandomBytes(size_t n);
uint64_t RandomU64();

// A random GUID in the canonical 8-4-4-4-12 lowercase form, e.g. for activity ids.
std::string RandomGuid();

}  // namespace orrery
