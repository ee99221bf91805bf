// Type checks (query-language.md §5.3), IIF (§5.6) and DocumentId (§5.8).

#include <array>
#include <cmath>
#include <string>

#include "query/functions_internal.h"
#include "query/operators.h"

namespace orrery::query::functions_internal {
namespace {

using json::Value;

Value Bool(bool b) { return Value::Bool(b); }

// ---- Type checks: always a boolean ----

Value IsDefined(Args a) { return Bool(!a[0]->is_undefined()); }
Value IsNull(Args a) { return Bool(a[0]->is_null()); }
Value IsBool(Args a) { return Bool(a[0]->is_bool()); }
Value IsNumber(Args a) { return Bool(a[0]->is_number()); }
Value IsString(Args a) { return Bool(a[0]->is_string()); }
Value IsArray(Args a) { return Bool(a[0]->is_array()); }
Value IsObject(Args a) { return Bool(a[0]->is_object()); }
Value IsPrimitive(Args a) {
  const Value& v = *a[0];
  return Bool(v.is_string() || v.is_number() || v.is_bool() || v.is_null());
}
Value IsFiniteNumber(Args a) { return Bool(a[0]->is_number() && std::isfinite(a[0]->as_double())); }
// A number with an int64 representation: IS_INTEGER(9223372036854775807) is true,
// IS_INTEGER(18446744073709551615) false (query-language.md §5.3).
Value IsInteger(Args a) { return Bool(AsInt64(*a[0]).has_value()); }
Value IsDateTime(Args a) {
  return Bool(a[0]->is_string() && ParseDateTime(a[0]->as_string()).has_value());
}

// ---- Conditional ----

// IIF(cond, a, b): a only when cond is exactly true (query-language.md §5.6).
Value Iif(Args a) { return IsTrue(*a[0]) ? *a[1] : *a[2]; }

// ---- Item ----

// The value of one base64 digit of a _rid ('-' stands for '/'), or -1.
int Base64Digit(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/' || c == '-') return 63;
  return -1;
}

// DocumentId(c): the item number inside the item's _rid (wire-protocol.md §4.2: an
// item rid is the 8-byte container rid, then the item number in 7 little-endian bytes
// and a type byte). Unique only within one physical partition, as in the service.
// Anything that is not an item with an item _rid gives undefined.
Value DocumentId(Args a) {
  const Value* rid = a[0]->Find("_rid");
  if (rid == nullptr || !rid->is_string()) {
    return Value();
  }
  const std::string& text = rid->as_string();
  std::string bytes;
  uint32_t bits = 0;
  int bit_count = 0;
  for (char c : text) {
    if (c == '=') {
      break;
    }
    const int digit = Base64Digit(c);
    if (digit < 0) {
      return Value();
    }
    bits = (bits << 6) | static_cast<uint32_t>(digit);
    bit_count += 6;
    if (bit_count >= 8) {
      bit_count -= 8;
      bytes.push_back(static_cast<char>((bits >> bit_count) & 0xFF));
    }
  }
  if (bytes.size() != 16 || (static_cast<uint8_t>(bytes[15]) & 0xF0) != 0) {
    return Value();
  }
  int64_t number = 0;
  for (int i = 6; i >= 0; --i) {
    number = (number << 8) | static_cast<uint8_t>(bytes[8 + i]);
  }
  return Value::Int(number);
}

constexpr AggregateKind kScalar = AggregateKind::kNone;

constexpr std::array kFunctions = {
    FunctionInfo{"IS_ARRAY", 1, 1, IsArray, kScalar},
    FunctionInfo{"IS_BOOL", 1, 1, IsBool, kScalar},
    // The Java SDK's cross-partition ORDER BY filters by type with IS_BOOLEAN
    // (OrderByDocumentQueryExecutionContext.IsSystemFunctions); the service takes it.
    FunctionInfo{"IS_BOOLEAN", 1, 1, IsBool, kScalar},
    FunctionInfo{"IS_DATETIME", 1, 1, IsDateTime, kScalar},
    FunctionInfo{"IS_DEFINED", 1, 1, IsDefined, kScalar},
    FunctionInfo{"IS_FINITE_NUMBER", 1, 1, IsFiniteNumber, kScalar},
    FunctionInfo{"IS_INTEGER", 1, 1, IsInteger, kScalar},
    FunctionInfo{"IS_NULL", 1, 1, IsNull, kScalar},
    FunctionInfo{"IS_NUMBER", 1, 1, IsNumber, kScalar},
    FunctionInfo{"IS_OBJECT", 1, 1, IsObject, kScalar},
    FunctionInfo{"IS_PRIMITIVE", 1, 1, IsPrimitive, kScalar},
    FunctionInfo{"IS_STRING", 1, 1, IsString, kScalar},
    FunctionInfo{"IIF", 3, 3, Iif, kScalar},
    FunctionInfo{"DocumentId", 1, 1, DocumentId, kScalar},
};

}  // namespace

std::span<const FunctionInfo> TypeFunctions() { return kFunctions; }

}  // namespace orrery::query::functions_internal
