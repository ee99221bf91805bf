#pragma once

// `orrery import` and `orrery export`: a container's items to and from a file of JSON
// lines (one item per line) or a JSON array.
//
// Import upserts the items in bulk requests of up to 100 operations (each with its own
// partition key, taken from the item by the container's definition), several requests
// at a time. Operations the server throttles (429) are sent again after the wait it
// asks for, so the import runs at the container's throughput. Progress goes to a
// checkpoint file beside the input (<file>.orrery-import: how many items from the start
// are in); an interrupted import started again skips those, and upserts make any item
// sent twice land once. A progress line is shown on a terminal.
//
// Export reads every page of SELECT * FROM c and writes each item without its system
// properties (_rid, _self, _etag, _attachments, _ts), so that the file imports again.

#include <string>

namespace orrery::cli {

struct TransferOptions {
  std::string endpoint = "https://127.0.0.1:8081";
  std::string key;
  std::string database;
  std::string container;
  std::string file;
  int concurrency = 4;   // import: bulk requests in flight
  bool array = false;    // export: one JSON array instead of JSON lines
  bool restart = false;  // import: ignore a checkpoint and start from the first item
};

int RunImport(const TransferOptions& options);
int RunExport(const TransferOptions& options);

}  // namespace orrery::cli
