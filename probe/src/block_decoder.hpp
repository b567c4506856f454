// The block decoder: checks and decompresses a table's blocks, one for the
// cache (decode_for_cache) or many on a thread pool (decode_blocks), for
// open's full load and the whole-table scans.
#pragma once

#include <zstd.h>

#include <cstdint>
#include <new>
#include <optional>
#include <span>
#include <vector>

#include "pawntb/util/file.hpp"
#include "pawntb/util/threads.hpp"
#include "pawntb/util/zstd.hpp"
#include "table_impl.hpp"

namespace pawntb::probe_detail {

using format::Block;
using format::Index;
using game::BoardSymmetry;

// Checks a block's frame, decompresses its stored values and puts them at
// their entries in out (block.entries bytes, from index `first`); entries a
// rule decides get their value (win in one 1, no move 0), mirror images 0.
// The values are decompressed into the end of out and moved down span by
// span: the k-th stored entry and everything before it sit at or before
// position k + (filler entries before it), where its value was read from.
// Returns a static message, or nullptr on success; allocates nothing.
const char* decode_block(ZSTD_DCtx* zstd, const Index& index, const BoardSymmetry& symmetry,
                         std::uint64_t first, const Block& block,
                         std::span<const std::uint8_t> frame, std::uint8_t* out) noexcept;

// A block that decode_blocks could not use: its number and what went wrong
// (decode_block's message, "out of memory"), or nullptr if it could not be
// read.
struct BlockFailure {
  std::uint32_t block;
  const char* error;
};

// Decodes the blocks block_of(0), ..., block_of(count - 1) of t, in
// increasing order, on `threads` threads (util::parallel_for, "probe decode";
// each thread with its own zstd context), into where(b, scratch): where block
// b's entries go, which may be `scratch`, a buffer of the thread's own (where
// may resize it). Returns the failures in block order. Does not touch t.zstd,
// so that it may run beside probes.
template <class Where, class BlockOf>
std::vector<BlockFailure> decode_block_list(const TableData& t, unsigned threads, Where where,
                                            std::uint32_t count, BlockOf block_of) {
  std::vector<std::optional<BlockFailure>> failures(count);
  struct alignas(util::kCacheLineBytes) Worker {
    util::ZstdDecompressor zstd;
    std::vector<std::uint8_t> frame, scratch;
  };
  std::vector<Worker> workers(util::workers_for(threads, count));
  util::parallel_for("probe decode", threads, count, [&](std::uint64_t i, unsigned w) {
    const std::uint32_t b = block_of(i);
    const Block& block = t.blocks[b];
    Worker& worker = workers[w];
    std::uint8_t* out = nullptr;
    try {
      if (!worker.zstd) worker.zstd.reset(ZSTD_createDCtx());
      if (!worker.zstd) throw std::bad_alloc();
      worker.frame.resize(block.compressed_size);
      out = where(b, worker.scratch);
    } catch (const std::bad_alloc&) {
      failures[i] = BlockFailure{b, "out of memory"};
      return;
    }
    if (!util::read_at(t.file.get(), worker.frame, block.offset)) {
      failures[i] = BlockFailure{b, nullptr};
      return;
    }
    const std::uint64_t first_entry = std::uint64_t{b} * t.header.block_entries;
    if (const char* error = decode_block(worker.zstd.get(), t.index, t.symmetry, first_entry, block,
                                         worker.frame, out)) {
      failures[i] = BlockFailure{b, error};
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
std::vector<BlockFailure> decode_blocks(const TableData& t, unsigned threads, Where where,
                                        std::uint32_t first, std::uint32_t end) {
  return decode_block_list(t, threads, where, end - first,
                           [&](std::uint64_t i) { return first + static_cast<std::uint32_t>(i); });
}

// The cache's way of decoding a block of the table (BlockCache::Decode).
BlockCache::Failure decode_for_cache(const void* context, std::uint32_t b,
                                     std::uint8_t* out) noexcept;

}  // namespace pawntb::probe_detail
