// What the whole-table checks see of an opened pawntb::Table: the header's
// facts (TableInfo), an index and symmetry of their own for its geometry,
// and its blocks through pawntb::BlockReader, decoded in bulk on threads.
// Nothing of probe's internals.
#pragma once

#include <cstdint>
#include <new>
#include <optional>
#include <vector>

#include "pawntb/block_reader.hpp"
#include "pawntb/format/index.hpp"
#include "pawntb/game/bitboard.hpp"
#include "pawntb/probe.hpp"
#include "pawntb/util/threads.hpp"

namespace pawntb::check {

// The header's facts the checks use, under the file header's names
// (FORMAT.md section 9), from TableInfo.
struct TableFacts {
  Geometry geometry;
  std::uint64_t entry_count = 0;
  std::uint32_t block_count = 0, block_entries = 0;
  std::uint64_t header_checksum = 0;
  std::uint64_t win_count = 0;      // white wins among the entries
  int max_plies = 0;                // the longest game
  std::uint64_t longest_index = 0;  // the entry of the header's longest example
};

class TableView {
 public:
  // Throws std::bad_alloc.
  explicit TableView(const Table& table);

  const Table& table;
  const TableInfo& info;
  format::Index index;
  game::BoardSymmetry symmetry;
  TableFacts header;
  unsigned block_shift = 0;  // log2(header.block_entries)
  // Every entry when the table was loaded at open, else nullptr (BlockReader).
  const std::uint8_t* loaded_entries = nullptr;

 private:
  BlockReader reader_;  // keeps loaded_entries valid
};

// A block that decode_block_list could not use: its number and what went
// wrong (BlockReader::read's phrase, or "out of memory").
struct BlockFailure {
  std::uint32_t block;
  const char* error;
};

// Decodes the blocks block_of(0), ..., block_of(count - 1) of t on `threads`
// threads (util::parallel_for, "check decode"; each thread with a
// BlockReader of its own) into where(b, scratch): where block b's entries
// go, which may be `scratch`, a buffer of the thread's own (where may
// resize it). Returns the failures in the order of block_of.
template <class Where, class BlockOf>
std::vector<BlockFailure> decode_block_list(const TableView& t, unsigned threads, Where where,
                                            std::uint32_t count, BlockOf block_of) {
  std::vector<std::optional<BlockFailure>> failures(count);
  struct alignas(util::kCacheLineBytes) Worker {
    std::optional<BlockReader> reader;
    std::vector<std::uint8_t> scratch;
  };
  std::vector<Worker> workers(util::workers_for(threads, count));
  util::parallel_for("check decode", threads, count, [&](std::uint64_t i, unsigned w) {
    const std::uint32_t b = block_of(i);
    Worker& worker = workers[w];
    try {
      if (!worker.reader) worker.reader.emplace(t.table);
      if (const char* error = worker.reader->read(b, where(b, worker.scratch))) {
        failures[i] = BlockFailure{b, error};
      }
    } catch (const std::bad_alloc&) {
      failures[i] = BlockFailure{b, "out of memory"};
    }
  });
  std::vector<BlockFailure> out;
  for (const auto& failure : failures) {
    if (failure) out.push_back(*failure);
  }
  return out;
}

// The blocks [first, end) of t, as decode_block_list.
template <class Where>
std::vector<BlockFailure> decode_blocks(const TableView& t, unsigned threads, Where where,
                                        std::uint32_t first, std::uint32_t end) {
  return decode_block_list(t, threads, where, end - first,
                           [&](std::uint64_t i) { return first + static_cast<std::uint32_t>(i); });
}

}  // namespace pawntb::check
