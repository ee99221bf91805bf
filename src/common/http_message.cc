#include "common/http_message.h"

namespace orrery::http {

// A linear scan: requests carry a dozen or two headers, for which this beats
// building an index per request.
const std::string* Request::FindHeader(std::string_view lowercase_name) const {
  for (const Header& header : headers) {
    if (header.name == lowercase_name) {
      return &header.value;
    }
  }
  return nullptr;
}

}  // namespace orrery::http
