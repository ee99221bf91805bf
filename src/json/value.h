#pragma once

// Value: the in-memory JSON model used by the engine and the query evaluator.
// Objects keep member order (Cosmos DB returns members in the order they were written).
// kUndefined exists for the query language; it is never written: the writer skips
// undefined object members and array elements print as nothing (callers avoid them).

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace orrery::json {

enum class Type : uint8_t { kUndefined, kNull, kBool, kNumber, kString, kArray, kObject };

class Value;
using Array = std::vector<Value>;
using Member = std::pair<std::string, Value>;
using Object = std::vector<Member>;

class Value {
 public:
  Value() = default;  // undefined
  static Value Null() { return Value(Type::kNull); }
  static Value Bool(bool b);
  static Value Int(int64_t i);
  static Value Double(double d);
  static Value String(std::string s);
  static Value MakeArray(Array a = {});
  static Value MakeObject(Object o = {});

  Type type() const { return type_; }
  bool is_undefined() const { return type_ == Type::kUndefined; }
  bool is_null() const { return type_ == Type::kNull; }
  bool is_bool() const { return type_ == Type::kBool; }
  bool is_number() const { return type_ == Type::kNumber; }
  bool is_string() const { return type_ == Type::kString; }
  bool is_array() const { return type_ == Type::kArray; }
  bool is_object() const { return type_ == Type::kObject; }

  // REQUIRES: the matching type.
  bool as_bool() const { return bool_; }
  // A number was an integer in its JSON text and fits int64 exactly.
  bool is_integer() const { return type_ == Type::kNumber && is_int_; }
  int64_t as_int() const { return int_; }
  double as_double() const { return is_int_ ? static_cast<double>(int_) : double_; }
  const std::string& as_string() const { return *string_; }
  const Array& as_array() const { return *array_; }
  Array& as_array() { return *array_; }
  const Object& as_object() const { return *object_; }
  Object& as_object() { return *object_; }

  // Object member lookup; nullptr when absent or not an object. The pointer is valid
  // until the object is modified.
  const Value* Find(std::string_view key) const;
  Value* Find(std::string_view key);
  // The value at a path of member names from this one; nullptr when a step is absent
  // or not an object.
  const Value* FindPath(const std::vector<std::string>& names) const;
  // Sets (replacing in place, or appending) a member. REQUIRES: is_object().
  void Set(std::string key, Value value);
  // Removes a member if present; returns whether it was. REQUIRES: is_object().
  bool Remove(std::string_view key);

  Value(const Value& other);
  Value& operator=(const Value& other);
  Value(Value&&) noexcept = default;
  Value& operator=(Value&&) noexcept = default;
  ~Value() = default;

 private:
  explicit Value(Type t) : type_(t) {}

  Type type_ = Type::kUndefined;
  bool bool_ = false;
  bool is_int_ = false;
  int64_t int_ = 0;
  double double_ = 0;
  std::unique_ptr<std::string> string_;
  std::unique_ptr<Array> array_;
  std::unique_ptr<Object> object_;
};

// About how many bytes of memory `value` takes (its nodes, strings and element arrays),
// for memory budgets: cheap, and within a small factor of the truth.
size_t ApproximateBytes(const Value& value);

// Structural equality as JSON sees it: numbers compare by value (1 == 1.0), object
// members regardless of order.
bool operator==(const Value& a, const Value& b);

}  // namespace orrery::json
