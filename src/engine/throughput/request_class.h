#pragma once

// What a request says of how it shares its partition's throughput: its priority
// (x-ms-cosmos-priority-level: with the partition over budget, low-priority requests are
// throttled before high-priority ones; priority-based-execution.md) and its throughput
// bucket (x-ms-cosmos-throughput-bucket: a bucket configured on the container may spend
// at most its percentage of the partition's RU/s, beyond which its requests get 429 with
// substatus 3212; throughput-buckets.md).

#include <cstdint>
#include <vector>

namespace orrery::throughput {

enum class PriorityLevel : uint8_t { kHigh, kLow };

struct RequestClass {
  int bucket = 0;  // 1..kMaxThroughputBuckets; 0: none
  PriorityLevel priority = PriorityLevel::kHigh;
};

// A container's throughput bucket: its id (1..5) and the share of each physical
// partition's RU/s its requests may spend.
struct ThroughputBucket {
  int id = 0;
  double max_percentage = 100;
};

inline constexpr int kMaxThroughputBuckets = 5;
// The substatus of a 429 answered because the request's bucket is over its share.
inline constexpr int kThroughputBucketExceeded = 3212;
// A low-priority request is admitted only while its partition's budget holds more than
// this share of one second's RU: the rest is kept for high-priority requests, which are
// admitted down to zero. With no high-priority requests, low ones still get the whole
// rate (the budget refills at it), only a smaller burst.
inline constexpr double kLowPriorityReserve = 0.5;

}  // namespace orrery::throughput
