#pragma once

// The Data Explorer's files (web/, bundled into <build>/explorer by `make explorer`),
// served at /_explorer/. They are read once, when the server starts: a few tens of
// kilobytes, and no request ever waits for the disk or sees a half-written file.

#include <map>
#include <optional>
#include <string>

#include "common/http_message.h"

namespace orrery::api {

class ExplorerAssets {
 public:
  // The files directly inside `directory` (no subdirectories). A missing directory
  // gives an empty set, whose pages say how to build them.
  static ExplorerAssets Load(const std::string& directory);

  // Whether `target` (a request target, query string included) is under /_explorer.
  static bool Serves(std::string_view target);

  // The answer to a GET or HEAD of a path under /_explorer/ (`/_explorer` and
  // `/_explorer/` are its index.html).
  http::Response Respond(const http::Request& request) const;

  bool empty() const { return files_.empty(); }

 private:
  struct File {
    std::string content_type;
    std::string body;
  };
  std::map<std::string, File, std::less<>> files_;
  std::string directory_;
};

}  // namespace orrery::api
