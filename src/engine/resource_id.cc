#include "engine/resource_id.h"

#include <algorithm>

#include "common/encoding.h"

namespace orrery::engine {
namespace {

std::string Encode(const std::string& bytes) {
  std::string text = Base64Encode(bytes);
  std::replace(text.begin(), text.end(), '/', '-');
  return text;
}

std::string ContainerBytes(uint32_t database_number, uint32_t container_number) {
  std::string bytes;
  AppendFixed32LE(bytes, database_number);
  AppendFixed32LE(bytes, container_number | 0x80000000u);
  return bytes;
}

}  // namespace

std::string DatabaseRid(uint32_t database_number) {
  std::string bytes;
  AppendFixed32LE(bytes, database_number);
  return Encode(bytes);
}

std::string ContainerRid(uint32_t database_number, uint32_t container_number) {
  return Encode(ContainerBytes(database_number, container_number));
}

std::string ItemRid(uint32_t database_number, uint32_t container_number, uint64_t item_number) {
  std::string bytes = ContainerBytes(database_number, container_number);
  AppendFixed64LE(bytes, item_number & 0x00FFFFFFFFFFFFFFull);  // top byte: type 0x0
  return Encode(bytes);
}

std::string PartitionKeyRangeRid(uint32_t database_number, uint32_t container_number,
                                 uint32_t range_number) {
  std::string bytes = ContainerBytes(database_number, container_number);
  AppendFixed64LE(bytes, (uint64_t{0x50} << 56) | (range_number + 1));
  return Encode(bytes);
}

}  // namespace orrery::engine
