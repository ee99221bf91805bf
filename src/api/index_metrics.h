#pragma once

// The x-ms-cosmos-index-utilization header ("Index metrics" in the service's docs):
// which indexes a query page used and which would have helped (engine/
// index_utilization.h), as JSON. Two versions, chosen by the request header:
//   V1 (x-ms-cosmos-populateindexmetrics): base64 of
//     {"UtilizedSingleIndexes":[{"FilterExpression":"","IndexSpec":"/a/?",
//       "FilterPreciseSet":true,"IndexPreciseSet":true,"IndexImpactScore":"High"}],
//      "PotentialSingleIndexes":[...],
//      "UtilizedCompositeIndexes":[{"IndexSpecs":["/a ASC","/b DESC"],
//       "IndexPreciseSet":true,"IndexImpactScore":"High"}],
//      "PotentialCompositeIndexes":[...]}
//   V2 (x-ms-cosmos-populateindexmetrics-V2, what @azure/cosmos 4.x sends; it reads the
//     answer with decodeURIComponent and JSON.parse): URI-encoded
//     {"UtilizedIndexes":{"SingleIndexes":[{"IndexSpec":"/a/?","IndexImpactScore":"High"}],
//       "CompositeIndexes":[{"IndexSpecs":[...],"IndexImpactScore":"High"}]},
//      "PotentialIndexes":{"SingleIndexes":[...],"CompositeIndexes":[...]}}

#include <string>

#include "engine/index_utilization.h"

namespace orrery::api {

std::string IndexMetricsV1(const engine::IndexUtilization& use);
std::string IndexMetricsV2(const engine::IndexUtilization& use);

}  // namespace orrery::api
