#pragma once

// A partition key `orrery advise` compares (issue 19): a single path ("/tenantId"), a
// hierarchical key of up to three levels ("/tenantId,/deviceId"), or a synthetic key
// ("/tenantId+/deviceId"): a property the application would add to each item, holding
// the components' values joined by '-', as Microsoft's guidance on synthetic keys
// describes. A query pins a synthetic key when it pins every component.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "engine/partition/partition_key.h"
#include "json/value.h"
#include "query/access_path.h"

namespace orrery::advise {

class Candidate {
 public:
  // Errors: BadRequest saying what is wrong with `text`.
  static Result<Candidate> Parse(std::string_view text);

  // As given ("/tenantId,/deviceId").
  const std::string& label() const { return label_; }
  // The container's partition key paths: the synthetic property's path for a synthetic
  // key.
  const std::vector<std::string>& paths() const { return paths_; }
  // The paths a synthetic key concatenates (empty otherwise).
  const std::vector<std::string>& synthetic_of() const { return synthetic_of_; }
  bool hierarchical() const { return paths_.size() > 1; }
  bool synthetic() const { return !synthetic_of_.empty(); }
  const partition::PartitionKeyDefinition& definition() const { return definition_; }
  // {"paths": [...], "kind": "Hash" | "MultiHash", "version": 2}
  json::Value DefinitionJson() const;

  // Adds the synthetic property to `item` (nothing for other keys).
  void Prepare(json::Value& item) const;
  // For a synthetic key: the EPK of the one logical partition a query reads when its
  // WHERE pins every component; nullopt otherwise (other keys route themselves).
  std::optional<std::string> SyntheticEpk(const query::AccessShape& shape) const;

 private:
  std::string label_;
  std::vector<std::string> paths_;
  std::vector<std::string> synthetic_of_;
  std::vector<std::vector<std::string>> synthetic_segments_;
  partition::PartitionKeyDefinition definition_;
};

}  // namespace orrery::advise
