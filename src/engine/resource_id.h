#pragma once

// Resource ids (_rid) in the service's binary layout (wire-protocol.md §4.2),
// base64-encoded with '/' replaced by '-' so they can stand in URL paths.
//   database   4 bytes: database number, little-endian
//   container  database rid + 4 bytes: container number, big-endian, with the high bit
//              of its first byte set: that bit is what tells a collection from a user
//              (the Java and .NET SDKs' ResourceId parsers read it there, and address
//              rid-based requests by the parsed rid)
//   item       container rid + 8 bytes: item number (7 bytes LE), type nibble 0x0
//   pkrange    container rid + 8 bytes: range number + 1, type nibble 0x5
//   scripts    container rid + 8 bytes: number, type nibble 0x8 (stored procedure),
//              0x7 (trigger), 0x6 (user-defined function)
// Persisted inside stored resources: items and ranges take the prefix from their
// container's stored rid, so a container created by an older Orrery (number little-
// endian with the high bit last, which those parsers misread) keeps one layout.

#include <cstdint>
#include <string>

namespace orrery::engine {

std::string DatabaseRid(uint32_t database_number);
std::string ContainerRid(uint32_t database_number, uint32_t container_number);
// `container_rid` is the container's stored _rid (as ContainerRid returned it).
std::string ItemRid(const std::string& container_rid, uint64_t item_number);
std::string PartitionKeyRangeRid(const std::string& container_rid, uint32_t range_number);
// A container's child of another type (stored procedures 0x80, triggers 0x70,
// user-defined functions 0x60 in the top byte), numbered as items are.
std::string TypedChildRid(const std::string& container_rid, uint8_t type, uint64_t number);
// The number of a container child's rid (0 when it is not one), for creation order.
uint64_t RidOrder(const std::string& rid);

}  // namespace orrery::engine
