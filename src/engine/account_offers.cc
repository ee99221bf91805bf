// Offers: the throughput of containers and databases as the offers resources the SDKs
// read and replace (container.readOffer(), offer.replace(); wire-protocol.md §13).
// They are derived from the catalog, not stored: an offer's id names its resource.

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

Result<json::Value> Account::ReadOffer(std::string_view id) const {
  for (json::Value& offer : ListOffers()) {
    if (offer.Find("id")->as_string() == id) return std::move(offer);
  }
  return Status::NotFound(kOfferNotFound);
}

Result<json::Value> Account::ReplaceOffer(std::string_view id, const json::Value& body) {
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

  std::unique_lock lock(mutex_);
  for (const auto& [db_id, db] : databases_) {
    if (DatabaseOfferId(db.number) == id) {
      return Status::BadRequest(
          "Replacing a database's shared throughput is not available in this version of Orrery.");
    }
  }
  for (auto& [key, container] : containers_) {
    ContainerSettings settings = container->settings();
    if (ContainerOfferId(settings.number) != id) continue;
    if (!settings.manual_ru_per_second && !settings.autoscale_max_ru_per_second) break;
    if (requested.manual.has_value() != settings.manual_ru_per_second.has_value()) {
      return Status::BadRequest(
          "An offer replace cannot switch between manual and autoscale throughput; migrate "
          "the offer instead.");
    }
    settings.manual_ru_per_second = requested.manual;
    settings.autoscale_max_ru_per_second = requested.autoscale_max;
    settings.enforced_ru_per_second = EnforcedThroughput(requested);
    storage::WriteBatch batch;
    batch.Put(storage::keys::Container(settings.database_id, settings.id),
              json::Write(ContainerRecord(settings)));
    ORRERY_RETURN_IF_ERROR(store_->WriteSynced(batch));
    ORRERY_ASSIGN_OR_RETURN(std::shared_ptr<Container> replaced,
                            OpenContainer(settings, container->write_state()));
    if (settings.enforced_ru_per_second > 0) {
      replaced->SetEnforcedThroughput(settings.enforced_ru_per_second);
    }
    container = std::move(replaced);
    return OfferJson(std::string(id), settings.resource, settings.manual_ru_per_second,
                     settings.autoscale_max_ru_per_second);
  }
  return Status::NotFound(kOfferNotFound);
}

}  // namespace orrery::engine
