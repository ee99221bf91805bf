#include "api/singleton_headers.h"

#include <algorithm>
#include <array>
#include <bitset>
#include <string>
#include <string_view>

#include "api/headers.h"

namespace orrery::api {

namespace {

// Every header the API reads as a single value, sorted for the binary search. List-valued
// headers it reads by substring (prefer) may be repeated.
constexpr auto kSingletonHeaders = [] {
  std::array<std::string_view, 29> names = {
      headers::kAuthorization,
      headers::kMsDate,
      headers::kDate,
      headers::kContentType,
      headers::kConsistencyLevel,
      headers::kIfMatch,
      headers::kIfNoneMatch,
      headers::kIfModifiedSince,
      headers::kAIm,
      headers::kContinuation,
      headers::kMaxItemCount,
      headers::kResponseContinuationTokenLimitInKb,
      headers::kPartitionKey,
      headers::kPartitionKeyRangeId,
      headers::kStartEpk,
      headers::kEndEpk,
      headers::kIsUpsert,
      headers::kIsQuery,
      headers::kIsQueryPlanRequest,
      headers::kEnableCrossPartition,
      headers::kIsBatchRequest,
      headers::kBatchAtomic,
      headers::kOfferThroughput,
      headers::kOfferAutopilotSettings,
      headers::kPopulateQuotaInfo,
      headers::kPopulatePartitionStatistics,
      headers::kPopulateQueryMetrics,
      headers::kPopulateIndexMetrics,
      headers::kPopulateIndexMetricsV2,
  };
  std::sort(names.begin(), names.end());
  return names;
}();

}  // namespace

Status CheckSingletonHeaders(const http::Request& request) {
  // One pass with a bit per singleton name: a request may carry thousands of header
  // lines (up to the header byte limit), so no pairwise comparison.
  std::bitset<kSingletonHeaders.size()> seen;
  for (const http::Header& header : request.headers) {
    const auto it =
        std::lower_bound(kSingletonHeaders.begin(), kSingletonHeaders.end(), header.name);
    if (it == kSingletonHeaders.end() || *it != header.name) continue;
    const size_t index = static_cast<size_t>(it - kSingletonHeaders.begin());
    if (seen.test(index)) {
      return Status::BadRequest("The header " + header.name +
                                " appears more than once; it may be given only once.");
    }
    seen.set(index);
  }
  return Status::Ok();
}

}  // namespace orrery::api
