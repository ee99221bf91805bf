#include "common/crypto.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <algorithm>
#include <memory>
#include <random>

namespace orrery {

std::string HmacSha256(std::string_view key, std::string_view message) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(message.data()), message.size(), digest, &length);
  return std::string(reinterpret_cast<const char*>(digest), length);
}

namespace {

EVP_MD_CTX* KeyedState(std::string_view key, unsigned char pad) {
  // RFC 2104: keys longer than the block are hashed first; then K xor pad.
  constexpr size_t kBlock = 64;
  unsigned char block[kBlock] = {};
  if (key.size() > kBlock) {
    unsigned int n = 0;
    EVP_Digest(key.data(), key.size(), block, &n, EVP_sha256(), nullptr);
  } else {
    std::copy(key.begin(), key.end(), block);
  }
  for (unsigned char& b : block) b ^= pad;
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  EVP_DigestInit_ex(ctx, EVP_sha256(), nullptr);
  EVP_DigestUpdate(ctx, block, kBlock);
  return ctx;
}

}  // namespace

HmacSha256Key::HmacSha256Key(std::string_view key)
    : inner_(KeyedState(key, 0x36)), outer_(KeyedState(key, 0x5c)) {}

HmacSha256Key::~HmacSha256Key() {
  EVP_MD_CTX_free(static_cast<EVP_MD_CTX*>(inner_));
  EVP_MD_CTX_free(static_cast<EVP_MD_CTX*>(outer_));
}

HmacSha256Key::HmacSha256Key(HmacSha256Key&& other) noexcept
    : inner_(other.inner_), outer_(other.outer_) {
  other.inner_ = nullptr;
  other.outer_ = nullptr;
}

HmacSha256Key& HmacSha256Key::operator=(HmacSha256Key&& other) noexcept {
  std::swap(inner_, other.inner_);
  std::swap(outer_, other.outer_);
  return *this;
}

std::string HmacSha256Key::Sign(std::string_view message) const {
  // Freed when the thread ends: threads that sign may come and go.
  thread_local const std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context(
      EVP_MD_CTX_new(), EVP_MD_CTX_free);
  EVP_MD_CTX* work = context.get();
  unsigned char inner_hash[EVP_MAX_MD_SIZE];
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_MD_CTX_copy_ex(work, static_cast<const EVP_MD_CTX*>(inner_));
  EVP_DigestUpdate(work, message.data(), message.size());
  EVP_DigestFinal_ex(work, inner_hash, &n);
  EVP_MD_CTX_copy_ex(work, static_cast<const EVP_MD_CTX*>(outer_));
  EVP_DigestUpdate(work, inner_hash, n);
  EVP_DigestFinal_ex(work, mac, &n);
  return std::string(reinterpret_cast<const char*>(mac), n);
}

bool ConstantTimeEquals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

std::string RandomBytes(size_t n) {
  std::string out(n, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(out.data()), static_cast<int>(n)) != 1) {
    // RAND_bytes only fails without an entropy source; fall back to the OS device.
    std::random_device device;
    for (char& c : out) c = static_cast<char>(device());
  }
  return out;
}

uint64_t RandomU64() {
  std::string bytes = RandomBytes(8);
  uint64_t v = 0;
  for (char c : bytes) v = (v << 8) | static_cast<uint8_t>(c);
  return v;
}

std::string RandomGuid() {
  // Activity ids are diagnostic, not secrets: a fast thread-local generator suffices.
  thread_local std::mt19937_64 rng(RandomU64());
  uint64_t hi = rng(), lo = rng();
  static constexpr char kHex[] = "0123456789abcdef";
  // Written into a fixed buffer: one per response, and appending 36 characters one by
  // one checked the string's capacity each time.
  char text[36];
  char* at = text;
  auto put = [&](uint64_t v, int nibbles) {
    for (int i = nibbles - 1; i >= 0; --i) *at++ = kHex[(v >> (4 * i)) & 0xF];
  };
  put(hi >> 32, 8);
  *at++ = '-';
  put(hi >> 16, 4);
  *at++ = '-';
  put((hi & 0x0FFF) | 0x4000, 4);
  *at++ = '-';
  put(((lo >> 48) & 0x3FFF) | 0x8000, 4);
  *at++ = '-';
  put(lo, 12);
  return std::string(text, sizeof text);
}

}  // namespace orrery
