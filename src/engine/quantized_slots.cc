#include "engine/quantized_slots.h"

#include <algorithm>
#include <bit>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "common/encoding.h"

namespace orrery::engine {

QuantizedSlots::QuantizedSlots(query::DistanceFunction distance, size_t dimensions,
                               size_t code_bytes, std::string_view magic)
    : ApproximateVectorIndex(distance),
      dimensions_(dimensions),
      code_bytes_(code_bytes),
      magic_(magic) {}

void QuantizedSlots::PutLocked(std::string_view item, std::span<const float> vector) {
  if (vector.size() != dimensions_) return;
  auto [it, added] = labels_.try_emplace(std::string(item), 0);
  if (added) {
    if (!free_.empty()) {
      it->second = free_.back();
      free_.pop_back();
    } else {
      it->second = items_.size();
      items_.emplace_back();
      codes_.resize(codes_.size() + code_bytes_);
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

void QuantizedSlots::RemoveLocked(std::string_view item) {
  auto it = labels_.find(std::string(item));
  if (it == labels_.end()) return;
  items_[it->second].clear();
  free_.push_back(it->second);
  labels_.erase(it);
}

std::string QuantizedSlots::CalibrateUnlocked() {
  Quantize();
  return {};
}

void QuantizedSlots::ScanFinishedLocked() { Quantize(); }

void QuantizedSlots::Quantize() {
  if (quantizing_) return;  // done, or loaded: the model and bytes are the saved ones
  std::vector<size_t> used;
  for (size_t slot = 0; slot < items_.size(); ++slot) {
    if (!items_[slot].empty()) used.push_back(slot);
  }
  Learn(used);
  quantizing_ = true;
  for (size_t slot : used) Encode(slot, std::span<const float>(Scanned(slot), dimensions_));
  scanned_.clear();
  scanned_.shrink_to_fit();
}

void QuantizedSlots::AppendFloat(std::string& out, float f) {
  AppendFixed32BE(out, std::bit_cast<uint32_t>(f));
}

float QuantizedSlots::TakeFloat(std::string_view& in) {
  const float f = std::bit_cast<float>(DecodeFixed32BE(in));
  in.remove_prefix(4);
  return f;
}

Status QuantizedSlots::SaveLocked(const std::string& base) const {
  if (!quantizing_) return Status::Internal("the quantized vectors are not built");
  std::string out(magic_);
  AppendFixed32BE(out, static_cast<uint32_t>(dimensions_));
  out += static_cast<char>(distance());
  SaveModel(out);
  AppendFixed64BE(out, items_.size());
  for (size_t slot = 0; slot < items_.size(); ++slot) {
    AppendFixed32BE(out, static_cast<uint32_t>(items_[slot].size()));
    out += items_[slot];
    if (items_[slot].empty()) continue;
    out.append(reinterpret_cast<const char*>(CodeOf(slot)), code_bytes_);
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

Status QuantizedSlots::LoadLocked(const std::string& base) {
  const std::string path = base + ".items";
  std::ifstream file(path, std::ios::binary);
  if (!file) return Status::IoError("cannot read " + path);
  const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  const auto malformed = [&] { return Status::Corruption(path + " is malformed"); };
  if (!bytes.starts_with(magic_)) return malformed();
  std::string_view in = std::string_view(bytes).substr(magic_.size());
  if (in.size() < 5) return malformed();
  if (DecodeFixed32BE(in) != dimensions_ ||
      static_cast<uint8_t>(in[4]) != static_cast<uint8_t>(distance())) {
    return Status::Corruption(path + " was saved for another vector index");
  }
  in.remove_prefix(5);
  ORRERY_RETURN_IF_ERROR(LoadModel(in, path));
  if (in.size() < 8) return malformed();
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
    codes.resize(codes.size() + code_bytes_);
    norms.push_back(0);
    if (length == 0) {
      free.push_back(slot);
      continue;
    }
    if (in.size() < code_bytes_ + 4) return malformed();
    std::copy(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(code_bytes_),
              codes.end() - static_cast<std::ptrdiff_t>(code_bytes_));
    in.remove_prefix(code_bytes_);
    norms.back() = TakeFloat(in);
    if (!labels.emplace(items.back(), slot).second) return malformed();
  }
  if (!in.empty()) return malformed();
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
