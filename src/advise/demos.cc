#include "advise/demos.h"

#include "json/json.h"

namespace orrery::advise {
namespace {

// A billion events a month across the tenants: production is that over the sample.
constexpr const char* kTelemetryData = R"({
  "count": 200000, "seed": 7,
  "fields": {
    "tenantId": {"type": "string", "prefix": "t-", "cardinality": 1000,
                 "distribution": "hot", "factor": 100},
    "deviceId": {"type": "string", "prefix": "d-", "cardinality": 20000},
    "metric":   {"type": "string", "prefix": "metric-", "cardinality": 12},
    "value":    {"type": "number", "min": 0, "max": 1000},
    "at":       {"type": "timestamp", "from": "2026-11-01T00:00:00Z", "to": "2026-12-01T00:00:00Z"},
    "firmware": {"type": "string", "prefix": "fw-1.", "cardinality": 40},
    "site":     {"type": "object", "fields": {
                   "region": {"type": "string", "prefix": "region-", "cardinality": 8},
                   "rack":   {"type": "integer", "cardinality": 400}}}
  }})";

constexpr const char* kTelemetryWorkload = R"({
  "operations": [
    {"name": "latest events of a tenant", "share": 45,
     "query": "SELECT TOP 100 * FROM c WHERE c.tenantId = @tenantId",
     "parameters": {"@tenantId": "/tenantId"}},
    {"name": "events of a tenant's device", "share": 30,
     "query": "SELECT * FROM c WHERE c.tenantId = @tenantId AND c.deviceId = @deviceId",
     "parameters": {"@tenantId": "/tenantId", "@deviceId": "/deviceId"}},
    {"name": "events of device d-9 across all tenants", "share": 5,
     "query": "SELECT * FROM c WHERE c.deviceId = @deviceId",
     "parameters": {"@deviceId": {"value": "d-9"}}},
    {"name": "read an event", "share": 10, "kind": "read"},
    {"name": "record an event", "share": 10, "kind": "create"}
  ]})";

constexpr const char* kProductsData = R"({
  "count": 100000, "seed": 11,
  "fields": {
    "categoryId":  {"type": "string", "prefix": "category-", "cardinality": 300,
                    "distribution": "zipf", "exponent": 0.8},
    "name":        {"type": "string", "prefix": "Product ", "cardinality": 1000000},
    "brand":       {"type": "string", "prefix": "brand-", "cardinality": 800},
    "price":       {"type": "number", "min": 1, "max": 900},
    "stock":       {"type": "integer", "cardinality": 500},
    "tags":        {"type": "array", "length": 3,
                    "items": {"type": "string", "prefix": "tag-", "cardinality": 60}},
    "description": {"type": "string", "prefix": "A sturdy, well-reviewed product for everyday use, model ",
                    "cardinality": 100000}
  }})";

constexpr const char* kProductsWorkload = R"({
  "operations": [
    {"name": "a page of a category", "share": 60,
     "query": "SELECT TOP 24 * FROM c WHERE c.categoryId = @categoryId",
     "parameters": {"@categoryId": "/categoryId"}},
    {"name": "read a product", "share": 35, "kind": "read"},
    {"name": "add a product", "share": 5, "kind": "create"}
  ]})";

constexpr const char* kReviewsData = R"({
  "count": 100000, "seed": 13,
  "fields": {
    "productId": {"type": "string", "prefix": "product-", "cardinality": 20000,
                  "distribution": "zipf", "exponent": 0.9},
    "userId":    {"type": "string", "prefix": "user-", "cardinality": 50000},
    "rating":    {"type": "integer", "cardinality": 5},
    "title":     {"type": "string", "prefix": "Review title ", "cardinality": 5000},
    "body":      {"type": "string", "prefix": "I bought this last month and it does what it says; ",
                  "cardinality": 90000}
  }})";

constexpr const char* kReviewsWorkload = R"({
  "operations": [
    {"name": "reviews of a product", "share": 70,
     "query": "SELECT TOP 20 * FROM c WHERE c.productId = @productId",
     "parameters": {"@productId": "/productId"}},
    {"name": "read a review", "share": 10, "kind": "read"},
    {"name": "write a review", "share": 20, "kind": "create"}
  ]})";

// Reference data every page shows: a few hundred categories, read together, on the small
// throughput such a container gets (1,000 RU/s: one physical partition).
constexpr const char* kCategoriesData = R"({
  "count": 400, "seed": 17,
  "fields": {
    "type":     {"type": "string", "prefix": "category", "cardinality": 1},
    "name":     {"type": "string", "prefix": "Category ", "cardinality": 400},
    "parentId": {"type": "string", "prefix": "category-", "cardinality": 40},
    "order":    {"type": "integer", "cardinality": 100}
  }})";

constexpr const char* kCategoriesWorkload = R"({
  "operations": [
    {"name": "the category menu", "share": 90,
     "query": "SELECT * FROM c WHERE c.type = @type", "parameters": {"@type": "/type"}},
    {"name": "read a category", "share": 10, "kind": "read"}
  ]})";

json::Value Parsed(const char* text) { return *json::Parse(text); }

}  // namespace

Result<std::vector<DemoStudy>> DemoNamed(const std::string& name) {
  if (name == "telemetry") {
    return std::vector<DemoStudy>{{"telemetry",
                                   Parsed(kTelemetryData),
                                   {"/tenantId", "/tenantId,/deviceId", "/deviceId"},
                                   Parsed(kTelemetryWorkload),
                                   20000,
                                   1e9}};
  }
  if (name == "ecommerce") {
    return std::vector<DemoStudy>{{"products",
                                   Parsed(kProductsData),
                                   {"/categoryId", "/id"},
                                   Parsed(kProductsWorkload),
                                   10000,
                                   20e6},
                                  {"reviews",
                                   Parsed(kReviewsData),
                                   {"/productId", "/id"},
                                   Parsed(kReviewsWorkload),
                                   10000,
                                   200e6},
                                  {"categories",
                                   Parsed(kCategoriesData),
                                   {"/type", "/id"},
                                   Parsed(kCategoriesWorkload),
                                   1000,
                                   400,
                                   /*keeps_count=*/true}};
  }
  return Status::NotFound("There is no demo '" + name +
                          "'; the demos are telemetry and ecommerce.");
}

}  // namespace orrery::advise
