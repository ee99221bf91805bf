#include "engine/product_quantized_vectors.h"

#include <algorithm>
#include <limits>

#include "common/encoding.h"

namespace orrery::engine {
namespace {

float SquaredDistance(const float* a, const float* b, size_t width) {
  float sum = 0;
  for (size_t d = 0; d < width; ++d) {
    const float gap = a[d] - b[d];
    sum += gap * gap;
  }
  return sum;
}

// The centre of `centres` (`count` of them, `width` floats each) nearest to `v`.
size_t NearestCentre(const float* v, const float* centres, size_t count, size_t width) {
  size_t best = 0;
  float best_distance = std::numeric_limits<float>::infinity();
  for (size_t k = 0; k < count; ++k) {
    const float distance = SquaredDistance(v, centres + k * width, width);
    if (distance < best_distance) {
      best_distance = distance;
      best = k;
    }
  }
  return best;
}

constexpr std::string_view kMagic = "orrery-product-quantized-vectors 1\n";

}  // namespace

ProductQuantizedVectors::ProductQuantizedVectors(query::DistanceFunction distance,
                                                 size_t dimensions, size_t bytes)
    : QuantizedSlots(distance, dimensions,
                     std::clamp<size_t>(bytes, 1, std::max<size_t>(dimensions, 1)), kMagic),
      centres_(dimensions * kCentres, 0) {}

void ProductQuantizedVectors::Learn(const std::vector<size_t>& slots) {
  // An even spread of the scanned vectors: k-means costs vectors x centres x dimensions
  // a round, and a few thousand vectors place 256 centres about as well as all of them.
  std::vector<const float*> sample;
  const size_t n = slots.size();
  const size_t take = std::min(n, kMaxTrainingVectors);
  for (size_t i = 0; i < take; ++i) sample.push_back(Scanned(slots[i * n / take]));
  if (sample.empty()) return;  // no vector yet: every centre stays 0, later vectors get byte 0
  const size_t centres = std::min(kCentres, sample.size());
  std::vector<uint32_t> owner(sample.size());
  for (size_t run = 0; run < code_bytes_; ++run) {
    const size_t begin = RunBegin(run);
    const size_t width = RunEnd(run) - begin;
    float* book = Codebook(run);
    // Start from vectors spread over the sample; the centres a small sample leaves
    // unused repeat the last, which no byte then needs.
    for (size_t k = 0; k < kCentres; ++k) {
      const float* from = sample[std::min(k, centres - 1) * sample.size() / centres] + begin;
      std::copy(from, from + width, book + k * width);
    }
    std::vector<double> sums(centres * width);
    std::vector<size_t> counts(centres);
    for (int round = 0; round < kTrainingRounds; ++round) {
      bool moved = false;
      for (size_t i = 0; i < sample.size(); ++i) {
        const auto nearest =
            static_cast<uint32_t>(NearestCentre(sample[i] + begin, book, centres, width));
        moved = moved || round == 0 || nearest != owner[i];
        owner[i] = nearest;
      }
      if (!moved) break;
      std::fill(sums.begin(), sums.end(), 0.0);
      std::fill(counts.begin(), counts.end(), 0);
      for (size_t i = 0; i < sample.size(); ++i) {
        ++counts[owner[i]];
        for (size_t d = 0; d < width; ++d) sums[owner[i] * width + d] += sample[i][begin + d];
      }
      for (size_t k = 0; k < centres; ++k) {
        if (counts[k] == 0) continue;  // an empty centre stays where it was
        for (size_t d = 0; d < width; ++d) {
          book[k * width + d] = static_cast<float>(sums[k * width + d] / counts[k]);
        }
      }
    }
  }
}

void ProductQuantizedVectors::Encode(size_t slot, std::span<const float> vector) {
  uint8_t* code = CodeOf(slot);
  double norm = 0;
  for (size_t run = 0; run < code_bytes_; ++run) {
    const size_t begin = RunBegin(run);
    const size_t width = RunEnd(run) - begin;
    const float* book = Codebook(run);
    const size_t nearest = NearestCentre(vector.data() + begin, book, kCentres, width);
    code[run] = static_cast<uint8_t>(nearest);
    for (size_t d = 0; d < width; ++d) {
      const double x = book[nearest * width + d];
      norm += x * x;
    }
  }
  norms_[slot] = static_cast<float>(norm);
}

std::vector<std::pair<float, std::string>> ProductQuantizedVectors::NearestLocked(
    std::span<const float> query, size_t count) const {
  if (query.size() != dimensions_ || count == 0) return {};
  const bool euclidean = distance() == query::DistanceFunction::kEuclidean;
  // Per run and centre: the query's squared distance to it (Euclidean) or its product
  // with it; an item's estimate is the sum over its bytes.
  std::vector<float> table(code_bytes_ * kCentres);
  for (size_t run = 0; run < code_bytes_; ++run) {
    const size_t begin = RunBegin(run);
    const size_t width = RunEnd(run) - begin;
    const float* book = Codebook(run);
    for (size_t k = 0; k < kCentres; ++k) {
      const float* centre = book + k * width;
      float value = 0;
      if (euclidean) {
        value = SquaredDistance(query.data() + begin, centre, width);
      } else {
        for (size_t d = 0; d < width; ++d) value += query[begin + d] * centre[d];
      }
      table[run * kCentres + k] = value;
    }
  }
  double query_norm = 0;
  for (float x : query) query_norm += static_cast<double>(x) * x;
  return NearestBy(query_norm, count, [&](size_t slot) {
    const uint8_t* code = CodeOf(slot);
    float sum = 0;
    for (size_t run = 0; run < code_bytes_; ++run) sum += table[run * kCentres + code[run]];
    return static_cast<double>(sum);
  });
}

// M (4), then the centres (dimensions x 256 floats, run after run).
void ProductQuantizedVectors::SaveModel(std::string& out) const {
  AppendFixed32BE(out, static_cast<uint32_t>(code_bytes_));
  for (float f : centres_) AppendFloat(out, f);
}

Status ProductQuantizedVectors::LoadModel(std::string_view& in, const std::string& path) {
  if (in.size() < 4) return Status::Corruption(path + " is malformed");
  if (DecodeFixed32BE(in) != code_bytes_) {
    return Status::Corruption(path + " was saved for another vector index");
  }
  in.remove_prefix(4);
  if (in.size() < centres_.size() * 4) return Status::Corruption(path + " is malformed");
  for (float& f : centres_) f = TakeFloat(in);
  return Status::Ok();
}

}  // namespace orrery::engine
