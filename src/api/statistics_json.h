#pragma once

// Partition statistics as JSON: in the service's shape (the "statistics" array of a
// container read with x-ms-documentdb-populatepartitionstatistics) and in Orrery's
// admin shape (GET /_orrery/dbs/{db}/colls/{c}/stats; README "Admin calls"), and the
// x-ms-resource-usage header value.

#include <string>

#include "engine/partition_statistics.h"
#include "json/value.h"

namespace orrery::api {

json::Value ServiceStatisticsJson(const engine::ContainerStatistics& stats);
json::Value AdminStatisticsJson(const engine::ContainerStatistics& stats);
std::string ResourceUsageHeader(const engine::ContainerStatistics& stats);

}  // namespace orrery::api
