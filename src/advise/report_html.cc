#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "advise/format.h"
#include "advise/reports.h"

namespace orrery::advise {
namespace {

std::string Escape(const std::string& text) {
  std::string out;
  for (char ch : text) {
    switch (ch) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += ch;
    }
  }
  return out;
}

std::string Fixed(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

const char* const kPalette[] = {"#3b6fd8", "#d8833b", "#3ba86b", "#a34fc4", "#c43b55", "#3bb4c4"};

struct Bar {
  std::string label;
  double value = 0;
  std::string text;  // printed after the bar
  std::string color;
};

// Horizontal bars scaled to the largest value.
std::string BarChart(const std::string& title, const std::vector<Bar>& bars) {
  double largest = 0;
  for (const Bar& bar : bars) largest = std::max(largest, bar.value);
  // Wide enough for the longest label and the longest text after a bar (12 px
  // system-ui: under 7 px a character).
  size_t longest_label = 0, longest_text = 0;
  for (const Bar& bar : bars) {
    longest_label = std::max(longest_label, bar.label.size());
    longest_text = std::max(longest_text, bar.text.size());
  }
  const int row = 22, bar_width = 380;
  const int label_width = 12 + 7 * static_cast<int>(longest_label);
  const int text_width = 16 + 7 * static_cast<int>(longest_text);
  const int height = row * static_cast<int>(bars.size()) + 30;
  std::string svg = "<figure><figcaption>" + Escape(title) +
                    "</figcaption><svg class=\"chart\" role=\"img\" width=\"" +
                    std::to_string(label_width + bar_width + text_width) + "\" height=\"" +
                    std::to_string(height) + "\">";
  for (size_t i = 0; i < bars.size(); ++i) {
    const Bar& bar = bars[i];
    const int y = 10 + row * static_cast<int>(i);
    const double width = largest > 0 ? bar_width * bar.value / largest : 0;
    svg += "<text x=\"" + std::to_string(label_width - 6) + "\" y=\"" + std::to_string(y + 14) +
           "\" text-anchor=\"end\">" + Escape(bar.label) + "</text>";
    svg += "<rect x=\"" + std::to_string(label_width) + "\" y=\"" + std::to_string(y + 2) +
           "\" width=\"" + Fixed(std::max(width, 1.0)) + "\" height=\"16\" fill=\"" + bar.color +
           "\"><title>" + Escape(bar.label + ": " + bar.text) + "</title></rect>";
    svg += "<text x=\"" + Fixed(label_width + std::max(width, 1.0) + 6) + "\" y=\"" +
           std::to_string(y + 14) + "\">" + Escape(bar.text) + "</text>";
  }
  return svg + "</svg></figure>\n";
}

// Storage and request-unit share of each physical partition as a row of heat cells.
std::string HeatChart(const CandidateResult& c, const StudyResult& study) {
  const int cell = 56, top = 20;
  const int width = 120 + cell * static_cast<int>(c.physical.size());
  std::string svg =
      "<figure><figcaption>Physical partitions " +
      std::string(study.partitions_at_scale ? "at scale" : "on the endpoint") +
      ": storage and request units (darker is hotter)</figcaption><svg class=\"chart heat\" "
      "role=\"img\" width=\"" +
      std::to_string(width) + "\" height=\"" + std::to_string(top + 2 * cell + 10) + "\">";
  const char* rows[] = {"storage", "request units"};
  for (int r = 0; r < 2; ++r) {
    svg += "<text x=\"110\" y=\"" + std::to_string(top + r * cell + cell / 2 + 4) +
           "\" text-anchor=\"end\">" + rows[r] + "</text>";
  }
  for (size_t i = 0; i < c.physical.size(); ++i) {
    const PhysicalPartitionMeasure& p = c.physical[i];
    const int x = 120 + cell * static_cast<int>(i);
    svg += "<text x=\"" + std::to_string(x + cell / 2) + "\" y=\"14\" text-anchor=\"middle\">" +
           Escape(p.id) + "</text>";
    const double shares[] = {p.storage_share, p.request_share};
    for (int r = 0; r < 2; ++r) {
      // Intensity relative to an even spread: 1/n of the total is pale, all of it dark.
      const double even = 1.0 / static_cast<double>(c.physical.size());
      const double heat = std::clamp(shares[r] / (2 * even), 0.05, 1.0);
      svg +=
          "<rect x=\"" + std::to_string(x + 2) + "\" y=\"" + std::to_string(top + r * cell + 2) +
          "\" width=\"" + std::to_string(cell - 4) + "\" height=\"" + std::to_string(cell - 4) +
          "\" fill=\"#c43b2b\" fill-opacity=\"" + Fixed(heat * 100) + "%\"><title>" +
          Escape(std::string(rows[r]) + " of partition " + p.id + ": " + FormatPercent(shares[r])) +
          "</title></rect><text x=\"" + std::to_string(x + cell / 2) + "\" y=\"" +
          std::to_string(top + r * cell + cell / 2 + 4) + "\" text-anchor=\"middle\">" +
          FormatPercent(shares[r]) + "</text>";
    }
  }
  return svg + "</svg></figure>\n";
}

std::string LogicalChart(const CandidateResult& c, const StudyResult& study) {
  std::vector<Bar> bars;
  const auto& histogram = c.logical.size_histogram;
  for (size_t i = 0; i < histogram.size(); ++i) {
    if (histogram[i] == 0) continue;
    const double low = static_cast<double>(int64_t{1} << i) * study.scale;
    bars.push_back(
        {FormatBytes(low) + " - " + FormatBytes(2 * low), static_cast<double>(histogram[i]),
         FormatCount(histogram[i]) + " logical partition" + (histogram[i] == 1 ? "" : "s"),
         kPalette[0]});
  }
  return BarChart("Logical partition sizes at scale (largest " + c.logical.largest_key + ": " +
                      FormatBytes(c.logical.projected_largest_bytes) + " of 20 GB)",
                  bars);
}

std::string OperationsChart(const StudyResult& study) {
  std::vector<Bar> bars;
  if (study.ranking.empty()) return "";
  for (size_t o = 0; o < study.ranking.front().operations.size(); ++o) {
    for (size_t i = 0; i < study.ranking.size(); ++i) {
      const CandidateResult& c = study.ranking[i];
      if (o >= c.operations.size()) continue;
      const OperationMeasure& op = c.operations[o];
      bars.push_back({op.name + " | " + c.candidate.label(), op.ru_median,
                      FormatNumber(op.ru_median) + " RU (" + op.routing + ")",
                      kPalette[i % (sizeof kPalette / sizeof kPalette[0])]});
    }
  }
  return BarChart("Request units per operation (median) for each candidate", bars);
}

std::string CandidateSection(const CandidateResult& c, size_t rank, const StudyResult& study) {
  std::string out = "<section class=\"candidate\"><h3>" + std::to_string(rank) + ". " +
                    Escape(c.candidate.label()) +
                    (c.exceeds_limit ? " <span class=\"bad\">over the 20 GB limit</span>" : "") +
                    "</h3><ul>";
  for (const std::string& reason : c.reasons) out += "<li>" + Escape(reason) + "</li>";
  out +=
      "</ul><table><tr><th>operation</th><th>share</th><th>routing</th><th>partitions</th>"
      "<th>RU p50</th><th>RU p99</th></tr>";
  for (const OperationMeasure& op : c.operations) {
    out += "<tr><td>" + Escape(op.name) + "</td><td>" + FormatPercent(op.share) + "</td><td>" +
           Escape(op.routing) + "</td><td>" + FormatNumber(op.partitions_touched) + "</td><td>" +
           FormatNumber(op.ru_median) + "</td><td>" + FormatNumber(op.ru_p99) + "</td></tr>";
  }
  out += "</table>" + LogicalChart(c, study) + HeatChart(c, study) + "</section>\n";
  return out;
}

std::string StudySection(const StudyResult& study) {
  std::string out = "<article class=\"study\"><h2>" +
                    Escape(study.name.empty() ? "study" : study.name) + "</h2>\n<p>" +
                    FormatNumber(static_cast<double>(study.items)) + " items studied, production " +
                    FormatNumber(study.scale) + " times larger, " +
                    FormatNumber(static_cast<double>(study.throughput)) + " RU/s" +
                    (study.autoscale ? " (autoscale maximum)" : "") + ", the workload played at " +
                    FormatNumber(study.requests_per_second) + " requests/s.</p>\n";
  out +=
      "<table class=\"ranking\"><tr><th>candidate</th><th>largest logical partition at scale</th>"
      "<th>fan-out</th><th>RU/request</th><th>throttled</th><th>physical partitions</th>"
      "<th>score</th></tr>";
  for (size_t i = 0; i < study.ranking.size(); ++i) {
    const CandidateResult& c = study.ranking[i];
    out += std::string("<tr") + (i == 0 ? " class=\"best\"" : "") + "><td>" +
           std::to_string(i + 1) + ". " + Escape(c.candidate.label()) + "</td><td" +
           (c.exceeds_limit ? " class=\"bad\"" : "") + ">" +
           FormatBytes(c.logical.projected_largest_bytes) + "</td><td>" +
           FormatPercent(c.fan_out_share) + "</td><td>" + FormatNumber(c.mean_ru) + "</td><td>" +
           FormatPercent(c.throttled_fraction) + "</td><td>" + std::to_string(c.physical.size()) +
           "</td><td>" + FormatNumber(c.score) + "</td></tr>";
  }
  out += "</table>\n" + OperationsChart(study);
  for (size_t i = 0; i < study.ranking.size(); ++i) {
    out += CandidateSection(study.ranking[i], i + 1, study);
  }
  return out + "</article>\n";
}

}  // namespace

std::string StudyHtml(const std::vector<StudyResult>& studies) {
  std::string title = "orrery advise";
  for (size_t i = 0; i < studies.size(); ++i) {
    if (!studies[i].name.empty()) title += (i == 0 ? ": " : ", ") + Escape(studies[i].name);
  }
  std::string out =
      "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + title +
      "</title><style>body{font:14px system-ui,sans-serif;margin:24px;color:#222}"
      "table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ccc;padding:3px 8px;"
      "text-align:right}td:first-child,th:first-child{text-align:left}svg text{font:12px "
      "system-ui,sans-serif}figure{margin:12px 0}figcaption{font-weight:600;margin-bottom:4px}"
      ".bad{color:#c43b2b}.best{color:#2b8a3e}section{border-top:1px solid #ddd;margin-top:16px}"
      "</style></head><body>\n<h1>" +
      title + "</h1>\n";
  for (const StudyResult& study : studies) out += StudySection(study);
  return out + "</body></html>\n";
}

}  // namespace orrery::advise
