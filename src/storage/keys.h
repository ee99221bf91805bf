#pragma once

// The key layout of the store (persisted: never renumber; docs/storage-format.md
// describes it). Keys are order-preserving so a physical partition — a range of
// effective partition keys — is one contiguous key range.

#include <cstdint>
#include <string>
#include <string_view>

namespace orrery::storage::keys {

// Leading byte of every key: the key space it belongs to.
inline constexpr char kMetaSpace = '\x01';       // counters and high-water marks
inline constexpr char kDatabaseSpace = '\x02';   // database records by id
inline constexpr char kContainerSpace = '\x03';  // container records by (db id, id)
inline constexpr char kItemSpace = '\x10';       // items by (container number, EPK, id)
// Range-index entries by (container, physical partition, path, value, EPK, id); the
// encoding below the prefix belongs to src/index/index_key.h.
inline constexpr char kIndexSpace = '\x11';
// Unique-key entries by (container, EPK, key number, values) -> item id; the encoding
// below the prefix belongs to src/engine/unique_keys.h.
inline constexpr char kUniqueSpace = '\x12';
// Change-feed entries by (container, physical partition, LSN) -> item key suffix; the
// encoding below the prefix belongs to src/engine/change_feed.h.
inline constexpr char kChangeFeedSpace = '\x13';
// Logical partition sizes by (container, EPK) -> counter (storage/counter.h) of items
// and bytes, labelled with the partition key value as JSON.
inline constexpr char kLogicalPartitionSpace = '\x14';
// Items in creation (_rid) order, per physical partition and per logical partition;
// the encoding below the prefix belongs to src/engine/creation_order.h.
inline constexpr char kCreationOrderSpace = '\x15';
// Items by expiry (own ttl) or by write time (container defaultTtl), for the TTL
// purge; the encoding below the prefix belongs to src/engine/expiry_index.h.
inline constexpr char kExpirySpace = '\x16';
// Server-side scripts (stored procedures, triggers, user-defined functions) by
// (container, type byte, id) -> the resource's JSON.
inline constexpr char kScriptSpace = '\x17';

std::string Meta(std::string_view name);
// A script of a container: `type` is the script type's byte (engine/script_catalog.h).
std::string Script(uint32_t container_number, char type, std::string_view id);
// All scripts of a container.
std::string ScriptsBegin(uint32_t container_number);
std::string ScriptsEnd(uint32_t container_number);
std::string Database(std::string_view database_id);
// All databases: [DatabasesBegin(), DatabasesEnd()).
std::string DatabasesBegin();
std::string DatabasesEnd();
std::string Container(std::string_view database_id, std::string_view container_id);
// All containers of one database.
std::string ContainersBegin(std::string_view database_id);
std::string ContainersEnd(std::string_view database_id);

// Items of a container are ordered by EPK (uppercase hex, so byte order is string
// order), then by id; the 0x00 after the EPK keeps shorter EPKs first.
std::string Item(uint32_t container_number, std::string_view epk, std::string_view id);
// The part of an item key after its container: EPK 0x00 id (what continuations, the
// change feed and index entries point at).
std::string ItemSuffix(std::string_view epk, std::string_view id);
// First key whose EPK is >= epk.
std::string ItemsFrom(uint32_t container_number, std::string_view epk);
// First key past every item of the container.
std::string ItemsEnd(uint32_t container_number);
// Splits an item key into its EPK and id; false if it is not an item key.
bool ParseItem(std::string_view key, std::string_view& epk, std::string_view& id);

// The size counter of one logical partition (its full EPK), and all of a container's.
std::string LogicalPartition(uint32_t container_number, std::string_view epk);
std::string LogicalPartitionsBegin(uint32_t container_number);
std::string LogicalPartitionsEnd(uint32_t container_number);
// The EPK of a logical partition key.
std::string_view LogicalPartitionEpk(std::string_view key);

}  // namespace orrery::storage::keys
