// The x-ms-documentdb-partitionkey header value (wire-protocol.md §7.1): a JSON array
// written by JSON.stringify, one element per path; {} is None, [] the key of a legacy
// non-partitioned container.

#include <optional>
#include <string>
#include <string_view>

#include "engine/partition/partition_key.h"
#include "json/json.h"

namespace orrery::partition {

namespace {

constexpr int kPartitionKeyMismatch = 1001;

// RMResources.InvalidPartitionKey ("Partition key {0} is invalid.") in the SDKs.
Status InvalidKey(std::string_view header) {
  return Status::BadRequest("Partition key " + std::string(header) + " is invalid.");
}

// The service's messages for a wrong component count, verbatim, including its
// doubled "the" (observed: Azure/azure-sdk-for-ios#108, jupitern/cosmosdb#24).
Status TooFewComponents() {
  return Status::BadRequest(
      "The partition key supplied in x-ms-partitionkey header has fewer components than "
      "defined in the the collection.",
      kPartitionKeyMismatch);
}

Status TooManyComponents() {
  return Status::BadRequest(
      "The partition key supplied in x-ms-partitionkey header has more components than "
      "defined in the the collection.",
      kPartitionKeyMismatch);
}

Status CheckComponentCount(size_t count, const PartitionKeyDefinition& definition,
                           bool allow_prefix) {
  const size_t paths = definition.paths.size();
  if (definition.system_key && count == 0) {
    return Status::Ok();
  }
  if (count > paths) {
    return TooManyComponents();
  }
  if (count == paths || (allow_prefix && definition.is_hierarchical() && count > 0)) {
    return Status::Ok();
  }
  return TooFewComponents();
}

// The header every point operation of a single-path container sends, ["<text>"], with
// text of printable ASCII other than '"' and '\\': its one string component, read
// without building a JSON tree (the same value json::Parse would give); nullopt for
// anything else, which takes the general path.
std::optional<std::string_view> SimpleStringKey(std::string_view header) {
  if (header.size() < 4 || !header.starts_with("[\"") || !header.ends_with("\"]")) {
    return std::nullopt;
  }
  std::string_view text = header.substr(2, header.size() - 4);
  for (char c : text) {
    if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') return std::nullopt;
  }
  return text;
}

}  // namespace

Result<PartitionKeyValue> ParseHeader(std::string_view header,
                                      const PartitionKeyDefinition& definition, bool allow_prefix) {
  if (header.empty()) {
    return Status::BadRequest("PartitionKey value must be supplied for this operation.",
                              kPartitionKeyMismatch);
  }
  if (std::optional<std::string_view> text = SimpleStringKey(header)) {
    PartitionKeyValue key;
    key.push_back(PartitionKeyComponent::String(std::string(*text)));
    ORRERY_RETURN_IF_ERROR(CheckComponentCount(key.size(), definition, allow_prefix));
    ORRERY_RETURN_IF_ERROR(ValidateKeyValue(definition, key));
    return key;
  }
  Result<json::Value> parsed = json::Parse(header);
  if (!parsed.ok() || !parsed->is_array()) {
    return InvalidKey(header);
  }
  PartitionKeyValue key;
  key.reserve(parsed->as_array().size());
  for (const json::Value& element : parsed->as_array()) {
    Result<PartitionKeyComponent> component = ComponentFromJson(element);
    if (!component.ok()) {
      return InvalidKey(header);
    }
    key.push_back(std::move(component).value());
  }
  // In a systemKey container "no value" is the key []: the SDKs send [] (Java's
  // PartitionKey.NONE, Python's NonePartitionKeyValue), but also [{}] (an explicit
  // none) or [null], and an item whose system property is missing or null has [].
  if (definition.system_key && key.size() == 1 &&
      (key[0].kind == PartitionKeyComponent::Kind::kNone ||
       key[0].kind == PartitionKeyComponent::Kind::kNull)) {
    key.clear();
  }
  ORRERY_RETURN_IF_ERROR(CheckComponentCount(key.size(), definition, allow_prefix));
  ORRERY_RETURN_IF_ERROR(ValidateKeyValue(definition, key));
  return key;
}

std::string ToHeaderJson(const PartitionKeyValue& value) {
  std::string out = "[";
  for (size_t i = 0; i < value.size(); ++i) {
    if (i > 0) {
      out += ',';
    }
    const PartitionKeyComponent& c = value[i];
    switch (c.kind) {
      case PartitionKeyComponent::Kind::kNone:
        out += "{}";
        break;
      case PartitionKeyComponent::Kind::kNull:
        out += "null";
        break;
      case PartitionKeyComponent::Kind::kFalse:
        out += "false";
        break;
      case PartitionKeyComponent::Kind::kTrue:
        out += "true";
        break;
      case PartitionKeyComponent::Kind::kNumber:
        json::AppendNumber(out, c.number);
        break;
      case PartitionKeyComponent::Kind::kString:
        json::AppendQuoted(out, c.string);
        break;
    }
  }
  out += ']';
  return out;
}

}  // namespace orrery::partition
