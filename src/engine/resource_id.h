#pragma once

// Resource ids (_rid) in the service's binary layout (wire-protocol.md §4.2),
// base64-encoded with '/' replaced by '-' so they can stand in URL paths.
//   database   4 bytes: database number, little-endian
//   container  database rid + 4 bytes: container number with the high bit set
//   item       container rid + 8 bytes: item number (7 bytes LE), type nibble 0x0
//   pkrange    container rid + 8 bytes: range number + 1, type nibble 0x5
// Persisted inside stored resources: never change the layout.

#include <cstdint>
#include <string>

namespace orrery::engine {

std::string DatabaseRid(uint32_t database_number);
std::string ContainerRid(uint32_t database_number, uint32_t container_number);
std::string ItemRid(uint32_t database_number, uint32_t container_number, uint64_t item_number);
std::string PartitionKeyRangeRid(uint32_t database_number, uint32_t container_number,
                                 uint32_t range_number);

}  // namespace orrery::engine
