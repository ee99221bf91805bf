#include "engine/partition/partition_key_path.h"

#include <algorithm>
#include <string>

namespace orrery::partition {

namespace {

// The service's own message (observed from the hosted service, e.g. for "pk" it fails
// near position '0', for "//Document/MyId" near '1', for "/asdwqr31 @#$#$WRadf" near
// '10', the '@').
Status InvalidPath(std::string_view path, size_t position) {
  return Status::BadRequest("The partition key component definition path '" + std::string(path) +
                            "' could not be accepted, failed near position '" +
                            std::to_string(position) +
                            "'. Partition key paths must contain only valid characters and not "
                            "contain a trailing slash or wildcard character.");
}

// Characters allowed in an unquoted segment. The service's exact set is not
// documented: it rejects '*' (wildcard), '@' and the like (see InvalidPath) and accepts
// spaces inside a name. We accept letters, digits, '_', '-', '$', spaces and any
// non-ASCII byte, and reject other ASCII punctuation and control characters; such
// names can still be used quoted (/"a.b").
bool IsUnquotedNameChar(char ch) {
  const auto c = static_cast<unsigned char>(ch);
  if (c >= 0x80) {
    return true;
  }
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-' || c == '$' || c == ' ';
}

std::string_view TrimSpaces(std::string_view s) {
  while (!s.empty() && s.front() == ' ') {
    s.remove_prefix(1);
  }
  while (!s.empty() && s.back() == ' ') {
    s.remove_suffix(1);
  }
  return s;
}

}  // namespace

Result<std::vector<std::string>> ParsePartitionKeyPath(std::string_view path) {
  std::vector<std::string> names;
  size_t pos = 0;
  if (path.empty() || path[0] != '/') {
    return InvalidPath(path, 0);
  }
  while (pos < path.size()) {
    if (path[pos] != '/') {
      return InvalidPath(path, pos);
    }
    const size_t slash = pos++;
    if (pos == path.size()) {
      return InvalidPath(path, slash);  // trailing slash, or "/" alone
    }
    const char first = path[pos];
    if (first == '"' || first == '\'') {
      // As the SDK does: the name ends at the first quote not preceded by a backslash.
      size_t close = path.find(first, pos + 1);
      while (close != std::string_view::npos && path[close - 1] == '\\') {
        close = path.find(first, close + 1);
      }
      if (close == std::string_view::npos || close == pos + 1) {
        return InvalidPath(path, pos);
      }
      names.emplace_back(path.substr(pos + 1, close - pos - 1));
      pos = close + 1;
      continue;
    }
    const size_t end = std::min(path.find('/', pos), path.size());
    for (size_t i = pos; i < end; ++i) {
      if (!IsUnquotedNameChar(path[i])) {
        return InvalidPath(path, i);
      }
    }
    const std::string_view name = TrimSpaces(path.substr(pos, end - pos));
    if (name.empty()) {
      return InvalidPath(path, pos);
    }
    names.emplace_back(name);
    pos = end;
  }
  return names;
}

}  // namespace orrery::partition
