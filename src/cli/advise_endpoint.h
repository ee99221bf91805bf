#pragma once

// `orrery advise --endpoint URL` (issue 19): the same study as in process (advise/study.h),
// against a running Orrery server or any Cosmos DB endpoint, through the REST API. It
// creates a database of its own with a container per candidate, loads the items with
// bulk requests, runs every operation as an SDK does (a query one partition key range at
// a time, page by page, its charge the x-ms-request-charge of each page), reads the
// partition key ranges, then drops the database. What differs from the in-process study:
// the physical partitions are the endpoint's own (the sample is not split as production
// would be: the account's partitions at this size), and logical partition sizes are
// counted from the items (their JSON plus the system properties the endpoint adds to one
// of them).

#include "advise/study.h"
#include "cli/rest_call.h"

namespace orrery::cli {

Result<advise::StudyResult> RunEndpointStudy(const Connection& connection,
                                             const advise::ItemSource& items,
                                             const advise::StudyOptions& options);

}  // namespace orrery::cli
