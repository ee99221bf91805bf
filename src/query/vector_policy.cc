#include "query/vector_policy.h"

#include <algorithm>

#include "common/encoding.h"

namespace orrery::query {
namespace {

constexpr int kDefaultDimensions = 1536;  // the service's default (vector-search docs)
constexpr int kMaxQuantizationBytes = 512;
constexpr int kMinSearchListSize = 25;
constexpr int kMaxSearchListSize = 500;
constexpr size_t kMaxShardPaths = 1;

Status Invalid(std::string message) { return Status::BadRequest(std::move(message)); }

// The service's answer to a member of the wrong JSON type in these policies.
Status InvalidInput() { return Invalid("One of the specified inputs is invalid"); }

std::optional<std::string> StringMember(const json::Value& object, const char* name) {
  const json::Value* v = object.Find(name);
  if (v == nullptr || v->is_null() || !v->is_string()) return std::nullopt;
  return v->as_string();
}

std::optional<VectorIndexType> ParseIndexType(std::string_view text) {
  const std::string lower = LowerAscii(text);
  if (lower == "flat") return VectorIndexType::kFlat;
  if (lower == "quantizedflat") return VectorIndexType::kQuantizedFlat;
  if (lower == "diskann") return VectorIndexType::kDiskAnn;
  return std::nullopt;
}

Result<VectorEmbedding> ParseEmbedding(const json::Value& entry) {
  if (!entry.is_object()) return InvalidInput();
  VectorEmbedding out;
  const std::optional<std::string> path = StringMember(entry, "path");
  if (!path) return Invalid("The Vector Embedding Policy has an embedding without a path.");
  std::optional<std::vector<std::string>> segments = PolicyPathSegments(*path);
  if (!segments) {
    return Invalid("The Vector Embedding Policy has an invalid Path: " + *path +
                   ". A path starts with '/' and names properties, without wildcards or "
                   "array steps.");
  }
  out.path = *path;
  out.segments = std::move(*segments);
  if (const json::Value* type = entry.Find("dataType"); type != nullptr && !type->is_null()) {
    std::optional<VectorDataType> parsed =
        type->is_string() ? ParseVectorDataType(type->as_string()) : std::nullopt;
    if (!parsed) {
      return Invalid("The Vector Embedding Policy has an invalid DataType:" +
                     (type->is_string() ? type->as_string() : std::string("(not a string)")) +
                     ". Supported data types are float32, float16, int8 and uint8.");
    }
    out.data_type = *parsed;
  }
  if (const json::Value* f = entry.Find("distanceFunction"); f != nullptr && !f->is_null()) {
    std::optional<DistanceFunction> parsed =
        f->is_string() ? ParseDistanceFunction(f->as_string()) : std::nullopt;
    if (!parsed) {
      return Invalid("The Vector Embedding Policy has an invalid DistanceFunction:" +
                     (f->is_string() ? f->as_string() : std::string("(not a string)")) +
                     ". Supported distance functions are cosine, dotproduct and euclidean.");
    }
    out.distance = *parsed;
  }
  out.dimensions = kDefaultDimensions;
  if (const json::Value* d = entry.Find("dimensions"); d != nullptr && !d->is_null()) {
    if (!d->is_integer()) return InvalidInput();
    const int64_t dimensions = d->as_int();
    if (dimensions < 1) {
      return Invalid("The Vector Embedding Policy has Dimensions:" + std::to_string(dimensions) +
                     " which is less than the minimum supported value of 1.");
    }
    if (dimensions > VectorPolicy::kMaxDimensions) {
      return Invalid("The Vector Embedding Policy has Dimensions:" + std::to_string(dimensions) +
                     " which is more than the maximum supported value of " +
                     std::to_string(VectorPolicy::kMaxDimensions) + ".");
    }
    out.dimensions = static_cast<int>(dimensions);
  }
  return out;
}

Status CheckRange(const char* parameter, int64_t value, int64_t min, int64_t max) {
  if (value >= min && value <= max) return Status::Ok();
  return Invalid(std::string("The Vector Indexing Policy parameter ") + parameter + " value :: " +
                 std::to_string(value) + " is out of range. The allowed range is between " +
                 std::to_string(min) + " and " + std::to_string(max) + ".");
}

Result<VectorIndexSpec> ParseIndex(const json::Value& entry,
                                   const std::vector<VectorEmbedding>& embeddings) {
  if (!entry.is_object()) return InvalidInput();
  VectorIndexSpec out;
  const std::optional<std::string> path = StringMember(entry, "path");
  if (!path) return Invalid("The Vector Indexing Policy has an index without a path.");
  out.path = *path;
  const auto embedding = std::find_if(embeddings.begin(), embeddings.end(),
                                      [&](const VectorEmbedding& e) { return e.path == *path; });
  if (embedding == embeddings.end()) {
    return Invalid("The Vector Indexing Policy's path::" + *path +
                   " not matching in Embedding's path.");
  }
  const json::Value* type = entry.Find("type");
  std::optional<VectorIndexType> parsed =
      type != nullptr && type->is_string() ? ParseIndexType(type->as_string()) : std::nullopt;
  if (!parsed) {
    const std::string given = type != nullptr && type->is_string() ? type->as_string() : "";
    return Invalid("Index Type::" + given +
                   " is invalid. Valid index types are flat, quantizedFlat and diskANN.");
  }
  out.type = *parsed;
  out.segments = embedding->segments;
  if (out.type == VectorIndexType::kFlat &&
      embedding->dimensions > VectorPolicy::kMaxFlatDimensions) {
    return Invalid("The Vector Indexing Policy's index type flat supports vectors of at most " +
                   std::to_string(VectorPolicy::kMaxFlatDimensions) + " dimensions, but path::" +
                   *path + " has Dimensions:" + std::to_string(embedding->dimensions) +
                   "; use quantizedFlat or diskANN.");
  }
  if (const json::Value* q = entry.Find("quantizationByteSize"); q != nullptr && !q->is_null()) {
    if (!q->is_integer()) return InvalidInput();
    ORRERY_RETURN_IF_ERROR(CheckRange("QuantizationByteSize", q->as_int(), 1,
                                      std::min(embedding->dimensions, kMaxQuantizationBytes)));
    out.quantization_byte_size = static_cast<int>(q->as_int());
  }
  if (const json::Value* s = entry.Find("indexingSearchListSize"); s != nullptr && !s->is_null()) {
    if (!s->is_integer()) return InvalidInput();
    ORRERY_RETURN_IF_ERROR(
        CheckRange("IndexingSearchListSize", s->as_int(), kMinSearchListSize, kMaxSearchListSize));
    out.indexing_search_list_size = static_cast<int>(s->as_int());
  }
  if (const json::Value* k = entry.Find("vectorIndexShardKey"); k != nullptr && !k->is_null()) {
    if (!k->is_array()) return InvalidInput();
    if (k->as_array().size() > kMaxShardPaths) {
      return Invalid("The number of shard paths defined in the Vector Indexing Policy: " +
                     std::to_string(k->as_array().size()) +
                     " exceeds the maximum: " + std::to_string(kMaxShardPaths) + ".");
    }
    for (const json::Value& shard : k->as_array()) {
      if (!shard.is_string()) return InvalidInput();
      if (!PolicyPathSegments(shard.as_string())) {
        return Invalid(
            "The Vector Indexing Policy has an invalid Shard Path: " + shard.as_string() + ".");
      }
      out.shard_key.push_back(shard.as_string());
    }
  }
  return out;
}

}  // namespace

std::optional<VectorDataType> ParseVectorDataType(std::string_view text) {
  const std::string lower = LowerAscii(text);
  if (lower == "float32") return VectorDataType::kFloat32;
  if (lower == "float16") return VectorDataType::kFloat16;
  if (lower == "int8") return VectorDataType::kInt8;
  if (lower == "uint8") return VectorDataType::kUint8;
  return std::nullopt;
}

std::optional<DistanceFunction> ParseDistanceFunction(std::string_view text) {
  const std::string lower = LowerAscii(text);
  if (lower == "cosine") return DistanceFunction::kCosine;
  if (lower == "dotproduct") return DistanceFunction::kDotProduct;
  if (lower == "euclidean") return DistanceFunction::kEuclidean;
  return std::nullopt;
}

std::string_view DataTypeName(VectorDataType type) {
  switch (type) {
    case VectorDataType::kFloat32:
      return "float32";
    case VectorDataType::kFloat16:
      return "float16";
    case VectorDataType::kInt8:
      return "int8";
    case VectorDataType::kUint8:
      return "uint8";
  }
  return "float32";
}

std::string_view DistanceFunctionName(DistanceFunction function) {
  switch (function) {
    case DistanceFunction::kCosine:
      return "cosine";
    case DistanceFunction::kDotProduct:
      return "dotproduct";
    case DistanceFunction::kEuclidean:
      return "euclidean";
  }
  return "cosine";
}

std::optional<std::vector<std::string>> PolicyPathSegments(std::string_view path) {
  if (path.size() < 2 || path.front() != '/') return std::nullopt;
  std::vector<std::string> out;
  path.remove_prefix(1);
  while (true) {
    const size_t slash = path.find('/');
    const std::string_view name = path.substr(0, slash);
    if (name.empty() || name == "*" || name == "?" || name.find("[]") != std::string_view::npos) {
      return std::nullopt;
    }
    out.emplace_back(name);
    if (slash == std::string_view::npos) break;
    path.remove_prefix(slash + 1);
  }
  return out;
}

Result<std::shared_ptr<const VectorPolicy>> VectorPolicy::Parse(const json::Value* embedding_policy,
                                                                const json::Value* indexes) {
  auto policy = std::make_shared<VectorPolicy>();
  if (embedding_policy != nullptr && !embedding_policy->is_null()) {
    if (!embedding_policy->is_object()) return InvalidInput();
    const json::Value* list = embedding_policy->Find("vectorEmbeddings");
    if (list != nullptr && !list->is_null()) {
      if (!list->is_array()) return InvalidInput();
      for (const json::Value& entry : list->as_array()) {
        ORRERY_ASSIGN_OR_RETURN(VectorEmbedding embedding, ParseEmbedding(entry));
        for (const VectorEmbedding& other : policy->embeddings_) {
          if (other.path == embedding.path) {
            return Invalid("The Vector Embedding Policy has the path " + embedding.path +
                           " more than once.");
          }
        }
        policy->embeddings_.push_back(std::move(embedding));
      }
    }
  }
  if (indexes != nullptr && !indexes->is_null()) {
    if (!indexes->is_array()) return InvalidInput();
    for (const json::Value& entry : indexes->as_array()) {
      ORRERY_ASSIGN_OR_RETURN(VectorIndexSpec index, ParseIndex(entry, policy->embeddings_));
      for (const VectorIndexSpec& other : policy->indexes_) {
        if (other.path == index.path) {
          return Invalid("The Vector Indexing Policy has more than one index on the path " +
                         index.path + ".");
        }
      }
      policy->indexes_.push_back(std::move(index));
    }
  }
  return std::shared_ptr<const VectorPolicy>(std::move(policy));
}

const VectorEmbedding* VectorPolicy::Find(const std::vector<std::string>& segments) const {
  for (const VectorEmbedding& e : embeddings_) {
    if (e.segments == segments) return &e;
  }
  return nullptr;
}

}  // namespace orrery::query
