#include <simdjson.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>

#include "json/json.h"
#include "json/member_scan.h"

namespace orrery::json {
namespace {

// The service answers this for any body that is not valid JSON.
constexpr const char* kInvalidPayload =
    "The request payload is invalid. Ensure to provide a valid request payload.";

// Converts simdjson's tree. `depth` is the number of arrays and objects that enclose
// `element`; one nested deeper than `max_depth` sets `too_deep` (simdjson's own limit
// counts a scalar inside the innermost container as a level, and empty containers not,
// so the parser is given one level more and the exact count is kept here).
Value Convert(simdjson::dom::element element, int depth, int max_depth, bool& too_deep) {
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
      if (depth + 1 > max_depth) {
        too_deep = true;
        return Value();
      }
      Array array;
      simdjson::dom::array source = element.get_array().value_unsafe();
      array.reserve(source.size());
      for (simdjson::dom::element child : source) {
        array.push_back(Convert(child, depth + 1, max_depth, too_deep));
      }
      return Value::MakeArray(std::move(array));
    }
    case simdjson::dom::element_type::OBJECT: {
      if (depth + 1 > max_depth) {
        too_deep = true;
        return Value();
      }
      Object object;
      simdjson::dom::object source = element.get_object().value_unsafe();
      object.reserve(source.size());
      for (simdjson::dom::key_value_pair field : source) {
        object.emplace_back(std::string(field.key),
                            Convert(field.value, depth + 1, max_depth, too_deep));
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

// Whether an integer literal lies beyond what simdjson reads as an integer.
// (Up to 2^64 - 1, or down to -2^63.)
bool BeyondUint64(std::string_view literal) {
  const bool negative = literal.front() == '-';
  const std::string_view digits = literal.substr(negative ? 1 : 0);
  const std::string_view max = negative ? "9223372036854775808" : "18446744073709551615";
  return digits.size() > max.size() || (digits.size() == max.size() && digits > max);
}

// simdjson rejects integer literals beyond 64 bits; Cosmos DB reads them as doubles.
// Appending ".0" to such literals (outside strings) makes simdjson do the same; the
// other integers of the text stay integers.
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
      const std::string_view literal = text.substr(i, end - i);
      out.append(literal);
      if (is_integer && BeyondUint64(literal)) {
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

// simdjson reads up to SIMDJSON_PADDING bytes past the end of its input. Copying
// each text into one reused, padded buffer per thread spares the allocation simdjson
// would otherwise make for every document.
std::string_view Padded(std::string_view text) {
  thread_local std::string buffer;
  if (buffer.size() < text.size() + simdjson::SIMDJSON_PADDING) {
    buffer.resize(std::max(text.size() + simdjson::SIMDJSON_PADDING, buffer.size() * 2));
  }
  std::memcpy(buffer.data(), text.data(), text.size());
  return std::string_view(buffer.data(), text.size());
}

}  // namespace

Result<Value> Parse(std::string_view text, ParseOptions options) {
  const std::string_view padded = Padded(text);
  if (options.only_members != nullptr) {
    // Items read by queries were validated when written, so skipping the members the
    // query does not read is safe; anything unusual takes the full parse below.
    if (std::optional<Value> members = ParseTopLevelMembers(text, *options.only_members)) {
      return std::move(*members);
    }
  }
  simdjson::dom::parser& parser = ThreadParser(options.max_depth + 1);
  simdjson::dom::element root;
  auto error = parser.parse(padded.data(), padded.size(), false).get(root);
  std::string widened;
  if (error == simdjson::NUMBER_ERROR) {
    widened = WidenBigIntegers(text);
    error = parser.parse(widened.data(), widened.size()).get(root);
  }
  const auto too_deep_error = [&options] {
    return Status::BadRequest(std::string(kInvalidPayload) + " JSON nesting exceeds " +
                              std::to_string(options.max_depth) + " levels.");
  };
  if (error == simdjson::DEPTH_ERROR) {
    return too_deep_error();
  }
  if (error == simdjson::CAPACITY) {
    return Status::EntityTooLarge("The request payload is too large.");
  }
  if (error != simdjson::SUCCESS) {
    return Status::BadRequest(std::string(kInvalidPayload) + " (" + simdjson::error_message(error) +
                              ")");
  }
  bool too_deep = false;
  Value value;
  if (options.only_members != nullptr && root.is_object()) {
    const std::vector<std::string>& wanted = *options.only_members;
    Object object;
    simdjson::dom::object members = root.get_object().value_unsafe();
    for (simdjson::dom::key_value_pair field : members) {
      if (std::binary_search(wanted.begin(), wanted.end(), field.key)) {
        object.emplace_back(std::string(field.key),
                            Convert(field.value, 1, options.max_depth, too_deep));
      }
    }
    value = Value::MakeObject(std::move(object));
  } else {
    value = Convert(root, 0, options.max_depth, too_deep);
  }
  if (too_deep) {
    return too_deep_error();
  }
  return value;
}

}  // namespace orrery::json
