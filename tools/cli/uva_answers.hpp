// The answers of `pawntb uva`, worked out on two threads and written in input
// order.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <thread>
#include <utility>
#include <vector>

#include "output.hpp"
#include "pawntb/probe.hpp"
#include "uva.hpp"

namespace pawntb::cli {

// The calling thread parses the input into batches of boards. A helper
// thread decodes the table while the first batches are parsed, then answers
// each batch as it comes, a chunk at a time (the judge's lines for each
// chunk put in place), and writes it. Once the table is open, the caller
// answers the first chunk of each batch it fills, its share; and when every
// slot holds a batch, it answers chunks of the newest unwritten batches
// (those the helper reaches last) until the oldest is written and its slot
// is free, so memory stays bounded.
//
// Used from one thread (the helper is internal). Errors in input order go to
// stderr: those added with add_error, and boards the table cannot answer.
class UvaAnswers {
 public:
  // Starts the helper, which opens `table_path` (fully loaded if small, with
  // both threads decoding its blocks).
  explicit UvaAnswers(std::filesystem::path table_path);
  UvaAnswers(const UvaAnswers&) = delete;
  UvaAnswers& operator=(const UvaAnswers&) = delete;
  ~UvaAnswers();  // stops the helper; answers not yet written are dropped

  // The boards' geometry, before the first is added; a table of another
  // answers each with an error.
  void set_geometry(Geometry g) { geometry_ = g; }

  // Room for the next boards: parse into it, then call added().
  std::span<UvaBoard> room();
  // The first `boards` of room() hold boards now.
  void added(std::size_t boards);
  void add_board(const UvaBoard& board);
  // A problem in the input, reported after the boards added before it.
  void add_error(const UvaError& error);

  // Answers and writes everything added so far, and flushes stdout. Throws
  // TableError if the table cannot be opened or is damaged, and
  // std::runtime_error if stdout cannot be written; added() may throw them
  // too, once the helper has met them (at the latest when the slots are full).
  void finish();

  // Errors reported so far; call after finish().
  std::uint64_t error_count() const { return errors_.count(); }

 private:
  static constexpr std::size_t kSlots = 4;
  static constexpr std::size_t kBatchBoards = 1 << 12;
  static constexpr std::size_t kChunkBoards = 1 << 10;                         // claimed at a time
  static constexpr std::size_t kChunkText = kChunkBoards * sizeof(ShortLine);  // bytes
  static constexpr std::uint32_t kUnanswered = ~std::uint32_t{0};  // a chunk with a failed probe

  using Lines = std::array<std::array<ShortLine, 256>, 2>;  // [winner][plies]

  struct Slot {
    // Allocated on first use, and not cleared: pages are touched as used.
    std::unique_ptr<UvaBoard[]> boards;  // kBatchBoards, of which the first `size` are in use
    std::size_t size = 0;
    std::unique_ptr<char[]> text;  // chunk c's lines from c * kChunkText on
    std::array<std::uint32_t, kBatchBoards / kChunkBoards> text_size;  // bytes, or kUnanswered
    std::vector<std::pair<std::size_t, UvaError>> errors;              // each before boards[first]
    std::atomic<std::size_t> next{0};         // the first board not yet claimed
    std::atomic<std::size_t> done{0};         // boards probed
    std::uint64_t batch = ~std::uint64_t{0};  // the batch it holds
  };

  static Lines judge_lines();
  std::uint64_t published() const { return published_.load(std::memory_order_relaxed); }
  // The slot of the batch being filled (cleared when it starts one).
  Slot& current();
  void publish();
  // Answers one unclaimed chunk of batch `batch`, if any is left; false if none.
  bool probe_chunk(std::uint64_t batch);
  // Answers chunks of unwritten batches, newest first, until `batches` are
  // written.
  void help_until_written(std::uint64_t batches);
  void help(const std::filesystem::path& path);
  void write_batch(std::uint64_t batch);
  void write_slowly(const Slot& slot, std::size_t first, std::size_t last,
                    std::vector<std::pair<std::size_t, UvaError>>::const_iterator& error);

  std::array<Slot, kSlots> slots_;

  // Shared with the helper.
  Geometry geometry_;  // set before the first batch is published
  const Lines lines_;
  Output out_;                       // the helper's until finish() has seen every batch written
  ErrorLog errors_;                  // likewise
  std::optional<Table> table_;       // set before ready_
  std::exception_ptr error_;         // the helper's failure, set before failed_
  std::atomic<bool> ready_{false};   // the table is open, or failed to open
  std::atomic<bool> failed_{false};  // error_ is set; the helper has stopped
  std::atomic<bool> stop_{false};    // no more batches
  std::atomic<std::uint64_t> published_{0};  // batches published (only this thread adds)
  std::atomic<std::uint64_t> written_{0};    // batches written (only the helper adds)
  std::thread helper_;                       // last: starts when all else is ready
};

}  // namespace pawntb::cli
