#include "advise/generator.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "advise/random.h"
#include "common/civil_date.h"
#include "json/json.h"

namespace orrery::advise {
namespace {

constexpr uint64_t kMaxCount = 100'000'000;
constexpr uint64_t kMaxZipfCardinality = 10'000'000;  // its table: 8 bytes a value
constexpr int64_t kMaxArrayLength = 1000;
constexpr int kMaxDepth = 8;

Status Bad(const std::string& path, const std::string& why) {
  return Status::BadRequest("The generator spec's field '" + path + "' " + why);
}

Result<double> NumberOf(const json::Value& spec, const char* name, const std::string& path,
                        std::optional<double> fallback = std::nullopt) {
  const json::Value* v = spec.Find(name);
  if (v == nullptr) {
    if (fallback) return *fallback;
    return Bad(path, std::string("needs '") + name + "' (a number).");
  }
  if (!v->is_number()) return Bad(path, std::string("has '") + name + "' that is not a number.");
  return v->as_double();
}

Result<uint64_t> WholeOf(const json::Value& spec, const char* name, const std::string& path,
                         uint64_t min, uint64_t max, std::optional<uint64_t> fallback) {
  const json::Value* v = spec.Find(name);
  if (v == nullptr) {
    if (fallback) return *fallback;
    return Bad(path, std::string("needs '") + name + "' (a whole number).");
  }
  if (!v->is_number() || v->as_double() != std::floor(v->as_double()) ||
      v->as_double() < static_cast<double>(min) || v->as_double() > static_cast<double>(max)) {
    return Bad(path, std::string("has '") + name + "' that is not a whole number from " +
                         std::to_string(min) + " to " + std::to_string(max) + ".");
  }
  return static_cast<uint64_t>(v->as_double());
}

// "2026-01-01T00:00:00Z" (or with fractional seconds) as seconds since 1970; numbers are
// taken as seconds.
std::optional<int64_t> ParseTime(const json::Value& v) {
  if (v.is_number()) return static_cast<int64_t>(v.as_double());
  if (!v.is_string()) return std::nullopt;
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
  char z = 0;
  if (std::sscanf(v.as_string().c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%c", &y, &mo, &d, &h, &mi, &s,
                  &z) < 6 ||
      mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) {
    return std::nullopt;
  }
  const int64_t days = DaysFromCivil(y, mo, d);
  return days * 86400 + h * 3600 + mi * 60 + s;
}

std::string FormatTime(int64_t seconds) {
  const int64_t days = FloorDivide(seconds, 86400);
  const int64_t rest = seconds - days * 86400;
  const CivilDate date = CivilFromDays(days);
  const int64_t y = date.year, m = date.month, d = date.day;
  char out[128];
  std::snprintf(out, sizeof out, "%04lld-%02lld-%02lldT%02lld:%02lld:%02lldZ",
                static_cast<long long>(y), static_cast<long long>(m), static_cast<long long>(d),
                static_cast<long long>(rest / 3600), static_cast<long long>(rest / 60 % 60),
                static_cast<long long>(rest % 60));
  return out;
}

}  // namespace

class FieldGenerator {
 public:
  virtual ~FieldGenerator() = default;
  virtual json::Value Generate(Random& random) const = 0;
};

namespace {

using FieldPtr = std::shared_ptr<const FieldGenerator>;
Result<FieldPtr> ParseField(const json::Value& spec, const std::string& path, int depth);

// One of `cardinality` values, numbered from 0, by a distribution.
class Choice : public FieldGenerator {
 public:
  enum class Kind { kUniform, kZipf, kHot };
  Choice(bool integer, std::string prefix, uint64_t cardinality, Kind kind, double exponent,
         double factor)
      : integer_(integer),
        prefix_(std::move(prefix)),
        cardinality_(cardinality),
        kind_(kind),
        factor_(factor) {
    if (kind == Kind::kZipf) {
      cumulative_.resize(cardinality);
      double sum = 0;
      for (uint64_t k = 0; k < cardinality; ++k) {
        sum += 1.0 / std::pow(static_cast<double>(k + 1), exponent);
        cumulative_[k] = sum;
      }
      for (double& c : cumulative_) c /= sum;
    }
  }
  json::Value Generate(Random& random) const override {
    const uint64_t k = Draw(random);
    return integer_ ? json::Value::Int(static_cast<int64_t>(k))
                    : json::Value::String(prefix_ + std::to_string(k));
  }

