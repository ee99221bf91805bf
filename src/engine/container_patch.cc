// Container::PatchItem: read, check the condition, apply the operations, and write the
// result as a replace guarded by the etag that was read — so a concurrent write of the
// same item makes the patch start again from the new version instead of losing it.

#include "engine/container.h"
#include "json/json.h"

namespace orrery::engine {
namespace {

constexpr const char* kPreconditionFailed =
    "Operation cannot be performed because one of the specified precondition is not met.";
// How often a patch starts again after losing a race with another write of its item.
constexpr int kMaxPatchAttempts = 16;

// Whether `item` matches `FROM c WHERE ...`. Errors: the query's own BadRequest.
Result<bool> MatchesCondition(const std::string& condition, const json::Value& item) {
  ORRERY_ASSIGN_OR_RETURN(std::unique_ptr<query::CompiledQuery> query,
                          query::Compile("SELECT VALUE true " + condition, {}));
  std::vector<query::Row> rows;
  ORRERY_RETURN_IF_ERROR(query->EvaluateDocument(item, rows));
  return !rows.empty();
}

}  // namespace

Result<std::string> Container::PatchedBody(const PatchRequest& patch, std::string_view current,
                                           std::string_view current_etag,
                                           const std::optional<std::string>& if_match,
                                           const partition::PartitionKeyValue& key,
                                           std::string_view id) const {
  if (if_match && *if_match != "*" && *if_match != current_etag) {
    return Status::PreconditionFailed(kPreconditionFailed);
  }
  ORRERY_ASSIGN_OR_RETURN(json::Value item, json::Parse(current));
  if (patch.condition) {
    ORRERY_ASSIGN_OR_RETURN(bool matches, MatchesCondition(*patch.condition, item));
    if (!matches) return Status::PreconditionFailed(kPreconditionFailed);
  }
  ORRERY_RETURN_IF_ERROR(ApplyPatch(item, patch.operations));
  const json::Value* new_id = item.Find("id");
  Result<partition::PartitionKeyValue> new_key =
      partition::ExtractFromItem(item, settings_.partition_key);
  if (new_id == nullptr || !new_id->is_string() || new_id->as_string() != id || !new_key.ok() ||
      !(*new_key == key)) {
    return Status::BadRequest(
        "A patch cannot change the id or the partition key of an item; nothing was changed.");
  }
  return json::Write(item);
}

Result<ItemResult> Container::PatchItem(const partition::PartitionKeyValue& key,
                                        std::string_view id, const PatchRequest& patch,
                                        std::optional<std::string> if_match) {
  for (int attempt = 0;; ++attempt) {
    ORRERY_ASSIGN_OR_RETURN(ReadResult current, ReadItem(key, id, std::nullopt));
    ORRERY_ASSIGN_OR_RETURN(std::string body, PatchedBody(patch, current.item.json,
                                                          current.item.etag, if_match, key, id));
    ItemWriteRequest replace;
    replace.kind = WriteKind::kReplace;
    replace.partition_key = key;
    replace.url_id = id;
    replace.body = body;
    replace.if_match = current.item.etag;
    Result<ItemResult> written = WriteItem(replace);
    const bool lost_race =
        !written.ok() && (written.status().code() == StatusCode::kPreconditionFailed ||
                          written.status().code() == StatusCode::kNotFound);
    // With the caller's etag a lost race is the caller's 412; without, start again
    // (a deleted item then answers 404 from the read).
    if (!lost_race || if_match || attempt + 1 >= kMaxPatchAttempts) return written;
  }
}

}  // namespace orrery::engine
