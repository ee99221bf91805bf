#include "cli/sql.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <vector>

#include "api/auth.h"
#include "cli/rest_call.h"
#include "common/encoding.h"
#include "http/client.h"
#include "json/json.h"

namespace orrery::cli {
namespace {

int Fail(const std::string& message) {
  std::fprintf(stderr, "orrery sql: %s\n", message.c_str());
  return 1;
}

using Call = RestCall;

Result<http::Response> Send(const SqlOptions& options, const Call& call) {
  return cli::Send(Connection{options.endpoint, options.key}, call);
}

std::string ToLower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// Rows as a table: a column per top-level member (in first-seen order), each cell its
// JSON; rows that are not objects in one column "value".
void PrintTable(const json::Array& rows) {
  std::vector<std::string> columns;
  for (const json::Value& row : rows) {
    if (!row.is_object()) {
      if (std::find(columns.begin(), columns.end(), "value") == columns.end()) {
        columns.push_back("value");
      }
      continue;
    }
    for (const auto& [name, value] : row.as_object()) {
      if (std::find(columns.begin(), columns.end(), name) == columns.end()) columns.push_back(name);
    }
  }
  std::vector<std::vector<std::string>> cells;
  std::vector<size_t> widths;
  for (const std::string& c : columns) widths.push_back(c.size());
  for (const json::Value& row : rows) {
    std::vector<std::string> line;
    for (size_t i = 0; i < columns.size(); ++i) {
      const json::Value* v =
          row.is_object() ? row.Find(columns[i]) : (columns[i] == "value" ? &row : nullptr);
      std::string text = v == nullptr ? "" : v->is_string() ? v->as_string() : json::Write(*v);
      if (text.size() > 60) text = text.substr(0, 57) + "...";
      widths[i] = std::max(widths[i], text.size());
      line.push_back(std::move(text));
    }
    cells.push_back(std::move(line));
  }
  const auto print_line = [&](const std::vector<std::string>& line) {
    std::string out;
    for (size_t i = 0; i < line.size(); ++i) {
      out += line[i];
      if (i + 1 < line.size()) out += std::string(widths[i] - line[i].size() + 2, ' ');
    }
    std::printf("%s\n", out.c_str());
  };
  print_line(columns);
  std::vector<std::string> rule;
  for (size_t w : widths) rule.push_back(std::string(w, '-'));
  print_line(rule);
  for (const auto& line : cells) print_line(line);
}

// Prints a resource (or a feed's list of them) as JSON.
int PrintJson(const std::string& body, const char* list_member = nullptr) {
  Result<json::Value> value = json::Parse(body);
  if (!value.ok()) return Fail("the server's answer is not JSON");
  const json::Value* shown = &*value;
  if (list_member != nullptr) {
    shown = value->Find(list_member);
    if (shown == nullptr) return Fail("the server's answer has no " + std::string(list_member));
  }
  std::printf("%s\n", json::Write(*shown).c_str());
  return 0;
}

// As the Azure CLI: on a terminal, asks; otherwise --yes must say so.
bool Confirmed(const SqlOptions& options, const std::string& what) {
  if (options.yes) return true;
  if (!isatty(STDIN_FILENO)) {
    std::fprintf(stderr,
                 "orrery sql: deleting %s needs confirmation: pass --yes (no terminal to ask)\n",
                 what.c_str());
    return false;
  }
  std::fprintf(stderr, "Are you sure you want to delete %s? (y/n): ", what.c_str());
  std::string answer;
  std::getline(std::cin, answer);
  return answer == "y" || answer == "Y" || answer == "yes";
}

std::string DbPath(const SqlOptions& o) { return "dbs/" + PercentEncode(o.database); }

// A JSON argument given inline or as @file, parsed.
Result<json::Value> JsonArgument(const std::string& flag, const std::string& argument) {
  std::string text = argument;
  if (!argument.empty() && argument[0] == '@') {
    std::ifstream in(argument.substr(1));
    if (!in) return Status::BadRequest("cannot read " + argument.substr(1));
    text.assign((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }
  Result<json::Value> value = json::Parse(text);
  if (!value.ok()) return Status::BadRequest(flag + " is not JSON: " + value.status().message());
  return value;
}

// The body and headers of a container create.
Result<Call> ContainerCreate(const SqlOptions& o) {
  if (o.partition_key_paths.empty()) {
    return Status::BadRequest("--partition-key-path is required (e.g. \"/tenantId\")");
  }
  json::Array paths;
  for (size_t from = 0; from <= o.partition_key_paths.size();) {
    size_t comma = o.partition_key_paths.find(',', from);
    if (comma == std::string::npos) comma = o.partition_key_paths.size();
    paths.push_back(json::Value::String(o.partition_key_paths.substr(from, comma - from)));
    from = comma + 1;
  }
  const bool hierarchical = paths.size() > 1;
  json::Value body = json::Value::MakeObject({
      {"id", json::Value::String(o.name)},
      {"partitionKey", json::Value::MakeObject({
                           {"paths", json::Value::MakeArray(std::move(paths))},
                           {"kind", json::Value::String(hierarchical ? "MultiHash" : "Hash")},
                           {"version", json::Value::Int(2)},
                       })},
  });
  if (o.ttl) body.Set("defaultTtl", json::Value::Int(*o.ttl));
  if (!o.indexing_policy.empty()) {
    ORRERY_ASSIGN_OR_RETURN(json::Value policy, JsonArgument("--idx", o.indexing_policy));
    body.Set("indexingPolicy", std::move(policy));
  }
  if (!o.unique_key_policy.empty()) {
    ORRERY_ASSIGN_OR_RETURN(json::Value policy,
                            JsonArgument("--unique-key-policy", o.unique_key_policy));
    body.Set("uniqueKeyPolicy", std::move(policy));
  }
  Call call{"POST", "colls", DbPath(o), DbPath(o) + "/colls", json::Write(body), {}};
  if (o.throughput && o.max_throughput) {
    return Status::BadRequest(
        "give --throughput (manual) or --max-throughput (autoscale), not both");
  }
  if (o.throughput)
    call.headers.push_back({"x-ms-offer-throughput", std::to_string(*o.throughput)});
  if (o.max_throughput) {
    call.headers.push_back({"x-ms-cosmos-offer-autopilot-settings",
                            "{\"maxThroughput\":" + std::to_string(*o.max_throughput) + "}"});
  }
  return call;
}

// container update: the container as it is, with the flags' changes, replaced.
int UpdateContainer(const SqlOptions& o) {
  const std::string link = "dbs/" + o.database + "/colls/" + o.name;
  const std::string path = DbPath(o) + "/colls/" + PercentEncode(o.name);
  Result<http::Response> current = Send(o, Call{"GET", "colls", link, path, "", {}});
  if (!current.ok()) return Fail(current.status().message());
  Result<json::Value> body = json::Parse(current->body);
  if (!body.ok()) return Fail("the server's answer is not JSON");
  if (o.ttl) body->Set("defaultTtl", json::Value::Int(*o.ttl));
  if (!o.indexing_policy.empty()) {
    Result<json::Value> policy = JsonArgument("--idx", o.indexing_policy);
    if (!policy.ok()) return Fail(policy.status().message());
    body->Set("indexingPolicy", std::move(*policy));
  }
  Result<http::Response> replaced =
      Send(o, Call{"PUT", "colls", link, path, json::Write(*body), {}});
  if (!replaced.ok()) return Fail(replaced.status().message());
  return PrintJson(replaced->body);
}

// The offer of a container (or of a database without --name): from the offers feed,
// the one whose offerResourceId is the resource's _rid.
Result<json::Value> FindOffer(const SqlOptions& o) {
  const bool container = !o.name.empty();
  const std::string link = "dbs/" + o.database + (container ? "/colls/" + o.name : "");
  const std::string path = DbPath(o) + (container ? "/colls/" + PercentEncode(o.name) : "");
  ORRERY_ASSIGN_OR_RETURN(http::Response resource,
                          Send(o, Call{"GET", container ? "colls" : "dbs", link, path, "", {}}));
  ORRERY_ASSIGN_OR_RETURN(json::Value parsed, json::Parse(resource.body));
  const json::Value* rid = parsed.Find("_rid");
  ORRERY_ASSIGN_OR_RETURN(http::Response offers,
                          Send(o, Call{"GET", "offers", "", "offers", "", {}}));
  ORRERY_ASSIGN_OR_RETURN(json::Value list, json::Parse(offers.body));
  const json::Value* all = list.Find("Offers");
  if (rid != nullptr && all != nullptr && all->is_array()) {
    for (const json::Value& offer : all->as_array()) {
      const json::Value* of = offer.Find("offerResourceId");
      if (of != nullptr && json::Write(*of) == json::Write(*rid)) return offer;
    }
  }
  return Status::NotFound(std::string(container ? "the container" : "the database") +
                          " has no throughput of its own (it shares its database's, or has "
                          "none)");
}

int Throughput(const SqlOptions& o, bool update) {
  Result<json::Value> offer = FindOffer(o);
  if (!offer.ok()) return Fail(offer.status().message());
  if (!update) return PrintJson(json::Write(*offer));
  if (o.throughput.has_value() == o.max_throughput.has_value()) {
    return Fail("give --throughput (manual) or --max-throughput (autoscale)");
  }
  json::Value* content = offer->Find("content");
  if (content == nullptr) return Fail("the offer has no content");
  if (o.throughput) {
    content->Set("offerThroughput", json::Value::Int(*o.throughput));
  } else {
    content->Set("offerAutopilotSettings",
                 json::Value::MakeObject({{"maxThroughput", json::Value::Int(*o.max_throughput)}}));
  }
  const std::string id = offer->Find("id") ? offer->Find("id")->as_string() : "";
  const std::string rid = offer->Find("_rid") ? offer->Find("_rid")->as_string() : id;
  Result<http::Response> replaced = Send(
      o,
      Call{"PUT", "offers", ToLower(rid), "offers/" + PercentEncode(rid), json::Write(*offer), {}});
  if (!replaced.ok()) return Fail(replaced.status().message());
  return PrintJson(replaced->body);
}

// sql query: every page of the query (the server runs it across partitions), the rows as
// a JSON array or a table, and the total request charge on stderr.
int Query(const SqlOptions& o) {
  if (o.query_text.empty()) return Fail("--query-text is required");
  const std::string link = "dbs/" + o.database + "/colls/" + o.name;
  const std::string path = DbPath(o) + "/colls/" + PercentEncode(o.name);
  json::Array rows;
  double charge = 0;
  std::string continuation;
  do {
    const Call call = QueryPageCall(link, path, o.query_text, continuation);
    Result<http::Response> page = Send(o, call);
    if (!page.ok()) return Fail(page.status().message());
    continuation.clear();
    continuation = HeaderOf(*page, "x-ms-continuation");
    charge += std::strtod(HeaderOf(*page, "x-ms-request-charge").c_str(), nullptr);
    Result<json::Value> parsed = json::Parse(page->body);
    if (!parsed.ok()) return Fail("the server's answer is not JSON");
    if (const json::Value* documents = parsed->Find("Documents");
        documents != nullptr && documents->is_array()) {
      for (const json::Value& row : documents->as_array()) rows.push_back(row);
    }
  } while (!continuation.empty());
  if (o.table) {
    PrintTable(rows);
  } else {
    std::printf("%s\n", json::Write(json::Value::MakeArray(rows)).c_str());
  }
  std::fprintf(stderr, "%zu rows, request charge %.2f RU\n", rows.size(), charge);
  return 0;
}

Result<Call> CallFor(SqlVerb verb, const SqlOptions& o) {
  const std::string db = DbPath(o);
  const std::string coll = db + "/colls/" + PercentEncode(o.name);
  const std::string db_link = "dbs/" + o.database;
  const std::string coll_link = db_link + "/colls/" + o.name;
  switch (verb) {
    case SqlVerb::kDatabaseCreate: {
      Call call{"POST",
                "dbs",
                "",
                "dbs",
                json::Write(json::Value::MakeObject({{"id", json::Value::String(o.database)}})),
                {}};
      if (o.throughput) {
        call.headers.push_back({"x-ms-offer-throughput", std::to_string(*o.throughput)});
      }
      if (o.max_throughput) {
        call.headers.push_back({"x-ms-cosmos-offer-autopilot-settings",
                                "{\"maxThroughput\":" + std::to_string(*o.max_throughput) + "}"});
      }
      return call;
    }
    case SqlVerb::kDatabaseList:
      return Call{"GET", "dbs", "", "dbs", "", {}};
    case SqlVerb::kDatabaseShow:
      return Call{"GET", "dbs", db_link, db, "", {}};
    case SqlVerb::kDatabaseDelete:
      return Call{"DELETE", "dbs", db_link, db, "", {}};
    case SqlVerb::kContainerCreate:
      return ContainerCreate(o);
    case SqlVerb::kContainerList:
      return Call{"GET", "colls", db_link, db + "/colls", "", {}};
    case SqlVerb::kContainerShow:
      return Call{"GET", "colls", coll_link, coll, "", {}};
    case SqlVerb::kContainerDelete:
      return Call{"DELETE", "colls", coll_link, coll, "", {}};
    default:
      break;
  }
  return Status::Internal("unknown verb");
}

}  // namespace

int RunSql(SqlVerb verb, const SqlOptions& options) {
  if (verb != SqlVerb::kDatabaseList && options.database.empty()) {
    return Fail("the database's name is required");
  }
  const bool container = verb == SqlVerb::kContainerCreate || verb == SqlVerb::kContainerShow ||
                         verb == SqlVerb::kContainerDelete || verb == SqlVerb::kContainerUpdate ||
                         verb == SqlVerb::kQuery;
  if (container && options.name.empty()) return Fail("--name is required");
  if (verb == SqlVerb::kDatabaseDelete &&
      !Confirmed(options, "database '" + options.database + "'")) {
    return 1;
  }
  if (verb == SqlVerb::kContainerDelete &&
      !Confirmed(options,
                 "container '" + options.name + "' of database '" + options.database + "'")) {
    return 1;
  }
  if (verb == SqlVerb::kContainerUpdate) return UpdateContainer(options);
  if (verb == SqlVerb::kThroughputShow) return Throughput(options, /*update=*/false);
  if (verb == SqlVerb::kThroughputUpdate) return Throughput(options, /*update=*/true);
  if (verb == SqlVerb::kQuery) return Query(options);
  Result<Call> call = CallFor(verb, options);
  if (!call.ok()) return Fail(call.status().message());
  Result<http::Response> response = Send(options, *call);
  if (!response.ok()) return Fail(response.status().message());
  switch (verb) {
    case SqlVerb::kDatabaseDelete:
    case SqlVerb::kContainerDelete:
      return 0;
    case SqlVerb::kDatabaseList:
      return PrintJson(response->body, "Databases");
    case SqlVerb::kContainerList:
      return PrintJson(response->body, "DocumentCollections");
    default:
      return PrintJson(response->body);
  }
}

}  // namespace orrery::cli
