#pragma once

// How long one page of a query or feed may run before it ends early with a
// continuation (the service's 5 s, query-language.md §10). Process-wide: set once at
// start-up (`orrery serve --query-page-time-ms`), read by every query page.

#include <chrono>

namespace orrery::engine {

inline constexpr std::chrono::milliseconds kServiceQueryPageTime{5000};

std::chrono::milliseconds QueryPageTimeBudget();
void SetQueryPageTimeBudget(std::chrono::milliseconds budget);

}  // namespace orrery::engine
