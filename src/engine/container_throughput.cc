// Throughput per physical partition (throughput/throughput_ledger.h).

#include "engine/container.h"
#include "index/index_key.h"
#include "storage/keys.h"

namespace orrery::engine {
namespace {

// The service's words (ru-model.md b.5); nothing was changed.
constexpr const char* kRequestRateTooLarge =
    "Request rate is large. More Request Units may be needed, so no changes were made. Please "
    "retry this request later.";

Status Throttled(std::optional<throughput::ThroughputLedger::Throttle> throttle) {
  if (!throttle) return Status::Ok();
  return Status::TooManyRequests(kRequestRateTooLarge, throttle->wait_ms, throttle->substatus);
}

std::vector<uint32_t> NumbersOf(const std::vector<const PhysicalPartition*>& partitions) {
  std::vector<uint32_t> out;
  out.reserve(partitions.size());
  for (const PhysicalPartition* p : partitions) out.push_back(p->number);
  return out;
}

}  // namespace

std::vector<uint32_t> Container::PartitionNumbers() const {
  std::vector<uint32_t> out;
  for (const PhysicalPartition& p : settings_.partitions.partitions()) out.push_back(p.number);
  return out;
}

uint64_t Container::ApproximateStoredBytes() const {
  return store_.ApproximateBytes(storage::keys::ItemsFrom(settings_.number, ""),
                                 storage::keys::ItemsEnd(settings_.number)) +
         store_.ApproximateBytes(index::ContainerBegin(settings_.number),
                                 index::ContainerEnd(settings_.number));
}

Status Container::AdmitRequest(const partition::PartitionKeyValue& key,
                               const throughput::RequestClass& request) const {
  if (!write_state_->throughput.enforced()) return Status::Ok();
  Result<std::string> epk = EpkOf(key);
  if (!epk.ok()) return Status::Ok();  // the operation itself reports the bad key
  return Throttled(write_state_->throughput.Admit(settings_.partitions.Owner(*epk).number,
                                                  std::chrono::steady_clock::now(), request));
}

void Container::ChargeRequest(const partition::PartitionKeyValue& key, double request_units,
                              const throughput::RequestClass& request) const {
  uint32_t partition = 0;
  const auto& partitions = settings_.partitions.partitions();
  if (partitions.size() == 1 && partition::IsFullKey(settings_.partition_key, key)) {
    // One physical partition owns every key: no need to hash this one again (the
    // operation already did) to find it.
    partition = partitions.front().number;
  } else {
    Result<std::string> epk = EpkOf(key);
    if (!epk.ok()) return;
    partition = settings_.partitions.Owner(*epk).number;
  }
  write_state_->throughput.Charge(partition, request_units, std::chrono::steady_clock::now(),
                                  request);
}

Status Container::AdmitScope(const ReadScope& scope,
                             const throughput::RequestClass& request) const {
  if (!write_state_->throughput.enforced()) return Status::Ok();
  return Throttled(write_state_->throughput.AdmitAll(NumbersOf(PartitionsIn(scope)),
                                                     std::chrono::steady_clock::now(), request));
}

void Container::ChargeScope(const ReadScope& scope, double request_units,
                            const throughput::RequestClass& request) const {
  write_state_->throughput.ChargeAll(NumbersOf(PartitionsIn(scope)), request_units,
                                     std::chrono::steady_clock::now(), request);
}

}  // namespace orrery::engine
