#include "cli/stats.h"

#include <cstdio>

#include "api/auth.h"
#include "common/encoding.h"
#include "http/client.h"
#include "json/json.h"

namespace orrery::cli {
namespace {

int Fail(const std::string& message) {
  std::fprintf(stderr, "orrery stats: %s\n", message.c_str());
  return 1;
}

std::string Size(double bytes) {
  char out[32];
  if (bytes >= 1 << 30) {
    std::snprintf(out, sizeof(out), "%.1f GB", bytes / (1 << 30));
  } else if (bytes >= 1 << 20) {
    std::snprintf(out, sizeof(out), "%.1f MB", bytes / (1 << 20));
  } else {
    std::snprintf(out, sizeof(out), "%.1f KB", bytes / 1024);
  }
  return out;
}

double Number(const json::Value& object, const char* name) {
  const json::Value* v = object.Find(name);
  return v && v->is_number() ? v->as_double() : 0;
}

std::string Text(const json::Value& object, const char* name) {
  const json::Value* v = object.Find(name);
  return v && v->is_string() ? v->as_string() : std::string();
}

void PrintTable(const std::string& db, const std::string& container, const json::Value& stats) {
  const json::Value* partitions = stats.Find("physicalPartitions");
  const size_t count = partitions && partitions->is_array() ? partitions->as_array().size() : 0;
  std::printf("%s/%s: %.0f items, %s, %.0f logical partitions, %zu physical partitions\n",
              db.c_str(), container.c_str(), Number(stats, "itemCount"),
              Size(Number(stats, "sizeBytes")).c_str(), Number(stats, "logicalPartitions"), count);
  std::printf("%-5s %-34s %9s %10s %9s %10s %8s  %s\n", "range", "EPK range", "items", "size",
              "logical", "RU used", "429s", "largest logical partition");
  for (size_t i = 0; i < count; ++i) {
    const json::Value& p = partitions->as_array()[i];
    std::string range = "\"" + Text(p, "minInclusive") + "\"..\"" + Text(p, "maxExclusive") + "\"";
    if (range.size() > 34) range = range.substr(0, 31) + "...";
    std::string largest;
    if (const json::Value* l = p.Find("largestLogicalPartitions");
        l && l->is_array() && !l->as_array().empty()) {
      const json::Value& top = l->as_array()[0];
      largest = json::Write(*top.Find("partitionKey")) + " " + Size(Number(top, "sizeBytes"));
    }
    std::printf("%-5s %-34s %9.0f %10s %9.0f %10.2f %8.0f  %s\n", Text(p, "id").c_str(),
                range.c_str(), Number(p, "itemCount"), Size(Number(p, "sizeBytes")).c_str(),
                Number(p, "logicalPartitions"), Number(p, "requestCharge"),
                Number(p, "throttledRequests"), largest.c_str());
  }
}

}  // namespace

int RunStats(const StatsOptions& options) {
  if (options.database.empty() || options.container.empty()) {
    return Fail("--database and --container are required");
  }
  const std::string key = options.key.empty() ? api::kEmulatorMasterKey : options.key;
  if (!Base64Decode(key)) return Fail("--key must be base64");
  const std::string link =
      "_orrery/dbs/" + options.database + "/colls/" + options.container + "/stats";
  std::string endpoint = options.endpoint;
  while (!endpoint.empty() && endpoint.back() == '/') endpoint.pop_back();
  http::ClientRequest request;
  request.url = endpoint + "/_orrery/dbs/" + PercentEncode(options.database) + "/colls/" +
                PercentEncode(options.container) + "/stats";
  const std::string date = api::Rfc1123Now();
  request.request.method = "GET";
  request.request.headers = {
      {"x-ms-date", date},
      {"x-ms-version", "2020-07-15"},
      {"authorization",
       api::MasterKeyAuthorization(key, api::SignaturePayload("GET", "_orrery", link, date))},
      {"accept", "application/json"}};
  Result<http::Response> response = http::Fetch(request);
  if (!response.ok()) return Fail(response.status().message());
  if (response->status != 200) {
    return Fail("the server answered " + std::to_string(response->status) + ": " +
                response->body.substr(0, 300));
  }
  if (options.json) {
    std::printf("%s\n", response->body.c_str());
    return 0;
  }
  Result<json::Value> stats = json::Parse(response->body);
  if (!stats.ok()) return Fail("the server's answer is not JSON");
  PrintTable(options.database, options.container, *stats);
  return 0;
}

}  // namespace orrery::cli
