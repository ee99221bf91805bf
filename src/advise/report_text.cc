#include <algorithm>
#include <string>
#include <vector>

#include "advise/format.h"
#include "advise/reports.h"

namespace orrery::advise {
namespace {

using Row = std::vector<std::string>;

// Columns padded to their widest cell; the first left-aligned, the others right.
std::string Table(const Row& header, const std::vector<Row>& rows) {
  std::vector<size_t> widths(header.size(), 0);
  for (size_t i = 0; i < header.size(); ++i) widths[i] = header[i].size();
  for (const Row& row : rows) {
    for (size_t i = 0; i < row.size() && i < widths.size(); ++i) {
      widths[i] = std::max(widths[i], row[i].size());
    }
  }
  auto line = [&](const Row& row) {
    std::string out = " ";
    for (size_t i = 0; i < widths.size(); ++i) {
      const std::string cell = i < row.size() ? row[i] : "";
      const std::string pad(widths[i] - std::min(widths[i], cell.size()), ' ');
      out += " " + (i == 0 ? cell + pad : pad + cell) + " ";
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out + "\n";
  };
  std::string out = line(header);
  size_t total = 1;
  for (size_t w : widths) total += w + 2;
  out += "  " + std::string(total - 2, '-') + "\n";
  for (const Row& row : rows) out += line(row);
  return out;
}

class Paint {
 public:
  explicit Paint(bool color) : color_(color) {}
  std::string operator()(const std::string& text, const char* code) const {
    return color_ ? std::string("\x1b[") + code + "m" + text + "\x1b[0m" : text;
  }

 private:
  bool color_;
};

std::string CandidateDetail(const CandidateResult& c, size_t rank, const Paint& paint) {
  std::string out = "\n" + paint(std::to_string(rank) + ". " + c.candidate.label(), "1") + "\n";
  for (const std::string& reason : c.reasons) out += "   - " + reason + "\n";
  std::vector<Row> ops;
  for (const OperationMeasure& op : c.operations) {
    ops.push_back({op.name, FormatPercent(op.share), op.routing,
                   FormatNumber(op.partitions_touched), FormatNumber(op.ru_median),
                   FormatNumber(op.ru_p99)});
  }
  out += "\n" + Table({"operation", "share", "routing", "partitions", "RU p50", "RU p99"}, ops);
  std::vector<Row> parts;
  for (const PhysicalPartitionMeasure& p : c.physical) {
    parts.push_back({p.id, FormatBytes(p.projected_bytes), FormatPercent(p.storage_share),
                     FormatPercent(p.request_share),
                     FormatPercent(p.requests > 0 ? static_cast<double>(p.throttled) /
                                                        static_cast<double>(p.requests)
                                                  : 0)});
  }
  out += "\n" +
         Table({"physical partition", "storage at scale", "storage", "request units", "throttled"},
               parts);
  return out;
}

}  // namespace

std::string StudyText(const StudyResult& study, bool color) {
  const Paint paint(color);
  std::string out = paint("orrery advise", "1") + (study.name.empty() ? "" : ": " + study.name) +
                    " - " + FormatNumber(static_cast<double>(study.items)) + " items, scale " +
                    FormatNumber(study.scale) + ", " +
                    FormatNumber(static_cast<double>(study.throughput)) + " RU/s" +
                    (study.autoscale ? " autoscale max" : "") + ", " +
                    FormatNumber(study.requests_per_second) + " requests/s played for " +
                    FormatNumber(study.seconds_played) + " s\n\n";
  std::vector<Row> rows;
  for (size_t i = 0; i < study.ranking.size(); ++i) {
    const CandidateResult& c = study.ranking[i];
    std::string largest = FormatBytes(c.logical.projected_largest_bytes);
    if (c.exceeds_limit) largest += " OVER 20 GB";
    rows.push_back({std::to_string(i + 1) + ". " + c.candidate.label(), largest,
                    FormatPercent(c.fan_out_share), FormatNumber(c.mean_ru),
                    FormatPercent(c.throttled_fraction), std::to_string(c.physical.size()),
                    FormatNumber(c.score)});
  }
  std::string table = Table({"candidate", "largest logical at scale", "fan-out", "RU/request",
                             "throttled", "partitions", "score"},
                            rows);
  out += table;
  for (size_t i = 0; i < study.ranking.size(); ++i) {
    out += CandidateDetail(study.ranking[i], i + 1, paint);
  }
  if (!study.ranking.empty()) {
    const CandidateResult& best = study.ranking.front();
    out += "\n" +
           paint("Recommended: " + best.candidate.label(), best.exceeds_limit ? "31;1" : "32;1") +
           " - " + (best.reasons.empty() ? std::string() : best.reasons.front()) + "\n";
  }
  return out;
}

}  // namespace orrery::advise
