#include "query/operators.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

#include "query/ordering.h"

namespace orrery::query {
namespace {

using ast::BinaryOp;

// Integers up to 2^53 convert to and from double exactly.
constexpr double kMaxExactInteger = 9007199254740992.0;

json::Value Arithmetic(BinaryOp op, const json::Value& a, const json::Value& b) {
  if (!a.is_number() || !b.is_number()) {
    return json::Value();
  }
  const bool integral = a.is_integer() && b.is_integer();
  const double x = a.as_double();
  const double y = b.as_double();
  switch (op) {
    case BinaryOp::kAdd:
      return MakeNumber(x + y, integral);
    case BinaryOp::kSubtract:
      return MakeNumber(x - y, integral);
    case BinaryOp::kMultiply:
      return MakeNumber(x * y, integral);
    case BinaryOp::kDivide:
      return MakeNumber(x / y, integral);
    // JavaScript/C fmod: the result takes the dividend's sign (-7 % 2 = -1).
    case BinaryOp::kModulo:
      return MakeNumber(std::fmod(x, y), integral);
    default:
      return json::Value();
  }
}

// JavaScript ToInt32: NaN and infinities give 0, otherwise the low 32 bits of the
// integer part.
int32_t ToInt32(double d) {
  if (!std::isfinite(d)) {
    return 0;
  }
  const double truncated = std::trunc(d);
  const double modulo = std::fmod(truncated, 4294967296.0);
  const auto bits = static_cast<uint32_t>(static_cast<int64_t>(modulo));
  return static_cast<int32_t>(bits);
}

json::Value Bitwise(BinaryOp op, const json::Value& a, const json::Value& b) {
  if (!a.is_number() || !b.is_number()) {
    return json::Value();
  }
  const int32_t x = ToInt32(a.as_double());
  const int32_t y = ToInt32(b.as_double());
  const auto ux = static_cast<uint32_t>(x);
  const uint32_t shift = static_cast<uint32_t>(y) & 31;
  switch (op) {
    case BinaryOp::kBitAnd:
      return json::Value::Int(x & y);
    case BinaryOp::kBitOr:
      return json::Value::Int(x | y);
    case BinaryOp::kBitXor:
      return json::Value::Int(x ^ y);
    case BinaryOp::kShiftLeft:
      return json::Value::Int(static_cast<int32_t>(ux << shift));
    case BinaryOp::kShiftRight:
      return json::Value::Int(x >> shift);
    case BinaryOp::kShiftRightZeroFill:
      return json::Value::Int(ux >> shift);
    default:
      return json::Value();
  }
}

json::Value Compare(BinaryOp op, const json::Value& a, const json::Value& b) {
  const std::optional<int> c = CompareScalars(a, b);
  if (!c) {
    return json::Value();
  }
  switch (op) {
    case BinaryOp::kLess:
      return json::Value::Bool(*c < 0);
    case BinaryOp::kLessEqual:
      return json::Value::Bool(*c <= 0);
    case BinaryOp::kGreater:
      return json::Value::Bool(*c > 0);
    case BinaryOp::kGreaterEqual:
      return json::Value::Bool(*c >= 0);
    default:
      return json::Value();
  }
}

}  // namespace

json::Value MakeNumber(double d, bool integral_operands) {
  if (integral_operands && std::trunc(d) == d && std::fabs(d) <= kMaxExactInteger) {
    return json::Value::Int(static_cast<int64_t>(d));
  }
  return json::Value::Double(d);
}

std::optional<int> CompareScalars(const json::Value& a, const json::Value& b) {
  if (a.type() != b.type()) {
    return std::nullopt;
  }
  if (a.is_number()) {
    const double x = a.as_double();
    const double y = b.as_double();
    if (std::isnan(x) || std::isnan(y)) {
      return std::nullopt;
    }
  }
  if (a.is_number() || a.is_string() || a.is_bool()) {
    return CompareValues(a, b);
  }
  return std::nullopt;
}

json::Value Equal(const json::Value& a, const json::Value& b) {
  if (a.is_undefined() || b.is_undefined() || a.type() != b.type()) {
    return json::Value();
  }
  return json::Value::Bool(ValuesEqual(a, b));
}

json::Value InListEqual(const json::Value& a, const json::Value& b) {
  if (a.is_undefined() || b.is_undefined()) {
    return json::Value();
  }
  return json::Value::Bool(ValuesEqual(a, b));
}

json::Value ApplyBinary(BinaryOp op, const json::Value& a, const json::Value& b) {
  switch (op) {
    case BinaryOp::kMultiply:
    case BinaryOp::kDivide:
    case BinaryOp::kModulo:
    case BinaryOp::kAdd:
    case BinaryOp::kSubtract:
      return Arithmetic(op, a, b);
    case BinaryOp::kShiftLeft:
    case BinaryOp::kShiftRight:
    case BinaryOp::kShiftRightZeroFill:
    case BinaryOp::kBitAnd:
    case BinaryOp::kBitXor:
    case BinaryOp::kBitOr:
      return Bitwise(op, a, b);
    case BinaryOp::kLess:
    case BinaryOp::kLessEqual:
    case BinaryOp::kGreater:
    case BinaryOp::kGreaterEqual:
      return Compare(op, a, b);
    case BinaryOp::kEqual:
      return Equal(a, b);
    case BinaryOp::kNotEqual:
      return LogicalNot(Equal(a, b));
    case BinaryOp::kConcat:
      if (!a.is_string() || !b.is_string()) {
        return json::Value();
      }
      return json::Value::String(a.as_string() + b.as_string());
    case BinaryOp::kAnd:
      return LogicalAnd(a, b);
    case BinaryOp::kOr:
      return LogicalOr(a, b);
    case BinaryOp::kCoalesce:
      return a.is_undefined() ? b : a;
  }
  return json::Value();
}

json::Value ApplyUnary(ast::UnaryOp op, const json::Value& a) {
  switch (op) {
    case ast::UnaryOp::kNegate:
      if (!a.is_number()) {
        return json::Value();
      }
      if (a.is_integer() && a.as_int() != std::numeric_limits<int64_t>::min()) {
        return json::Value::Int(-a.as_int());
      }
      return json::Value::Double(-a.as_double());
    case ast::UnaryOp::kPlus:
      return a.is_number() ? a : json::Value();
    case ast::UnaryOp::kBitNot:
      return a.is_number() ? json::Value::Int(~ToInt32(a.as_double())) : json::Value();
    case ast::UnaryOp::kNot:
      return LogicalNot(a);
  }
  return json::Value();
}

json::Value LogicalAnd(const json::Value& a, const json::Value& b) {
  const bool a_false = a.is_bool() && !a.as_bool();
  const bool b_false = b.is_bool() && !b.as_bool();
  if (a_false || b_false) {
    return json::Value::Bool(false);
  }
  if (IsTrue(a) && IsTrue(b)) {
    return json::Value::Bool(true);
  }
  return json::Value();
}

json::Value LogicalOr(const json::Value& a, const json::Value& b) {
  if (IsTrue(a) || IsTrue(b)) {
    return json::Value::Bool(true);
  }
  const bool a_false = a.is_bool() && !a.as_bool();
  const bool b_false = b.is_bool() && !b.as_bool();
  if (a_false && b_false) {
    return json::Value::Bool(false);
  }
  return json::Value();
}

json::Value LogicalNot(const json::Value& a) {
  return a.is_bool() ? json::Value::Bool(!a.as_bool()) : json::Value();
}

}  // namespace orrery::query
