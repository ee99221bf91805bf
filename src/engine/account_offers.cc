// Offers: the throughput of containers and databases as the offers resources the SDKs
// read and replace (container.readOffer(), offer.replace(); wire-protocol.md §13).
// They are derived from the catalog, not stored: an offer's id names its resource.

#include <algorithm>
#include <cmath>
#include <mutex>

#include "engine/account.h"
#include "engine/etag.h"
#include "json/json.h"
#include "storage/keys.h"

namespace orrery::engine {
namespace {

constexpr const char* kOfferNotFound =
    "Resource Not Found. Learn more: https://aka.ms/cosmosdb-tsg-not-found";

// Lowercase, as the SDK signs offer links lowercased.
std::string ContainerOfferId(uint32_t number) { return "c" + std::to_string(number); }
std::string DatabaseOfferId(uint32_t number) { return "d" + std::to_string(number); }

json::Value OfferJson(const std::string& id, const json::Value& resource,
                      std::optional<int64_t> manual, std::optional<int64_t> autoscale_max) {
  using json::Value;
  Value content = Value::MakeObject();
  if (autoscale_max) {
    // Autoscale reports the throughput it scales from: 10% of the maximum.
    content.Set("offerThroughput", Value::Int(*autoscale_max / 10));
    content.Set(
        "offerAutopilotSettings",
        *json::Parse(R"({"maxThroughput":)" + std::to_string(*autoscale_max) +
                     R"(,"autoUpgradePolicy":{"throughputPolicy":{"incrementPercent":0}}})"));
  } else {
    content.Set("offerThroughput", Value::Int(manual.value_or(0)));
  }
  content.Set("offerIsRUPerMinuteThroughputEnabled", Value::Bool(false));
  const Value* ts = resource.Find("_ts");
  return Value::MakeObject({
      {"resource", *resource.Find("_self")},
      {"offerType", Value::String("Invalid")},
      {"offerResourceId", *resource.Find("_rid")},
      {"offerVersion", Value::String("V2")},
      {"content", std::move(content)},
      {"id", Value::String(id)},
      {"_rid", Value::String(id)},
      {"_self", Value::String("offers/" + id + "/")},
      {"_etag", Value::String("\"" + id + "-" + std::to_string(manual.value_or(0)) + "-" +
                              std::to_string(autoscale_max.value_or(0)) + "\"")},
      {"_ts", ts ? *ts : Value::Int(0)},
  });
}

}  // namespace

std::vector<json::Value> Account::ListOffers() const {
  std::shared_lock lock(mutex_);
  std::vector<json::Value> out;
  for (const auto& [id, db] : databases_) {
    if (db.shared_throughput.manual || db.shared_throughput.autoscale_max) {
      out.push_back(OfferJson(DatabaseOfferId(db.number), db.resource, db.shared_throughput.manual,
                              db.shared_throughput.autoscale_max));
    }
  }
  for (const auto& [key, container] : containers_) {
    const ContainerSettings& s = container->settings();
    if (s.manual_ru_per_second || s.autoscale_max_ru_per_second) {
      out.push_back(OfferJson(ContainerOfferId(s.number), s.resource, s.manual_ru_per_second,
                              s.autoscale_max_ru_per_second));
    }
  }
  return out;
}

int64_t MinimumThroughput(bool autoscale, int64_t highest, uint64_t stored_bytes) {
  // ru-model.md b.3. Manual: max(400, 1 RU/s per GB stored, 1/100 of the highest ever
  // set), in steps of 100. Autoscale maximum: max(1,000, 10 per GB, 1/10 of the highest
  // maximum ever set), in steps of 1,000.
  constexpr double kGb = 1024.0 * 1024.0 * 1024.0;
  const auto gb = static_cast<int64_t>(std::ceil(static_cast<double>(stored_bytes) / kGb));
  const int64_t step = autoscale ? 1000 : 100;
  const int64_t fraction = autoscale ? 10 : 100;
  const int64_t minimum =
      std::max({autoscale ? int64_t{1000} : int64_t{400}, gb * (autoscale ? 10 : 1),
                (highest + fraction - 1) / fraction});
  return (minimum + step - 1) / step * step;
}

uint64_t Account::SharedBytes(std::string_view database_id) const {
  uint64_t bytes = 0;
  for (const auto& [key, container] : containers_) {
    const ContainerSettings& s = container->settings();
    if (key.first == database_id && !s.manual_ru_per_second && !s.autoscale_max_ru_per_second) {
      bytes += container->ApproximateStoredBytes();
    }
  }
  return bytes;
}

// Finds the one resource the id names rather than building every offer.
Result<OfferResult> Account::ReadOffer(std::string_view id) const {
  std::shared_lock lock(mutex_);
  for (const auto& [db_id, db] : databases_) {
    const ThroughputRequest& shared = db.shared_throughput;
    if (DatabaseOfferId(db.number) != id || (!shared.manual && !shared.autoscale_max)) continue;
    OfferResult result{
        OfferJson(DatabaseOfferId(db.number), db.resource, shared.manual, shared.autoscale_max)};
    result.replace_pending = db.pending_ru_per_second > 0;
    result.min_throughput = MinimumThroughput(shared.autoscale_max.has_value(),
                                              db.highest_ru_per_second, SharedBytes(db_id));
    return result;
  }
  for (const auto& [key, container] : containers_) {
    const ContainerSettings& s = container->settings();
    if (ContainerOfferId(s.number) != id ||
        (!s.manual_ru_per_second && !s.autoscale_max_ru_per_second)) {
      continue;
    }
    OfferResult result{OfferJson(ContainerOfferId(s.number), s.resource, s.manual_ru_per_second,
                                 s.autoscale_max_ru_per_second)};
    result.replace_pending = s.pending_ru_per_second > 0;
    result.min_throughput =
        MinimumThroughput(s.autoscale_max_ru_per_second.has_value(), s.highest_ru_per_second,
                          container->ApproximateStoredBytes());
    return result;
  }
  return Status::NotFound(kOfferNotFound);
}

namespace {

Result<ThroughputRequest> RequestedThroughput(const json::Value& body) {
  const json::Value* content = body.is_object() ? body.Find("content") : nullptr;
  if (content == nullptr || !content->is_object()) {
    return Status::BadRequest("An offer replace needs the offer with its content.");
  }
  ThroughputRequest requested;
  if (const json::Value* autopilot = content->Find("offerAutopilotSettings");
      autopilot && autopilot->is_object()) {
    const json::Value* max = autopilot->Find("maxThroughput");
    if (max == nullptr || !max->is_integer()) {
      return Status::BadRequest("offerAutopilotSettings needs an integer maxThroughput.");
    }
    requested.autoscale_max = max->as_int();
  } else {
    const json::Value* manual = content->Find("offerThroughput");
    if (manual == nullptr || !manual->is_integer()) {
      return Status::BadRequest("The offer content needs an integer offerThroughput.");
    }
    requested.manual = manual->as_int();
  }
  ORRERY_RETURN_IF_ERROR(ValidateThroughput(requested));
  return requested;
}

// The checks every replace makes against the current throughput.
Status CheckReplace(const ThroughputRequest& requested, bool current_is_manual, int64_t pending,
                    int64_t minimum) {
  if (requested.manual.has_value() != current_is_manual) {
    return Status::BadRequest(
        "An offer replace cannot switch between manual and autoscale throughput; migrate "
        "the offer instead.");
  }
  const int64_t asked = requested.manual ? *requested.manual : *requested.autoscale_max;
  if (asked < minimum) {
    return Status::BadRequest(
        "The throughput " + std::to_string(asked) + " RU/s is below this resource's minimum of " +
        std::to_string(minimum) +
        " RU/s, which depends on its stored data and on the highest throughput it ever had.");
  }
  if (pending > 0) {
    return Status::Locked(
        "The throughput of this resource is being scaled up to " + std::to_string(pending) +
        " RU/s, which needs more physical partitions; another scale operation cannot be "
        "performed until it completes.");
  }
  return Status::Ok();
}

int64_t MaxOf(const ThroughputRequest& t) { return t.manual ? *t.manual : *t.autoscale_max; }

}  // namespace

Result<OfferResult> Account::ReplaceOffer(std::string_view id, const json::Value& body) {
  ORRERY_ASSIGN_OR_RETURN(ThroughputRequest requested, RequestedThroughput(body));
  const int64_t requested_max = MaxOf(requested);

  // account.h: the catalog lock keeps the maps as they are; mutex_ is taken shared to
  // prepare and exclusively to publish, never across the synced write.
  const std::lock_guard writer(catalog_write_mutex_);
  std::shared_lock lock(mutex_);
  for (auto& [db_id, db] : databases_) {
    if (DatabaseOfferId(db.number) != id) continue;
    ORRERY_RETURN_IF_ERROR(CheckReplace(
        requested, db.shared_throughput.manual.has_value(), db.pending_ru_per_second,
        MinimumThroughput(!requested.manual, db.highest_ru_per_second, SharedBytes(db_id))));
    DatabaseEntry updated = db;
    const int64_t servable =
        static_cast<int64_t>(db.shared_budgets.size()) * kMaxPartitionThroughput;
    const bool pending = requested_max > servable;
    if (pending) {
      updated.pending_ru_per_second = requested_max;
    } else {
      updated.shared_throughput = requested;
      updated.highest_ru_per_second = std::max(updated.highest_ru_per_second, requested_max);
    }
    storage::WriteBatch batch;
    batch.Put(storage::keys::Database(db_id), json::Write(DatabaseRecord(updated)));
    lock.unlock();
    ORRERY_RETURN_IF_ERROR(WriteCatalog(batch));
    {
      std::unique_lock publish(mutex_);
      db = std::move(updated);
    }
    if (!pending) {
      const double share = static_cast<double>(requested_max) / db.shared_budgets.size();
      for (auto& budget : db.shared_budgets) {
        budget->SetRate(share, std::chrono::steady_clock::now());
      }
    }
    return OfferResult{
        OfferJson(std::string(id), db.resource, db.shared_throughput.manual,
                  db.shared_throughput.autoscale_max),
        pending,
        MinimumThroughput(!requested.manual, db.highest_ru_per_second, SharedBytes(db_id))};
  }
  for (auto& [key, container] : containers_) {
    ContainerSettings settings = container->settings();
    if (ContainerOfferId(settings.number) != id) continue;
    if (!settings.manual_ru_per_second && !settings.autoscale_max_ru_per_second) break;
    ORRERY_RETURN_IF_ERROR(CheckReplace(
        requested, settings.manual_ru_per_second.has_value(), settings.pending_ru_per_second,
        MinimumThroughput(!requested.manual, settings.highest_ru_per_second,
                          container->ApproximateStoredBytes())));
    const int64_t servable =
        static_cast<int64_t>(settings.partitions.partitions().size()) * kMaxPartitionThroughput;
    const bool pending = requested_max > servable;
    if (pending) {
      // Splits (not yet in Orrery) would add the partitions and then apply it.
      settings.pending_ru_per_second = requested_max;
    } else {
      settings.manual_ru_per_second = requested.manual;
      settings.autoscale_max_ru_per_second = requested.autoscale_max;
      settings.highest_ru_per_second = std::max(settings.highest_ru_per_second, requested_max);
    }
    storage::WriteBatch batch;
    batch.Put(storage::keys::Container(settings.database_id, settings.id),
              json::Write(ContainerRecord(settings)));
    lock.unlock();
    ORRERY_RETURN_IF_ERROR(WriteCatalog(batch));
    ORRERY_ASSIGN_OR_RETURN(std::shared_ptr<Container> replaced,
                            OpenContainer(settings, container->write_state()));
    if (!pending) {
      replaced->throughput_ledger().SetRate(static_cast<double>(requested_max),
                                            std::chrono::steady_clock::now());
    }
    {
      std::unique_lock publish(mutex_);
      container = std::move(replaced);
    }
    return OfferResult{OfferJson(std::string(id), settings.resource, settings.manual_ru_per_second,
                                 settings.autoscale_max_ru_per_second),
                       pending,
                       MinimumThroughput(!requested.manual, settings.highest_ru_per_second,
                                         container->ApproximateStoredBytes())};
  }
  return Status::NotFound(kOfferNotFound);
}

}  // namespace orrery::engine

