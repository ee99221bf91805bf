#include "engine/change_feed.h"

#include "common/encoding.h"
#include "storage/keys.h"

namespace orrery::engine {
namespace {

std::string PartitionPrefix(uint32_t container, uint32_t partition) {
  std::string key(1, storage::keys::kChangeFeedSpace);
  AppendFixed32BE(key, container);
  AppendFixed32BE(key, partition);
  return key;
}

}  // namespace

std::string ChangeFeedKey(uint32_t container, uint32_t partition, uint64_t lsn) {
  std::string key = PartitionPrefix(container, partition);
  AppendFixed64BE(key, lsn);
  return key;
}

std::string ChangeFeedBegin(uint32_t container, uint32_t partition, uint64_t after_lsn) {
  return ChangeFeedKey(container, partition, after_lsn + 1);
}

std::string ChangeFeedEnd(uint32_t container, uint32_t partition) {
  return PartitionPrefix(container, partition + 1);
}

std::string ChangeFeedContainerBegin(uint32_t container) { return PartitionPrefix(container, 0); }

std::string ChangeFeedContainerEnd(uint32_t container) { return PartitionPrefix(container + 1, 0); }

std::optional<uint64_t> ChangeFeedLsnOf(std::string_view key) {
  if (key.size() != 17) return std::nullopt;
  return DecodeFixed64BE(key.substr(9));
}

}  // namespace orrery::engine
