#include "engine/quantized_vectors.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <queue>

#include "common/encoding.h"

namespace orrery::engine {

QuantizedVectors::QuantizedVectors(query::DistanceFunction distance, size_t dimensions)
    : ApproximateVectorIndex(distance),
      dimensions_(dimensions),
      low_(dimensions, 0),
      step_(dimensions, 0) {}

void QuantizedVectors::PutLocked(std::string_view item, std::span<const float> vector) {
  if (vector.size() != dimensions_) return;
  auto [it, added] = labels_.try_emplace(std::string(item), 0);
  if (added) {
    if (!free_.empty()) {
      it->second = free_.back();
      free_.pop_back();
    } else {
      it->second = items_.size();
      items_.emplace_back();
      codes_.resize(codes_.size() + dimensions_);
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

void QuantizedVectors::RemoveLocked(std::string_view item) {
  auto it = labels_.find(std::string(item));
  if (it == labels_.end()) return;
  items_[it->second].clear();
  free_.push_back(it->second);
  labels_.erase(it);
}

void QuantizedVectors::ScanFinishedLocked() {
  if (quantizing_) return;  // loaded: the ranges and bytes are the saved ones
  const size_t slots = items_.size();
  std::vector<float> high(dimensions_, 0);
  bool first = true;
  for (size_t slot = 0; slot < slots; ++slot) {
    if (items_[slot].empty()) continue;
    const float* v = &scanned_[slot * dimensions_];
    for (size_t d = 0; d < dimensions_; ++d) {
      low_[d] = first ? v[d] : std::min(low_[d], v[d]);
      high[d] = first ? v[d] : std::max(high[d], v[d]);
    }
    first = false;
  }
  for (size_t d = 0; d < dimensions_; ++d) {
    // An empty or constant dimension still gets a range, for vectors written later.
    if (first) {
      low_[d] = -1;
      high[d] = 1;
    }
    step_[d] = high[d] > low_[d] ? (high[d] - low_[d]) / 255.0f : 1.0f / 255.0f;
  }
  quantizing_ = true;
  for (size_t slot = 0; slot < slots; ++slot) {
    if (items_[slot].empty()) continue;
    Encode(slot, std::span<const float>(&scanned_[slot * dimensions_], dimensions_));
  }
  scanned_.clear();
  scanned_.shrink_to_fit();
}

void QuantizedVectors::Encode(size_t slot, std::span<const float> vector) {
  uint8_t* code = &codes_[slot * dimensions_];
  double norm = 0;
  for (size_t d = 0; d < dimensions_; ++d) {
    const float q = std::round((vector[d] - low_[d]) / step_[d]);
    code[d] = static_cast<uint8_t>(std::clamp(q, 0.0f, 255.0f));
    const double decoded = low_[d] + code[d] * static_cast<double>(step_[d]);
    norm += decoded * decoded;
  }
  norms_[slot] = static_cast<float>(norm);
}

std::vector<std::pair<float, std::string>> QuantizedVectors::NearestLocked(
    std::span<const float> query, size_t count) const {
  if (query.size() != dimensions_ || count == 0) return {};
  // q . decoded(x) = sum q_d low_d + sum (q_d step_d) code_d: one pass of bytes per item.
  std::vector<float> scaled(dimensions_);
  double base = 0, query_norm = 0;
  for (size_t d = 0; d < dimensions_; ++d) {
    scaled[d] = query[d] * step_[d];
    base += static_cast<double>(query[d]) * low_[d];
    query_norm += static_cast<double>(query[d]) * query[d];
  }
  if (distance() == query::DistanceFunction::kCosine && query_norm == 0) return {};
  std::priority_queue<std::pair<float, size_t>> best;  // the worst kept on top
  for (size_t slot = 0; slot < items_.size(); ++slot) {
    if (items_[slot].empty()) continue;
    const uint8_t* code = &codes_[slot * dimensions_];
    float dot = 0;
    for (size_t d = 0; d < dimensions_; ++d) dot += scaled[d] * code[d];
    const double product = base + dot;
    double distance;
    switch (this->distance()) {
      case query::DistanceFunction::kCosine:
        if (norms_[slot] == 0) continue;
        distance = 1 - product / std::sqrt(query_norm * norms_[slot]);
        break;
      case query::DistanceFunction::kDotProduct:
        distance = 1 - product;
        break;
      case query::DistanceFunction::kEuclidean:
      default:
        distance = query_norm - 2 * product + norms_[slot];
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

namespace {

constexpr std::string_view kQuantizedMagic = "orrery-quantized-vectors 1\n";

void AppendFloat(std::string& out, float f) { AppendFixed32BE(out, std::bit_cast<uint32_t>(f)); }

float TakeFloat(std::string_view& in) {
  const float f = std::bit_cast<float>(DecodeFixed32BE(in));
  in.remove_prefix(4);
  return f;
}

}  // namespace

// The file base + ".items": the magic line, dimensions (4), distance (1), per dimension
// its low and step (4 + 4, IEEE-754 bits), the slot count (8), then per slot its item
// (length 4, bytes; empty when free), and for a used slot its bytes (one per dimension)
// and norm (4). Written beside its name and renamed.
Status QuantizedVectors::SaveLocked(const std::string& base) const {
  if (!quantizing_) return Status::Internal("the quantized vectors are not built");
  std::string out(kQuantizedMagic);
  AppendFixed32BE(out, static_cast<uint32_t>(dimensions_));
  out += static_cast<char>(distance());
  for (size_t d = 0; d < dimensions_; ++d) {
    AppendFloat(out, low_[d]);
    AppendFloat(out, step_[d]);
  }
  AppendFixed64BE(out, items_.size());
  for (size_t slot = 0; slot < items_.size(); ++slot) {
    AppendFixed32BE(out, static_cast<uint32_t>(items_[slot].size()));
    out += items_[slot];
    if (items_[slot].empty()) continue;
    out.append(reinterpret_cast<const char*>(&codes_[slot * dimensions_]), dimensions_);
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

Status QuantizedVectors::LoadLocked(const std::string& base) {
  const std::string path = base + ".items";
  std::ifstream file(path, std::ios::binary);
  if (!file) return Status::IoError("cannot read " + path);
  const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  const auto malformed = [&] { return Status::Corruption(path + " is malformed"); };
  if (!bytes.starts_with(kQuantizedMagic)) return malformed();
  std::string_view in = std::string_view(bytes).substr(kQuantizedMagic.size());
  if (in.size() < 5) return malformed();
  if (DecodeFixed32BE(in) != dimensions_ ||
      static_cast<uint8_t>(in[4]) != static_cast<uint8_t>(distance())) {
    return Status::Corruption(path + " was saved for another vector index");
  }
  in.remove_prefix(5);
  if (in.size() < dimensions_ * 8 + 8) return malformed();
  std::vector<float> low(dimensions_), step(dimensions_);
  for (size_t d = 0; d < dimensions_; ++d) {
    low[d] = TakeFloat(in);
    step[d] = TakeFloat(in);
  }
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
    codes.resize(codes.size() + dimensions_);
    norms.push_back(0);
    if (length == 0) {
      free.push_back(slot);
      continue;
    }
    if (in.size() < dimensions_ + 4) return malformed();
    std::copy(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(dimensions_),
              codes.end() - static_cast<std::ptrdiff_t>(dimensions_));
    in.remove_prefix(dimensions_);
    norms.back() = TakeFloat(in);
    if (!labels.emplace(items.back(), slot).second) return malformed();
  }
  if (!in.empty()) return malformed();
  low_ = std::move(low);
  step_ = std::move(step);
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
