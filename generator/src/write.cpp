// Table file writer: stored values, block compression, atomic write.
#include <zstd.h>

#include <algorithm>
#include <memory>
#include <new>
#include <system_error>

#include "pawntb/format/stored.hpp"
#include "pawntb/generator.hpp"
#include "pawntb/util/threads.hpp"
#include "pawntb/util/zstd.hpp"
#include "run_index.hpp"
#include "table_writer.hpp"

namespace pawntb {

namespace generator_detail {

using format::Block;
using format::block_count_for;
using format::blocks_offset;
using format::checksum64;
using format::DiskBlock;
using format::encode_block_index;
using format::encode_header;
using format::EntryKind;
using format::for_each_span;
using format::Header;
using format::Index;
using format::kHeaderSize;
using format::placement_count;
using format::Plies;
using game::BoardSymmetry;

namespace {

// Index entries per block, the unit of parallel compression and of lazy
// loading: small enough that the 4x4 table's 5 blocks keep several threads
// busy and that a lazy block loads quickly (docs/benchmarks.md).
constexpr std::uint32_t kBlockEntries = 1 << 16;

// Blocks compressed together, in parallel: 4 MiB of values.
constexpr std::uint32_t kBatchBlocks = 64;

// The cheapest zstd level close in size to the slowest ones (docs/benchmarks.md).
constexpr int kCompressionLevel = 13;

// A compression context at that level for a block: zstd 1.5's estimate,
// ZSTD_estimateCCtxSize_usingCParams(ZSTD_getCParams(13, 65536, 0)). Each
// worker of a writer keeps one (compress()). (Measured: generating
// 5x5 peaks 8.7 MiB higher on 8 threads than on 1, 1.27 MiB a thread.)
constexpr std::uint64_t kContextBytes = 1'469'024;

// ZSTD_compressCCtx on a context kept from block to block: the same frame as
// ZSTD_compress, which makes and frees a context of 1.4 MiB each call (page
// faults and clearing, 2 % of a 6x5 run: docs/benchmarks.md).
std::vector<std::uint8_t> compress(util::ZstdCompressor& context, std::span<const std::uint8_t> raw,
                                   int level) {
  if (!context) context.reset(ZSTD_createCCtx());
  if (!context) throw std::bad_alloc();
  std::vector<std::uint8_t> frame(ZSTD_compressBound(raw.size()));
  const std::size_t size =
      ZSTD_compressCCtx(context.get(), frame.data(), frame.size(), raw.data(), raw.size(), level);
  if (ZSTD_isError(size)) {
    throw GenerateError(std::string("zstd compression failed: ") + ZSTD_getErrorName(size));
  }
  frame.resize(size);
  return frame;
}

}  // namespace

std::uint64_t write_file(const std::filesystem::path& path,
                         const std::function<std::uint64_t(ByteSink&)>& fill,
                         void (*on_temp_file)(const char* path), util::Flush flush) {
  try {
    return util::write_file_atomically(path, fill, on_temp_file, flush);
  } catch (const std::system_error& e) {
    throw GenerateError(e.what());
  }
}

TableWriter::TableWriter(const Index& index, ByteSink& sink, unsigned threads,
                         const ProgressCallback& on_progress, const Resume& resume)
    : index_(index),
      sink_(sink),
      threads_(threads),
      on_progress_(on_progress),
      symmetry_(std::make_unique<BoardSymmetry>(index.geometry())) {
  const std::uint64_t count = block_count_for(index.size(), kBlockEntries);
  if (count > UINT32_MAX) throw GenerateError("table too large: more than 2^32 blocks");
  block_count_ = static_cast<std::uint32_t>(count);
  next_offset_ = blocks_offset(block_count_);
  if (resume.blocks > 0) {
    next_block_ = resume.blocks;
    next_offset_ = resume.offset;
    batch_first_ = std::uint64_t{resume.blocks} * kBlockEntries;
    index_checksum_.update(resume.index_prefix);
  }
  batch_.reserve(std::uint64_t{kBatchBlocks} * kBlockEntries);
}

std::uint32_t TableWriter::block_entries() {
  return kBlockEntries;
}

// batch = min(entries, 4 MiB) values; its frames, each allocated at
// ZSTD_compressBound(block) and zeroed (about the block again); per busy
// thread a context and the block's stored values. Example: 5x5 (182,544,682
// entries) on 2 threads: 4 MiB + 64 frames of 65,824 bytes + 2 * (1,469,024 +
// 65,536) bytes = 11,476,160 bytes.
std::uint64_t TableWriter::memory_bytes(std::uint64_t entries, unsigned threads) {
  constexpr std::uint64_t kBatchEntries = std::uint64_t{kBatchBlocks} * kBlockEntries;
  const std::uint64_t batch = std::min(entries, kBatchEntries);
  const std::uint64_t block = std::min<std::uint64_t>(entries, kBlockEntries);
  const std::uint64_t blocks = block_count_for(batch, kBlockEntries);
  const std::uint64_t busy = std::min<std::uint64_t>(std::max(threads, 1u), blocks);
  return batch + blocks * ZSTD_compressBound(block) + busy * (kContextBytes + block);
}

void TableWriter::append(std::span<const Plies> values) {
  constexpr std::uint64_t kBatchEntries = std::uint64_t{kBatchBlocks} * kBlockEntries;
  while (!values.empty()) {
    const std::size_t take = std::min<std::size_t>(values.size(), kBatchEntries - batch_.size());
    batch_.insert(batch_.end(), values.begin(), values.begin() + static_cast<std::ptrdiff_t>(take));
    values = values.subspan(take);
    if (batch_.size() == kBatchEntries) flush_batch();
  }
}

// Compresses the batch's blocks on the threads and writes their frames in
// order.
void TableWriter::flush_batch() {
  if (batch_.empty()) return;
  const std::uint32_t first = next_block_;
  const auto count = static_cast<std::uint32_t>(block_count_for(batch_.size(), kBlockEntries));
  std::vector<std::vector<std::uint8_t>> frames(count);
  std::vector<Block> blocks(count);
  contexts_.resize(std::max(threads_, 1u));
  util::parallel_for("table write", threads_, count, [&](std::uint64_t i, unsigned worker) {
    const std::uint64_t begin = i * kBlockEntries;
    const std::uint64_t end = std::min<std::uint64_t>(begin + kBlockEntries, batch_.size());
    // The stored values of the block: those of entries that are not filler,
    // in index order (FORMAT.md, section 7).
    std::vector<std::uint8_t> stored;
    for_each_span(index_, *symmetry_, batch_first_ + begin, batch_first_ + end,
                  [&](std::uint64_t at, std::uint64_t n, EntryKind kind) {
                    if (kind != EntryKind::stored) return;
                    const auto from =
                        batch_.begin() + static_cast<std::ptrdiff_t>(at - batch_first_);
                    stored.insert(stored.end(), from, from + static_cast<std::ptrdiff_t>(n));
                  });
    blocks[i].stored = static_cast<std::uint32_t>(stored.size());
    frames[i] = compress(contexts_[worker], stored, kCompressionLevel);
  });
  for (std::uint32_t i = 0; i < count; ++i) {
    Block& block = blocks[i];
    block.offset = next_offset_;
    block.compressed_size = static_cast<std::uint32_t>(frames[i].size());
    block.checksum = checksum64(frames[i]);
    sink_.write_at(next_offset_, frames[i]);
    next_offset_ += frames[i].size();
  }
  const std::vector<std::uint8_t> entries = encode_block_index(blocks);
  sink_.write_at(kHeaderSize + std::uint64_t{first} * sizeof(DiskBlock), entries);
  index_checksum_.update(entries);
  next_block_ += count;
  batch_first_ += batch_.size();
  batch_.clear();
  if (on_batch) on_batch(next_block_, next_offset_);
  if (on_progress_ && next_block_ < block_count_) {
    on_progress_(Progress{"compress",
                          static_cast<double>(next_block_) / static_cast<double>(block_count_)});
  }
}

std::uint64_t TableWriter::finish(const TableTotals& totals) {
  flush_batch();
  if (batch_first_ != index_.size()) throw GenerateError("internal error: values missing");
  Header h;
  h.geometry = index_.geometry();
  h.max_pawns = index_.max_pawns();
  h.entry_count = index_.size();
  h.placement_count = placement_count(h.geometry, h.max_pawns);
  h.block_entries = kBlockEntries;
  h.block_count = block_count();
  h.file_size = next_offset_;
  h.max_plies = totals.max_plies;
  h.index_checksum = index_checksum_.value();
  h.win_count = totals.win_count;
  h.longest_index = totals.longest_index;
  const auto header = encode_header(h);
  sink_.write_at(0, header);
  if (on_progress_) on_progress_(Progress{"compress", 1.0});
  return next_offset_;
}

}  // namespace generator_detail

namespace {

generator_detail::TableTotals totals_of(const SolvedTable& table) {
  return generator_detail::TableTotals{table.win_count, table.max_plies, table.longest_index};
}

}  // namespace

std::vector<std::uint8_t> encode_table(const SolvedTable& table, unsigned threads,
                                       const ProgressCallback& on_progress) {
  const format::Index index = generator_detail::build_index(table.geometry, table.max_pawns);
  util::MemorySink sink;
  generator_detail::TableWriter writer(index, sink, util::thread_count(threads), on_progress);
  writer.append(table.values);
  writer.finish(totals_of(table));
  return std::move(sink.bytes);
}

namespace generator_detail {

WriteSummary write_table(const Index& index, const SolvedTable& table,
                         const std::filesystem::path& path, unsigned threads,
                         void (*on_temp_file)(const char* path),
                         const ProgressCallback& on_progress) {
  std::uint32_t blocks = 0;
  const std::uint64_t size = write_file(
      path,
      [&](util::ByteSink& sink) {
        TableWriter writer(index, sink, util::thread_count(threads), on_progress);
        writer.append(table.values);
        blocks = writer.block_count();
        return writer.finish(totals_of(table));
      },
      on_temp_file);
  return WriteSummary{size, blocks};
}

}  // namespace generator_detail

WriteSummary write_table(const SolvedTable& table, const std::filesystem::path& path,
                         unsigned threads, void (*on_temp_file)(const char* path),
                         const ProgressCallback& on_progress) {
  return generator_detail::write_table(
      generator_detail::build_index(table.geometry, table.max_pawns), table, path, threads,
      on_temp_file, on_progress);
}

}  // namespace pawntb
