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
  ledger.SetBuckets(s.throughput_buckets, std::chrono::steady_clock::now());
  ledger.SetEnforced(s.enforce_throughput.value_or(options_.enforce_throughput));
}

Status Account::SetThroughputEnforcement(std::string_view database_id, std::string_view id,
                                         bool enforced) {
  return ChangeThroughputSettings(database_id, id, [&](ContainerSettings& settings) {
    settings.enforce_throughput = enforced;
    return Status::Ok();
  });
}

Status Account::SetThroughputBuckets(std::string_view database_id, std::string_view id,
                                     std::vector<throughput::ThroughputBucket> buckets) {
  if (buckets.size() > throughput::kMaxThroughputBuckets) {
    return Status::BadRequest("A container can have at most 5 throughput buckets.");
  }
  for (size_t i = 0; i < buckets.size(); ++i) {
    const throughput::ThroughputBucket& b = buckets[i];
    if (b.id < 1 || b.id > throughput::kMaxThroughputBuckets) {
      return Status::BadRequest("Throughput bucket ids are 1 to 5; " + std::to_string(b.id) +
                                " is not one.");
    }
    if (!(b.max_percentage > 0 && b.max_percentage <= 100)) {
      return Status::BadRequest("The maxThroughputPercentage of throughput bucket " +
                                std::to_string(b.id) + " must be above 0 and at most 100.");
    }
    for (size_t j = 0; j < i; ++j) {
      if (buckets[j].id == b.id) {
        return Status::BadRequest("Throughput bucket " + std::to_string(b.id) +
                                  " is given more than once.");
      }
    }
  }
  return ChangeThroughputSettings(database_id, id, [&](ContainerSettings& settings) {
    if (!buckets.empty() && !settings.manual_ru_per_second &&
        !settings.autoscale_max_ru_per_second) {
      return Status::BadRequest(
          "Throughput buckets are not supported for a container that shares its database's "
          "throughput: provision throughput on the container.");
    }
    settings.throughput_buckets = buckets;
    return Status::Ok();
  });
}

Status Account::ChangeThroughputSettings(std::string_view database_id, std::string_view id,
                                         const std::function<Status(ContainerSettings&)>& change) {
  const std::lock_guard writer(catalog_write_mutex_);  // account.h
  std::shared_lock lock(mutex_);
  auto it = containers_.find(ContainerKey{std::string(database_id), std::string(id)});
  if (it == containers_.end()) {
    return Status::NotFound(
        "Resource Not Found. Learn more: https://aka.ms/cosmosdb-tsg-not-found");
  }
  ContainerSettings settings = it->second->settings();
  ORRERY_RETURN_IF_ERROR(change(settings));
  storage::WriteBatch batch;
  batch.Put(storage::keys::Container(database_id, id), json::Write(ContainerRecord(settings)));
  lock.unlock();
  ORRERY_RETURN_IF_ERROR(WriteCatalog(batch));
  const std::optional<bool> enforced = settings.enforce_throughput;
  const std::vector<throughput::ThroughputBucket> buckets = settings.throughput_buckets;
  ORRERY_ASSIGN_OR_RETURN(std::shared_ptr<Container> replaced,
                          OpenContainer(std::move(settings), it->second->write_state()));
  replaced->throughput_ledger().SetBuckets(buckets, std::chrono::steady_clock::now());
  replaced->throughput_ledger().SetEnforced(enforced.value_or(options_.enforce_throughput));
  std::unique_lock publish(mutex_);
  it->second = std::move(replaced);
  return Status::Ok();
}

}  // namespace orrery::engine
