#include "api/index_metrics.h"

#include "common/encoding.h"
#include "json/json.h"

namespace orrery::api {
namespace {

using json::Value;

Value Strings(const std::vector<std::string>& list) {
  json::Array out;
  for (const std::string& s : list) out.push_back(Value::String(s));
  return Value::MakeArray(std::move(out));
}

Value Singles(const std::vector<std::string>& specs, bool v1) {
  json::Array out;
  for (const std::string& spec : specs) {
    Value entry = Value::MakeObject();
    if (v1) entry.Set("FilterExpression", Value::String(""));
    entry.Set("IndexSpec", Value::String(spec));
    if (v1) {
      entry.Set("FilterPreciseSet", Value::Bool(true));
      entry.Set("IndexPreciseSet", Value::Bool(true));
    }
    entry.Set("IndexImpactScore", Value::String("High"));
    out.push_back(std::move(entry));
  }
  return Value::MakeArray(std::move(out));
}

Value Composites(const std::vector<std::vector<std::string>>& indexes, bool v1) {
  json::Array out;
  for (const std::vector<std::string>& specs : indexes) {
    Value entry = Value::MakeObject();
    entry.Set("IndexSpecs", Strings(specs));
    if (v1) entry.Set("IndexPreciseSet", Value::Bool(true));
    entry.Set("IndexImpactScore", Value::String("High"));
    out.push_back(std::move(entry));
  }
  return Value::MakeArray(std::move(out));
}

// As encodeURIComponent: unreserved characters stay, every other byte is %XX.
std::string UriEncode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (char c : text) {
    const auto b = static_cast<unsigned char>(c);
    if ((b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z') || (b >= '0' && b <= '9') ||
        std::string_view("-_.!~*'()").find(c) != std::string_view::npos) {
      out += c;
    } else {
      out += '%';
      out += kHex[b >> 4];
      out += kHex[b & 0xF];
    }
  }
  return out;
}

}  // namespace

std::string IndexMetricsV1(const engine::IndexUtilization& use) {
  Value body = Value::MakeObject();
  body.Set("UtilizedSingleIndexes", Singles(use.utilized_single, true));
  body.Set("PotentialSingleIndexes", Singles(use.potential_single, true));
  body.Set("UtilizedCompositeIndexes", Composites(use.utilized_composite, true));
  body.Set("PotentialCompositeIndexes", Composites(use.potential_composite, true));
  return Base64Encode(json::Write(body));
}

std::string IndexMetricsV2(const engine::IndexUtilization& use) {
  Value utilized = Value::MakeObject();
  utilized.Set("SingleIndexes", Singles(use.utilized_single, false));
  utilized.Set("CompositeIndexes", Composites(use.utilized_composite, false));
  Value potential = Value::MakeObject();
  potential.Set("SingleIndexes", Singles(use.potential_single, false));
  potential.Set("CompositeIndexes", Composites(use.potential_composite, false));
  Value body = Value::MakeObject();
  body.Set("UtilizedIndexes", std::move(utilized));
  body.Set("PotentialIndexes", std::move(potential));
  return UriEncode(json::Write(body));
}

}  // namespace orrery::api
