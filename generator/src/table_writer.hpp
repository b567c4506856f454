// The table file's bytes from its values in index order, streamed: the
// values come in pieces (a tier at a time from a work directory, or all at
// once from memory), are cut into blocks, compressed a batch at a time and
// written where the layout puts them (FORMAT.md, sections 2-5): each
// batch's frames, then its entries of the block index, whose checksum is
// kept as it goes. Memory: one batch of blocks, whatever the table's size.
// A writer can start where another stopped after a batch (Resume), which
// makes the same bytes: assembly resumes from its checkpoint this way.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "pawntb/format/index.hpp"
#include "pawntb/format/layout.hpp"
#include "pawntb/format/values.hpp"
#include "pawntb/progress.hpp"
#include "pawntb/util/atomic_file.hpp"
#include "pawntb/util/zstd.hpp"

namespace pawntb::generator_detail {

using format::Block;
using format::Checksum64Stream;
using format::Index;
using format::Plies;
using game::BoardSymmetry;

using util::ByteSink;

// util::write_file_atomically (the table, tier files, the work directory's
// manifest), with its own failures thrown as GenerateError, whose message
// names the file; fill's exceptions pass as they are.
std::uint64_t write_file(const std::filesystem::path& path,
                         const std::function<std::uint64_t(ByteSink&)>& fill,
                         void (*on_temp_file)(const char* path) = nullptr,
                         util::Flush flush = util::Flush::file_and_directory);

// The header's statistics (FORMAT.md, section 3).
struct TableTotals {
  std::uint64_t win_count = 0;
  int max_plies = 0;
  std::uint64_t longest_index = 0;
};

// Where an earlier TableWriter stopped: after `blocks` blocks, their frames
// ending at `offset`, with `index_prefix` the bytes of their block index
// entries (as written to the sink).
struct WriterResume {
  std::uint32_t blocks = 0;
  std::uint64_t offset = 0;
  std::span<const std::uint8_t> index_prefix;
};

class TableWriter {
 public:
  using Resume = WriterResume;

  // Writes the table of `index` to `sink`, compressing on `threads` threads
  // (>= 1; util::parallel_for, "table write"); `on_progress` gets stage
  // "compress" (blocks done). With `resume`, the next value appended is that
  // of entry resume.blocks * block_entries().
  TableWriter(const Index& index, ByteSink& sink, unsigned threads,
              const ProgressCallback& on_progress, const Resume& resume = {});

  // The next values in index order.
  void append(std::span<const Plies> values);

  // Called after each batch is in the sink, with the blocks written so far
  // and where their frames end (a Resume's blocks and offset).
  std::function<void(std::uint32_t blocks, std::uint64_t offset)> on_batch;

  static std::uint32_t block_entries();
  // The most bytes a writer of a table of `entries` entries holds on
  // `threads` threads, for the memory plan (memory.hpp): the batch, its
  // blocks' frames, and a zstd context and a block's stored values for each
  // thread that compresses (one per block of the batch at most).
  static std::uint64_t memory_bytes(std::uint64_t entries, unsigned threads);
  // XXH3-64 of the block index entries written so far.
  std::uint64_t index_checksum() const { return index_checksum_.value(); }

  // After all size() values: writes the last blocks, the block index and the
  // header. Returns the file size.
  std::uint64_t finish(const TableTotals& totals);

  std::uint32_t block_count() const { return block_count_; }

 private:
  void flush_batch();

  const Index& index_;
  ByteSink& sink_;
  unsigned threads_;
  const ProgressCallback& on_progress_;
  std::unique_ptr<BoardSymmetry> symmetry_;  // 32 KiB: not on the stack
  std::uint32_t block_count_ = 0;
  Checksum64Stream index_checksum_;          // of the block index entries written
  std::vector<Plies> batch_;                 // values of the blocks not yet written
  std::uint64_t batch_first_ = 0;            // index of batch_[0]
  std::uint32_t next_block_ = 0;             // the first block of the batch
  std::uint64_t next_offset_ = 0;            // where its frame goes
  std::vector<util::ZstdCompressor> contexts_;  // one per worker, made on first use
};

}  // namespace pawntb::generator_detail
