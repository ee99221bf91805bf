#include "engine/resource_id.h"

#include <algorithm>
#include <optional>

#include "common/encoding.h"

namespace orrery::engine {
namespace {

std::string Encode(const std::string& bytes) {
  std::string text = Base64Encode(bytes);
  std::replace(text.begin(), text.end(), '/', '-');
  return text;
}

// The bytes of a rid Encode made (the container's, stored with it).
std::string Decode(const std::string& rid) {
  std::string text = rid;
  std::replace(text.begin(), text.end(), '-', '/');
  std::optional<std::string> bytes = Base64Decode(text);
  return bytes ? *bytes : std::string();
}

}  // namespace

std::string DatabaseRid(uint32_t database_number) {
  std::string bytes;
  AppendFixed32LE(bytes, database_number);
  return Encode(bytes);
}

std::string ContainerRid(uint32_t database_number, uint32_t container_number) {
  std::string bytes;
  AppendFixed32LE(bytes, database_number);
  AppendFixed32BE(bytes, container_number | 0x80000000u);
  return Encode(bytes);
}

std::string ItemRid(const std::string& container_rid, uint64_t item_number) {
  std::string bytes = Decode(container_rid);
  AppendFixed64LE(bytes, item_number & 0x00FFFFFFFFFFFFFFull);  // top byte: type 0x0
  return Encode(bytes);
}

std::string PartitionKeyRangeRid(const std::string& container_rid, uint32_t range_number) {
  std::string bytes = Decode(container_rid);
  AppendFixed64LE(bytes, (uint64_t{0x50} << 56) | (range_number + 1));
  return Encode(bytes);
}

std::string TypedChildRid(const std::string& container_rid, uint8_t type, uint64_t number) {
  std::string bytes = Decode(container_rid);
  AppendFixed64LE(bytes, (uint64_t{type} << 56) | (number & 0x00FFFFFFFFFFFFFFull));
  return Encode(bytes);
}

uint64_t RidOrder(const std::string& rid) {
  const std::string bytes = Decode(rid);
  if (bytes.size() != 16) return 0;
  uint64_t number = 0;
  for (int i = 7; i >= 0; --i) number = (number << 8) | static_cast<unsigned char>(bytes[8 + i]);
  return number & 0x00FFFFFFFFFFFFFFull;
}

}  // namespace orrery::engine
