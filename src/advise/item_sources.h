#pragma once

// Where a study's items come from: a generator spec (generator.h) or the lines of a
// JSON-lines file, held in memory and parsed when an item is asked for.

#include <string>
#include <vector>

#include "advise/generator.h"
#include "advise/study.h"

namespace orrery::advise {

class GeneratedItems : public ItemSource {
 public:
  explicit GeneratedItems(Generator generator) : generator_(std::move(generator)) {}
  uint64_t count() const override { return generator_.count(); }
  Result<json::Value> Item(uint64_t number) const override { return generator_.Item(number); }

 private:
  Generator generator_;
};

class LineItems : public ItemSource {
 public:
  // Blank lines are skipped. Errors: BadRequest when there is no item.
  static Result<LineItems> FromText(const std::string& text, std::string name);
  uint64_t count() const override { return lines_.size(); }
  // Errors: BadRequest naming the file and line when it is not an object with a string id.
  Result<json::Value> Item(uint64_t number) const override;

 private:
  std::string name_;
  std::vector<std::string> lines_;
  std::vector<uint64_t> line_numbers_;
};

}  // namespace orrery::advise
