#pragma once

// Where the server should run a request (http::WorkKind), decided from its method,
// path and headers alone, before authentication or any engine call: the HTTP layer
// asks on its I/O thread, so this must stay cheap.

#include "common/http_message.h"

namespace orrery::api {

struct WorkKindOptions {
  // Item writes wait for their sync to disk (`serve --sync-writes` on disk): they run
  // on the blocking pool, where concurrent ones share one sync. Otherwise they are
  // cheap and stay inline.
  bool item_writes_sync = false;
};

// kLong: queries, read feeds and change feeds of items, admin calls (anything that can
// scan a container). kBlocking: writes of databases, containers and offers (always
// synced), and item writes when they sync. kInline: everything else (point reads,
// query plans, metadata reads and lists, which are served from memory).
http::WorkKind ClassifyWork(const http::Request& request, const WorkKindOptions& options);

}  // namespace orrery::api
