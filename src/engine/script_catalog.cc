#include "engine/script_catalog.h"

#include "common/encoding.h"

namespace orrery::engine {
namespace {

constexpr ScriptTypeInfo kInfos[] = {
    {ScriptType::kStoredProcedure, "sprocs", "StoredProcedures", "stored procedure", 's', 0x80,
     100},
    {ScriptType::kTrigger, "triggers", "Triggers", "trigger", 't', 0x70, 25},
    {ScriptType::kUserDefinedFunction, "udfs", "UserDefinedFunctions", "user-defined function", 'u',
     0x60, 50},
};

}  // namespace

const ScriptTypeInfo& InfoOf(ScriptType type) { return kInfos[static_cast<int>(type)]; }

std::optional<ScriptType> ScriptTypeOfSegment(std::string_view segment) {
  for (const ScriptTypeInfo& info : kInfos) {
    if (info.segment == segment) return info.type;
  }
  return std::nullopt;
}

// The SDKs spell them differently (.NET "Pre"/"All", JS and Python "pre"/"all"), and the
// REST reference names Insert where the SDKs say Create: case-insensitive, both names.
std::optional<TriggerType> ParseTriggerType(std::string_view text) {
  if (EqualsIgnoreCase(text, "pre")) return TriggerType::kPre;
  if (EqualsIgnoreCase(text, "post")) return TriggerType::kPost;
  return std::nullopt;
}

std::optional<TriggerOperation> ParseTriggerOperation(std::string_view text) {
  static constexpr std::pair<std::string_view, TriggerOperation> kNames[] = {
      {"all", TriggerOperation::kAll},       {"create", TriggerOperation::kCreate},
      {"insert", TriggerOperation::kCreate}, {"replace", TriggerOperation::kReplace},
      {"delete", TriggerOperation::kDelete}, {"upsert", TriggerOperation::kUpsert},
      {"update", TriggerOperation::kUpdate},
  };
  for (const auto& [name, operation] : kNames) {
    if (EqualsIgnoreCase(text, name)) return operation;
  }
  return std::nullopt;
}

}  // namespace orrery::engine
