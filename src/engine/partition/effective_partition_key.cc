// The effective partition key (EPK), byte-for-byte as @azure/cosmos 4.10.1 computes it
// (wire-protocol.md §11). The JS SDK is the reference because it computes EPKs itself
// for bulk, prefix change feeds and per-partition failover (§10.3): a server that
// hashed differently would route those requests to the wrong range.
// Test vectors: tests/testdata/epk-vectors.json (produced by the SDK's own code).
// persisted and wire-visible (EPKs bound the pkranges clients route by): never change
// the bytes.

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "engine/partition/murmur_hash3.h"
#include "engine/partition/partition_key.h"

namespace orrery::partition {

namespace {

// Type markers of the binary encoding (persisted: never renumber).
constexpr uint8_t kMarkerUndefined = 0x00;
constexpr uint8_t kMarkerNull = 0x01;
constexpr uint8_t kMarkerFalse = 0x02;
constexpr uint8_t kMarkerTrue = 0x03;
constexpr uint8_t kMarkerNumber = 0x05;
constexpr uint8_t kMarkerString = 0x08;
constexpr uint8_t kMarkerInfinity = 0xFF;

// V1 hashes and encodes only the first 100 UTF-16 code units of a string.
constexpr size_t kV1MaxStringUtf16Units = 100;

void AppendByte(std::string& out, uint8_t b) { out.push_back(static_cast<char>(b)); }

uint64_t DoubleBits(double d) {
  uint64_t bits = 0;
  static_assert(sizeof(bits) == sizeof(d));
  std::memcpy(&bits, &d, sizeof(bits));
  return bits;
}

// The 8 bytes of the IEEE-754 double, little-endian. The raw bits are used, so -0.0
// hashes differently from 0.0, exactly as in the SDK.
void AppendDoubleLittleEndian(std::string& out, double d) {
  const uint64_t bits = DoubleBits(d);
  for (int i = 0; i < 8; ++i) {
    AppendByte(out, static_cast<uint8_t>(bits >> (8 * i)));
  }
}

// Length of the UTF-8 sequence starting with `lead` and the number of UTF-16 code
// units its code point takes. Invalid lead bytes count as one byte, one unit; the
// JSON parser only hands us valid UTF-8.
struct Utf8Char {
  size_t bytes;
  size_t utf16_units;
};
Utf8Char ClassifyUtf8(unsigned char lead) {
  if (lead >= 0xF0 && lead <= 0xF7) {
    return {4, 2};
  }
  if (lead >= 0xE0) {
    return {lead <= 0xEF ? size_t{3} : size_t{1}, 1};
  }
  if (lead >= 0xC0) {
    return {2, 1};
  }
  return {1, 1};
}

// The UTF-8 bytes of s.substring(0, max_units) as JS's TextEncoder writes them. When
// the cut falls inside a surrogate pair, JS keeps a lone high surrogate, which
// TextEncoder encodes as U+FFFD (EF BF BD).
std::string Utf16Prefix(std::string_view s, size_t max_units) {
  size_t units = 0;
  size_t pos = 0;
  while (pos < s.size()) {
    const Utf8Char c = ClassifyUtf8(static_cast<unsigned char>(s[pos]));
    if (units + c.utf16_units > max_units) {
      if (units < max_units) {
        return std::string(s.substr(0, pos)) + "\xEF\xBF\xBD";
      }
      break;
    }
    units += c.utf16_units;
    pos += c.bytes;
  }
  return std::string(s.substr(0, pos < s.size() ? pos : s.size()));
}

// The number encoding of the V1 EPK ("NumberBinary", §11.1 step 3): an order-preserving
// transform of the double's bits, then the top byte, then 7-bit groups whose low bit
// says "more follows". Like the JS SDK (and unlike .NET/Java) a final group equal to
// 0x00 is not written; the vectors for 0, 2, 0.5 and -2 depend on this.
void AppendNumberBinary(std::string& out, double d) {
  uint64_t payload = DoubleBits(d);
  constexpr uint64_t kSignBit = 0x8000000000000000ULL;
  payload = payload < kSignBit ? payload ^ kSignBit : ~payload + 1;

  AppendByte(out, kMarkerNumber);
  AppendByte(out, static_cast<uint8_t>(payload >> 56));
  payload <<= 8;
  uint8_t byte_to_write = 0;
  bool first = true;
  do {
    if (!first && byte_to_write != 0) {
      AppendByte(out, byte_to_write);
    }
    first = false;
    byte_to_write = static_cast<uint8_t>((payload >> 56) | 0x01);
    payload <<= 7;
  } while (payload != 0);
  const auto last = static_cast<uint8_t>(byte_to_write & 0xFE);
  if (last != 0) {
    AppendByte(out, last);
  }
}

void AppendSingleByteMarker(std::string& out, const PartitionKeyComponent& c) {
  switch (c.kind) {
    case PartitionKeyComponent::Kind::kNull:
      AppendByte(out, kMarkerNull);
      return;
    case PartitionKeyComponent::Kind::kFalse:
      AppendByte(out, kMarkerFalse);
      return;
    case PartitionKeyComponent::Kind::kTrue:
      AppendByte(out, kMarkerTrue);
      return;
    default:
      AppendByte(out, kMarkerUndefined);
      return;
  }
}

// Hash input of one component for V1: strings are truncated and end with 0x00.
void AppendV1HashInput(std::string& out, const PartitionKeyComponent& c) {
  switch (c.kind) {
    case PartitionKeyComponent::Kind::kString:
      AppendByte(out, kMarkerString);
      out += Utf16Prefix(c.string, kV1MaxStringUtf16Units);
      AppendByte(out, kMarkerUndefined);
      return;
    case PartitionKeyComponent::Kind::kNumber:
      AppendByte(out, kMarkerNumber);
      AppendDoubleLittleEndian(out, c.number);
      return;
    default:
      AppendSingleByteMarker(out, c);
      return;
  }
}

// The component as it follows the hash in a V1 EPK. Strings: each UTF-8 byte plus one
// (UTF-8 never contains 0xFF), then 0x00. The JS SDK always writes the whole truncated
// prefix and the terminator; .NET/Java cut at 101 UTF-8 bytes instead, which differs
// only for non-ASCII prefixes longer than 100 bytes (wire-protocol.md §11.1 caveat b).
void AppendV1Component(std::string& out, const PartitionKeyComponent& c) {
  switch (c.kind) {
    case PartitionKeyComponent::Kind::kString: {
      AppendByte(out, kMarkerString);
      for (const char ch : Utf16Prefix(c.string, kV1MaxStringUtf16Units)) {
        const auto b = static_cast<uint8_t>(ch);
        AppendByte(out, b < 0xFF ? static_cast<uint8_t>(b + 1) : b);
      }
      AppendByte(out, kMarkerUndefined);
      return;
    }
    case PartitionKeyComponent::Kind::kNumber:
      AppendNumberBinary(out, c.number);
      return;
    default:
      AppendSingleByteMarker(out, c);
      return;
  }
}

// Hash input of one component for V2: full strings, terminated by 0xFF.
void AppendV2HashInput(std::string& out, const PartitionKeyComponent& c) {
  switch (c.kind) {
    case PartitionKeyComponent::Kind::kString:
      AppendByte(out, kMarkerString);
      out += c.string;
      AppendByte(out, kMarkerInfinity);
      return;
    case PartitionKeyComponent::Kind::kNumber:
      AppendByte(out, kMarkerNumber);
      AppendDoubleLittleEndian(out, c.number);
      return;
    default:
      AppendSingleByteMarker(out, c);
      return;
  }
}

void AppendHex(std::string& out, std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  for (const char ch : bytes) {
    const auto b = static_cast<uint8_t>(ch);
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 0x0F]);
  }
}

