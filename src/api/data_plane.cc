#include "api/data_plane.h"

namespace orrery::api {

std::string AltContentPath(const engine::ContainerSettings& s) {
  return "dbs/" + s.database_id + "/colls/" + s.id;
}

std::string SessionToken(const std::string& pkrange_id, uint64_t lsn) {
  return pkrange_id + ":-1#" + std::to_string(lsn);
}

std::string AllRangesSessionToken(const engine::Container& container) {
  std::string token;
  for (const auto& p : container.settings().partitions.partitions()) {
    if (!token.empty()) token += ',';
    token += SessionToken(p.id, container.current_lsn());
  }
  return token;
}

}  // namespace orrery::api
