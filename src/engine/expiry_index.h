#pragma once

// The expiry index (docs/storage-format.md): what the TTL purge reads, so that its
// cost follows the items that expire rather than the items a container holds. Each
// item version that can expire has one entry, in one of two lists:
//   0x16 | container (4, BE) | 0x00 | expiry (8, BE) | EPK 0x00 id -> empty
//        (items with their own ttl > 0: expiry = _ts + ttl, whatever the container says)
//   0x16 | container (4, BE) | 0x01 | _ts (8, BE) | EPK 0x00 id -> empty
//        (items without an integer ttl, which follow the container's defaultTtl)
// Items whose own ttl is -1 (or another integer <= 0) never expire and have none.
// The second list is keyed by write time, not by expiry, so that a change of the
// container's defaultTtl needs no re-indexing: with defaultTtl d > 0, an item of it
// expires at _ts + d, so the expired ones are those with _ts <= now - d, a prefix of
// the list under any d. Entries are kept only while the container has TTL on (every
// entry is a key each write pays for, and the purge is their one reader): turning TTL
// on lists the items once in the background, turning it off drops the list
// (Container::SwitchExpiryIndex). Keyed by EPK and id, they do not move on a split.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace orrery::engine {

// Which list an item version belongs in and its time there; nullopt: it never
// expires (own ttl <= 0, or no readable _ts), whatever the container's setting.
struct ExpiryEntry {
  bool own_ttl = false;  // true: `time` is the expiry; false: `time` is _ts
  int64_t time = 0;
};
std::optional<ExpiryEntry> ExpiryEntryOf(std::string_view item_json);

std::string ExpiryKey(uint32_t container, const ExpiryEntry& entry, std::string_view epk,
                      std::string_view id);
// The entries of one list whose time is <= `time`: [ExpiryListBegin, ExpiryListEnd).
std::string ExpiryListBegin(uint32_t container, bool own_ttl);
std::string ExpiryListEnd(uint32_t container, bool own_ttl, int64_t time);
// Every entry of a container (for dropping or rebuilding them).
std::string ExpiryContainerBegin(uint32_t container);
std::string ExpiryContainerEnd(uint32_t container);
// The EPK and id an entry key points at; false if malformed.
bool ParseExpiryKey(std::string_view key, std::string_view& epk, std::string_view& id);

}  // namespace orrery::engine
