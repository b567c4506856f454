// Internals of pawntb::Table, shared by its sources (open.cpp, probe.cpp,
// block_reader.cpp, ...). Nothing outside probe/src sees them: the
// whole-table walks read blocks through pawntb/block_reader.hpp.
#pragma once

#include <vector>

#include "block_cache.hpp"
#include "pawntb/format/index.hpp"
#include "pawntb/format/layout.hpp"
#include "pawntb/probe.hpp"
#include "pawntb/util/file.hpp"
#include "pawntb/util/zstd.hpp"

namespace pawntb::probe_detail {

using format::Block;
using format::Header;
using format::Index;
using game::BoardSymmetry;

struct TableData {
  TableData(Geometry g, int max_pawns) : index(g, max_pawns), symmetry(g) {}

  TableInfo info;
  Header header;
  Index index;
  BoardSymmetry symmetry;  // the header's geometry
  std::vector<Block> blocks;
  unsigned block_shift = 0;  // log2(header.block_entries)

  // Fully loaded tables: every entry, contiguous. Empty for lazy tables.
  std::vector<std::uint8_t> entries;
  const std::uint8_t* loaded_entries = nullptr;  // entries.data() once all are loaded

  // Lazy tables: the open file and the decoded blocks, a bounded number.
  util::FileDescriptor file;
  BlockCache cache;
  // What the cache's loads use, under its mutex: one decompression context,
  // made once, and the frame being read.
  util::ZstdDecompressor zstd;
  mutable std::vector<std::uint8_t> frame;

  // The stored byte of an index, or -1 if its block cannot be loaded. The
  // loaded case inline, the cache out of line: the probe's code stays small.
  [[gnu::always_inline]] int entry(std::uint64_t i) const noexcept {
    if (loaded_entries) [[likely]]
      return loaded_entries[i];
    return cached_entry(i);
  }
  [[gnu::noinline]] int cached_entry(std::uint64_t i) const noexcept { return cache.value(i); }
};

// The opened table behind a Table, for BlockReader, which is not Table's
// member so that a program that only probes links none of it.
struct TableAccess {
  static std::shared_ptr<const TableData> shared(const Table& table) noexcept {
    return table.impl_;
  }
};

}  // namespace pawntb::probe_detail
