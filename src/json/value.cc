#include "json/value.h"

#include <algorithm>

namespace orrery::json {

Value Value::Bool(bool b) {
  Value v(Type::kBool);
  v.bool_ = b;
  return v;
}

Value Value::Int(int64_t i) {
  Value v(Type::kNumber);
  v.is_int_ = true;
  v.int_ = i;
  return v;
}

Value Value::Double(double d) {
  Value v(Type::kNumber);
  v.double_ = d;
  return v;
}

Value Value::String(std::string s) {
  Value v(Type::kString);
  v.string_ = std::make_unique<std::string>(std::move(s));
  return v;
}

Value Value::MakeArray(Array a) {
  Value v(Type::kArray);
  v.array_ = std::make_unique<Array>(std::move(a));
  return v;
}

Value Value::MakeObject(Object o) {
  Value v(Type::kObject);
  v.object_ = std::make_unique<Object>(std::move(o));
  return v;
}

Value::Value(const Value& other)
    : type_(other.type_),
      bool_(other.bool_),
      is_int_(other.is_int_),
      int_(other.int_),
      double_(other.double_) {
  if (other.string_) {
    string_ = std::make_unique<std::string>(*other.string_);
  }
  if (other.array_) {
    array_ = std::make_unique<Array>(*other.array_);
  }
  if (other.object_) {
    object_ = std::make_unique<Object>(*other.object_);
  }
}

Value& Value::operator=(const Value& other) {
  if (this != &other) {
    Value copy(other);
    *this = std::move(copy);
  }
  return *this;
}

const Value* Value::Find(std::string_view key) const {
  if (type_ != Type::kObject) {
    return nullptr;
  }
  for (const auto& [name, value] : *object_) {
    if (name == key) {
      return &value;
    }
  }
  return nullptr;
}

const Value* Value::FindPath(const std::vector<std::string>& names) const {
  const Value* at = this;
  for (const std::string& name : names) {
    at = at->Find(name);
    if (at == nullptr) return nullptr;
  }
  return at;
}

Value* Value::Find(std::string_view key) {
  return const_cast<Value*>(static_cast<const Value*>(this)->Find(key));
}

void Value::Set(std::string key, Value value) {
  if (Value* existing = Find(key)) {
    *existing = std::move(value);
    return;
  }
  object_->emplace_back(std::move(key), std::move(value));
}

bool Value::Remove(std::string_view key) {
  auto it = std::find_if(object_->begin(), object_->end(),
                         [&](const Member& m) { return m.first == key; });
  if (it == object_->end()) {
    return false;
  }
  object_->erase(it);
  return true;
}

bool operator==(const Value& a, const Value& b) {
  if (a.type() != b.type()) {
    return false;
  }
  switch (a.type()) {
    case Type::kUndefined:
    case Type::kNull:
      return true;
    case Type::kBool:
      return a.as_bool() == b.as_bool();
    case Type::kNumber:
      if (a.is_integer() && b.is_integer()) {
        return a.as_int() == b.as_int();
      }
      return a.as_double() == b.as_double();
    case Type::kString:
      return a.as_string() == b.as_string();
    case Type::kArray:
      return a.as_array() == b.as_array();
    case Type::kObject: {
      const Object& ao = a.as_object();
      const Object& bo = b.as_object();
      if (ao.size() != bo.size()) {
        return false;
      }
      for (const auto& [name, value] : ao) {
        const Value* other = b.Find(name);
        if (other == nullptr || !(*other == value)) {
          return false;
        }
      }
      return true;
    }
  }
  return false;
}

size_t ApproximateBytes(const Value& value) {
  switch (value.type()) {
    case Type::kString:
      return sizeof(Value) + sizeof(std::string) + value.as_string().capacity();
    case Type::kArray: {
      size_t bytes = sizeof(Value) + sizeof(Array);
      for (const Value& element : value.as_array()) {
        bytes += ApproximateBytes(element);
      }
      return bytes;
    }
    case Type::kObject: {
      size_t bytes = sizeof(Value) + sizeof(Object);
      for (const Member& member : value.as_object()) {
        bytes += sizeof(std::string) + member.first.capacity() + ApproximateBytes(member.second);
      }
      return bytes;
    }
    default:
      return sizeof(Value);
  }
}

}  // namespace orrery::json
