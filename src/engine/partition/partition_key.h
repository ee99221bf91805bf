#pragma once

// Partition keys: the container's definition, key values (one component per path),
// parsing of the x-ms-documentdb-partitionkey header, extraction from items, and the
// effective partition key (EPK) hash, byte-for-byte as Cosmos DB computes it
// (wire-protocol.md §11).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "json/value.h"

namespace orrery::partition {

struct PartitionKeyComponent {
  enum class Kind : uint8_t { kNone, kNull, kFalse, kTrue, kNumber, kString };
  Kind kind = Kind::kNone;
  double number = 0;
  std::string string;

  static PartitionKeyComponent None() { return {}; }
  static PartitionKeyComponent Null() { return {Kind::kNull, 0, {}}; }
  static PartitionKeyComponent Bool(bool b) { return {b ? Kind::kTrue : Kind::kFalse, 0, {}}; }
  static PartitionKeyComponent Number(double d) { return {Kind::kNumber, d, {}}; }
  static PartitionKeyComponent String(std::string s) { return {Kind::kString, 0, std::move(s)}; }
};
bool operator==(const PartitionKeyComponent& a, const PartitionKeyComponent& b);

// One component per partition key path (fewer for a prefix of a hierarchical key).
using PartitionKeyValue = std::vector<PartitionKeyComponent>;

enum class PartitionKind : uint8_t { kHash, kMultiHash, kRange };

struct PartitionKeyDefinition {
  std::vector<std::string> paths;  // e.g. {"/tenantId", "/userId"}
  PartitionKind kind = PartitionKind::kHash;
  int version = 1;             // 1 or 2; MultiHash is always 2
  bool version_given = false;  // whether the client's definition named a version
  bool system_key = false;

  bool is_hierarchical() const { return kind == PartitionKind::kMultiHash; }
};

// Validates a container's "partitionKey" member as the service does (1 path for Hash,
// 1-3 for MultiHash, well-formed paths, kind "Hash" or "MultiHash", version 1 or 2,
// MultiHash only with 2) and fills defaults (kind Hash; version 1, or 2 for MultiHash).
// An undefined or null `definition` (no "partitionKey" member) is refused, as the
// service does since API version 2018-12-31.
// Errors are BadRequest with the service's message.
Result<PartitionKeyDefinition> ParseDefinition(const json::Value& definition);

// The definition as returned to clients: {"paths":[..],"kind":"Hash","version":2}.
// "version" is written only when the client gave one (or for MultiHash), because the
// SDK hashes with V1 when it is absent and so must we.
json::Value DefinitionToJson(const PartitionKeyDefinition& definition);

// Parses the header value (a JSON array; {} = none, null = null). A full key must have
// one component per path; with allow_prefix (queries on MultiHash), 1..paths components;
// a systemKey container also takes [] (the key of its items without a value).
// Errors: BadRequest 1001 with the service's message for an empty header or a wrong
// component count; BadRequest "Partition key <header> is invalid." for text that is not
// an array of valid components.
Result<PartitionKeyValue> ParseHeader(std::string_view header,
                                      const PartitionKeyDefinition& definition, bool allow_prefix);

// The component a JSON value stands for: string, number, true/false, null; undefined
// and the empty object {} mean None (the SDK's NonePartitionKeyLiteral). -0 becomes 0,
// as JSON.stringify prints it. Errors: BadRequest 1001 for arrays and non-empty objects.
Result<PartitionKeyComponent> ComponentFromJson(const json::Value& value);

// The key of an item: walks each path; a missing path (or {}) gives None. For a
// systemKey container an item without a value under its path has the key [].
// Errors: BadRequest 1001 when a path leads to an array or a non-empty object.
Result<PartitionKeyValue> ExtractFromItem(const json::Value& item,
                                          const PartitionKeyDefinition& definition);

// Whether `value` names one logical partition: a value for every path, or the empty
// key [] of a systemKey container (its items without a value under the system path).
inline bool IsFullKey(const PartitionKeyDefinition& definition, const PartitionKeyValue& value) {
  return value.size() == definition.paths.size() || (definition.system_key && value.empty());
}

// The header form of a key, e.g. ["a",5,{}], for error messages and tests.
std::string ToHeaderJson(const PartitionKeyValue& value);

// The EPK as uppercase hex. For a prefix of a hierarchical key this is the prefix P;
// the key then designates the EPK range [P, P + "FF").
std::string EffectivePartitionKey(const PartitionKeyDefinition& definition,
                                  const PartitionKeyValue& value);

// The EPK range [min_inclusive, max_exclusive) a prefix of a hierarchical key designates:
// [P, P + "FF") where P = EffectivePartitionKey(definition, prefix).
struct EpkRange {
  std::string min_inclusive;
  std::string max_exclusive;
};
EpkRange PrefixEpkRange(const PartitionKeyDefinition& definition, const PartitionKeyValue& prefix);

// Checks the key's size limit: V2 and MultiHash keys may hold at most 2,048 bytes of
// string data (UTF-8, all components together); V1 accepts any length, as the service
// does (it hashes only a prefix). Errors: BadRequest naming the limit.
Status ValidateKeyValue(const PartitionKeyDefinition& definition, const PartitionKeyValue& value);

// The EPK of a V1 key whose hash is `hash`, without the component that follows it: all
// keys with a smaller hash sort before it, all with this hash or a larger one after.
std::string V1HashPrefix(uint32_t hash);

// Boundaries of n equal physical partitions over the container's EPK space:
// n + 1 strings, first "" and last "FF", strictly increasing (n < 1 counts as 1).
// V1 containers split the 32-bit hash space as the service does: boundary i is the EPK
// prefix of the hash floor(i * 0xFFFFFFFF / n) (for n = 2, "05C1DFFFFFFFFC").
std::vector<std::string> InitialBoundaries(const PartitionKeyDefinition& definition, int n);

}  // namespace orrery::partition
