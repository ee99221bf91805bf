// The approximate vector indexes (diskANN graphs, quantizedFlat bytes) across a restart
// (Container::SaveVectorGraphs): saved at a clean shutdown into <data directory>/vector-graphs,
// with a file "saved" that holds the store's sequence number after the last write. At the next
// start they are loaded only if the store opened at that same sequence number (nothing wrote to it
// in between), and "saved" is removed first: after a crash, or any write the graphs did not see,
// every graph is built again from the vector-index entries, which stay the source of truth.

#include <filesystem>
#include <fstream>
#include <iterator>

#include "common/log.h"
#include "engine/account.h"

namespace orrery::engine {
namespace {

constexpr const char* kGraphDirectory = "/vector-graphs";
constexpr const char* kSavedFile = "/saved";

}  // namespace

void Account::LoadSavedVectorGraphs() {
  const std::string& data = store_->directory();
  if (data.empty() || store_->ReadOnly()) return;
  const std::string directory = data + kGraphDirectory;
  const std::string saved_path = directory + kSavedFile;
  std::string saved;
  {
    std::ifstream in(saved_path);
    if (!in) return;
    saved.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  std::error_code ec;
  // From here on the graphs follow this process's writes; the files do not.
  if (!std::filesystem::remove(saved_path, ec) || ec) return;
  if (saved != std::to_string(store_->SequenceAtOpen())) {
    Log(LogLevel::kInfo,
        "the store was written after the approximate vector indexes were "
        "saved: they are built again");
    return;
  }
  std::shared_lock lock(mutex_);
  for (const auto& [key, container] : containers_) container->LoadSavedVectorGraphs(directory);
}

void Account::SaveVectorGraphs() {
  const std::string& data = store_->directory();
  if (data.empty() || store_->ReadOnly()) return;
  const std::string directory = data + kGraphDirectory;
  std::error_code ec;
  // Files of graphs not saved this time (gone, or not built) must not be read later.
  std::filesystem::remove_all(directory, ec);
  std::filesystem::create_directories(directory, ec);
  if (ec) return;
  std::shared_lock lock(mutex_);
  bool any = false;
  for (const auto& [key, container] : containers_) {
    // An index rebuild rewrites entries without the graphs: build those again.
    if (!container->write_state()->index_ready.load()) continue;
    Status status = container->SaveVectorGraphs(directory);
    if (!status.ok()) {
      Log(LogLevel::kWarn, "the approximate vector indexes were not saved: " + status.ToString());
      return;
    }
    any = true;
  }
  if (!any) return;
  std::ofstream out(directory + kSavedFile, std::ios::trunc);
  out << store_->LatestSequence();
}

}  // namespace orrery::engine