 private:
  uint64_t Draw(Random& random) const {
    switch (kind_) {
      case Kind::kZipf: {
        const auto it = std::lower_bound(cumulative_.begin(), cumulative_.end(), random.Unit());
        return std::min<uint64_t>(static_cast<uint64_t>(it - cumulative_.begin()),
                                  cardinality_ - 1);
      }
      case Kind::kHot: {
        const double hot = factor_ / (factor_ + static_cast<double>(cardinality_ - 1));
        return random.Unit() < hot ? 0 : 1 + random.Below(cardinality_ - 1);
      }
      case Kind::kUniform:
      default:
        return random.Below(cardinality_);
    }
  }

  bool integer_;
  std::string prefix_;
  uint64_t cardinality_;
  Kind kind_;
  double factor_;
  std::vector<double> cumulative_;  // zipf only
};

class Number : public FieldGenerator {
 public:
  Number(double min, double max) : min_(min), max_(max) {}
  json::Value Generate(Random& random) const override {
    return json::Value::Double(min_ + (max_ - min_) * random.Unit());
  }

 private:
  double min_, max_;
};

class Timestamp : public FieldGenerator {
 public:
  Timestamp(int64_t from, int64_t to, bool epoch) : from_(from), to_(to), epoch_(epoch) {}
  json::Value Generate(Random& random) const override {
    const int64_t at =
        from_ + static_cast<int64_t>(random.Below(static_cast<uint64_t>(to_ - from_)));
    return epoch_ ? json::Value::Int(at) : json::Value::String(FormatTime(at));
  }

 private:
  int64_t from_, to_;
  bool epoch_;
};

class Array : public FieldGenerator {
 public:
  Array(uint64_t length, FieldPtr items) : length_(length), items_(std::move(items)) {}
  json::Value Generate(Random& random) const override {
    json::Value out = json::Value::MakeArray();
    for (uint64_t i = 0; i < length_; ++i) out.as_array().push_back(items_->Generate(random));
    return out;
  }

 private:
  uint64_t length_;
  FieldPtr items_;
};

class Object : public FieldGenerator {
 public:
  explicit Object(std::vector<std::pair<std::string, FieldPtr>> fields)
      : fields_(std::move(fields)) {}
  json::Value Generate(Random& random) const override {
    json::Value out = json::Value::MakeObject();
    for (const auto& [name, field] : fields_) out.Set(name, field->Generate(random));
    return out;
  }

