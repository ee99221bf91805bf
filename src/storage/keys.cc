#include "storage/keys.h"

#include "common/encoding.h"

namespace orrery::storage::keys {

std::string Meta(std::string_view name) { return std::string(1, kMetaSpace) + std::string(name); }

std::string Database(std::string_view database_id) {
  return std::string(1, kDatabaseSpace) + std::string(database_id);
}
std::string DatabasesBegin() { return std::string(1, kDatabaseSpace); }
std::string DatabasesEnd() { return std::string(1, kDatabaseSpace + 1); }

std::string Container(std::string_view database_id, std::string_view container_id) {
  std::string key(1, kContainerSpace);
  key += database_id;
  key += '\0';
  key += container_id;
  return key;
}
std::string ContainersBegin(std::string_view database_id) {
  std::string key(1, kContainerSpace);
  key += database_id;
  key += '\0';
  return key;
}
std::string ContainersEnd(std::string_view database_id) {
  std::string key(1, kContainerSpace);
  key += database_id;
  key += '\x01';
  return key;
}

std::string ItemsFrom(uint32_t container_number, std::string_view epk) {
  std::string key(1, kItemSpace);
  AppendFixed32BE(key, container_number);
  key += epk;
  return key;
}

std::string Item(uint32_t container_number, std::string_view epk, std::string_view id) {
  std::string key = ItemsFrom(container_number, "");
  key += ItemSuffix(epk, id);
  return key;
}

std::string ItemSuffix(std::string_view epk, std::string_view id) {
  std::string suffix(epk);
  suffix += '\0';
  suffix += id;
  return suffix;
}

std::string ItemsEnd(uint32_t container_number) {
  std::string key(1, kItemSpace);
  AppendFixed32BE(key, container_number + 1);
  return key;
}

std::string LogicalPartition(uint32_t container_number, std::string_view epk) {
  return LogicalPartitionsBegin(container_number) + std::string(epk);
}

std::string Script(uint32_t container_number, char type, std::string_view id) {
  std::string key = ScriptsBegin(container_number);
  key += type;
  key += id;
  return key;
}

std::string ScriptsBegin(uint32_t container_number) {
  std::string key(1, kScriptSpace);
  AppendFixed32BE(key, container_number);
  return key;
}

std::string ScriptsEnd(uint32_t container_number) { return ScriptsBegin(container_number + 1); }

std::string LogicalPartitionsBegin(uint32_t container_number) {
  std::string key(1, kLogicalPartitionSpace);
  AppendFixed32BE(key, container_number);
  return key;
}

std::string LogicalPartitionsEnd(uint32_t container_number) {
  return LogicalPartitionsBegin(container_number + 1);
}

std::string_view LogicalPartitionEpk(std::string_view key) {
  return key.size() < 5 ? std::string_view() : key.substr(5);
}

bool ParseItem(std::string_view key, std::string_view& epk, std::string_view& id) {
  if (key.size() < 6 || key[0] != kItemSpace) {
    return false;
  }
  std::string_view rest = key.substr(5);
  size_t zero = rest.find('\0');
  if (zero == std::string_view::npos) {
    return false;
  }
  epk = rest.substr(0, zero);
  id = rest.substr(zero + 1);
  return true;
}

}  // namespace orrery::storage::keys
