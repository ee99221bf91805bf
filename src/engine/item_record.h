#pragma once

// The stored form of an item (persisted: never change without a new format byte):
//   byte 0      format, kItemFormatV1
//   byte 1      length n of the etag
//   bytes 2..   the etag (quoted, as returned), then the item's JSON exactly as
//               returned to clients, system properties included.
// So a point read is one RocksDB get and a slice; If-None-Match needs no parsing.

#include <optional>
#include <string>
#include <string_view>

namespace orrery::engine {

inline constexpr char kItemFormatV1 = '\x01';

std::string EncodeItemRecord(std::string_view etag, std::string_view json);

struct ItemRecordView {
  std::string_view etag;
  std::string_view json;
};
// Views into `record`; nullopt when the record is malformed.
std::optional<ItemRecordView> DecodeItemRecord(std::string_view record);

}  // namespace orrery::engine
