#include "engine/item_record.h"

namespace orrery::engine {

std::string EncodeItemRecord(std::string_view etag, std::string_view json) {
  std::string record;
  record.reserve(2 + etag.size() + json.size());
  record += kItemFormatV1;
  record += static_cast<char>(etag.size());
  record += etag;
  record += json;
  return record;
}

std::optional<ItemRecordView> DecodeItemRecord(std::string_view record) {
  if (record.size() < 2 || record[0] != kItemFormatV1) {
    return std::nullopt;
  }
  size_t etag_size = static_cast<unsigned char>(record[1]);
  if (record.size() < 2 + etag_size) {
    return std::nullopt;
  }
  return ItemRecordView{record.substr(2, etag_size), record.substr(2 + etag_size)};
}

}  // namespace orrery::engine
