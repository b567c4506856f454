// The table file layout shared by the writer (generator) and the reader
// (probe). format/FORMAT.md specifies the same bytes in prose.
//
// All multi-byte integers are little-endian, read and written through
// LittleEndian<T> so that the host's byte order never leaks into the file.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "pawntb/position.hpp"

namespace pawntb::format {

class Index;

// XXH3-64 of the bytes (seed 0). Used for every checksum in the file.
std::uint64_t checksum64(std::span<const std::uint8_t> bytes);

// checksum64 of bytes that come in pieces: update() with each piece in
// order, then value(). Throws std::bad_alloc from the constructor only.
class Checksum64Stream {
 public:
  Checksum64Stream();
  ~Checksum64Stream();
  Checksum64Stream(const Checksum64Stream&) = delete;
  Checksum64Stream& operator=(const Checksum64Stream&) = delete;
  void update(std::span<const std::uint8_t> bytes) noexcept;
  std::uint64_t value() const noexcept;  // of everything given since construction or reset()
  void reset() noexcept;

 private:
  struct State;  // XXH3_state_t
  State* state_;
};

// An unsigned integer stored as sizeof(T) little-endian bytes, alignment 1.
template <class T>
struct LittleEndian {
  std::array<std::uint8_t, sizeof(T)> bytes{};
  constexpr T get() const {
    T v = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i) v |= static_cast<T>(T{bytes[i]} << (8 * i));
    return v;
  }
  constexpr void set(T v) {
    for (std::size_t i = 0; i < sizeof(T); ++i) bytes[i] = static_cast<std::uint8_t>(v >> (8 * i));
  }
};
using Le16 = LittleEndian<std::uint16_t>;
using Le32 = LittleEndian<std::uint32_t>;
using Le64 = LittleEndian<std::uint64_t>;

inline constexpr std::array<std::uint8_t, 8> kMagic = {'P', 'A', 'W', 'N', 'T', 'B', 0x1A, '\n'};
inline constexpr std::uint16_t kFormatVersion = 3;
inline constexpr std::uint8_t kValueEncodingPlies = 1;  // entry = plies, odd = mover wins
inline constexpr std::uint8_t kIndexSchemeTiers = 2;    // the tiered index, format/index.hpp
inline constexpr std::uint8_t kCompressionZstd = 1;     // each block one zstd frame

// Entries that are filler, left out of the blocks because the reader knows
// their values by rule or never reads them (FORMAT.md, "Filler entries").
enum FillerRule : std::uint8_t {
  kFillMirror = 1,    // the mirror image has the smaller (white, black) pair
  kFillWinInOne = 2,  // white can reach row 0 at once: win in 1
  kFillNoMove = 4,    // white has no legal move: loss in 0
};
inline constexpr std::uint8_t kFillerRules = kFillMirror | kFillWinInOne | kFillNoMove;

// The rules this build implements, as text. Its checksum is stored in every
// table; a table made under other rules is refused.
inline constexpr char kRulesText[] =
    "pawntb rules 1: pawns step straight forward onto an empty square or "
    "diagonally forward onto an enemy pawn, which is removed; no double step, "
    "no en passant, no promotion; reaching the far row wins; a side to move "
    "with no legal move loses; value = plies with fastest win, longest loss";
std::uint64_t rules_fingerprint();

// The file header: the first 128 bytes of the file.
struct DiskHeader {
  std::array<std::uint8_t, 8> magic;       // kMagic
  Le16 version;                            // kFormatVersion
  std::uint8_t rows;                       // 3..8
  std::uint8_t cols;                       // 3..8, rows * cols <= 64
  std::uint8_t max_pawns;                  // K, 1..cols
  std::uint8_t value_encoding;             // kValueEncodingPlies
  std::uint8_t index_scheme;               // kIndexSchemeTiers
  std::uint8_t filler_rules;               // kFillerRules
  Le64 rules_fingerprint;                  // rules_fingerprint()
  Le64 entry_count;                        // N, entries in the index, 1..2^62
  Le64 placement_count;                    // placements of 0..K pawns a side (informational)
  Le32 block_entries;                      // entries per block (the last may hold fewer), 2^0..2^24
  Le32 block_count;                        // ceil(N / block_entries)
  Le64 file_size;                          // bytes in the whole file
  std::uint8_t max_plies;                  // largest true value of an entry, 0..2*K*(rows-1)
  std::uint8_t compression;                // kCompressionZstd
  std::array<std::uint8_t, 6> reserved1;   // zero
  Le64 index_checksum;                     // checksum64 of the block index
  Le64 win_count;                          // entries that are wins for white, filler included
  Le64 longest_index;                      // an entry whose value is max_plies
  std::array<std::uint8_t, 32> reserved2;  // zero
  Le64 header_checksum;                    // checksum64 of bytes 0..119
};
// Every field at the offset FORMAT.md gives.
static_assert(sizeof(DiskHeader) == 128 && alignof(DiskHeader) == 1);
static_assert(offsetof(DiskHeader, magic) == 0 && offsetof(DiskHeader, version) == 8);
static_assert(offsetof(DiskHeader, rows) == 10 && offsetof(DiskHeader, cols) == 11);
static_assert(offsetof(DiskHeader, max_pawns) == 12 && offsetof(DiskHeader, value_encoding) == 13);
static_assert(offsetof(DiskHeader, index_scheme) == 14 && offsetof(DiskHeader, filler_rules) == 15);
static_assert(offsetof(DiskHeader, rules_fingerprint) == 16);
static_assert(offsetof(DiskHeader, entry_count) == 24);
static_assert(offsetof(DiskHeader, placement_count) == 32);
static_assert(offsetof(DiskHeader, block_entries) == 40 && offsetof(DiskHeader, block_count) == 44);
static_assert(offsetof(DiskHeader, file_size) == 48);
static_assert(offsetof(DiskHeader, max_plies) == 56 && offsetof(DiskHeader, compression) == 57);
static_assert(offsetof(DiskHeader, reserved1) == 58);
static_assert(offsetof(DiskHeader, index_checksum) == 64 && offsetof(DiskHeader, win_count) == 72);
static_assert(offsetof(DiskHeader, longest_index) == 80 && offsetof(DiskHeader, reserved2) == 88);
static_assert(offsetof(DiskHeader, header_checksum) == 120);

