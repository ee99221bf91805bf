// RowBudget (query.h): the memory and the bindings one query page may take.

#include <algorithm>
#include <string>

#include "query/query.h"

namespace orrery::query {

bool RowBudget::ChargeRow(size_t bytes) {
  item_bytes_ += bytes;
  page_bytes_ += bytes;
  if (exceeded_ == Exceeded::kNone && item_bytes_ > kMaxItemRowBytes) {
    exceeded_ = Exceeded::kItemRows;
  }
  if (exceeded_ == Exceeded::kNone && page_bytes_ > kMaxPageRowBytes) {
    exceeded_ = Exceeded::kPageRows;
  }
  return !exceeded();
}

bool RowBudget::ChargeBinding() {
  if (exceeded_ == Exceeded::kNone && ++item_bindings_ > kMaxItemBindings) {
    exceeded_ = Exceeded::kItemBindings;
  }
  return !exceeded();
}

void RowBudget::Refund(size_t bytes) {
  item_bytes_ -= std::min(bytes, item_bytes_);
  page_bytes_ -= std::min(bytes, page_bytes_);
}

Status RowBudget::Error() const {
  constexpr size_t kMB = size_t{1} << 20;
  switch (exceeded_) {
    case Exceeded::kItemRows:
      return Status::BadRequest(
          "The query yields more than " + std::to_string(kMaxItemRowBytes / kMB) +
          " MB of rows from one item: its JOINs or subqueries multiply the item's arrays. "
          "Filter the joined arrays, or select less of each row.");
    case Exceeded::kPageRows:
      return Status::BadRequest(
          "The query holds more than " + std::to_string(kMaxPageRowBytes / kMB) +
          " MB of rows for one page (to sort, group, de-duplicate or skip them). Narrow it "
          "with a filter or a partition key, or let a range index serve its ORDER BY.");
    case Exceeded::kItemBindings:
      return Status::BadRequest(
          "The query enumerates more than " + std::to_string(kMaxItemBindings) +
          " combinations of JOINs for one item. Filter the joined arrays in subqueries, or "
          "join fewer of them.");
    case Exceeded::kNone:
      break;
  }
  return Status::Ok();
}

}  // namespace orrery::query
