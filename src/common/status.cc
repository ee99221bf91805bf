#include "common/status.h"

namespace orrery {

std::string Status::ToString() const {
  if (ok()) {
    return "OK";
  }
  std::string out = "status " + std::to_string(static_cast<int>(code_));
  if (substatus_ != 0) {
    out += "/" + std::to_string(substatus_);
  }
  return out + ": " + message_;
}

}  // namespace orrery
