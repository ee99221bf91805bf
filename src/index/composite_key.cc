#include "index/composite_key.h"

#include "common/encoding.h"
#include "index/index_key.h"
#include "storage/keys.h"

namespace orrery::index {
namespace {

// Past every entry that starts with a given key: after a whole component comes the next
// component's tag (inverted or not, never 0xFF: no tag is 0x00) or an EPK (hex digits).
constexpr char kPastComponents = '\xFF';

// The size of the encoded value at the start of `bytes` (stored inverted when `mask` is
// 0xFF), or nullopt if malformed.
std::optional<size_t> ComponentSize(std::string_view bytes, uint8_t mask) {
  if (bytes.empty()) return std::nullopt;
  const auto at = [&](size_t i) { return static_cast<uint8_t>(bytes[i]) ^ mask; };
  switch (static_cast<ValueTag>(at(0))) {
    case ValueTag::kUndefined:
    case ValueTag::kNull:
    case ValueTag::kFalse:
    case ValueTag::kTrue:
    case ValueTag::kArray:
    case ValueTag::kObject:
      return 1;
    case ValueTag::kNumber:
      return bytes.size() >= 9 ? std::optional<size_t>(9) : std::nullopt;
    case ValueTag::kString:
      // Escaped bytes up to the terminator 0x00 0x01 (0x00 inside is 0x00 0xFF).
      for (size_t i = 1; i + 1 < bytes.size(); ++i) {
        if (at(i) != 0) continue;
        if (at(i + 1) == 0x01) return i + 2;
        ++i;
      }
      return std::nullopt;
  }
  return std::nullopt;
}

const json::Value* Find(const json::Value& document, const PathSegments& path) {
  const json::Value* value = &document;
  for (const std::string& name : path) {
    value = value->Find(name);
    if (value == nullptr) return nullptr;
  }
  return value;
}

void Invert(std::string& key, size_t from) {
  for (size_t i = from; i < key.size(); ++i) key[i] = static_cast<char>(~key[i]);
}

}  // namespace

std::string CompositePrefix(uint32_t container, uint32_t partition, uint32_t composite) {
  std::string key(1, storage::keys::kIndexSpace);
  AppendFixed32BE(key, container);
  AppendFixed32BE(key, partition);
  key += kCompositeMarker;
  AppendFixed32BE(key, composite);
  return key;
}

void AppendComponent(std::string& key, const json::Value& value, bool descending) {
  const size_t start = key.size();
  AppendValue(key, value);
  if (descending) Invert(key, start);
}

void AppendCompositeEntryKeys(const IndexingPolicy& policy, const json::Value& document,
                              const ItemLocation& where, std::vector<std::string>& out) {
  const json::Value undefined;
  const std::vector<CompositeIndex>& composites = policy.composite_indexes();
  for (size_t i = 0; i < composites.size(); ++i) {
    std::string key = CompositePrefix(where.container, where.partition, static_cast<uint32_t>(i));
    for (const CompositePath& component : composites[i].paths) {
      const json::Value* value = Find(document, component.path);
      AppendComponent(key, value ? *value : undefined, component.descending);
    }
    key += where.epk;
    key += '\0';
    key += where.id;
    out.push_back(std::move(key));
  }
}

std::optional<CompositeEntryView> ParseCompositeEntry(std::string_view rest,
                                                      const CompositeIndex& composite) {
  CompositeEntryView view;
  size_t pos = 0;
  for (const CompositePath& component : composite.paths) {
    const std::optional<size_t> size =
        ComponentSize(rest.substr(pos), component.descending ? 0xFF : 0x00);
    if (!size) return std::nullopt;
    view.components.push_back(rest.substr(pos, *size));
    pos += *size;
  }
  view.values = rest.substr(0, pos);
  const std::string_view tail = rest.substr(pos);
  const size_t zero = tail.find('\0');
  if (zero == std::string_view::npos) return std::nullopt;
  view.epk = tail.substr(0, zero);
  view.id = tail.substr(zero + 1);
  return view;
}

std::string CompositePositionKey(std::string_view prefix, const CompositePosition& position) {
  std::string key(prefix);
  key += position.values;
  key += position.epk;
  key += '\0';
  key += position.id;
  return key;
}

KeyRange ComponentRange(std::string_view prefix, const json::Value* low, bool low_inclusive,
                        const json::Value* high, bool high_inclusive, bool descending) {
  if (!descending) return BoundedRange(prefix, low, low_inclusive, high, high_inclusive);
  // Inverted, the order of one type's values is reversed: the high bound begins the
  // range and the low bound ends it. The type's entries all start with its inverted
  // tag, which is one above the next type's.
  const json::Value* typed = low != nullptr ? low : high;
  const auto tag = static_cast<uint8_t>(typed->is_number() ? ValueTag::kNumber : ValueTag::kString);
  const auto inverted_tag = static_cast<char>(~tag);
  KeyRange range{std::string(prefix) + inverted_tag, std::string(prefix)};
  range.end += static_cast<char>(inverted_tag + 1);
  if (high != nullptr) {
    range.begin.assign(prefix);
    AppendComponent(range.begin, *high, true);
    if (!high_inclusive) range.begin += kPastComponents;
  }
  if (low != nullptr) {
    range.end.assign(prefix);
    AppendComponent(range.end, *low, true);
    if (low_inclusive) range.end += kPastComponents;
  }
  return range;
}

KeyRange ComponentStringPrefixRange(std::string_view prefix, std::string_view text,
                                    bool descending) {
  std::string start;
  AppendStringPrefix(start, text);  // the type tag and the text, no terminator
  if (!descending) {
    // Every continuation of the text sorts below 0xFF, which UTF-8 never holds.
    return KeyRange{std::string(prefix) + start, std::string(prefix) + start + kPastComponents};
  }
  // Inverted, the strings starting with `text` are the keys starting with its inverted
  // bytes: up to the next key of the same length.
  for (char& c : start) c = static_cast<char>(~c);
  std::string end = start;
  while (!end.empty() && static_cast<uint8_t>(end.back()) == 0xFF) end.pop_back();
  if (end.empty()) return ComponentsPrefixRange(std::string(prefix) + start);
  end.back() = static_cast<char>(end.back() + 1);
  return KeyRange{std::string(prefix) + start, std::string(prefix) + end};
}

KeyRange ComponentsPrefixRange(std::string_view prefix) {
  return KeyRange{std::string(prefix), std::string(prefix) + kPastComponents};
}

std::vector<std::string> CompositeSpecs(const CompositeIndex& composite) {
  std::vector<std::string> specs;
  for (const CompositePath& component : composite.paths) {
    std::string spec;
    for (const std::string& segment : component.path) spec += "/" + segment;
    spec += component.descending ? " DESC" : " ASC";
    specs.push_back(std::move(spec));
  }
  return specs;
}

}  // namespace orrery::index
