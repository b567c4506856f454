// Whole-table scans: check_blocks and tier_checksums decode every block of
// a lazy table, read_entries a range of them.
#include <algorithm>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>

#include "pawntb/block_reader.hpp"
#include "pawntb/check.hpp"
#include "pawntb/format/layout.hpp"
#include "pawntb/util/threads.hpp"
#include "table_view.hpp"

namespace pawntb::check {

namespace {

std::vector<BlockDamage> damage_of(const std::vector<BlockFailure>& failures) {
  std::vector<BlockDamage> damage;
  for (const BlockFailure& failure : failures) {
    damage.push_back(BlockDamage{failure.block, failure.error});
  }
  return damage;
}

// Feeds entries, in index order, to one checksum per tier.
class TierChecksummer {
 public:
  explicit TierChecksummer(const format::Index& index) : tiers_(index.tiers()) {
    finish_ended_tiers();  // tiers without entries at the start
  }

  void add(std::span<const std::uint8_t> entries) {
    while (!entries.empty()) {
      const format::Index::Tier& tier = tiers_[out_.size()];
      const std::uint64_t take =
          std::min<std::uint64_t>(entries.size(), tier.first + tier.size - at_);
      stream_.update(entries.first(static_cast<std::size_t>(take)));
      entries = entries.subspan(static_cast<std::size_t>(take));
      at_ += take;
      finish_ended_tiers();
    }
  }
  std::vector<TierChecksum> take() { return std::move(out_); }

 private:
  // Closes every tier whose entries have all been added.
  void finish_ended_tiers() {
    while (out_.size() < tiers_.size() &&
           at_ == tiers_[out_.size()].first + tiers_[out_.size()].size) {
      const format::Index::Tier& tier = tiers_[out_.size()];
      out_.push_back(TierChecksum{static_cast<std::uint32_t>(out_.size()), tier.w, tier.b, tier.sw,
                                  tier.sb, tier.first, tier.size, stream_.value()});
      stream_.reset();
    }
  }

  std::span<const format::Index::Tier> tiers_;
  std::vector<TierChecksum> out_;
  std::uint64_t at_ = 0;  // entries added
  format::Checksum64Stream stream_;
};

constexpr std::uint32_t kBlocksAtOnce = 32;  // decoded together, then checksummed in order

}  // namespace

std::vector<BlockDamage> check_blocks(const Table& table, unsigned threads) {
  const TableView t(table);
  if (t.loaded_entries) return {};
  return damage_of(decode_blocks(
      t, util::thread_count(threads),
      [&](std::uint32_t, std::vector<std::uint8_t>& scratch) {
        scratch.resize(t.header.block_entries);
        return scratch.data();
      },
      0, t.header.block_count));
}

TierChecksums tier_checksums(const Table& table, unsigned threads) {
  const TableView t(table);
  TierChecksummer checksummer(t.index);
  if (t.loaded_entries) {
    checksummer.add(std::span(t.loaded_entries, t.header.entry_count));
    return {checksummer.take(), {}};
  }
  const std::uint64_t block_entries = t.header.block_entries;
  std::vector<std::uint8_t> decoded(kBlocksAtOnce * block_entries);
  TierChecksums out;
  for (std::uint32_t first = 0; first < t.header.block_count; first += kBlocksAtOnce) {
    const std::uint32_t end = std::min(t.header.block_count, first + kBlocksAtOnce);
    const auto failures = decode_blocks(
        t, util::thread_count(threads),
        [&](std::uint32_t b, auto&) { return decoded.data() + (b - first) * block_entries; }, first,
        end);
    if (!failures.empty()) {
      auto damage = damage_of(failures);
      out.damaged_blocks.insert(out.damaged_blocks.end(), damage.begin(), damage.end());
    }
    if (!out.damaged_blocks.empty()) continue;  // no checksums, only the damage
    const std::uint64_t entries = std::min<std::uint64_t>(
        std::uint64_t{end - first} * block_entries, t.header.entry_count - first * block_entries);
    checksummer.add(std::span(decoded.data(), static_cast<std::size_t>(entries)));
  }
  if (out.damaged_blocks.empty()) out.tiers = checksummer.take();
  return out;
}

void read_entries(const Table& table, std::uint64_t first, std::uint64_t count, std::uint8_t* out) {
  // No TableView: a walk calls this for every chunk, and needs no index.
  const TableInfo& info = table.info();
  const std::uint64_t n = info.entries;
  if (first > n || count > n - first) {
    throw std::out_of_range("read_entries: entries " + std::to_string(first) + " + " +
                            std::to_string(count) + " pass the table's " + std::to_string(n));
  }
  if (count == 0) return;
  BlockReader reader(table);
  if (const std::uint8_t* loaded = reader.loaded_entries()) {
    std::memcpy(out, loaded + first, count);
    return;
  }
  std::vector<std::uint8_t> scratch;
  const std::uint64_t end = first + count;
  const std::uint64_t block_entries = info.block_entries;
  for (auto b = static_cast<std::uint32_t>(first / block_entries); b <= (end - 1) / block_entries;
       ++b) {
    const BlockRange block = reader.range(b);
    const std::uint64_t from = std::max(first, block.first);
    const std::uint64_t to = std::min(end, block.first + block.count);
    // A whole block is decoded in place, one cut by the range beside it.
    const bool whole = from == block.first && to == block.first + block.count;
    if (!whole) scratch.resize(block.count);
    std::uint8_t* into = whole ? out + (from - first) : scratch.data();
    if (const char* error = reader.read(b, into)) {
      throw TableError(info.path.string() + ": block " + std::to_string(b) + ": " + error);
    }
    if (!whole) std::memcpy(out + (from - first), into + (from - block.first), to - from);
  }
}

}  // namespace pawntb::check
