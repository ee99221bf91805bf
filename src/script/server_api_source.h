#pragma once

// The text of server_api.js, compiled into the binary (CMake generates its definition).

#include <string_view>

namespace orrery::script {

std::string_view ServerApiSource();

}  // namespace orrery::script
