// Throughput enforcement per physical partition (throughput/partition_budget.h).

#include "engine/container.h"

namespace orrery::engine {
namespace {

// The service's words (ru-model.md b.5); nothing was changed.
constexpr const char* kRequestRateTooLarge =
    "Request rate is large. More Request Units may be needed, so no changes were made. Please "
    "retry this request later.";

}  // namespace

Status Container::AdmitRequest(const partition::PartitionKeyValue& key) const {
  if (write_state_->budgets.empty()) return Status::Ok();
  Result<std::string> epk = EpkOf(key);
  if (!epk.ok()) return Status::Ok();  // the operation itself reports the bad key
  auto it = write_state_->budgets.find(settings_.partitions.Owner(*epk).number);
  if (it == write_state_->budgets.end()) return Status::Ok();
  if (std::optional<int64_t> wait = it->second->Admit(std::chrono::steady_clock::now())) {
    return Status::TooManyRequests(kRequestRateTooLarge, *wait);
  }
  return Status::Ok();
}

void Container::SetEnforcedThroughput(int64_t ru_per_second) const {
  const double share = static_cast<double>(ru_per_second) /
                       static_cast<double>(settings_.partitions.partitions().size());
  for (auto& [number, budget] : write_state_->budgets) {
    budget->SetRate(share, std::chrono::steady_clock::now());
  }
}

void Container::ChargeRequest(const partition::PartitionKeyValue& key, double request_units) const {
  if (write_state_->budgets.empty()) return;
  Result<std::string> epk = EpkOf(key);
  if (!epk.ok()) return;
  auto it = write_state_->budgets.find(settings_.partitions.Owner(*epk).number);
  if (it != write_state_->budgets.end()) {
    it->second->Charge(request_units, std::chrono::steady_clock::now());
  }
}

}  // namespace orrery::engine
