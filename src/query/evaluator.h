#pragma once

// Evaluator: computes the value of a bound expression for one set of alias bindings.
// Type mismatches give undefined (query-language.md §4.1). The one run-time error, a
// scalar subquery with several results (§4.6), is recorded in Frame::error.

#include <span>
#include <utility>
#include <vector>

#include "common/status.h"
#include "json/value.h"
#include "query/ast.h"
#include "query/query.h"

namespace orrery::query {

// The result of evaluating an expression: either a reference to a value that outlives
// the evaluation (a document, a binding, a literal in the tree) or an owned value.
// Property access on a reference stays a reference, so `c.a.b` copies nothing.
class Cell {
 public:
  Cell() : ref_(&Undefined()) {}
  static Cell Ref(const json::Value& v) { return Cell(&v); }
  static Cell Own(json::Value v) { return Cell(std::move(v)); }

  const json::Value& get() const { return ref_ != nullptr ? *ref_ : owned_; }
  // The value, moved out when owned, copied when referenced.
  json::Value Take() && { return ref_ != nullptr ? *ref_ : std::move(owned_); }
  bool is_owned() const { return ref_ == nullptr; }

  static const json::Value& Undefined();

 private:
  explicit Cell(const json::Value* ref) : ref_(ref) {}
  explicit Cell(json::Value v) : ref_(nullptr), owned_(std::move(v)) {}

  const json::Value* ref_;
  json::Value owned_;
};

// What an expression sees. Slots hold the alias bindings (binder.h numbers them);
// aggregates and group_keys are set only when Finish evaluates the SELECT clause of an
// aggregate query.
struct Frame {
  std::span<const json::Value* const> slots;
  const std::vector<json::Value>* aggregates = nullptr;
  const std::vector<json::Value>* group_keys = nullptr;
  // Receives the first run-time error (BadRequest); the failing expression gives
  // undefined, and so does every expression evaluated after it (the item's result is
  // the error). Null: such errors are dropped.
  Status* error = nullptr;
  // Charged by subqueries for the rows they hold and the bindings they enumerate
  // (query.h); when it runs out they stop and record its error. Null: unbudgeted.
  RowBudget* budget = nullptr;
};

// REQUIRES: `expr` was bound; every slot it reads is set in `frame`.
// A returned reference is valid while the frame's values and the tree are.
Cell Evaluate(const ast::Expr& expr, const Frame& frame);

}  // namespace orrery::query
