#include "engine/patch.h"

#include <algorithm>
#include <charconv>

namespace orrery::engine {
namespace {

using json::Value;
using Kind = PatchOperation::Kind;

std::optional<Kind> KindOf(std::string_view name) {
  if (name == "add") return Kind::kAdd;
  if (name == "set") return Kind::kSet;
  if (name == "replace") return Kind::kReplace;
  if (name == "remove") return Kind::kRemove;
  if (name == "incr") return Kind::kIncr;
  if (name == "move") return Kind::kMove;
  return std::nullopt;
}

// RFC 6901: "/a~1b/c" -> {"a/b", "c"}. The root itself ("" or "/") is not a target.
Result<std::vector<std::string>> SplitPointer(const std::string& path) {
  if (path.size() < 2 || path[0] != '/') {
    return Status::BadRequest("The patch path '" + path +
                              "' is invalid: a path starts with '/' and names a property, "
                              "for example '/address/city'.");
  }
  std::vector<std::string> tokens;
  std::string token;
  for (size_t i = 1; i <= path.size(); ++i) {
    if (i == path.size() || path[i] == '/') {
      tokens.push_back(std::move(token));
      token.clear();
    } else if (path[i] == '~' && i + 1 < path.size() &&
               (path[i + 1] == '0' || path[i + 1] == '1')) {
      token += path[++i] == '0' ? '~' : '/';
    } else {
      token += path[i];
    }
  }
  return tokens;
}

std::optional<size_t> ArrayIndex(const std::string& token) {
  if (token.empty() || (token.size() > 1 && token[0] == '0')) return std::nullopt;
  size_t index = 0;
  auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), index);
  if (error != std::errc() || end != token.data() + token.size()) return std::nullopt;
  return index;
}

Status Failed(const PatchOperation& op, const std::string& why) {
  return Status::BadRequest("The patch operation on path '" + op.path + "' failed: " + why);
}

// The object or array that holds the last step of `tokens`.
Result<Value*> ParentOf(Value& item, const std::vector<std::string>& tokens) {
  Value* node = &item;
  for (size_t i = 0; i + 1 < tokens.size(); ++i) {
    Value* next = nullptr;
    if (node->is_object()) {
      next = node->Find(tokens[i]);
    } else if (node->is_array()) {
      std::optional<size_t> index = ArrayIndex(tokens[i]);
      if (index && *index < node->as_array().size()) next = &node->as_array()[*index];
    }
    if (next == nullptr || !(next->is_object() || next->is_array())) {
      // The service's words for the same failure.
      return Status::BadRequest(
          "Given Operation can only create a child object of an existing node(array or object) "
          "and cannot create path recursively, no path found beyond: '" +
          tokens[i] + "'.");
    }
    node = next;
  }
  return node;
}

// Sum of two numbers; integers stay integers unless the sum overflows.
Value Add(const Value& a, const Value& b) {
  if (a.is_integer() && b.is_integer()) {
    int64_t sum = 0;
    if (!__builtin_add_overflow(a.as_int(), b.as_int(), &sum)) return Value::Int(sum);
  }
  return Value::Double(a.as_double() + b.as_double());
}

Status ApplyToObject(Value& object, const std::string& name, const PatchOperation& op) {
  Value* current = object.Find(name);
  switch (op.kind) {
    case Kind::kAdd:
    case Kind::kSet:
    case Kind::kMove:
      object.Set(name, op.value);
      return Status::Ok();
    case Kind::kReplace:
      if (current == nullptr) return Failed(op, "the property does not exist.");
      *current = op.value;
      return Status::Ok();
    case Kind::kRemove:
      if (!object.Remove(name)) return Failed(op, "the property does not exist.");
      return Status::Ok();
    case Kind::kIncr:
      if (current == nullptr) {
        object.Set(name, op.value);
      } else if (!current->is_number()) {
        return Failed(op, "incr needs a number at the path.");
      } else {
        *current = Add(*current, op.value);
      }
      return Status::Ok();
  }
  return Status::Ok();
}

// The array rules of partial-document-update.md and Microsoft's patch samples: add (and
// move's target) inserts at any index up to the length, the length appending; set
// replaces the element at an index below the length and appends at the length (the Java
// sample SamplePatchQuickstart sets /children/1 of a one-element array); replace, remove
// and incr need an element at the index; "-" appends for add, set and move. An index
// beyond these is refused in the service's words.
Status ApplyToArray(Value& array, const std::string& token, const PatchOperation& op) {
  json::Array& elements = array.as_array();
  const bool may_append = op.kind == Kind::kAdd || op.kind == Kind::kSet || op.kind == Kind::kMove;
  if (token == "-" && may_append) {
    elements.push_back(op.value);
    return Status::Ok();
  }
  std::optional<size_t> index = ArrayIndex(token);
  if (!index) return Failed(op, "'" + token + "' is not an array index.");
  const size_t size = elements.size();
  const size_t limit = may_append ? size + 1 : size;
  if (*index >= limit) {
    return Failed(op, "Index(" + token + ") to operate on is out of array bounds (the array has " +
                          std::to_string(size) + " elements).");
  }
  const auto at = elements.begin() + static_cast<std::ptrdiff_t>(*index);
  switch (op.kind) {
    case Kind::kAdd:
    case Kind::kMove:
      elements.insert(at, op.value);
      return Status::Ok();
    case Kind::kSet:
      if (*index == size) {
        elements.push_back(op.value);
      } else {
        *at = op.value;
      }
      return Status::Ok();
    case Kind::kReplace:
      *at = op.value;
      return Status::Ok();
    case Kind::kRemove:
      elements.erase(at);
      return Status::Ok();
    case Kind::kIncr:
      if (!at->is_number()) return Failed(op, "incr needs a number at the path.");
      *at = Add(*at, op.value);
      return Status::Ok();
  }
  return Status::Ok();
}

