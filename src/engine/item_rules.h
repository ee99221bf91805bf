#pragma once

// The service's rules for items: id, size, system properties.

#include <cstddef>
#include <string>
#include <string_view>

#include "common/status.h"
#include "json/value.h"

namespace orrery::engine {

// The service's item size limit: 2 MB of JSON (ru-model.md b.1).
inline constexpr size_t kMaxItemBytes = 2 * 1024 * 1024;
// ids up to 1,023 bytes, any Unicode but '/' and '\' (ru-model.md b.1).
inline constexpr size_t kMaxItemIdBytes = 1023;
// Database and container ids: at most 255 characters.
inline constexpr size_t kMaxResourceIdChars = 255;

// Checks that the item is an object with a valid string id; returns the id.
Result<std::string> ValidateItemId(const json::Value& item);
// Database and container ids.
Status ValidateResourceId(const json::Value& body);

// Removes any system properties a client sent (the service assigns its own).
void StripSystemProperties(json::Value& item);

struct ItemSystemProperties {
  std::string rid;
  std::string self;
  std::string etag;
  int64_t ts = 0;
};
// Appends _rid, _self, _etag, _attachments and _ts in the service's order.
void AppendSystemProperties(json::Value& item, const ItemSystemProperties& props);

}  // namespace orrery::engine
