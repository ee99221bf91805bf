#include "engine/item_rules.h"

namespace orrery::engine {
namespace {

std::string InvalidNameMessage(std::string_view id, size_t limit) {
  std::string shown(id.substr(0, 64));
  if (id.size() > 64) shown += "...";
  return "The input name '" + shown +
         "' is invalid. Ensure to provide a unique non-empty string less than '" +
         std::to_string(limit) + "' characters.";
}

size_t Utf8Chars(std::string_view s) {
  size_t n = 0;
  for (char c : s) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  }
  return n;
}

}  // namespace

Result<std::string> ValidateItemId(const json::Value& item) {
  if (!item.is_object()) {
    return Status::BadRequest(
        "The input content is invalid because the request body must be a JSON object.");
  }
  const json::Value* id = item.Find("id");
  if (id == nullptr || id->is_undefined()) {
    return Status::BadRequest(
        "The input content is invalid because the required properties - 'id; ' - are missing");
  }
  if (!id->is_string()) {
    return Status::BadRequest(
        "The input content is invalid because the property 'id' must be "
        "a string.");
  }
  const std::string& text = id->as_string();
  if (text.empty() || text.size() > kMaxItemIdBytes ||
      text.find_first_of("/\\") != std::string::npos) {
    return Status::BadRequest(InvalidNameMessage(text, kMaxItemIdBytes + 1));
  }
  return text;
}

Status ValidateResourceId(const json::Value& body) {
  if (!body.is_object()) {
    return Status::BadRequest(
        "The input content is invalid because the request body must be a JSON object.");
  }
  const json::Value* id = body.Find("id");
  if (id == nullptr || !id->is_string()) {
    return Status::BadRequest(
        "The input content is invalid because the required properties - 'id; ' - are missing");
  }
  const std::string& text = id->as_string();
  bool bad_char = text.find_first_of("/\\?#") != std::string::npos;
  for (char c : text) {
    if (static_cast<unsigned char>(c) < 0x20) bad_char = true;
  }
  if (text.empty() || Utf8Chars(text) > kMaxResourceIdChars || bad_char || text.back() == ' ') {
    return Status::BadRequest(InvalidNameMessage(text, kMaxResourceIdChars + 1));
  }
  return Status::Ok();
}

void StripSystemProperties(json::Value& item) {
  for (const char* name : {"_rid", "_self", "_etag", "_ts", "_attachments", "_lsn"}) {
    item.Remove(name);
  }
}

void AppendSystemProperties(json::Value& item, const ItemSystemProperties& props) {
  item.Set("_rid", json::Value::String(props.rid));
  item.Set("_self", json::Value::String(props.self));
  item.Set("_etag", json::Value::String(props.etag));
  item.Set("_attachments", json::Value::String("attachments/"));
  item.Set("_ts", json::Value::Int(props.ts));
}

}  // namespace orrery::engine
