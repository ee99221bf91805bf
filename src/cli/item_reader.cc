#include "cli/item_reader.h"

#include "json/json.h"

namespace orrery::cli {
namespace {

constexpr size_t kBlockBytes = 1 << 20;

bool IsSpace(int c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

}  // namespace

ItemReader::ItemReader(std::FILE* in, std::string file, bool validate, bool array)
    : in_(in), file_(std::move(file)), validate_(validate), array_(array) {}

ItemReader::~ItemReader() { std::fclose(in_); }

Result<std::unique_ptr<ItemReader>> ItemReader::Open(const std::string& file, bool validate) {
  std::FILE* in = std::fopen(file.c_str(), "rb");
  if (in == nullptr) return Status::BadRequest("cannot read " + file);
  std::unique_ptr<ItemReader> reader(new ItemReader(in, file, validate, false));
  // A file whose first non-blank byte is '[' is one JSON array; anything else, lines.
  if (reader->Get() != EOF) {
    std::string& block = reader->buffer_;
    const size_t first = block.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && block[first] == '[') {
      reader->array_ = true;
      reader->at_ = first + 1;
    } else {
      reader->at_ = 0;
    }
  }
  return reader;
}

int ItemReader::Get() {
  if (at_ == buffer_.size()) {
    buffer_.resize(kBlockBytes);
    buffer_.resize(std::fread(buffer_.data(), 1, kBlockBytes, in_));
    at_ = 0;
    if (buffer_.empty()) return EOF;
  }
  return static_cast<unsigned char>(buffer_[at_++]);
}

int ItemReader::PeekNonSpace() {
  for (;;) {
    const int c = Get();
    if (c == EOF) return EOF;
    if (!IsSpace(c)) {
      --at_;  // Get() just read it from the buffer
      return c;
    }
  }
}

Status ItemReader::Check(const std::string& item, const std::string& where) const {
  if (!validate_) return Status::Ok();
  if (!json::Parse(item).ok()) return Status::BadRequest(file_ + " " + where + " is not JSON");
  return Status::Ok();
}

Result<std::optional<std::string>> ItemReader::Next() {
  return array_ ? NextElement() : NextLine();
}

Result<std::optional<std::string>> ItemReader::NextLine() {
  for (;;) {
    std::string row;
    if (Get() == EOF) return std::optional<std::string>();
    --at_;
    // The line a block at a time: up to its '\n', or the block's end and on.
    for (;;) {
      const size_t end = buffer_.find('\n', at_);
      if (end != std::string::npos) {
        row.append(buffer_, at_, end - at_);
        at_ = end + 1;
        break;
      }
      row.append(buffer_, at_, std::string::npos);
      at_ = buffer_.size();
      if (Get() == EOF) break;
      --at_;
    }
    ++line_;
    while (!row.empty() && (row.back() == '\r' || row.back() == ' ')) row.pop_back();
    if (row.empty()) continue;
    ORRERY_RETURN_IF_ERROR(Check(row, "line " + std::to_string(line_)));
    return std::optional<std::string>(std::move(row));
  }
}

// One element of the array: its text runs to the ',' or ']' outside any string or
// nested value; it is parsed on its own (when validating), never the whole array.
Result<std::optional<std::string>> ItemReader::NextElement() {
  if (array_done_) return std::optional<std::string>();
  const std::string where = "array element " + std::to_string(element_ + 1);
  const int first = PeekNonSpace();
  if (first == ']' && element_ == 0) {
    Get();
    array_done_ = true;
    return std::optional<std::string>();
  }
  std::string item;
  std::string open;  // the brackets open around this point, innermost last
  bool in_string = false;
  bool escaped = false;
  for (;;) {
    const int c = Get();
    if (c == EOF) return Status::BadRequest(file_ + " ends inside the JSON array (" + where + ")");
    if (in_string) {
      item += static_cast<char>(c);
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (open.empty() && (c == ',' || c == ']')) {
      if (c == ']') array_done_ = true;
      break;
    }
    if (c == '"') in_string = true;
    if (c == '{' || c == '[') open += static_cast<char>(c);
    if (c == '}' || c == ']') {
      // A bracket that closes what is not open: the element is malformed here.
      if (open.empty() || open.back() != (c == '}' ? '{' : '[')) {
        return Status::BadRequest(file_ + " " + where + " is not JSON");
      }
      open.pop_back();
    }
    item += static_cast<char>(c);
  }
  while (!item.empty() && IsSpace(static_cast<unsigned char>(item.back()))) item.pop_back();
  const size_t start = item.find_first_not_of(" \t\r\n");
  item.erase(0, start == std::string::npos ? item.size() : start);
  ++element_;
  if (item.empty()) return Status::BadRequest(file_ + " " + where + " is empty");
  ORRERY_RETURN_IF_ERROR(Check(item, where));
  return std::optional<std::string>(std::move(item));
}

}  // namespace orrery::cli