// One entry of the block index, which follows the header.
struct DiskBlock {
  Le64 offset;           // byte offset of the block's zstd frame in the file
  Le32 compressed_size;  // bytes of the frame, >= 1
  Le32 stored;           // decompressed size: the block's stored (non-filler) entries, bytes
  Le64 checksum;         // checksum64 of the frame's bytes
};
static_assert(sizeof(DiskBlock) == 24 && alignof(DiskBlock) == 1);
static_assert(offsetof(DiskBlock, offset) == 0 && offsetof(DiskBlock, compressed_size) == 8);
static_assert(offsetof(DiskBlock, stored) == 12 && offsetof(DiskBlock, checksum) == 16);

inline constexpr std::size_t kHeaderSize = sizeof(DiskHeader);

// The largest block a reader accepts (entries), so that loading one block
// needs at most 16 MiB whatever the header says.
inline constexpr std::uint32_t kMaxBlockEntries = 1u << 24;

// Decoded, host-order view of a header.
struct Header {
  Geometry geometry;
  int max_pawns = 0;              // K
  std::uint64_t entry_count = 0;  // N
  std::uint64_t placement_count = 0;
  std::uint32_t block_entries = 0;
  std::uint32_t block_count = 0;
  std::uint64_t file_size = 0;
  int max_plies = 0;  // 0..2*K*(rows-1)
  std::uint64_t index_checksum = 0;
  std::uint64_t win_count = 0;
  std::uint64_t longest_index = 0;
  std::uint64_t header_checksum = 0;  // filled in by encode/decode
};

struct Block {
  std::uint64_t offset = 0;
  std::uint32_t compressed_size = 0;
  std::uint32_t stored = 0;   // values in the frame, <= entries
  std::uint32_t entries = 0;  // index entries the block covers (not in the file)
  std::uint64_t checksum = 0;
};

// Why a header or block index was refused: names the check that failed.
struct LayoutError {
  std::string message;
};

// Placements of 0..K white and 0..K black pawns anywhere on the board.
std::uint64_t placement_count(Geometry g, int max_pawns);

// Serialises a header; sets the version, magic, constants and checksum.
std::array<std::uint8_t, kHeaderSize> encode_header(const Header& h);

// Checks magic, checksum, version, rules fingerprint, encodings, reserved
// bytes (zero), geometry, the counts and a power-of-two block size, then
// decodes. `file_size` is the actual size. The entry count is checked
// against the index by check_entry_count.
std::variant<Header, LayoutError> decode_header(std::span<const std::uint8_t> bytes,
                                                std::uint64_t file_size);

// That the index of the header's geometry (index, built once by the reader
// for probing) could be built, and that entry_count is its size.
std::optional<LayoutError> check_entry_count(const Header& h, const Index& index);

std::vector<std::uint8_t> encode_block_index(const std::vector<Block>& blocks);

// Checks the index checksum and that the blocks tile the file after the index
// exactly, none storing more values than the entries it covers.
std::variant<std::vector<Block>, LayoutError> decode_block_index(
    std::span<const std::uint8_t> bytes, const Header& h);

// Blocks needed for `entries` entries, block_entries to a block (the last
// may hold fewer): ceil(entries / block_entries).
constexpr std::uint64_t block_count_for(std::uint64_t entries, std::uint32_t block_entries) {
  return entries / block_entries + (entries % block_entries != 0);
}
static_assert(block_count_for(281328, 1 << 16) == 5 && block_count_for(1 << 16, 1 << 16) == 1);

// Byte offset of the first block: the header, then block_count DiskBlocks.
constexpr std::uint64_t blocks_offset(std::uint32_t block_count) {
  return kHeaderSize + std::uint64_t{block_count} * sizeof(DiskBlock);
}

}  // namespace pawntb::format