std::string HashV1(const PartitionKeyComponent& c) {
  std::string input;
  AppendV1HashInput(input, c);
  const uint32_t hash = MurmurHash3X86_32(input);
  std::string bytes;
  AppendNumberBinary(bytes, static_cast<double>(hash));
  AppendV1Component(bytes, c);
  std::string epk;
  AppendHex(epk, bytes);
  return epk;
}

// MurmurHash3_x64_128 of the input, its 16 output bytes LE64(h1) ++ LE64(h2) reversed
// (= BE64(h2) ++ BE64(h1)), top two bits cleared: 32 hex chars, first one 0-3.
void AppendHashV2(std::string& epk, const PartitionKeyComponent* begin,
                  const PartitionKeyComponent* end) {
  std::string input;
  for (const PartitionKeyComponent* c = begin; c != end; ++c) {
    AppendV2HashInput(input, *c);
  }
  const Hash128 hash = MurmurHash3X64_128(input);
  std::string bytes;
  for (const uint64_t h : {hash.h2, hash.h1}) {
    for (int i = 7; i >= 0; --i) {
      AppendByte(bytes, static_cast<uint8_t>(h >> (8 * i)));
    }
  }
  bytes[0] = static_cast<char>(static_cast<uint8_t>(bytes[0]) & 0x3F);
  AppendHex(epk, bytes);
}

}  // namespace

std::string V1HashPrefix(uint32_t hash) {
  std::string bytes;
  AppendNumberBinary(bytes, static_cast<double>(hash));
  std::string epk;
  AppendHex(epk, bytes);
  return epk;
}

std::string EffectivePartitionKey(const PartitionKeyDefinition& definition,
                                  const PartitionKeyValue& value) {
  // The empty key [] of a systemKey container (its items without a value under the
  // system path) is the least EPK, as the service's PartitionKeyInternal.Empty is (the
  // Java and Python SDKs route it to the range that starts at "").
  if (value.empty()) return std::string();
  const PartitionKeyComponent* begin = value.data();
  const PartitionKeyComponent* end = value.data() + value.size();
  std::string epk;
  if (definition.kind == PartitionKind::kMultiHash) {
    // Each level hashed on its own, so a prefix key yields a prefix of the EPK.
    for (const PartitionKeyComponent* c = begin; c != end; ++c) {
      AppendHashV2(epk, c, c + 1);
    }
    return epk;
  }
  if (definition.version == 2) {
    AppendHashV2(epk, begin, end);
    return epk;
  }
  // V1 hashes the first component only.
  return HashV1(value.front());
}

EpkRange PrefixEpkRange(const PartitionKeyDefinition& definition, const PartitionKeyValue& prefix) {
  std::string min = EffectivePartitionKey(definition, prefix);
  std::string max = min + "FF";
  return {std::move(min), std::move(max)};
}

}  // namespace orrery::partition
