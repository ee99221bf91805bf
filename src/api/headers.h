#pragma once

// Every wire header name Orrery reads or writes (lowercase; HTTP names are
// case-insensitive and src/http lowercases incoming ones).

namespace orrery::api::headers {

inline constexpr const char* kAuthorization = "authorization";
inline constexpr const char* kDate = "date";
inline constexpr const char* kMsDate = "x-ms-date";
inline constexpr const char* kHost = "host";
inline constexpr const char* kVersion = "x-ms-version";
inline constexpr const char* kConsistencyLevel = "x-ms-consistency-level";
inline constexpr const char* kSupportedQueryFeatures = "x-ms-cosmos-supported-query-features";
inline constexpr const char* kContentType = "content-type";
inline constexpr const char* kIfMatch = "if-match";
inline constexpr const char* kIfNoneMatch = "if-none-match";
inline constexpr const char* kIfModifiedSince = "if-modified-since";
inline constexpr const char* kAIm = "a-im";
inline constexpr const char* kPrefer = "prefer";
inline constexpr const char* kEtag = "etag";

inline constexpr const char* kActivityId = "x-ms-activity-id";
inline constexpr const char* kRequestCharge = "x-ms-request-charge";
inline constexpr const char* kSubstatus = "x-ms-substatus";
inline constexpr const char* kRetryAfterMs = "x-ms-retry-after-ms";
inline constexpr const char* kSessionToken = "x-ms-session-token";
inline constexpr const char* kContinuation = "x-ms-continuation";
inline constexpr const char* kItemCount = "x-ms-item-count";
inline constexpr const char* kMaxItemCount = "x-ms-max-item-count";
// Sent by the SDKs on every request; Orrery's continuations are small enough to ignore
// it, but it is a number and is checked as one.
inline constexpr const char* kResponseContinuationTokenLimitInKb =
    "x-ms-documentdb-responsecontinuationtokenlimitinkb";
inline constexpr const char* kContentPath = "x-ms-content-path";
inline constexpr const char* kAltContentPath = "x-ms-alt-content-path";
inline constexpr const char* kResourceQuota = "x-ms-resource-quota";
inline constexpr const char* kResourceUsage = "x-ms-resource-usage";
inline constexpr const char* kLsn = "lsn";
inline constexpr const char* kItemLsn = "x-ms-item-lsn";
inline constexpr const char* kGlobalCommittedLsn = "x-ms-global-committed-lsn";
inline constexpr const char* kGatewayVersion = "x-ms-gatewayversion";
inline constexpr const char* kSchemaVersion = "x-ms-schemaversion";
inline constexpr const char* kServiceVersion = "x-ms-serviceversion";
inline constexpr const char* kMaxMediaStorageUsageMb = "x-ms-max-media-storage-usage-mb";
inline constexpr const char* kMediaStorageUsageMb = "x-ms-media-storage-usage-mb";

inline constexpr const char* kPartitionKey = "x-ms-documentdb-partitionkey";
inline constexpr const char* kPartitionKeyRangeId = "x-ms-documentdb-partitionkeyrangeid";
inline constexpr const char* kStartEpk = "x-ms-start-epk";
inline constexpr const char* kEndEpk = "x-ms-end-epk";
inline constexpr const char* kReadKeyType = "x-ms-read-key-type";
inline constexpr const char* kIsUpsert = "x-ms-documentdb-is-upsert";
inline constexpr const char* kIndexingDirective = "x-ms-indexing-directive";
// Server-side scripts: console.log on (request) and its output (response, percent-encoded).
inline constexpr const char* kScriptEnableLogging = "x-ms-documentdb-script-enable-logging";
inline constexpr const char* kScriptLogResults = "x-ms-documentdb-script-log-results";
inline constexpr const char* kPreTriggerInclude = "x-ms-documentdb-pre-trigger-include";
inline constexpr const char* kPostTriggerInclude = "x-ms-documentdb-post-trigger-include";
inline constexpr const char* kPriorityLevel = "x-ms-cosmos-priority-level";
inline constexpr const char* kThroughputBucket = "x-ms-cosmos-throughput-bucket";
inline constexpr const char* kIsQuery = "x-ms-documentdb-isquery";
inline constexpr const char* kIsQueryPlanRequest = "x-ms-cosmos-is-query-plan-request";
inline constexpr const char* kEnableCrossPartition = "x-ms-documentdb-query-enablecrosspartition";
inline constexpr const char* kIsBatchRequest = "x-ms-cosmos-is-batch-request";
inline constexpr const char* kBatchAtomic = "x-ms-cosmos-batch-atomic";
inline constexpr const char* kOfferThroughput = "x-ms-offer-throughput";
inline constexpr const char* kOfferAutopilotSettings = "x-ms-cosmos-offer-autopilot-settings";
inline constexpr const char* kPopulateQuotaInfo = "x-ms-documentdb-populatequotainfo";
inline constexpr const char* kPopulatePartitionStatistics =
    "x-ms-documentdb-populatepartitionstatistics";
inline constexpr const char* kIndexTransformationProgress =
    "x-ms-documentdb-collection-index-transformation-progress";
inline constexpr const char* kPopulateQueryMetrics = "x-ms-documentdb-populatequerymetrics";
inline constexpr const char* kQueryMetrics = "x-ms-documentdb-query-metrics";
// Index metrics: the request asks (V1: base64 JSON; V2, which @azure/cosmos 4.x sends:
// URI-encoded JSON of another shape), the response answers (index_metrics.h).
inline constexpr const char* kPopulateIndexMetrics = "x-ms-cosmos-populateindexmetrics";
inline constexpr const char* kPopulateIndexMetricsV2 = "x-ms-cosmos-populateindexmetrics-v2";
inline constexpr const char* kIndexUtilization = "x-ms-cosmos-index-utilization";
// Orrery's own, for the Data Explorer: the physical partitions (pkrange ids) a query
// page read, asked for with x-ms-orrery-populate-partitions: true.
inline constexpr const char* kPopulatePartitions = "x-ms-orrery-populate-partitions";
inline constexpr const char* kPartitionsTouched = "x-ms-orrery-partitions-touched";

}  // namespace orrery::api::headers
