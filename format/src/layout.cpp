#include "pawntb/format/layout.hpp"

#include <bit>
#include <cstring>

#include "pawntb/format/index.hpp"

namespace pawntb::format {

std::uint64_t rules_fingerprint() {
  return checksum64({reinterpret_cast<const std::uint8_t*>(kRulesText), sizeof(kRulesText) - 1});
}

std::uint64_t placement_count(Geometry g, int max_pawns) {
  std::uint64_t total = 0;
  for (int w = 0; w <= max_pawns; ++w) {
    for (int b = 0; b <= max_pawns; ++b) {
      total += binomial(g.squares(), w) * binomial(g.squares() - w, b);
    }
  }
  return total;
}

namespace {

constexpr std::size_t kChecksummedHeaderBytes = offsetof(DiskHeader, header_checksum);

LayoutError fail(std::string message) {
  return LayoutError{std::move(message)};
}

template <std::size_t N>
bool all_zero(const std::array<std::uint8_t, N>& bytes) {
  for (const auto b : bytes) {
    if (b) return false;
  }
  return true;
}

}  // namespace

std::array<std::uint8_t, kHeaderSize> encode_header(const Header& h) {
  DiskHeader d{};
  d.magic = kMagic;
  d.version.set(kFormatVersion);
  d.rows = static_cast<std::uint8_t>(h.geometry.rows);
  d.cols = static_cast<std::uint8_t>(h.geometry.cols);
  d.max_pawns = static_cast<std::uint8_t>(h.max_pawns);
  d.value_encoding = kValueEncodingPlies;
  d.index_scheme = kIndexSchemeTiers;
  d.filler_rules = kFillerRules;
  d.rules_fingerprint.set(rules_fingerprint());
  d.entry_count.set(h.entry_count);
  d.placement_count.set(h.placement_count);
  d.block_entries.set(h.block_entries);
  d.block_count.set(h.block_count);
  d.file_size.set(h.file_size);
  d.max_plies = static_cast<std::uint8_t>(h.max_plies);
  d.compression = kCompressionZstd;
  d.index_checksum.set(h.index_checksum);
  d.win_count.set(h.win_count);
  d.longest_index.set(h.longest_index);
  std::array<std::uint8_t, kHeaderSize> bytes{};
  std::memcpy(bytes.data(), &d, kHeaderSize);
  d.header_checksum.set(checksum64({bytes.data(), kChecksummedHeaderBytes}));
  std::memcpy(bytes.data(), &d, kHeaderSize);
  return bytes;
}

std::variant<Header, LayoutError> decode_header(std::span<const std::uint8_t> bytes,
                                                std::uint64_t file_size) {
  if (bytes.size() < kHeaderSize || file_size < kHeaderSize) {
    return fail("file is " + std::to_string(file_size) + " bytes, shorter than the " +
                std::to_string(kHeaderSize) + "-byte header: not a pawntb table, or truncated");
  }
  DiskHeader d;
  std::memcpy(&d, bytes.data(), kHeaderSize);
  if (d.magic != kMagic) return fail("bad magic number: not a pawntb table");
  if (d.header_checksum.get() != checksum64(bytes.first(kChecksummedHeaderBytes))) {
    return fail("header checksum mismatch: the header is damaged");
  }
  if (d.version.get() != kFormatVersion) {
    return fail("format version " + std::to_string(d.version.get()) + ", this build reads " +
                std::to_string(kFormatVersion));
  }
  if (d.rules_fingerprint.get() != rules_fingerprint()) {
    return fail("rules fingerprint mismatch: the table was made under other rules");
  }
  if (d.value_encoding != kValueEncodingPlies || d.index_scheme != kIndexSchemeTiers ||
      d.filler_rules != kFillerRules || d.compression != kCompressionZstd) {
    return fail("unknown value encoding, index scheme, filler rules or compression");
  }
  if (!all_zero(d.reserved1) || !all_zero(d.reserved2)) return fail("reserved bytes are not zero");
  Header h;
  h.geometry = Geometry{d.rows, d.cols};
  h.max_pawns = d.max_pawns;
  if (!Index::valid_parameters(h.geometry, h.max_pawns)) {
    return fail("unsupported geometry " + to_string(h.geometry) +
                " with K = " + std::to_string(h.max_pawns));
  }
  h.entry_count = d.entry_count.get();
  h.placement_count = d.placement_count.get();
  h.block_entries = d.block_entries.get();
  h.block_count = d.block_count.get();
  h.file_size = d.file_size.get();
  h.max_plies = d.max_plies;
  h.index_checksum = d.index_checksum.get();
  h.win_count = d.win_count.get();
  h.longest_index = d.longest_index.get();
  h.header_checksum = d.header_checksum.get();
  if (!std::has_single_bit(h.block_entries) || h.block_entries > kMaxBlockEntries ||
      h.block_count != block_count_for(h.entry_count, h.block_entries)) {
    return fail("block size is not a power of two up to 2^24, or the block count does not match");
  }
  if (blocks_offset(h.block_count) > file_size) {
    return fail("the block index does not fit in the file: truncated");
  }
  if (h.file_size != file_size) {
    return fail("file is " + std::to_string(file_size) + " bytes, header says " +
                std::to_string(h.file_size) + ": truncated or extended");
  }
  if (h.max_plies > 2 * h.max_pawns * (h.geometry.rows - 1) || h.longest_index >= h.entry_count ||
      h.win_count > h.entry_count) {
    return fail("statistics out of range");
  }
  return h;
}

std::optional<LayoutError> check_entry_count(const Header& h, const Index& index) {
  if (index.too_large()) {
    return fail(to_string(h.geometry) + " with K = " + std::to_string(h.max_pawns) +
                " is too large to index");
  }
  if (h.entry_count != index.size()) {
    return fail("entry count " + std::to_string(h.entry_count) + " does not match the " +
                std::to_string(index.size()) + " positions of " + to_string(h.geometry) +
                " with K = " + std::to_string(h.max_pawns));
  }
  return std::nullopt;
}

std::vector<std::uint8_t> encode_block_index(const std::vector<Block>& blocks) {
  std::vector<std::uint8_t> bytes(blocks.size() * sizeof(DiskBlock));
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    DiskBlock d{};
    d.offset.set(blocks[i].offset);
    d.compressed_size.set(blocks[i].compressed_size);
    d.stored.set(blocks[i].stored);
    d.checksum.set(blocks[i].checksum);
    std::memcpy(bytes.data() + i * sizeof(DiskBlock), &d, sizeof(DiskBlock));
  }
  return bytes;
}

