#include "query/evaluator.h"

#include <chrono>
#include <cmath>
#include <optional>
#include <string>

#include "common/stack.h"
#include "query/computed_properties.h"
#include "query/errors.h"
#include "query/functions.h"
#include "query/like.h"
#include "query/operators.h"
#include "query/subquery.h"
#include "query/unicode.h"
#include "query/user_functions.h"

namespace orrery::query {

const json::Value& Cell::Undefined() {
  static const json::Value kUndefined;
  return kUndefined;
}

namespace {

// systemFunctionExecuteTimeInMs of the query running on this thread (query.h).
struct FunctionTiming {
  bool on = false;
  double ms = 0;
};
thread_local FunctionTiming function_timing;

json::Value CallTimed(const FunctionInfo& function, std::span<const json::Value* const> args,
                      const CallContext& context) {
  if (!function_timing.on) return CallFunction(function, args, context);
  const auto start = std::chrono::steady_clock::now();
  json::Value result = CallFunction(function, args, context);
  function_timing.ms +=
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return result;
}

using json::Value;

// A member or element of `container`, keeping a reference when the container is one.
Cell Select(Cell container, const Value* part) {
  if (part == nullptr) {
    return Cell();
  }
  if (!container.is_owned()) {
    return Cell::Ref(*part);
  }
  // `part` lies inside the value `container` owns, which dies with this call: move the
  // part out rather than copy it.
  return Cell::Own(std::move(*const_cast<Value*>(part)));
}

// Whether a value of `bytes` the query is building passes kMaxBuiltValueBytes; if so
// the evaluation records why and gives undefined.
bool Oversized(size_t bytes, const Frame& frame) {
  if (bytes <= kMaxBuiltValueBytes) {
    return false;
  }
  if (frame.error != nullptr && frame.error->ok()) {
    *frame.error = Status::BadRequest(
        "The query builds a value of more than " + std::to_string(kMaxBuiltValueBytes >> 20) +
        " MB (an array or object literal, a concatenation or a function's result) for one "
        "item. Reference less of the item in it.");
  }
  return true;
}

// Scalars take no memory of their own worth counting; strings, arrays and objects do.
bool OversizedResult(const Value& value, const Frame& frame) {
  switch (value.type()) {
    case json::Type::kString:
      return Oversized(value.as_string().size(), frame);
    case json::Type::kArray:
    case json::Type::kObject:
      return Oversized(json::ApproximateBytes(value), frame);
    default:
      return false;
  }
}

Cell EvaluateProperty(const ast::PropertyExpr& e, const Frame& frame) {
  Cell object = Evaluate(*e.object, frame);
  if (e.computed != nullptr) return Cell::Own(e.computed->Evaluate(object.get()));
  const Value* member = object.get().Find(e.name);
  return Select(std::move(object), member);
}

// e[i]: a string index reads a member of an object, an integral number an element of
// an array; anything else, or out of range, is undefined.
Cell EvaluateIndex(const ast::IndexExpr& e, const Frame& frame) {
  Cell object = Evaluate(*e.object, frame);
  const Cell index = Evaluate(*e.index, frame);
  const Value& key = index.get();
  const Value& target = object.get();
  if (key.is_string()) {
    const Value* member = target.Find(key.as_string());
    return Select(std::move(object), member);
  }
  if (!key.is_number() || !target.is_array()) {
    return Cell();
  }
  const double d = key.as_double();
  const auto& elements = target.as_array();
  if (std::trunc(d) != d || d < 0 || d >= static_cast<double>(elements.size())) {
    return Cell();
  }
  return Select(std::move(object), &elements[static_cast<size_t>(d)]);
}

Cell EvaluateCall(const ast::CallExpr& e, const Frame& frame) {
  if (e.is_udf) return EvaluateUserFunction(e, frame);
  if (e.aggregate >= 0) {
    if (frame.aggregates == nullptr) {
      return Cell();
    }
    return Cell::Ref((*frame.aggregates)[static_cast<size_t>(e.aggregate)]);
  }
  if (e.function == nullptr || e.function->is_aggregate()) {
    return Cell();
  }
  std::vector<Cell> cells;
  cells.reserve(e.args.size());
  std::vector<const Value*> args;
  args.reserve(e.args.size());
  for (const ast::ExprPtr& arg : e.args) {
    cells.push_back(Evaluate(*arg, frame));
  }
  for (const Cell& cell : cells) {
    args.push_back(&cell.get());
  }
  Value result = CallTimed(*e.function, args, CallContext{.now_ticks = e.now_ticks});
  if (OversizedResult(result, frame)) {
    return Cell();
  }
  return Cell::Own(std::move(result));
}

Cell EvaluateBinary(const ast::BinaryExpr& e, const Frame& frame) {
  Cell left = Evaluate(*e.left, frame);
  const Value& l = left.get();
  switch (e.op) {
    // Only `false AND x` and `true OR x` may skip x (query-language.md §4.3).
    case ast::BinaryOp::kAnd:
      if (l.is_bool() && !l.as_bool()) {
        return Cell::Own(Value::Bool(false));
      }
      return Cell::Own(LogicalAnd(l, Evaluate(*e.right, frame).get()));
    case ast::BinaryOp::kOr:
      if (IsTrue(l)) {
        return Cell::Own(Value::Bool(true));
      }
      return Cell::Own(LogicalOr(l, Evaluate(*e.right, frame).get()));
    case ast::BinaryOp::kCoalesce:
      // Only undefined is replaced; null stays (unlike C# and JavaScript).
      return l.is_undefined() ? Evaluate(*e.right, frame) : std::move(left);
    default: {
      Value result = ApplyBinary(e.op, l, Evaluate(*e.right, frame).get());
      if (result.is_string() && Oversized(result.as_string().size(), frame)) {
        return Cell();  // || of long strings
      }
      return Cell::Own(std::move(result));
    }
  }
}

// x BETWEEN lo AND hi is x >= lo AND x <= hi.
Cell EvaluateBetween(const ast::BetweenExpr& e, const Frame& frame) {
  const Cell value = Evaluate(*e.value, frame);
  const Cell low = Evaluate(*e.low, frame);
  const Cell high = Evaluate(*e.high, frame);
  Value result = LogicalAnd(ApplyBinary(ast::BinaryOp::kGreaterEqual, value.get(), low.get()),
                            ApplyBinary(ast::BinaryOp::kLessEqual, value.get(), high.get()));
  return Cell::Own(e.negated ? LogicalNot(result) : std::move(result));
}

// x IN (v1, ..., vn) is a membership test: true when x equals one of them, false when it
// equals none, whatever their types (unlike =, which is undefined across types).
Cell EvaluateIn(const ast::InExpr& e, const Frame& frame) {
  const Cell value = Evaluate(*e.value, frame);
  Value result = Value::Bool(false);
  for (const ast::ExprPtr& item : e.list) {
    result = LogicalOr(result, InListEqual(value.get(), Evaluate(*item, frame).get()));
    if (IsTrue(result)) {
      break;
    }
  }
  return Cell::Own(e.negated ? LogicalNot(result) : std::move(result));
}

Cell EvaluateLike(const ast::LikeExpr& e, const Frame& frame) {
  const Cell value = Evaluate(*e.value, frame);
  const Cell pattern = Evaluate(*e.pattern, frame);
  if (!value.get().is_string() || !pattern.get().is_string()) {
    return Cell();
  }
  std::optional<char32_t> escape;
  if (e.escape && !e.escape->empty()) {
    size_t pos = 0;
    escape = DecodeUtf8(*e.escape, pos);
  }
  const bool matches = LikeMatches(value.get().as_string(), pattern.get().as_string(), escape);
  return Cell::Own(Value::Bool(matches != e.negated));
}

// Array and object constructors drop undefined elements and members (§4.5).
Cell EvaluateArray(const ast::ArrayExpr& e, const Frame& frame) {
  json::Array elements;
  elements.reserve(e.elements.size());
  size_t bytes = 0;
  for (const ast::ExprPtr& element : e.elements) {
    Cell cell = Evaluate(*element, frame);
    if (cell.get().is_undefined()) {
      continue;
    }
    // Counted before the copy: a referenced value is copied into the array.
    bytes += json::ApproximateBytes(cell.get());
    if (Oversized(bytes, frame)) {
      return Cell();
    }
    elements.push_back(std::move(cell).Take());
  }
  return Cell::Own(Value::MakeArray(std::move(elements)));
}

Cell EvaluateObject(const ast::ObjectExpr& e, const Frame& frame) {
  json::Object members;
  members.reserve(e.members.size());
  size_t bytes = 0;
  for (const auto& [name, expr] : e.members) {
    Cell cell = Evaluate(*expr, frame);
    if (cell.get().is_undefined()) {
      continue;
    }
    bytes += name.size() + json::ApproximateBytes(cell.get());
    if (Oversized(bytes, frame)) {
      return Cell();
    }
    members.emplace_back(name, std::move(cell).Take());
  }
  return Cell::Own(Value::MakeObject(std::move(members)));
}

}  // namespace

Cell Evaluate(const ast::Expr& expr, const Frame& frame) {
  // After a run-time error the item's result is that error: nothing more is computed.
  if (frame.error != nullptr && !frame.error->ok()) {
    return Cell();
  }
  if (expr.group_key >= 0 && frame.group_keys != nullptr) {
    return Cell::Ref((*frame.group_keys)[static_cast<size_t>(expr.group_key)]);
  }
  switch (expr.kind) {
    case ast::ExprKind::kLiteral:
      return Cell::Ref(ast::As<ast::LiteralExpr>(expr).value);
    case ast::ExprKind::kParameter:
      return Cell::Ref(ast::As<ast::ParameterExpr>(expr).value);
    case ast::ExprKind::kIdentifier: {
      const int slot = ast::As<ast::IdentifierExpr>(expr).slot;
      if (slot < 0 || static_cast<size_t>(slot) >= frame.slots.size() ||
          frame.slots[static_cast<size_t>(slot)] == nullptr) {
        return Cell();
      }
      return Cell::Ref(*frame.slots[static_cast<size_t>(slot)]);
    }
    default:
      break;
  }
  // Every other kind recurses; the limits of limits.h keep the tree shallow enough for
  // the request threads' stacks, and this keeps any other thread from crashing.
  if (StackExhausted()) {
    if (frame.error != nullptr && frame.error->ok()) {
      *frame.error = Status::BadRequest(std::string(kStackExhaustedMessage));
    }
    return Cell();
  }
  switch (expr.kind) {
    case ast::ExprKind::kProperty:
      return EvaluateProperty(ast::As<ast::PropertyExpr>(expr), frame);
    case ast::ExprKind::kIndex:
      return EvaluateIndex(ast::As<ast::IndexExpr>(expr), frame);
    case ast::ExprKind::kUnary: {
      const auto& e = ast::As<ast::UnaryExpr>(expr);
      return Cell::Own(ApplyUnary(e.op, Evaluate(*e.operand, frame).get()));
    }
    case ast::ExprKind::kBinary:
      return EvaluateBinary(ast::As<ast::BinaryExpr>(expr), frame);
    case ast::ExprKind::kBetween:
      return EvaluateBetween(ast::As<ast::BetweenExpr>(expr), frame);
    case ast::ExprKind::kIn:
      return EvaluateIn(ast::As<ast::InExpr>(expr), frame);
    case ast::ExprKind::kLike:
      return EvaluateLike(ast::As<ast::LikeExpr>(expr), frame);
    case ast::ExprKind::kConditional: {
      const auto& e = ast::As<ast::ConditionalExpr>(expr);
      const bool take_first = IsTrue(Evaluate(*e.condition, frame).get());
      return Evaluate(take_first ? *e.if_true : *e.if_false, frame);
    }
    case ast::ExprKind::kArray:
      return EvaluateArray(ast::As<ast::ArrayExpr>(expr), frame);
    case ast::ExprKind::kObject:
      return EvaluateObject(ast::As<ast::ObjectExpr>(expr), frame);
    case ast::ExprKind::kCall:
      return EvaluateCall(ast::As<ast::CallExpr>(expr), frame);
    case ast::ExprKind::kSubquery:
      return EvaluateSubquery(ast::As<ast::SubqueryExpr>(expr), frame);
    case ast::ExprKind::kLiteral:
    case ast::ExprKind::kParameter:
    case ast::ExprKind::kIdentifier:
      break;  // answered above
  }
  return Cell();
}

void StartFunctionTiming() { function_timing = FunctionTiming{true, 0}; }

double StopFunctionTiming() {
  const double ms = function_timing.ms;
  function_timing = FunctionTiming{};
  return ms;
}

}  // namespace orrery::query
