#include "engine/item_record.h"

namespace orrery::engine {

std::string EncodeItemRecord(std::string_view etag, std::string_view json, uint64_t lsn,
                             bool indexed) {
  std::string record;
  record.reserve(10 + etag.size() + json.size());
  record += indexed ? kItemFormatV2 : kItemFormatV2Unindexed;
  for (int shift = 56; shift >= 0; shift -= 8) record += static_cast<char>((lsn >> shift) & 0xFF);
  record += static_cast<char>(etag.size());
  record += etag;
  record += json;
  return record;
}

std::optional<ItemRecordView> DecodeItemRecord(std::string_view record) {
  if (record.empty()) return std::nullopt;
  size_t header = 0;
  uint64_t lsn = 0;
  if (record[0] == kItemFormatV1) {
    header = 1;
  } else if ((record[0] == kItemFormatV2 || record[0] == kItemFormatV2Unindexed) &&
             record.size() >= 9) {
    for (size_t i = 1; i <= 8; ++i) lsn = (lsn << 8) | static_cast<unsigned char>(record[i]);
    header = 9;
  } else {
    return std::nullopt;
  }
  if (record.size() < header + 1) return std::nullopt;
  const size_t etag_size = static_cast<unsigned char>(record[header]);
  if (record.size() < header + 1 + etag_size) return std::nullopt;
  return ItemRecordView{record.substr(header + 1, etag_size), record.substr(header + 1 + etag_size),
                        lsn, record[0] != kItemFormatV2Unindexed};
}

std::optional<std::string_view> StoredItemRid(std::string_view json) {
  constexpr std::string_view kMember = "\"_rid\":\"";
  const size_t at = json.rfind(kMember);
  if (at == std::string_view::npos) return std::nullopt;
  const size_t start = at + kMember.size();
  const size_t end = json.find('"', start);
  if (end == std::string_view::npos) return std::nullopt;
  return json.substr(start, end - start);
}

}  // namespace orrery::engine