std::variant<std::vector<Block>, LayoutError> decode_block_index(
    std::span<const std::uint8_t> bytes, const Header& h) {
  if (bytes.size() != std::size_t{h.block_count} * sizeof(DiskBlock)) {
    return fail("block index is incomplete");
  }
  if (checksum64(bytes) != h.index_checksum) {
    return fail("block index checksum mismatch: the block index is damaged");
  }
  std::vector<Block> blocks(h.block_count);
  std::uint64_t expected_offset = blocks_offset(h.block_count);
  for (std::uint32_t i = 0; i < h.block_count; ++i) {
    DiskBlock d;
    std::memcpy(&d, bytes.data() + std::size_t{i} * sizeof(DiskBlock), sizeof(DiskBlock));
    Block& b = blocks[i];
    b.offset = d.offset.get();
    b.compressed_size = d.compressed_size.get();
    b.stored = d.stored.get();
    b.checksum = d.checksum.get();
    const std::uint64_t first = std::uint64_t{i} * h.block_entries;
    b.entries =
        static_cast<std::uint32_t>(std::min<std::uint64_t>(h.block_entries, h.entry_count - first));
    if (b.offset != expected_offset || b.compressed_size == 0 || b.stored > b.entries) {
      return fail("block " + std::to_string(i) + " has a bad offset, size or stored count");
    }
    expected_offset += b.compressed_size;
  }
  if (expected_offset != h.file_size) return fail("blocks do not end at the end of the file");
  return blocks;
}

}  // namespace pawntb::format
