#include "query/ordering.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <string_view>
#include <vector>

namespace orrery::query {
namespace {

int Sign(int c) { return (c > 0) - (c < 0); }

int CompareNumbers(const json::Value& a, const json::Value& b) {
  if (a.is_integer() && b.is_integer()) {
    return (a.as_int() > b.as_int()) - (a.as_int() < b.as_int());
  }
  const double x = a.as_double();
  const double y = b.as_double();
  // NaN sorts below every other number so that the order stays total.
  if (std::isnan(x) || std::isnan(y)) {
    return static_cast<int>(!std::isnan(x)) - static_cast<int>(!std::isnan(y));
  }
  return (x > y) - (x < y);
}

std::vector<const json::Member*> SortedMembers(const json::Object& object) {
  std::vector<const json::Member*> members;
  members.reserve(object.size());
  for (const json::Member& member : object) {
    members.push_back(&member);
  }
  std::sort(members.begin(), members.end(),
            [](const json::Member* x, const json::Member* y) { return x->first < y->first; });
  return members;
}

int CompareArrays(const json::Array& a, const json::Array& b) {
  const size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    if (const int c = CompareValues(a[i], b[i]); c != 0) {
      return c;
    }
  }
  return (a.size() > b.size()) - (a.size() < b.size());
}

int CompareObjects(const json::Object& a, const json::Object& b) {
  if (a.size() != b.size()) {
    return (a.size() > b.size()) - (a.size() < b.size());
  }
  const auto x = SortedMembers(a);
  const auto y = SortedMembers(b);
  for (size_t i = 0; i < x.size(); ++i) {
    if (const int c = x[i]->first.compare(y[i]->first); c != 0) {
      return Sign(c);
    }
    if (const int c = CompareValues(x[i]->second, y[i]->second); c != 0) {
      return c;
    }
  }
  return 0;
}

size_t Mix(size_t seed, size_t h) {
  return seed ^ (h + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
}

}  // namespace

int TypeRank(const json::Value& value) {
  switch (value.type()) {
    case json::Type::kUndefined:
      return 0;
    case json::Type::kNull:
      return 1;
    case json::Type::kBool:
      return 2;
    case json::Type::kNumber:
      return 3;
    case json::Type::kString:
      return 4;
    case json::Type::kArray:
      return 5;
    case json::Type::kObject:
      return 6;
  }
  return 0;
}

int CompareValues(const json::Value& a, const json::Value& b) {
  const int ra = TypeRank(a);
  const int rb = TypeRank(b);
  if (ra != rb) {
    return ra < rb ? -1 : 1;
  }
  switch (a.type()) {
    case json::Type::kUndefined:
    case json::Type::kNull:
      return 0;
    case json::Type::kBool:
      return static_cast<int>(a.as_bool()) - static_cast<int>(b.as_bool());
    case json::Type::kNumber:
      return CompareNumbers(a, b);
    case json::Type::kString:
      // std::string compares chars as unsigned (char_traits<char>), i.e. UTF-8 byte order.
      return Sign(a.as_string().compare(b.as_string()));
    case json::Type::kArray:
      return CompareArrays(a.as_array(), b.as_array());
    case json::Type::kObject:
      return CompareObjects(a.as_object(), b.as_object());
  }
  return 0;
}

bool ValuesEqual(const json::Value& a, const json::Value& b) {
  if (a.type() != b.type()) {
    return false;
  }
  if (a.is_number()) {
    return CompareNumbers(a, b) == 0;
  }
  return a == b;
}

size_t HashValue(const json::Value& value) {
  size_t h = static_cast<size_t>(TypeRank(value));
  switch (value.type()) {
    case json::Type::kUndefined:
    case json::Type::kNull:
      return h;
    case json::Type::kBool:
      return Mix(h, value.as_bool() ? 1 : 2);
    case json::Type::kNumber: {
      double d = value.as_double();
      if (d == 0) {
        d = 0;  // -0.0 equals 0.0
      }
      return Mix(h, std::isnan(d) ? 0 : std::hash<double>{}(d));
    }
    case json::Type::kString:
      return Mix(h, std::hash<std::string_view>{}(value.as_string()));
    case json::Type::kArray:
      for (const json::Value& element : value.as_array()) {
        h = Mix(h, HashValue(element));
      }
      return h;
    case json::Type::kObject: {
      // Member order does not matter for equality, so combine commutatively.
      size_t sum = 0;
      for (const auto& [name, member] : value.as_object()) {
        sum += Mix(std::hash<std::string_view>{}(name), HashValue(member));
      }
      return Mix(h, sum);
    }
  }
  return h;
}

}  // namespace orrery::query
