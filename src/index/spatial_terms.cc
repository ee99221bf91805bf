#include "index/spatial_terms.h"

#include <algorithm>
#include <optional>

#include "index/index_key.h"
#include "spatial/geojson.h"
#include "spatial/planar_cells.h"
#include "spatial/spatial_cells.h"

namespace orrery::index {
namespace {

class SpatialTermCollector {
 public:
  SpatialTermCollector(const IndexingPolicy& policy, const ItemLocation& where,
                       std::vector<std::string>& keys)
      : policy_(policy), where_(where), keys_(keys) {}

  // Geometry indexes measure in the plane: their shapes follow the plane's validity
  // rules, and their cells the grid of the index that covers the path first.
  void set_geometry(bool geometry) { geometry_ = geometry; }

  // The geometry at `path` (value `value`); below it too when `walk`, down to the depth
  // SpatialIndex::Covers promises, and inside GeoJSON objects as well: the planner trusts
  // every covered path to be indexed.
  void Visit(std::vector<std::string>& path, const json::Value& value, bool walk) {
    if (!value.is_object()) return;
    const spatial::CoordinateSystem system =
        geometry_ ? spatial::CoordinateSystem::kGeometry : spatial::CoordinateSystem::kGeography;
    if (std::optional<spatial::Shape> shape = spatial::ParseValidShape(value, system)) {
      Add(path, *shape);
    }
    if (!walk || path.size() >= kMaxSpatialPathDepth) return;
    for (const auto& [name, member] : value.as_object()) {
      path.push_back(name);
      Visit(path, member, walk);
      path.pop_back();
    }
  }

 private:
  void Add(std::vector<std::string>& path, const spatial::Shape& shape) {
    int64_t cell = spatial::IndexCellOf(shape);
    if (geometry_) {
      const SpatialIndex* index = policy_.GeometryIndexFor(path);
      if (index == nullptr) return;  // deeper than a `/*` index reaches
      cell = spatial::PlanarIndexCellOf(shape, *index->box);
    }
    path.emplace_back(spatial::kCellPathSegment);
    std::string key = EntryKey(PathPrefix(where_.container, where_.partition, path),
                               json::Value::Int(cell), where_.epk, where_.id);
    path.pop_back();
    keys_.push_back(std::move(key));
  }

  const IndexingPolicy& policy_;
  const ItemLocation& where_;
  std::vector<std::string>& keys_;
  bool geometry_ = false;
};

const json::Value* Descend(const json::Value& document, const std::vector<std::string>& path) {
  const json::Value* value = &document;
  for (const std::string& segment : path) {
    value = value->Find(segment);
    if (value == nullptr) return nullptr;
  }
  return value;
}

}  // namespace

std::vector<std::string> SpatialEntryKeys(const IndexingPolicy& policy, const json::Value& document,
                                          const ItemLocation& where) {
  std::vector<std::string> keys;
  if (!policy.enabled()) return keys;
  SpatialTermCollector collector(policy, where, keys);
  for (const SpatialIndex& index : policy.spatial_indexes()) {
    collector.set_geometry(index.box.has_value());
    const json::Value* value = Descend(document, index.prefix);
    if (value == nullptr) continue;
    std::vector<std::string> path = index.prefix;
    collector.Visit(path, *value, index.wildcard);
  }
  // Overlapping spatial paths (`/*` and `/location/?`) find the same geometry twice.
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

}  // namespace orrery::index
