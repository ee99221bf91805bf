// Provisioning containers' throughput budgets: a container's own RU/s divided among
// its physical partitions, or its database's shared RU/s, whose budgets the partitions
// of all the database's containers draw from (as the service co-locates them on the
// database's partitions); and the per-container enforcement switch.

#include <cmath>
#include <mutex>

#include "engine/account.h"
#include "json/json.h"
#include "storage/keys.h"

namespace orrery::engine {
namespace {

std::optional<int64_t> MaxOf(const ThroughputRequest& t) {
  if (t.manual) return t.manual;
  return t.autoscale_max;
}

}  // namespace

std::vector<std::shared_ptr<throughput::PartitionBudget>> Account::SharedBudgets(
    const ThroughputRequest& throughput) const {
  std::vector<std::shared_ptr<throughput::PartitionBudget>> out;
  const std::optional<int64_t> ru = MaxOf(throughput);
  if (!ru) return out;
  // A shared database starts with ceil(RU/s / 10,000) partitions (ru-model.md b.4).
  const int count = PartitionCountFor(ThroughputRequest{}, throughput);
  for (int i = 0; i < count; ++i) {
    out.push_back(std::make_shared<throughput::PartitionBudget>(static_cast<double>(*ru) / count,
                                                                std::chrono::steady_clock::now()));
  }
  return out;
}

size_t Account::SharingContainers(std::string_view database_id) const {
  size_t count = 0;
  for (const auto& [key, container] : containers_) {
    const ContainerSettings& s = container->settings();
    if (key.first == database_id && !s.manual_ru_per_second && !s.autoscale_max_ru_per_second) {
      ++count;
    }
  }
  return count;
}

void Account::ProvisionThroughput(Container& container, const DatabaseEntry& database) const {
  const ContainerSettings& s = container.settings();
  throughput::ThroughputLedger& ledger = container.throughput_ledger();
  const ThroughputRequest own{s.manual_ru_per_second, s.autoscale_max_ru_per_second};
  if (std::optional<int64_t> ru = MaxOf(own)) {
    ledger.Provision(container.PartitionNumbers(), static_cast<double>(*ru),
                     std::chrono::steady_clock::now());
  } else {
    ledger.ProvisionShared(container.PartitionNumbers(), database.shared_budgets);
  }
  ledger.SetEnforced(s.enforce_throughput.value_or(options_.enforce_throughput));
}

Status Account::SetThroughputEnforcement(std::string_view database_id, std::string_view id,
                                         bool enforced) {
  const std::lock_guard writer(catalog_write_mutex_);  // account.h
  std::shared_lock lock(mutex_);
  auto it = containers_.find(ContainerKey{std::string(database_id), std::string(id)});
  if (it == containers_.end()) {
    return Status::NotFound(
        "Resource Not Found. Learn more: https://aka.ms/cosmosdb-tsg-not-found");
  }
  ContainerSettings settings = it->second->settings();
  settings.enforce_throughput = enforced;
  storage::WriteBatch batch;
  batch.Put(storage::keys::Container(database_id, id), json::Write(ContainerRecord(settings)));
  lock.unlock();
  ORRERY_RETURN_IF_ERROR(WriteCatalog(batch));
  ORRERY_ASSIGN_OR_RETURN(std::shared_ptr<Container> replaced,
                          OpenContainer(std::move(settings), it->second->write_state()));
  replaced->throughput_ledger().SetEnforced(enforced);
  std::unique_lock publish(mutex_);
  it->second = std::move(replaced);
  return Status::Ok();
}

}  // namespace orrery::engine
