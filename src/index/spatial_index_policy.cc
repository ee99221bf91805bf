#include "index/spatial_index_policy.h"

#include <algorithm>
#include <array>

#include "index/indexing_policy.h"

namespace orrery::index {
namespace {

constexpr std::array<std::string_view, 4> kSpatialTypes = {"Point", "LineString", "Polygon",
                                                           "MultiPolygon"};

Status ParseTypes(const json::Value* types, const std::string& path) {
  if (types == nullptr || !types->is_array() || types->as_array().empty()) {
    return Status::BadRequest("The spatial index for path '" + path +
                              "' must list its spatial types, one or more of 'Point', "
                              "'LineString', 'Polygon' and 'MultiPolygon'.");
  }
  for (const json::Value& type : types->as_array()) {
    if (!type.is_string() || std::find(kSpatialTypes.begin(), kSpatialTypes.end(),
                                       type.as_string()) == kSpatialTypes.end()) {
      return Status::BadRequest(
          "The spatial type " +
          (type.is_string() ? "'" + type.as_string() + "'" : std::string("given")) +
          " of the spatial index for path '" + path +
          "' is invalid: expected 'Point', 'LineString', 'Polygon' or "
          "'MultiPolygon'.");
    }
  }
  return Status::Ok();
}

Status CheckBoundingBox(const json::Value& box, const std::string& path) {
  const auto number = [&](const char* name) -> const json::Value* {
    const json::Value* v = box.is_object() ? box.Find(name) : nullptr;
    return v != nullptr && v->is_number() ? v : nullptr;
  };
  const json::Value* xmin = number("xmin");
  const json::Value* ymin = number("ymin");
  const json::Value* xmax = number("xmax");
  const json::Value* ymax = number("ymax");
  if (!xmin || !ymin || !xmax || !ymax) {
    return Status::BadRequest("The boundingBox of the spatial index for path '" + path +
                              "' must have the numbers xmin, ymin, xmax and ymax.");
  }
  if (!(xmin->as_double() < xmax->as_double()) || !(ymin->as_double() < ymax->as_double())) {
    return Status::BadRequest("The boundingBox of the spatial index for path '" + path +
                              "' is invalid: xmin must be less than xmax and ymin less than "
                              "ymax.");
  }
  return Status::Ok();
}

}  // namespace

bool SpatialIndex::Covers(std::span<const std::string> path) const {
  if (wildcard ? path.size() < prefix.size() || path.size() > kMaxSpatialPathDepth
               : path.size() != prefix.size()) {
    return false;
  }
  return std::equal(prefix.begin(), prefix.end(), path.begin());
}

Result<std::vector<SpatialIndex>> ParseSpatialIndexes(const json::Value* list) {
  std::vector<SpatialIndex> out;
  if (list == nullptr || list->is_null()) return out;
  if (!list->is_array()) {
    return Status::BadRequest("The indexing policy's spatialIndexes must be an array.");
  }
  for (const json::Value& entry : list->as_array()) {
    const json::Value* path = entry.is_object() ? entry.Find("path") : nullptr;
    if (path == nullptr || !path->is_string()) {
      return Status::BadRequest(
          "Each spatial index must be an object with a string \"path\", such as "
          "{\"path\": \"/location/*\", \"types\": [\"Point\"]}.");
    }
    const std::string& text = path->as_string();
    SpatialIndex index;
    if (!SplitPath(text, index.prefix) || index.prefix.empty() ||
        (index.prefix.back() != "?" && index.prefix.back() != "*")) {
      return Status::BadRequest("The spatial index path '" + text +
                                "' is invalid: a path starts with '/' and ends with '/?' or "
                                "'/*'.");
    }
    index.wildcard = index.prefix.back() == "*";
    index.prefix.pop_back();
    for (const std::string& segment : index.prefix) {
      if (segment == "*" || segment == "?" || segment == "[]") {
        return Status::BadRequest("The spatial index path '" + text +
                                  "' may use '*' or '?' only as its last segment, and no "
                                  "'[]'.");
      }
    }
    ORRERY_RETURN_IF_ERROR(ParseTypes(entry.Find("types"), text));
    if (const json::Value* box = entry.Find("boundingBox"); box && !box->is_null()) {
      ORRERY_RETURN_IF_ERROR(CheckBoundingBox(*box, text));
      index.box =
          spatial::PlanarBox{box->Find("xmin")->as_double(), box->Find("ymin")->as_double(),
                             box->Find("xmax")->as_double(), box->Find("ymax")->as_double()};
    }
    out.push_back(std::move(index));
  }
  return out;
}

Status ValidateGeospatialConfig(const json::Value* config, const json::Value* indexing_policy) {
  bool geometry = false;
  if (config != nullptr && !config->is_null()) {
    const json::Value* type = config->is_object() ? config->Find("type") : nullptr;
    if (type == nullptr || !type->is_string() ||
        (type->as_string() != "Geography" && type->as_string() != "Geometry")) {
      return Status::BadRequest(
          "The geospatialConfig type is invalid: expected 'Geography' or 'Geometry'.");
    }
    geometry = type->as_string() == "Geometry";
  }
  const json::Value* list = indexing_policy != nullptr && indexing_policy->is_object()
                                ? indexing_policy->Find("spatialIndexes")
                                : nullptr;
  if (list == nullptr || !list->is_array()) return Status::Ok();
  for (const json::Value& entry : list->as_array()) {
    const json::Value* path = entry.Find("path");
    const std::string text = path != nullptr && path->is_string() ? path->as_string() : "";
    const json::Value* box = entry.Find("boundingBox");
    const bool has_box = box != nullptr && !box->is_null();
    if (geometry && !has_box) {
      return Status::BadRequest("The spatial index for path '" + text +
                                "' needs a boundingBox (xmin, ymin, xmax, ymax) because the "
                                "container's geospatialConfig type is 'Geometry'.");
    }
    if (!geometry && has_box) {
      return Status::BadRequest("The spatial index for path '" + text +
                                "' has a boundingBox, which only a container whose "
                                "geospatialConfig type is 'Geometry' may have.");
    }
  }
  return Status::Ok();
}

}  // namespace orrery::index
