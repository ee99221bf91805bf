#pragma once

// A container's vectorEmbeddingPolicy and the vectorIndexes of its indexing policy, as
// the service validates them (docs/research/vector-fulltext-protocol.md §5). The query
// layer reads the policy to resolve what VectorDistance leaves unsaid: the distance
// function and data type of a path, and so the direction of ORDER BY VectorDistance.

#include <cmath>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "json/value.h"

namespace orrery::query {

enum class VectorDataType { kFloat32, kFloat16, kInt8, kUint8 };
enum class DistanceFunction { kCosine, kDotProduct, kEuclidean };
enum class VectorIndexType { kFlat, kQuantizedFlat, kDiskAnn };

// The service's most similar first: cosine and dot product rank the highest score first,
// Euclidean distance the lowest.
inline bool RanksDescending(DistanceFunction f) { return f != DistanceFunction::kEuclidean; }

// The score VectorDistance gives two vectors of `size` elements, read as doubles through
// a(i) and b(i) (JSON numbers in a query, stored float32 in a vector index); nullopt where
// it gives none (a zero vector under cosine).
template <typename ElementA, typename ElementB>
std::optional<double> VectorScore(DistanceFunction distance, size_t size, ElementA a, ElementB b) {
  double dot = 0, aa = 0, bb = 0, squared = 0;
  for (size_t i = 0; i < size; ++i) {
    const double p = a(i);
    const double q = b(i);
    dot += p * q;
    aa += p * p;
    bb += q * q;
    squared += (p - q) * (p - q);
  }
  switch (distance) {
    case DistanceFunction::kCosine:
      if (aa == 0 || bb == 0) return std::nullopt;  // no direction to compare
      return dot / (std::sqrt(aa) * std::sqrt(bb));
    case DistanceFunction::kDotProduct:
      return dot;
    case DistanceFunction::kEuclidean:
      return std::sqrt(squared);
  }
  return std::nullopt;
}

std::optional<VectorDataType> ParseVectorDataType(std::string_view text);
std::optional<DistanceFunction> ParseDistanceFunction(std::string_view text);
std::string_view DataTypeName(VectorDataType type);                // "float32", as stored
std::string_view DistanceFunctionName(DistanceFunction function);  // "cosine", as stored

struct VectorEmbedding {
  std::string path;                   // "/embedding"
  std::vector<std::string> segments;  // {"embedding"}
  VectorDataType data_type = VectorDataType::kFloat32;
  DistanceFunction distance = DistanceFunction::kCosine;
  int dimensions = 0;
};

struct VectorIndexSpec {
  std::string path;
  std::vector<std::string> segments;  // of `path`, as its embedding's
  VectorIndexType type = VectorIndexType::kFlat;
  int quantization_byte_size = 0;     // quantizedFlat and diskANN; 0 when not given
  int indexing_search_list_size = 0;  // diskANN; 0 when not given
  std::vector<std::string> shard_key;
};

// Bytes per element of a vector stored as `type`.
inline int ElementBytes(VectorDataType type) {
  return type == VectorDataType::kFloat32 ? 4 : type == VectorDataType::kFloat16 ? 2 : 1;
}

// The bytes a quantizedFlat index keeps per vector: its quantizationByteSize when below
// the dimensions (product quantization), else one per dimension (scalar quantization).
inline size_t QuantizedVectorBytes(const VectorIndexSpec& spec, int dimensions) {
  return spec.quantization_byte_size > 0 && spec.quantization_byte_size < dimensions
             ? static_cast<size_t>(spec.quantization_byte_size)
             : static_cast<size_t>(dimensions);
}

class VectorPolicy {
 public:
  // The most dimensions an embedding may declare, and a flat index may hold (its
  // vectors are stored in the index entry, which has a size limit at the service).
  static constexpr int kMaxDimensions = 4096;
  static constexpr int kMaxFlatDimensions = 505;

  // Validates `embedding_policy` (vectorEmbeddingPolicy, may be null) and `indexes`
  // (indexingPolicy.vectorIndexes, may be null) together. Errors: BadRequest with the
  // service's message.
  static Result<std::shared_ptr<const VectorPolicy>> Parse(const json::Value* embedding_policy,
                                                           const json::Value* indexes);

  bool empty() const { return embeddings_.empty(); }
  const std::vector<VectorEmbedding>& embeddings() const { return embeddings_; }
  const std::vector<VectorIndexSpec>& indexes() const { return indexes_; }
  // The embedding declared for the item path `segments`, or nullptr.
  const VectorEmbedding* Find(const std::vector<std::string>& segments) const;

 private:
  std::vector<VectorEmbedding> embeddings_;
  std::vector<VectorIndexSpec> indexes_;
};

// Splits a policy path ("/a/b") into its names; nullopt when it is not a plain path of
// property names (empty names, wildcards, array steps).
std::optional<std::vector<std::string>> PolicyPathSegments(std::string_view path);

}  // namespace orrery::query
