#pragma once

// Which top-level members of an item a query can read. Most queries touch a few
// members (`SELECT c.id FROM c WHERE c.x = 1`); converting only those from the parsed
// text, instead of the whole item, is most of the cost of a scan. Whenever the item is
// used as a whole (`SELECT *`, `SELECT VALUE c`, `c[@name]`, `FROM (subquery)`), the
// answer is "all of them".

#include <optional>
#include <string>
#include <vector>

#include "query/binder.h"

namespace orrery::query {

// The names of the top-level members the query may read, sorted and unique; nullopt
// when it may read the whole item.
std::optional<std::vector<std::string>> ItemMembersUsed(const BoundQuery& bound);

// Whether the query reads one source only (no JOIN) and filters or orders by nothing of
// an item but its `id`: no WHERE or one that reads only the id, and no ORDER BY.
bool FiltersOnlyById(const BoundQuery& bound);

}  // namespace orrery::query
