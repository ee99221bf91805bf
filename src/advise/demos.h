#pragma once

// The built-in studies of `orrery advise --demo` (issue 19): data, candidates and
// workload of the classic partitioning articles. Only the inputs are written here; the
// ranking and its reasons come from running them.
//   telemetry: events of devices of tenants, one tenant 100x larger than each other;
//              /tenantId against /tenantId,/deviceId against /deviceId.
//   ecommerce: products by categoryId against by id (a category's page is the common
//              query); reviews by productId against by id; categories (reference
//              data read together) by type against by id.

#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "json/value.h"

namespace orrery::advise {

struct DemoStudy {
  std::string name;  // "telemetry", "products", "reviews"
  json::Value generator_spec;
  std::vector<std::string> candidates;
  json::Value workload;
  int64_t throughput = 0;
  // How many items production holds: the scale is this over the items studied.
  double production_items = 0;
  // Reference data keeps its size whatever --items asks of the other studies.
  bool keeps_count = false;
};

// The studies of a demo, the main one first. Errors: NotFound naming the demos.
Result<std::vector<DemoStudy>> DemoNamed(const std::string& name);

}  // namespace orrery::advise
