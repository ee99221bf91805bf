#include "storage/counter.h"

#include "common/encoding.h"

namespace orrery::storage {
namespace {

int64_t ReadFixed64(std::string_view in) {
  uint64_t u = 0;
  for (int i = 0; i < 8; ++i)
    u |= static_cast<uint64_t>(static_cast<unsigned char>(in[i])) << (8 * i);
  return static_cast<int64_t>(u);
}

}  // namespace

std::string EncodeCounter(const Counter& counter) {
  std::string out;
  out.reserve(16 + counter.label.size());
  AppendFixed64LE(out, static_cast<uint64_t>(counter.count));
  AppendFixed64LE(out, static_cast<uint64_t>(counter.bytes));
  out += counter.label;
  return out;
}

std::optional<Counter> DecodeCounter(std::string_view value) {
  if (value.size() < 16) return std::nullopt;
  Counter out;
  out.count = ReadFixed64(value.substr(0, 8));
  out.bytes = ReadFixed64(value.substr(8, 8));
  out.label = std::string(value.substr(16));
  return out;
}

}  // namespace orrery::storage
