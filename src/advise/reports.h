#pragma once

// A study's three outputs (issue 19): JSON for machines, a terminal summary, and one
// self-contained HTML page with charts (inline SVG, no script).

#include <string>
#include <vector>

#include "advise/study.h"
#include "json/value.h"

namespace orrery::advise {

// {"study", "items", "scale", ..., "ranking": [{"rank", "partitionKey": [paths],
// "logicalPartitions", "physicalPartitions", "operations", "reasons", ...}]}
json::Value StudyJson(const StudyResult& study);

// Tables and the verdict; ANSI colours when `color`.
std::string StudyText(const StudyResult& study, bool color);

std::string StudyHtml(const std::vector<StudyResult>& studies);

}  // namespace orrery::advise
