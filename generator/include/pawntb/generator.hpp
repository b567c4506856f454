// pawntb generator: solves every position of a geometry by backward induction
// and writes the table file. Used by the `pawntb generate` CLI, the benchmarks
// and the tests.
//
// THREADS. Every `threads` parameter means that many threads, the caller's
// included; 0 means one per hardware thread. Progress callbacks are called
// from the calling thread (progress.hpp).
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "pawntb/position.hpp"
#include "pawntb/progress.hpp"

namespace pawntb {

// Thrown for refused parameters, too little memory and I/O failures. The
// message says what is wrong and names the file where there is one.
class GenerateError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct GenerateOptions {
  Geometry geometry{4, 4};
  int max_pawns = 4;     // K, 1..cols
  unsigned threads = 0;  // 0: one per hardware thread
  // solve() reports stage "solve"; may be empty.
  ProgressCallback on_progress;
};

struct SolvedTable {
  Geometry geometry;
  int max_pawns = 0;
  // Per index: plies 0..2*K*(rows-1), odd = white (to move) wins. Exact for
  // every canonical position (detail::is_canonical); mirror images hold 0
  // unless a rule decides them (their value is their representative's).
  std::vector<std::uint8_t> values;
  std::uint64_t win_count = 0;      // indices whose true value is a win for white, all N
  int max_plies = 0;                // the longest game in the table
  std::uint64_t longest_index = 0;  // an index with value max_plies
};

// Bytes of memory a solve and write of these parameters needs at most: 3 per
// entry (the values, and room for the compressed file twice) plus 64 MiB.
// Thread-safe.
// Throws GenerateError for parameters out of range or a board too large to index.
std::uint64_t memory_needed(Geometry g, int max_pawns);

// Solves the whole domain on options.threads threads. Thread-safe: independent
// calls may run concurrently. Throws GenerateError if the parameters are out of
// range, memory_needed() exceeds the memory available or a thread cannot start.
SolvedTable solve(const GenerateOptions& options);

struct WriteSummary {
  std::uint64_t file_size = 0;  // bytes written
  std::uint32_t block_count = 0;
};

// Compresses and writes the table atomically: to a temporary file in the same
// directory, flushed, then renamed over `path`. On any failure the temporary
// file is removed, `path` is untouched, and GenerateError names the file.
// `on_temp_file`, if given, is called with the temporary file's path once it
// exists and with nullptr once it is gone (renamed or removed), so that a
// signal handler can remove it. `on_progress` gets stage "compress".
// Compresses on `threads` threads. Thread-safe for distinct paths; called by
// the CLI and the tests.
WriteSummary write_table(const SolvedTable& table, const std::filesystem::path& path,
                         unsigned threads = 0, void (*on_temp_file)(const char* path) = nullptr,
                         const ProgressCallback& on_progress = {});

// The table file bytes write_table() would write (for tests and benchmarks),
// compressed on `threads` threads; `on_progress` gets stage "compress".
// Thread-safe.
std::vector<std::uint8_t> encode_table(const SolvedTable& table, unsigned threads = 0,
                                       const ProgressCallback& on_progress = {});

}  // namespace pawntb