 private:
  std::vector<std::pair<std::string, FieldPtr>> fields_;
};

Result<std::vector<std::pair<std::string, FieldPtr>>> ParseFields(const json::Value* fields,
                                                                  const std::string& path,
                                                                  int depth) {
  if (fields == nullptr || !fields->is_object() || fields->as_object().empty()) {
    return Status::BadRequest("The generator spec" +
                              (path.empty() ? std::string() : "'s field '" + path + "'") +
                              " needs 'fields': an object of at least one field.");
  }
  std::vector<std::pair<std::string, FieldPtr>> out;
  for (const auto& [name, spec] : fields->as_object()) {
    const std::string child = path.empty() ? name : path + "." + name;
    ORRERY_ASSIGN_OR_RETURN(FieldPtr field, ParseField(spec, child, depth + 1));
    out.emplace_back(name, std::move(field));
  }
  return out;
}

Result<FieldPtr> ParseChoice(const json::Value& spec, const std::string& path, bool integer) {
  ORRERY_ASSIGN_OR_RETURN(uint64_t cardinality,
                          WholeOf(spec, "cardinality", path, 1, uint64_t{1} << 53, std::nullopt));
  std::string prefix;
  if (const json::Value* p = spec.Find("prefix")) {
    if (!p->is_string()) return Bad(path, "has a 'prefix' that is not a string.");
    prefix = p->as_string();
  }
  const json::Value* d = spec.Find("distribution");
  const std::string distribution = d == nullptr ? "uniform" : d->is_string() ? d->as_string() : "";
  if (distribution == "uniform") {
    return FieldPtr(
        std::make_shared<Choice>(integer, prefix, cardinality, Choice::Kind::kUniform, 0, 0));
  }
  if (distribution == "zipf") {
    if (cardinality > kMaxZipfCardinality) {
      return Bad(path, "has a zipf distribution over more than " +
                           std::to_string(kMaxZipfCardinality) + " values.");
    }
    ORRERY_ASSIGN_OR_RETURN(double exponent, NumberOf(spec, "exponent", path, 1.0));
    if (!(exponent > 0) || exponent > 10) return Bad(path, "has a zipf exponent not in (0, 10].");
    return FieldPtr(
        std::make_shared<Choice>(integer, prefix, cardinality, Choice::Kind::kZipf, exponent, 0));
  }
  if (distribution == "hot") {
    if (cardinality < 2) return Bad(path, "has a 'hot' distribution over fewer than 2 values.");
    ORRERY_ASSIGN_OR_RETURN(double factor, NumberOf(spec, "factor", path));
    if (!(factor >= 1)) return Bad(path, "has a 'hot' factor below 1.");
    return FieldPtr(
        std::make_shared<Choice>(integer, prefix, cardinality, Choice::Kind::kHot, 0, factor));
  }
  return Bad(path, "has an unknown distribution (uniform, zipf or hot).");
}

Result<FieldPtr> ParseField(const json::Value& spec, const std::string& path, int depth) {
  if (depth > kMaxDepth) return Bad(path, "nests deeper than " + std::to_string(kMaxDepth) + ".");
  if (!spec.is_object()) return Bad(path, "is not an object.");
  const json::Value* type_value = spec.Find("type");
  const std::string type = type_value && type_value->is_string() ? type_value->as_string() : "";
  if (type == "string" || type == "integer") return ParseChoice(spec, path, type == "integer");
  if (type == "number") {
    ORRERY_ASSIGN_OR_RETURN(double min, NumberOf(spec, "min", path, 0.0));
    ORRERY_ASSIGN_OR_RETURN(double max, NumberOf(spec, "max", path, 1.0));
    if (!(min < max)) return Bad(path, "has 'min' not below 'max'.");
    return FieldPtr(std::make_shared<Number>(min, max));
  }
  if (type == "timestamp") {
    const json::Value* from = spec.Find("from");
    const json::Value* to = spec.Find("to");
    const std::optional<int64_t> begin = from ? ParseTime(*from) : std::nullopt;
    const std::optional<int64_t> end = to ? ParseTime(*to) : std::nullopt;
    if (!begin || !end) {
      return Bad(path, "needs 'from' and 'to': times like \"2026-01-01T00:00:00Z\" or seconds.");
    }
    if (*begin >= *end) return Bad(path, "has 'from' not before 'to'.");
    const json::Value* format = spec.Find("format");
    const bool epoch = format && format->is_string() && format->as_string() == "epoch";
    return FieldPtr(std::make_shared<Timestamp>(*begin, *end, epoch));
  }
  if (type == "array") {
    ORRERY_ASSIGN_OR_RETURN(uint64_t length,
                            WholeOf(spec, "length", path, 0, kMaxArrayLength, std::nullopt));
    const json::Value* items = spec.Find("items");
    if (items == nullptr) return Bad(path, "needs 'items': the spec of each element.");
    ORRERY_ASSIGN_OR_RETURN(FieldPtr element, ParseField(*items, path + "[]", depth + 1));
    return FieldPtr(std::make_shared<Array>(length, std::move(element)));
  }
  if (type == "object") {
    ORRERY_ASSIGN_OR_RETURN(auto fields, ParseFields(spec.Find("fields"), path, depth));
    return FieldPtr(std::make_shared<Object>(std::move(fields)));
  }
  return Bad(path, "has an unknown type (string, integer, number, timestamp, array or object).");
}

}  // namespace

Result<Generator> Generator::Parse(const json::Value& spec) {
  if (!spec.is_object()) return Status::BadRequest("The generator spec is not a JSON object.");
  Generator out;
  ORRERY_ASSIGN_OR_RETURN(out.count_, WholeOf(spec, "count", "count", 1, kMaxCount, std::nullopt));
  ORRERY_ASSIGN_OR_RETURN(out.seed_,
                          WholeOf(spec, "seed", "seed", 0, uint64_t{1} << 53, uint64_t{0}));
  ORRERY_ASSIGN_OR_RETURN(out.fields_, ParseFields(spec.Find("fields"), "", 0));
  for (const auto& [name, field] : out.fields_) out.has_id_ = out.has_id_ || name == "id";
  return out;
}

json::Value Generator::Item(uint64_t number) const {
  // Its own stream: the seed and the number, mixed.
  Random random(Random(seed_ * 0x9e3779b97f4a7c15ULL ^ number).Next());
  json::Value item = json::Value::MakeObject();
  if (!has_id_) item.Set("id", json::Value::String(std::to_string(number)));
  for (const auto& [name, field] : fields_) {
    json::Value value = field->Generate(random);
    // An id is a string in Cosmos DB.
    if (name == "id" && !value.is_string()) value = json::Value::String(json::Write(value));
    item.Set(name, std::move(value));
  }
  return item;
}

}  // namespace orrery::advise
