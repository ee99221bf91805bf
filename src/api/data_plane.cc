#include "api/data_plane.h"

#include <algorithm>

#include "api/headers.h"
#include "common/decimal_integer.h"
#include "common/encoding.h"

namespace orrery::api {

Result<std::shared_ptr<engine::Container>> OwnerContainer(const RequestContext& ctx) {
  Result<std::shared_ptr<engine::Container>> container =
      ctx.account.GetContainer(ctx.path.segments[1], ctx.path.segments[3]);
  if (!container.ok() && container.status().IsNotFound()) {
    return Status::NotFound(container.status().message(), kOwnerResourceNotFound);
  }
  return container;
}

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

Result<throughput::Consistency> RequestConsistency(const RequestContext& ctx) {
  const std::string* asked = ctx.Header(headers::kConsistencyLevel);
  if (asked == nullptr) return ctx.account_consistency;
  std::optional<throughput::Consistency> parsed = ParseConsistency(*asked);
  if (!parsed) {
    return Status::BadRequest("Invalid value '" + *asked + "' for header " +
                              headers::kConsistencyLevel +
                              ": use Strong, BoundedStaleness, Session, ConsistentPrefix or "
                              "Eventual.");
  }
  // The enum runs from strongest to weakest.
  if (*parsed < ctx.account_consistency) {
    return Status::BadRequest(std::string("ConsistencyLevel ") + ConsistencyName(*parsed) +
                              " specified in the request is invalid when service is configured "
                              "with consistency level " +
                              ConsistencyName(ctx.account_consistency) +
                              ". Ensure the request consistency level is not stronger than the "
                              "service consistency level.");
  }
  return *parsed;
}

Status CheckConsistencyLevel(const RequestContext& ctx) { return RequestConsistency(ctx).status(); }

Result<double> ReadCharge(const RequestContext& ctx, double relaxed_charge) {
  ORRERY_ASSIGN_OR_RETURN(throughput::Consistency level, RequestConsistency(ctx));
  return throughput::ReadChargeAt(relaxed_charge, level);
}

namespace {

// A non-negative decimal number of a session token.
std::optional<uint64_t> Number(std::string_view text) {
  std::optional<int64_t> n = ParseDecimalInteger(text);
  return n && *n >= 0 ? std::optional<uint64_t>(static_cast<uint64_t>(*n)) : std::nullopt;
}

// The global LSN of one range's token: "<lsn>" (the first format) or
// "<version>#<global lsn>[#<region>=<lsn>...]" (the SDKs' vector tokens).
std::optional<uint64_t> GlobalLsn(std::string_view token) {
  size_t hash = token.find('#');
  if (hash == std::string_view::npos) return Number(token);
  std::string_view version = token.substr(0, hash);
  if (version.starts_with('-')) version.remove_prefix(1);
  if (!Number(version)) return std::nullopt;
  std::string_view rest = token.substr(hash + 1);
  size_t next = rest.find('#');
  const std::optional<uint64_t> global = Number(rest.substr(0, next));
  while (global && next != std::string_view::npos) {
    rest = rest.substr(next + 1);
    next = rest.find('#');
    std::string_view region = rest.substr(0, next);
    size_t eq = region.find('=');
    if (eq == std::string_view::npos || !Number(region.substr(0, eq)) ||
        !Number(region.substr(eq + 1))) {
      return std::nullopt;
    }
  }
  return global;
}

}  // namespace

Status CheckSessionToken(const RequestContext& ctx, const engine::Container& container) {
  const std::string* header = ctx.Header(headers::kSessionToken);
  if (header == nullptr || header->empty()) return Status::Ok();
  // Every range's token is checked for form before any is compared.
  uint64_t highest = 0;
  std::string_view rest = *header;
  while (true) {
    size_t comma = rest.find(',');
    std::string_view entry = rest.substr(0, comma);
    size_t colon = entry.find(':');
    std::optional<uint64_t> lsn = colon == std::string_view::npos || colon == 0
                                      ? std::nullopt
                                      : GlobalLsn(entry.substr(colon + 1));
    if (!lsn) {
      return Status::BadRequest("The session token provided '" + *header + "' is invalid.");
    }
    highest = std::max(highest, *lsn);
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  // One server holds every replica, so a token ahead of the container's LSN names writes
  // this server never made (a client of an earlier in-memory server, say).
  if (highest > container.current_lsn()) {
    return Status::NotFound("The read session is not available for the input session token.",
                            kReadSessionNotAvailable);
  }
  return Status::Ok();
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
    const bool reads =
        scope.exact_epk
            ? p.Contains(*scope.exact_epk)
            : !engine::Intersect(scope.range, engine::EpkRange{p.min_inclusive, p.max_exclusive})
                   .empty();
    if (!reads) continue;
    if (!token.empty()) token += ',';
    token += SessionToken(p.id, container.current_lsn());
  }
  return token.empty() ? AllRangesSessionToken(container) : token;
}

}  // namespace orrery::api
