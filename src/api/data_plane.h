#pragma once

// Header values every data-plane response (items, queries, feeds) carries.

#include <cstdint>
#include <string>

#include "api/request_context.h"
#include "engine/container.h"
#include "engine/throughput/cost_model.h"

namespace orrery::api {

// The container that a request for one of its children (items, queries, partition key
// ranges, ...) addresses. Errors: NotFound with substatus 1003 (OwnerResourceNotFound)
// when the container or its database does not exist, as the service answers: the
// missing resource is the owner, not the child (a read of the container itself is 0).
inline constexpr int kOwnerResourceNotFound = 1003;
Result<std::shared_ptr<engine::Container>> OwnerContainer(const RequestContext& ctx);

// "Strong", "BoundedStaleness", "Session", "ConsistentPrefix", "Eventual" (any case).
std::optional<throughput::Consistency> ParseConsistency(std::string_view name);
const char* ConsistencyName(throughput::Consistency level);

// x-ms-alt-content-path: "dbs/<db id>/colls/<container id>".
std::string AltContentPath(const engine::ContainerSettings& s);
// "<pkrange id>:-1#<lsn>", the session token of one range.
std::string SessionToken(const std::string& pkrange_id, uint64_t lsn);
// The session tokens of every range, at the container's current LSN.
std::string AllRangesSessionToken(const engine::Container& container);
// The session tokens of the ranges a feed request reads (its partition key's range, its
// pkrange id's, ...): one token when it reads one range, as the service answers a
// request to one partition. The Java SDK (SessionContainer.setSessionToken) parses a
// response's token as a single "<range id>:<token>" and fails on a list.
// A request naming its range (x-ms-documentdb-partitionkeyrangeid) gets that range's
// token even when the range has split and its children served it.
std::string ScopeSessionToken(const RequestContext& ctx, const engine::Container& container,
                              const engine::ReadScope& scope);

// The x-ms-consistency-level of a request, which may relax the account's level but not
// strengthen it; checked before any work is done. Errors: BadRequest.
Status CheckConsistencyLevel(const RequestContext& ctx);

// The x-ms-session-token a read carries: every range's token must be well formed
// (BadRequest) and not ahead of what the container has written (NotFound with
// substatus 1002, ReadSessionNotAvailable, which the SDKs retry and then surface).
inline constexpr int kReadSessionNotAvailable = 1002;
Status CheckSessionToken(const RequestContext& ctx, const engine::Container& container);

// The relaxed charge of a read at the consistency it asks for (x-ms-consistency-level,
// else the account's): twice at Strong and Bounded staleness. A request may relax the
// account's level but not strengthen it. Errors: BadRequest.
Result<double> ReadCharge(const RequestContext& ctx, double relaxed_charge);

}  // namespace orrery::api
