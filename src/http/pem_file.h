#pragma once

// Reading and writing the PEM files that hold TLS certificates and keys.

#include <sys/types.h>

#include <string>
#include <string_view>

#include "common/status.h"

namespace orrery::http {

// The whole content of the file at `path`. `what` names it in errors, which read
// "cannot read <what> <path>: <reason>" (e.g. "cannot read TLS certificate
// /x/cert.pem: No such file or directory"); the code is IoError.
Result<std::string> ReadPemFile(const std::string& path, std::string_view what);

// Writes `contents` to `path` with permission bits `mode`, replacing any existing
// file atomically (a temporary file is renamed over it), so a crash never leaves a
// truncated key. Errors: IoError "cannot write <path>: <reason>".
Status WritePemFile(const std::string& path, std::string_view contents, mode_t mode);

}  // namespace orrery::http
