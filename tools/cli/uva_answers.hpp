// The answers of `pawntb uva`: the boards probed in groups, the judge's lines
// written in input order.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "output.hpp"
#include "pawntb/probe.hpp"
#include "uva.hpp"

namespace pawntb::cli {

// A sink for read_uva (uva.hpp). Boards wait in a group until it is full, an
// error comes, or finish() is called; then probe_many answers them together
// and each answer's line is copied from a table made once. Used from one
// thread. Errors go to stderr in input order: those added with add_error, and
// boards the table cannot answer.
class UvaAnswers {
 public:
  // Answers with `table`, which must outlive this.
  explicit UvaAnswers(const Table& table);

  // Room for the next boards: parse into it, then call added().
  std::span<UvaBoard> room() { return std::span(boards_).subspan(size_); }
  // The first `boards` of room() hold boards now.
  void added(std::size_t boards);
  void add_board(const UvaBoard& board);
  // A problem in the input (or a note), reported after the boards added before it.
  void add_error(const UvaError& error);

  // Answers and writes everything added so far, and flushes stdout: call it
  // before a read that may block (so an interactive caller sees each answer)
  // and at the end. Throws TableError on a damaged table and
  // std::runtime_error if stdout cannot be written.
  void finish();

  // Errors reported so far.
  std::uint64_t error_count() const { return errors_.count(); }

 private:
  static constexpr std::size_t kGroup = 256;  // boards probed together

  void answer();  // the waiting boards

  const Table& table_;
  std::array<std::array<ShortLine, 256>, 2> lines_;  // [winner][plies]: "white (7)\n"
  std::array<UvaBoard, kGroup> boards_;
  std::size_t size_ = 0;  // boards waiting
  // Cases before the waiting boards: boards answered and malformed ones.
  std::uint64_t cases_done_ = 0;
  std::array<Position, kGroup> positions_;
  std::array<ProbeResult, kGroup> results_;
  Output out_;
  ErrorLog errors_;
};

}  // namespace pawntb::cli
