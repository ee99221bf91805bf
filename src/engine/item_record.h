#pragma once

// The stored form of an item (persisted: never change without a new format byte):
//   byte 0      format, kItemFormatV2
//   bytes 1..8  the LSN of this version (big-endian): its place in the change feed
//   byte 9      length n of the etag
//   bytes 10..  the etag (quoted, as returned), then the item's JSON exactly as
//               returned to clients, system properties included.
// Format V1 (written before the change feed) has no LSN: bytes 1 and 2.. are the etag
// length and etag. Format V2U is V2 for an item kept out of the index (written with
// x-ms-indexing-directive: Exclude, or under a policy with automatic: false): it has no
// index entries, and queries that filter find it only by id. All are read; V2 and V2U
// are written.
// So a point read is one RocksDB get and a slice; If-None-Match needs no parsing.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace orrery::engine {

inline constexpr char kItemFormatV1 = '\x01';
inline constexpr char kItemFormatV2 = '\x02';
inline constexpr char kItemFormatV2Unindexed = '\x03';

std::string EncodeItemRecord(std::string_view etag, std::string_view json, uint64_t lsn,
                             bool indexed = true);

struct ItemRecordView {
  std::string_view etag;
  std::string_view json;
  uint64_t lsn = 0;  // 0 for V1 records
  bool indexed = true;
};
// Views into `record`; nullopt when the record is malformed.
std::optional<ItemRecordView> DecodeItemRecord(std::string_view record);

// The _rid of a stored item's JSON text. System properties are appended after every user
// member, so the last "_rid" member of the text is the item's own, never a nested one.
std::optional<std::string_view> StoredItemRid(std::string_view json);

}  // namespace orrery::engine