Status ApplyAt(Value& item, const std::vector<std::string>& tokens, const PatchOperation& op) {
  ORRERY_ASSIGN_OR_RETURN(Value * parent, ParentOf(item, tokens));
  return parent->is_object() ? ApplyToObject(*parent, tokens.back(), op)
                             : ApplyToArray(*parent, tokens.back(), op);
}

// kMove: takes the value out of `from` (which must exist).
Result<Value> TakeFrom(Value& item, const PatchOperation& op) {
  PatchOperation remove;
  remove.kind = Kind::kRemove;
  remove.path = op.path;
  ORRERY_ASSIGN_OR_RETURN(Value * parent, ParentOf(item, op.from));
  const std::string& last = op.from.back();
  Value taken;
  if (parent->is_object()) {
    const Value* found = parent->Find(last);
    if (found == nullptr) return Failed(op, "the 'from' path does not exist.");
    taken = *found;
  } else {
    std::optional<size_t> index = ArrayIndex(last);
    if (!index || *index >= parent->as_array().size()) {
      return Failed(op, "the 'from' path does not exist.");
    }
    taken = parent->as_array()[*index];
  }
  ORRERY_RETURN_IF_ERROR(ApplyAt(item, op.from, remove));
  return taken;
}

bool IsPrefix(const std::vector<std::string>& prefix, const std::vector<std::string>& path) {
  return prefix.size() <= path.size() && std::equal(prefix.begin(), prefix.end(), path.begin());
}

Result<PatchOperation> ParseOperation(const Value& spec) {
  if (!spec.is_object()) return Status::BadRequest("Each patch operation must be a JSON object.");
  const Value* op = spec.Find("op");
  const Value* path = spec.Find("path");
  if (op == nullptr || !op->is_string() || path == nullptr || !path->is_string()) {
    return Status::BadRequest("Each patch operation needs an 'op' and a 'path' string.");
  }
  std::optional<Kind> kind = KindOf(op->as_string());
  if (!kind) {
    return Status::BadRequest("The patch operation '" + op->as_string() +
                              "' is not supported: use add, set, replace, remove, incr or move.");
  }
  PatchOperation out;
  out.kind = *kind;
  out.path = path->as_string();
  ORRERY_ASSIGN_OR_RETURN(out.tokens, SplitPointer(out.path));
  if (out.kind == Kind::kMove) {
    const Value* from = spec.Find("from");
    if (from == nullptr || !from->is_string()) {
      return Status::BadRequest("The move operation on path '" + out.path +
                                "' needs a 'from' path.");
    }
    ORRERY_ASSIGN_OR_RETURN(out.from, SplitPointer(from->as_string()));
    if (IsPrefix(out.from, out.tokens)) {
      return Status::BadRequest("The move operation cannot move '" + from->as_string() +
                                "' into itself ('" + out.path + "').");
    }
  } else if (out.kind != Kind::kRemove) {
    const Value* value = spec.Find("value");
    if (value == nullptr) {
      return Status::BadRequest("The patch operation on path '" + out.path + "' needs a 'value'.");
    }
    if (out.kind == Kind::kIncr && !value->is_number()) {
      return Status::BadRequest("The incr operation on path '" + out.path +
                                "' needs a number as its value.");
    }
    out.value = *value;
  }
  return out;
}

}  // namespace

Result<PatchRequest> ParsePatchRequest(const json::Value& body) {
  const Value* operations = &body;
  PatchRequest request;
  if (body.is_object()) {
    operations = body.Find("operations");
    if (const Value* condition = body.Find("condition"); condition && !condition->is_null()) {
      if (!condition->is_string()) {
        return Status::BadRequest("The patch condition must be a string 'FROM c WHERE ...'.");
      }
      request.condition = condition->as_string();
    }
  }
  if (operations == nullptr || !operations->is_array()) {
    return Status::BadRequest(
        "The patch body must be an array of operations or an object with an 'operations' array.");
  }
  if (operations->as_array().empty()) {
    return Status::BadRequest("A patch needs at least one operation.");
  }
  if (operations->as_array().size() > kMaxPatchOperations) {
    return Status::BadRequest("A patch can have at most 10 operations; this one has " +
                              std::to_string(operations->as_array().size()) + ".");
  }
  for (const Value& spec : operations->as_array()) {
    ORRERY_ASSIGN_OR_RETURN(PatchOperation op, ParseOperation(spec));
    request.operations.push_back(std::move(op));
  }
  return request;
}

Status ApplyPatch(json::Value& item, const std::vector<PatchOperation>& operations) {
  for (const PatchOperation& op : operations) {
    if (op.kind == Kind::kMove) {
      ORRERY_ASSIGN_OR_RETURN(Value value, TakeFrom(item, op));
      PatchOperation add = op;
      add.value = std::move(value);
      ORRERY_RETURN_IF_ERROR(ApplyAt(item, op.tokens, add));
      continue;
    }
    ORRERY_RETURN_IF_ERROR(ApplyAt(item, op.tokens, op));
  }
  return Status::Ok();
}

}  // namespace orrery::engine
