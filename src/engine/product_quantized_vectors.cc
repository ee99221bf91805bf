#include "engine/product_quantized_vectors.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <queue>

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

void AppendFloat(std::string& out, float f) { AppendFixed32BE(out, std::bit_cast<uint32_t>(f)); }

float TakeFloat(std::string_view& in) {
  const float f = std::bit_cast<float>(DecodeFixed32BE(in));
  in.remove_prefix(4);
  return f;
}

}  // namespace

ProductQuantizedVectors::ProductQuantizedVectors(query::DistanceFunction distance,
                                                 size_t dimensions, size_t bytes)
    : ApproximateVectorIndex(distance),
      dimensions_(dimensions),
      bytes_(std::clamp<size_t>(bytes, 1, std::max<size_t>(dimensions, 1))),
      centres_(dimensions * kCentres, 0) {}

void ProductQuantizedVectors::PutLocked(std::string_view item, std::span<const float> vector) {
  if (vector.size() != dimensions_) return;
  auto [it, added] = labels_.try_emplace(std::string(item), 0);
  if (added) {
    if (!free_.empty()) {
      it->second = free_.back();
      free_.pop_back();
    } else {
      it->second = items_.size();
      items_.emplace_back();
      codes_.resize(codes_.size() + bytes_);
      norms_.push_back(0);
      if (!quantizing_) scanned_.resize(scanned_.size() + dimensions_);
    }
    items_[it->second] = std::string(item);
  }
  if (!quantizing_) {
    std::copy(vector.begin(), vector.end(),
              scanned_.begin() + static_cast<std::ptrdiff_t>(it->second * dimensions_));
    return;
  }
  Encode(it->second, vector);
}

void ProductQuantizedVectors::RemoveLocked(std::string_view item) {
  auto it = labels_.find(std::string(item));
  if (it == labels_.end()) return;
  items_[it->second].clear();
  free_.push_back(it->second);
  labels_.erase(it);
}

void ProductQuantizedVectors::ScanFinishedLocked() {
  if (quantizing_) return;  // loaded: the codebooks and bytes are the saved ones
  std::vector<size_t> used;
  for (size_t slot = 0; slot < items_.size(); ++slot) {
    if (!items_[slot].empty()) used.push_back(slot);
  }
  Train(used);
  quantizing_ = true;
  for (size_t slot : used) {
    Encode(slot, std::span<const float>(&scanned_[slot * dimensions_], dimensions_));
  }
  scanned_.clear();
  scanned_.shrink_to_fit();
}

