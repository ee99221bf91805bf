#include "api/data_plane.h"

#include "api/headers.h"
#include "common/encoding.h"

namespace orrery::api {
namespace {

constexpr std::pair<const char*, throughput::Consistency> kConsistencyNames[] = {
    {"Strong", throughput::Consistency::kStrong},
    {"BoundedStaleness", throughput::Consistency::kBoundedStaleness},
    {"Session", throughput::Consistency::kSession},
    {"ConsistentPrefix", throughput::Consistency::kConsistentPrefix},
    {"Eventual", throughput::Consistency::kEventual},
};

}  // namespace

std::optional<throughput::Consistency> ParseConsistency(std::string_view name) {
  for (const auto& [text, level] : kConsistencyNames) {
    if (EqualsIgnoreCase(name, text)) return level;
  }
  return std::nullopt;
}

const char* ConsistencyName(throughput::Consistency level) {
  for (const auto& [text, known] : kConsistencyNames) {
    if (known == level) return text;
  }
  return "Session";
}

Result<double> ReadCharge(const RequestContext& ctx, double relaxed_charge) {
  throughput::Consistency level = ctx.account_consistency;
  if (const std::string* asked = ctx.Header(headers::kConsistencyLevel)) {
    std::optional<throughput::Consistency> parsed = ParseConsistency(*asked);
    if (!parsed) {
      return Status::BadRequest("Invalid value '" + *asked + "' for header " +
                                headers::kConsistencyLevel +
                                ": use Strong, BoundedStaleness, Session, ConsistentPrefix or "
                                "Eventual.");
    }
    // The enum runs from strongest to weakest.
    if (*parsed < ctx.account_consistency) {
      return Status::BadRequest(std::string("The consistency level '") + ConsistencyName(*parsed) +
                                "' is stronger than the account's default '" +
                                ConsistencyName(ctx.account_consistency) +
                                "'; a request can only relax it.");
    }
    level = *parsed;
  }
  return throughput::ReadChargeAt(relaxed_charge, level);
}

std::string AltContentPath(const engine::ContainerSettings& s) {
  return "dbs/" + s.database_id + "/colls/" + s.id;
}

std::string SessionToken(const std::string& pkrange_id, uint64_t lsn) {
  return pkrange_id + ":-1#" + std::to_string(lsn);
}

std::string AllRangesSessionToken(const engine::Container& container) {
  std::string token;
  for (const auto& p : container.settings().partitions.partitions()) {
    if (!token.empty()) token += ',';
    token += SessionToken(p.id, container.current_lsn());
  }
  return token;
}

std::string ScopeSessionToken(const RequestContext& ctx, const engine::Container& container,
                              const engine::ReadScope& scope) {
  if (const std::string* range_id = ctx.Header(headers::kPartitionKeyRangeId)) {
    return SessionToken(*range_id, container.current_lsn());
  }
  std::string token;
  for (const auto& p : container.settings().partitions.partitions()) {
    const bool reads = scope.exact_epk
                           ? p.Contains(*scope.exact_epk)
                           : (scope.range.max == "FF" || p.min_inclusive < scope.range.max) &&
                                 (p.max_exclusive == "FF" || scope.range.min < p.max_exclusive);
    if (!reads) continue;
    if (!token.empty()) token += ',';
    token += SessionToken(p.id, container.current_lsn());
  }
  return token.empty() ? AllRangesSessionToken(container) : token;
}

}  // namespace orrery::api
