// Internals of pawntb::Table, shared by table.cpp and verify.cpp.
#pragma once

#include <zstd.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "pawntb/detail/index.hpp"
#include "pawntb/detail/layout.hpp"
#include "pawntb/probe.hpp"

namespace pawntb::detail {

struct TableData {
  TableData(Geometry g, int max_pawns) : index(g, max_pawns), symmetry(g) {}
  ~TableData();

  TableInfo info;
  Header header;
  Index index;
  BoardSymmetry symmetry;  // the header's geometry
  std::vector<Block> blocks;
  unsigned block_shift = 0;  // log2(header.block_entries)

  // Fully loaded tables: every entry, contiguous. Empty for lazy tables.
  std::vector<std::uint8_t> entries;
  const std::uint8_t* loaded_entries = nullptr;  // entries.data() once all are loaded

  // One decompression context for every block: made once, not per block.
  struct FreeZstd {
    void operator()(ZSTD_DCtx* c) const { ZSTD_freeDCtx(c); }
  };
  std::unique_ptr<ZSTD_DCtx, FreeZstd> zstd;  // used under load_mutex once open

  // Lazy tables: the open file and one slot per block, filled on first use.
  int fd = -1;
  mutable std::vector<std::atomic<const std::uint8_t*>> loaded;
  // Why a block failed its checks, once it has (a static message; under
  // load_mutex): such a block is refused at once from then on. A block that
  // could not be read, or memory that ran out, is tried again.
  mutable std::vector<const char*> damaged;
  mutable std::vector<std::unique_ptr<std::uint8_t[]>> storage;
  mutable std::mutex load_mutex;

  // The stored byte of an index, or nullptr if its block cannot be loaded
  // (a pointer, which the probe's hot path handles in a register).
  const std::uint8_t* entry(std::uint64_t i) const noexcept {
    if (loaded_entries) [[likely]]
      return loaded_entries + i;
    return entry_from_block(i);
  }
  const std::uint8_t* entry_from_block(std::uint64_t i) const noexcept;
  // Block b's entries, loading it if needed; nullptr if it cannot be loaded,
  // with the reason (a static string) in *error when error is not null.
  const std::uint8_t* load_block(std::uint32_t b, const char** error = nullptr) const noexcept;
};

}  // namespace pawntb::detail
