#include "index/vector_terms.h"

#include <cstring>

#include "common/encoding.h"
#include "storage/keys.h"

namespace orrery::index {
namespace {

void AppendFloat(std::string& key, float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  for (int i = 0; i < 4; ++i) key += static_cast<char>((bits >> (8 * i)) & 0xFF);
}

// 0x11 | container (4) | partition (4) | 0x05 | vector index (4) | EPK ...
constexpr size_t kMarkerAt = 9;
constexpr size_t kVectorIndexAt = 10;

}  // namespace

std::optional<uint32_t> VectorIndexOfKey(std::string_view key) {
  if (key.size() <= kVectorIndexAt + 4 || key[kMarkerAt] != kVectorMarker) return std::nullopt;
  return DecodeFixed32BE(key.substr(kVectorIndexAt, 4));
}

std::string VectorIndexPrefix(uint32_t container, uint32_t partition, uint32_t vector_index) {
  std::string key(1, storage::keys::kIndexSpace);
  AppendFixed32BE(key, container);
  AppendFixed32BE(key, partition);
  key += kVectorMarker;
  AppendFixed32BE(key, vector_index);
  return key;
}

std::vector<std::string> VectorEntryKeys(const query::VectorPolicy& policy,
                                         const json::Value& document, const ItemLocation& where) {
  std::vector<std::string> keys;
  const std::vector<query::VectorIndexSpec>& indexes = policy.indexes();
  for (size_t i = 0; i < indexes.size(); ++i) {
    const query::VectorEmbedding* embedding = policy.Find(indexes[i].segments);
    if (embedding == nullptr) continue;
    const json::Value* value = document.FindPath(embedding->segments);
    if (value == nullptr || !value->is_array() ||
        value->as_array().size() != static_cast<size_t>(embedding->dimensions)) {
      continue;
    }
    std::string key = VectorIndexPrefix(where.container, where.partition, static_cast<uint32_t>(i));
    key.append(where.epk);
    key += '\0';
    key.append(where.id);
    key += '\0';
    bool numbers = true;
    for (const json::Value& element : value->as_array()) {
      if (!element.is_number()) {
        numbers = false;
        break;
      }
      AppendFloat(key, static_cast<float>(element.as_double()));
    }
    if (numbers) keys.push_back(std::move(key));
  }
  return keys;
}

std::optional<VectorEntryView> ParseVectorEntry(std::string_view rest, int dimensions) {
  const size_t vector_bytes = static_cast<size_t>(dimensions) * 4;
  if (rest.size() < vector_bytes + 2) return std::nullopt;
  const std::string_view vector = rest.substr(rest.size() - vector_bytes);
  rest.remove_suffix(vector_bytes);
  if (rest.back() != '\0') return std::nullopt;
  rest.remove_suffix(1);
  const size_t zero = rest.find('\0');  // EPKs are hex: the first 0x00 ends it
  if (zero == std::string_view::npos) return std::nullopt;
  return VectorEntryView{rest.substr(0, zero), rest.substr(zero + 1), vector};
}

float VectorElement(std::string_view vector, size_t i) {
  uint32_t bits = 0;
  for (int b = 0; b < 4; ++b) {
    bits |= static_cast<uint32_t>(static_cast<uint8_t>(vector[i * 4 + b])) << (8 * b);
  }
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

}  // namespace orrery::index
