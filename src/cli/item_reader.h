#pragma once

// The items of an import file, one at a time: JSON lines (one item per line, blank lines
// skipped) or one JSON array. The file is streamed in blocks, so an import holds the
// items it is sending, not the file.

#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "common/status.h"

namespace orrery::cli {

class ItemReader {
 public:
  // `validate`: parse each item, so that a malformed one is reported with where it is
  // (the line, or the array element).
  static Result<std::unique_ptr<ItemReader>> Open(const std::string& file, bool validate);
  ~ItemReader();
  ItemReader(const ItemReader&) = delete;
  ItemReader& operator=(const ItemReader&) = delete;

  // The next item's JSON text, or nullopt at the end of the file.
  Result<std::optional<std::string>> Next();

 private:
  ItemReader(std::FILE* in, std::string file, bool validate, bool array);
  // The next byte of the file, or EOF.
  int Get();
  int PeekNonSpace();
  Result<std::optional<std::string>> NextLine();
  Result<std::optional<std::string>> NextElement();
  Status Check(const std::string& item, const std::string& where) const;

  std::FILE* in_;
  std::string file_;
  bool validate_;
  bool array_;
  bool array_done_ = false;
  size_t line_ = 0;     // JSON lines: lines read
  size_t element_ = 0;  // JSON array: elements read
  std::string buffer_;  // a block of the file
  size_t at_ = 0;       // the next byte of buffer_
};

}  // namespace orrery::cli
