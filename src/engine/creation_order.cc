#include "engine/creation_order.h"

#include <algorithm>

#include "common/encoding.h"
#include "engine/item_record.h"
#include "storage/keys.h"

namespace orrery::engine {
namespace {

constexpr char kPhysical = '\x00';
constexpr char kLogical = '\x01';

std::string ContainerPrefix(uint32_t container) {
  std::string key(1, storage::keys::kCreationOrderSpace);
  AppendFixed32BE(key, container);
  return key;
}

std::string PhysicalPrefix(uint32_t container, uint32_t partition) {
  std::string key = ContainerPrefix(container);
  key += kPhysical;
  AppendFixed32BE(key, partition);
  return key;
}

std::string LogicalPrefix(uint32_t container, std::string_view epk) {
  std::string key = ContainerPrefix(container);
  key += kLogical;
  key += epk;
  key += '\0';
  return key;
}

}  // namespace

std::string CreationKey(uint32_t container, uint32_t partition, uint64_t number) {
  std::string key = PhysicalPrefix(container, partition);
  AppendFixed64BE(key, number);
  return key;
}

std::string CreationBegin(uint32_t container, uint32_t partition, uint64_t after_number) {
  return CreationKey(container, partition, after_number + 1);
}

std::string CreationEnd(uint32_t container, uint32_t partition) {
  return PhysicalPrefix(container, partition + 1);
}

std::string LogicalCreationKey(uint32_t container, std::string_view epk, uint64_t number) {
  std::string key = LogicalPrefix(container, epk);
  AppendFixed64BE(key, number);
  return key;
}

std::string LogicalCreationBegin(uint32_t container, std::string_view epk, uint64_t after_number) {
  return LogicalCreationKey(container, epk, after_number + 1);
}

std::string LogicalCreationEnd(uint32_t container, std::string_view epk) {
  std::string key = LogicalPrefix(container, epk);
  key.back() = '\x01';
  return key;
}

std::string CreationContainerBegin(uint32_t container) { return ContainerPrefix(container); }

std::string CreationContainerEnd(uint32_t container) { return ContainerPrefix(container + 1); }

std::optional<uint64_t> CreationNumberOf(std::string_view key) {
  if (key.size() < 14) return std::nullopt;
  return DecodeFixed64BE(key.substr(key.size() - 8));
}

std::optional<uint64_t> ItemNumberOfRid(std::string_view rid) {
  std::string text(rid);
  std::replace(text.begin(), text.end(), '-', '/');
  std::optional<std::string> bytes = Base64Decode(text);
  if (!bytes || bytes->size() != 16) return std::nullopt;
  uint64_t number = 0;
  for (int i = 14; i >= 8; --i) number = (number << 8) | static_cast<unsigned char>((*bytes)[i]);
  return number;
}

std::optional<uint64_t> ItemNumberOfJson(std::string_view json) {
  std::optional<std::string_view> rid = StoredItemRid(json);
  return rid ? ItemNumberOfRid(*rid) : std::nullopt;
}

}  // namespace orrery::engine
