#include "advise/item_sources.h"

#include "json/json.h"

namespace orrery::advise {

Result<LineItems> LineItems::FromText(const std::string& text, std::string name) {
  LineItems items;
  items.name_ = std::move(name);
  size_t start = 0;
  uint64_t line_number = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    ++line_number;
    std::string line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") != std::string::npos) {
      items.lines_.push_back(std::move(line));
      items.line_numbers_.push_back(line_number);
    }
    start = end + 1;
  }
  if (items.lines_.empty()) return Status::BadRequest(items.name_ + " holds no items.");
  return items;
}

Result<json::Value> LineItems::Item(uint64_t number) const {
  const std::string where = name_ + " line " + std::to_string(line_numbers_[number]);
  Result<json::Value> item = json::Parse(lines_[number]);
  if (!item.ok()) return Status::BadRequest(where + " is not JSON: " + item.status().message());
  if (!item->is_object()) return Status::BadRequest(where + " is not a JSON object.");
  const json::Value* id = item->Find("id");
  if (id == nullptr || !id->is_string() || id->as_string().empty()) {
    return Status::BadRequest(where + " has no \"id\" string.");
  }
  return item;
}

}  // namespace orrery::advise