void ProductQuantizedVectors::Train(const std::vector<size_t>& slots) {
  // An even spread of the scanned vectors: k-means costs vectors x centres x dimensions
  // a round, and a few thousand vectors place 256 centres about as well as all of them.
  std::vector<const float*> sample;
  const size_t n = slots.size();
  const size_t take = std::min(n, kMaxTrainingVectors);
  for (size_t i = 0; i < take; ++i) sample.push_back(&scanned_[slots[i * n / take] * dimensions_]);
  if (sample.empty()) return;  // no vector yet: every centre stays 0, later vectors get byte 0
  const size_t centres = std::min(kCentres, sample.size());
  std::vector<uint32_t> owner(sample.size());
  for (size_t run = 0; run < bytes_; ++run) {
    const size_t begin = RunBegin(run);
    const size_t width = RunEnd(run) - begin;
    float* book = &centres_[CentreAt(run, 0)];
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
  uint8_t* code = &codes_[slot * bytes_];
  double norm = 0;
  for (size_t run = 0; run < bytes_; ++run) {
    const size_t begin = RunBegin(run);
    const size_t width = RunEnd(run) - begin;
    const float* book = &centres_[CentreAt(run, 0)];
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
  std::vector<float> table(bytes_ * kCentres);
  for (size_t run = 0; run < bytes_; ++run) {
    const size_t begin = RunBegin(run);
    const size_t width = RunEnd(run) - begin;
    const float* book = &centres_[CentreAt(run, 0)];
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
  if (distance() == query::DistanceFunction::kCosine && query_norm == 0) return {};
  std::priority_queue<std::pair<float, size_t>> best;  // the worst kept on top
  for (size_t slot = 0; slot < items_.size(); ++slot) {
    if (items_[slot].empty()) continue;
    const uint8_t* code = &codes_[slot * bytes_];
    float sum = 0;
    for (size_t run = 0; run < bytes_; ++run) sum += table[run * kCentres + code[run]];
    double distance;
    switch (this->distance()) {
      case query::DistanceFunction::kCosine:
        if (norms_[slot] == 0) continue;
        distance = 1 - sum / std::sqrt(query_norm * norms_[slot]);
        break;
      case query::DistanceFunction::kDotProduct:
        distance = 1 - static_cast<double>(sum);
        break;
      case query::DistanceFunction::kEuclidean:
      default:
        distance = sum;
        break;
    }
    if (best.size() < count) {
      best.emplace(static_cast<float>(distance), slot);
    } else if (distance < best.top().first) {
      best.pop();
      best.emplace(static_cast<float>(distance), slot);
    }
  }
  return Drain(best, items_);
}

// The file base + ".items": the magic line, dimensions (4), distance (1), bytes per
// vector (4), the centres (dimensions x 256 floats, IEEE-754 bits, run after run), the
// slot count (8), then per slot its item (length 4, bytes; empty when free), and for a
// used slot its bytes and the squared norm of its decoded vector (4). Written beside its
// name and renamed.
Status ProductQuantizedVectors::SaveLocked(const std::string& base) const {
  if (!quantizing_) return Status::Internal("the quantized vectors are not built");
  std::string out(kMagic);
  AppendFixed32BE(out, static_cast<uint32_t>(dimensions_));
  out += static_cast<char>(distance());
  AppendFixed32BE(out, static_cast<uint32_t>(bytes_));
  for (float f : centres_) AppendFloat(out, f);
  AppendFixed64BE(out, items_.size());
  for (size_t slot = 0; slot < items_.size(); ++slot) {
    AppendFixed32BE(out, static_cast<uint32_t>(items_[slot].size()));
    out += items_[slot];
    if (items_[slot].empty()) continue;
    out.append(reinterpret_cast<const char*>(&codes_[slot * bytes_]), bytes_);
    AppendFloat(out, norms_[slot]);
  }
  const std::string path = base + ".items";
  {
    std::ofstream file(path + ".tmp", std::ios::binary | std::ios::trunc);
    file.write(out.data(), static_cast<std::streamsize>(out.size()));
    file.close();
    if (!file) return Status::IoError("cannot write " + path + ".tmp");
  }
  std::error_code ec;
  std::filesystem::rename(path + ".tmp", path, ec);
  if (ec) return Status::IoError("cannot rename " + path + ".tmp: " + ec.message());
  return Status::Ok();
}

Status ProductQuantizedVectors::LoadLocked(const std::string& base) {
  const std::string path = base + ".items";
  std::ifstream file(path, std::ios::binary);
  if (!file) return Status::IoError("cannot read " + path);
  const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  const auto malformed = [&] { return Status::Corruption(path + " is malformed"); };
  if (!bytes.starts_with(kMagic)) return malformed();
  std::string_view in = std::string_view(bytes).substr(kMagic.size());
  if (in.size() < 9) return malformed();
  if (DecodeFixed32BE(in) != dimensions_ ||
      static_cast<uint8_t>(in[4]) != static_cast<uint8_t>(distance()) ||
      DecodeFixed32BE(in.substr(5)) != bytes_) {
    return Status::Corruption(path + " was saved for another vector index");
  }
  in.remove_prefix(9);
  if (in.size() < centres_.size() * 4 + 8) return malformed();
  std::vector<float> centres(centres_.size());
  for (float& f : centres) f = TakeFloat(in);
  const uint64_t slots = DecodeFixed64BE(in);
  in.remove_prefix(8);
  std::vector<std::string> items;
  std::vector<uint8_t> codes;
  std::vector<float> norms;
  std::vector<size_t> free;
  std::unordered_map<std::string, size_t> labels;
  for (uint64_t slot = 0; slot < slots; ++slot) {
    if (in.size() < 4) return malformed();
    const uint32_t length = DecodeFixed32BE(in);
    in.remove_prefix(4);
    if (in.size() < length) return malformed();
    items.emplace_back(in.substr(0, length));
    in.remove_prefix(length);
    codes.resize(codes.size() + bytes_);
    norms.push_back(0);
    if (length == 0) {
      free.push_back(slot);
      continue;
    }
    if (in.size() < bytes_ + 4) return malformed();
    std::copy(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(bytes_),
              codes.end() - static_cast<std::ptrdiff_t>(bytes_));
    in.remove_prefix(bytes_);
    norms.back() = TakeFloat(in);
    if (!labels.emplace(items.back(), slot).second) return malformed();
  }
  if (!in.empty()) return malformed();
  centres_ = std::move(centres);
  items_ = std::move(items);
  codes_ = std::move(codes);
  norms_ = std::move(norms);
  free_ = std::move(free);
  labels_ = std::move(labels);
  scanned_.clear();
  quantizing_ = true;
  return Status::Ok();
}

}  // namespace orrery::engine
