#pragma once

// The change feed's key space (latest-version mode; docs/storage-format.md):
//   0x13 | container (4, BE) | physical partition (4, BE) | LSN (8, BE)  ->  EPK 0x00 id
// One entry per item that a replace wrote last: such a write puts the entry of its new
// version and deletes the old version's. A version a create wrote has no entry here: its
// LSN is its item number, and its creation-order entry (creation_order.h) lists it under
// that number. The feed reads both lists, merged by LSN (container_change_feed.cc).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace orrery::engine {

std::string ChangeFeedKey(uint32_t container, uint32_t partition, uint64_t lsn);
// All entries of a partition after `after_lsn`: [begin, end).
std::string ChangeFeedBegin(uint32_t container, uint32_t partition, uint64_t after_lsn);
std::string ChangeFeedEnd(uint32_t container, uint32_t partition);
// All entries of a container (for dropping it).
std::string ChangeFeedContainerBegin(uint32_t container);
std::string ChangeFeedContainerEnd(uint32_t container);
// The LSN of an entry key; nullopt if malformed.
std::optional<uint64_t> ChangeFeedLsnOf(std::string_view key);

}  // namespace orrery::engine
