#include "query/user_functions.h"

#include "json/json.h"
#include "query/errors.h"
#include "script/user_function.h"

namespace orrery::query {

Status ResolveUserFunctions(std::string_view text, BoundQuery& bound, const UserFunctions* udfs) {
  if (udfs == nullptr || bound.udf_calls.empty()) return Status::Ok();
  if (bound.udf_calls.size() > kMaxUserFunctionReferences) {
    const ast::CallExpr& extra = *bound.udf_calls[kMaxUserFunctionReferences];
    return QueryError(text, extra.range, kSemanticError,
                      "The query references more than " +
                          std::to_string(kMaxUserFunctionReferences) +
                          " user-defined functions, the most one query may.");
  }
  for (ast::CallExpr* call : bound.udf_calls) {
    auto it = udfs->find(call->name);
    if (it == udfs->end()) {
      return QueryError(
          text, call->name_range, kUnknownFunction,
          "'udf." + call->name + "' is not a user-defined function of this container.");
    }
    call->udf = it->second.get();
    bound.udfs.push_back(it->second);
  }
  return Status::Ok();
}

Cell EvaluateUserFunction(const ast::CallExpr& call, const Frame& frame) {
  if (call.udf == nullptr) return Cell();
  std::string arguments = "[";
  for (size_t i = 0; i < call.args.size(); ++i) {
    Cell value = Evaluate(*call.args[i], frame);
    // A missing argument skips the call (server-side-scripts.md §5).
    if (value.get().is_undefined()) return Cell();
    if (i > 0) arguments += ',';
    json::AppendTo(arguments, value.get());
  }
  arguments += ']';
  script::UserFunction::Result result = call.udf->Call(arguments);
  if (!result.ok) {
    if (frame.error != nullptr && frame.error->ok()) {
      *frame.error = Status::BadRequest(result.message);
    }
    return Cell();
  }
  if (result.undefined) return Cell();
  Result<json::Value> value = json::Parse(result.json);
  if (!value.ok()) return Cell();
  return Cell::Own(std::move(*value));
}

}  // namespace orrery::query
