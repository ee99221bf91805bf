#include "advise/candidate.h"

#include "engine/partition/partition_key_path.h"
#include "json/json.h"

namespace orrery::advise {
namespace {

std::vector<std::string> SplitOn(std::string_view text, char separator) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t end = text.find(separator, start);
    std::string part(text.substr(start, end == std::string_view::npos ? end : end - start));
    while (!part.empty() && part.front() == ' ') part.erase(part.begin());
    while (!part.empty() && part.back() == ' ') part.pop_back();
    parts.push_back(std::move(part));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

Status Bad(std::string_view text, const std::string& why) {
  return Status::BadRequest("The candidate partition key '" + std::string(text) + "' " + why);
}

// The value a synthetic key takes from one component: strings as they are, anything
// else as its JSON.
std::string ComponentText(const json::Value& value) {
  return value.is_string() ? value.as_string() : json::Write(value);
}

}  // namespace

Result<Candidate> Candidate::Parse(std::string_view text) {
  Candidate candidate;
  candidate.label_ = std::string(text);
  const bool synthetic = text.find('+') != std::string_view::npos;
  if (synthetic && text.find(',') != std::string_view::npos) {
    return Bad(text, "mixes ',' (hierarchical) and '+' (synthetic); use one.");
  }
  const std::vector<std::string> parts = SplitOn(text, synthetic ? '+' : ',');
  if (parts.size() > 3) {
    return Bad(text, synthetic ? "concatenates more than 3 paths."
                               : "has more than 3 levels (the service allows up to 3).");
  }
  std::vector<std::vector<std::string>> segments;
  for (const std::string& path : parts) {
    Result<std::vector<std::string>> parsed = partition::ParsePartitionKeyPath(path);
    if (!parsed.ok())
      return Bad(text, "has a bad path '" + path + "': " + parsed.status().message());
    segments.push_back(std::move(*parsed));
  }
  if (synthetic) {
    if (parts.size() < 2) return Bad(text, "concatenates fewer than 2 paths.");
    std::string name;
    for (const auto& path : segments) name += (name.empty() ? "" : "_") + path.back();
    candidate.synthetic_of_ = parts;
    candidate.synthetic_segments_ = std::move(segments);
    candidate.paths_ = {"/" + name};
  } else {
    candidate.paths_ = parts;
  }
  ORRERY_ASSIGN_OR_RETURN(candidate.definition_,
                          partition::ParseDefinition(candidate.DefinitionJson()));
  return candidate;
}

json::Value Candidate::DefinitionJson() const {
  json::Array paths;
  for (const std::string& path : paths_) paths.push_back(json::Value::String(path));
  return json::Value::MakeObject(
      {{"paths", json::Value::MakeArray(std::move(paths))},
       {"kind", json::Value::String(hierarchical() ? "MultiHash" : "Hash")},
       {"version", json::Value::Int(2)}});
}

void Candidate::Prepare(json::Value& item) const {
  if (synthetic_of_.empty() || !item.is_object()) return;
  std::string value;
  for (size_t i = 0; i < synthetic_segments_.size(); ++i) {
    const json::Value* component = item.FindPath(synthetic_segments_[i]);
    if (i > 0) value += '-';
    if (component != nullptr && !component->is_undefined()) value += ComponentText(*component);
  }
  item.Set(paths_[0].substr(1), json::Value::String(std::move(value)));
}

std::optional<std::string> Candidate::SyntheticEpk(const query::AccessShape& shape) const {
  if (synthetic_of_.empty()) return std::nullopt;
  std::string value;
  for (size_t i = 0; i < synthetic_segments_.size(); ++i) {
    const json::Value* pinned = nullptr;
    for (const query::PathPredicate& predicate : shape.predicates) {
      if (predicate.kind == query::PathPredicate::Kind::kEqual &&
          predicate.path == synthetic_segments_[i] && predicate.values.size() == 1) {
        pinned = &predicate.values[0];
      }
    }
    if (pinned == nullptr || pinned->is_array() || pinned->is_object()) return std::nullopt;
    if (i > 0) value += '-';
    value += ComponentText(*pinned);
  }
  partition::PartitionKeyValue key;
  key.push_back(*partition::ComponentFromJson(json::Value::String(std::move(value))));
  return partition::EffectivePartitionKey(definition_, key);
}

}  // namespace orrery::advise
