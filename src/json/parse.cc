#include <simdjson.h>

#include <cstring>
#include <string>

#include "json/json.h"

namespace orrery::json {
namespace {

// The service answers this for any body that is not valid JSON.
constexpr const char* kInvalidPayload =
    "The request payload is invalid. Ensure to provide a valid request payload.";

Value Convert(simdjson::dom::element element) {
  switch (element.type()) {
    case simdjson::dom::element_type::NULL_VALUE:
      return Value::Null();
    case simdjson::dom::element_type::BOOL:
      return Value::Bool(element.get_bool().value_unsafe());
    case simdjson::dom::element_type::INT64:
      return Value::Int(element.get_int64().value_unsafe());
    case simdjson::dom::element_type::UINT64:
      // Above INT64_MAX: Cosmos DB keeps numbers as doubles.
      return Value::Double(static_cast<double>(element.get_uint64().value_unsafe()));
    case simdjson::dom::element_type::DOUBLE:
      return Value::Double(element.get_double().value_unsafe());
    case simdjson::dom::element_type::STRING:
      return Value::String(std::string(element.get_string().value_unsafe()));
    case simdjson::dom::element_type::ARRAY: {
      Array array;
      simdjson::dom::array source = element.get_array().value_unsafe();
      array.reserve(source.size());
      for (simdjson::dom::element child : source) {
        array.push_back(Convert(child));
      }
      return Value::MakeArray(std::move(array));
    }
    case simdjson::dom::element_type::OBJECT: {
      Object object;
      simdjson::dom::object source = element.get_object().value_unsafe();
      object.reserve(source.size());
      for (simdjson::dom::key_value_pair field : source) {
        object.emplace_back(std::string(field.key), Convert(field.value));
      }
      return Value::MakeObject(std::move(object));
    }
  }
  return Value();
}

// One parser per thread: simdjson parsers reuse their buffers across documents.
simdjson::dom::parser& ThreadParser(int max_depth) {
  thread_local simdjson::dom::parser parser;
  thread_local int allocated_depth = -1;
  if (allocated_depth != max_depth) {
    if (parser.allocate(size_t{1} << 16, max_depth) == simdjson::SUCCESS) {
      allocated_depth = max_depth;
    }
  }
  return parser;
}

// simdjson rejects integer literals beyond 64 bits; Cosmos DB reads them as doubles.
// Appending ".0" to such literals (outside strings) makes simdjson do the same.
std::string WidenBigIntegers(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 16);
  bool in_string = false;
  for (size_t i = 0; i < text.size();) {
    char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size()) {
        out += text[i + 1];
        i += 2;
        continue;
      }
      in_string = c != '"';
      ++i;
      continue;
    }
    if (c == '"') {
      in_string = true;
      out += c;
      ++i;
      continue;
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
      size_t end = i + (c == '-' ? 1 : 0);
      while (end < text.size() && text[end] >= '0' && text[end] <= '9') {
        ++end;
      }
      bool is_integer = true;
      while (end < text.size() && (std::strchr("0123456789.eE+-", text[end]) != nullptr)) {
        is_integer = false;
        ++end;
      }
      out.append(text.substr(i, end - i));
      if (is_integer) {
        out += ".0";
      }
      i = end;
      continue;
    }
    out += c;
    ++i;
  }
  return out;
}

}  // namespace

Result<Value> Parse(std::string_view text, ParseOptions options) {
  simdjson::dom::parser& parser = ThreadParser(options.max_depth);
  simdjson::dom::element root;
  auto error = parser.parse(text.data(), text.size()).get(root);
  std::string widened;
  if (error == simdjson::NUMBER_ERROR) {
    widened = WidenBigIntegers(text);
    error = parser.parse(widened.data(), widened.size()).get(root);
  }
  if (error == simdjson::DEPTH_ERROR) {
    return Status::BadRequest(std::string(kInvalidPayload) + " JSON nesting exceeds " +
                              std::to_string(options.max_depth) + " levels.");
  }
  if (error == simdjson::CAPACITY) {
    return Status::EntityTooLarge("The request payload is too large.");
  }
  if (error != simdjson::SUCCESS) {
    return Status::BadRequest(std::string(kInvalidPayload) + " (" + simdjson::error_message(error) +
                              ")");
  }
  return Convert(root);
}

}  // namespace orrery::json