namespace orrery::engine {

Status Account::ApplyPendingThroughput(std::string_view database_id, std::string_view id) {
  const std::lock_guard writer(catalog_write_mutex_);  // account.h
  std::shared_lock lock(mutex_);
  auto it = containers_.find(ContainerKey{std::string(database_id), std::string(id)});
  if (it == containers_.end()) return Status::Ok();
  ContainerSettings settings = it->second->settings();
  const int64_t pending = settings.pending_ru_per_second;
  const int64_t servable =
      static_cast<int64_t>(settings.partitions.partitions().size()) * kMaxPartitionThroughput;
  if (pending == 0 || pending > servable) return Status::Ok();
  // The replace the splits waited for, of the kind the throughput already has.
  if (settings.manual_ru_per_second) {
    settings.manual_ru_per_second = pending;
  } else {
    settings.autoscale_max_ru_per_second = pending;
  }
  settings.highest_ru_per_second = std::max(settings.highest_ru_per_second, pending);
  settings.pending_ru_per_second = 0;
  storage::WriteBatch batch;
  batch.Put(storage::keys::Container(database_id, id), json::Write(ContainerRecord(settings)));
  lock.unlock();
  ORRERY_RETURN_IF_ERROR(WriteCatalog(batch));
  ORRERY_ASSIGN_OR_RETURN(std::shared_ptr<Container> replaced,
                          OpenContainer(std::move(settings), it->second->write_state()));
  replaced->throughput_ledger().SetRate(static_cast<double>(pending),
                                        std::chrono::steady_clock::now());
  std::unique_lock publish(mutex_);
  it->second = std::move(replaced);
  return Status::Ok();
}

}  // namespace orrery::engine
