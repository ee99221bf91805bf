#pragma once

// Header values every data-plane response (items, queries, feeds) carries.

#include <cstdint>
#include <string>

#include "engine/container.h"

namespace orrery::api {

// x-ms-alt-content-path: "dbs/<db id>/colls/<container id>".
std::string AltContentPath(const engine::ContainerSettings& s);
// "<pkrange id>:-1#<lsn>", the session token of one range.
std::string SessionToken(const std::string& pkrange_id, uint64_t lsn);
// The session tokens of every range, at the container's current LSN.
std::string AllRangesSessionToken(const engine::Container& container);

}  // namespace orrery::api
