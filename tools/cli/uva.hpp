// Reader for UVa 10838 judge input: a case count, then that many boards of
// `rows` lines of `cols` squares ('P', 'p', '.'), white to move, with blank
// lines between boards. CRLF line endings are accepted. What follows the
// counted boards is ignored, with one note, as judges do.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "line_reader.hpp"
#include "pawntb/position.hpp"

namespace pawntb::cli {

struct UvaError {
  std::uint64_t line;   // 1-based line the problem was found on
  std::string message;  // what is wrong
  bool note = false;    // a remark on valid input, not an error
  std::uint64_t case_number = 0;  // the malformed board's case (1-based), 0 if not a board
};

// A board to answer or a problem with the input.
struct UvaItem {
  std::uint64_t line = 0;  // the board's first line, or the line of the problem
  Position position;       // the board, white to move, when error is empty
  std::string error;       // what is wrong, or empty for a board
  bool note = false;       // error is a remark on valid input, not an error
  std::uint64_t case_number = 0;  // 1-based: the board's place among the cases; 0 if no board
};

// A board parsed straight from the read buffer, white to move.
struct UvaBoard {
  std::uint64_t line;          // its first line
  std::uint64_t white, black;  // bitboards
};

// Reads the input one board or problem at a time, carrying on after problems.
class UvaReader {
 public:
  UvaReader(LineReader& in, Geometry g);

  // The next board or problem in input order, read line by line; false at
  // the end of the input. Gives every diagnostic.
  bool next(UvaItem& item);

  // The boards next in the read buffer if laid out exactly as the judge
  // writes them (each after any empty lines, `rows` lines of `cols` of 'P',
  // 'p' and '.' and "\n"), parsed in place into `out`, as many as fit;
  // returns how many (0 when the input does not go on so). Optional: next()
  // alone reads the same boards, and reads on from where these end.
  std::size_t next_boards(std::span<UvaBoard> out);

 private:
  bool read_count(UvaItem& item);
  bool read_board(UvaItem& item);
  bool next_row(LineReader::Line& line);

  enum class Stage { count, boards, rest, count_mismatch, read_error, done };

  LineReader& in_;
  Geometry g_;
  Stage stage_ = Stage::count;
  std::uint64_t count_ = 0, boards_ = 0;

  // The lines of the board being read.
  struct Row {
    std::string text;  // trimmed; empty if too_long
    std::uint64_t line = 0;
    bool too_long = false;
  };
  std::array<Row, kMaxSide> rows_;
};

// Reads the whole input into `sink`, in input order: boards in the judge's
// layout are parsed in the read buffer straight into sink.room() (then
// sink.added(count)), the rest line by line into sink.add_board(UvaBoard)
// or sink.add_error(UvaError), notes included. Returns the number of errors
// (notes not counted).
template <class Sink>
std::uint64_t read_uva(LineReader& in, Geometry g, Sink& sink) {
  UvaReader reader(in, g);
  std::uint64_t errors = 0;
  for (UvaItem item;;) {
    if (const std::size_t boards = reader.next_boards(sink.room()); boards > 0) {
      sink.added(boards);
      continue;
    }
    if (!reader.next(item)) return errors;
    if (item.error.empty()) {
      sink.add_board(UvaBoard{item.line, item.position.white, item.position.black});
    } else {
      errors += item.note ? 0 : 1;
      sink.add_error(UvaError{item.line, item.error, item.note, item.case_number});
    }
  }
}

// The same with callbacks: on_case(line, position) for each well-formed
// board (its first line number and the position) and on_error(const
// UvaError&) for each problem, each as soon as its last line has been read.
template <class OnCase, class OnError>
std::uint64_t read_uva(LineReader& in, Geometry g, OnCase&& on_case, OnError&& on_error) {
  struct CallbackSink {
    Geometry g;
    OnCase& on_case;
    OnError& on_error;
    std::array<UvaBoard, 64> parsed{};
    std::span<UvaBoard> room() { return parsed; }
    void added(std::size_t count) {
      for (std::size_t i = 0; i < count; ++i) add_board(parsed[i]);
    }
    void add_board(const UvaBoard& b) {
      on_case(b.line, Position{g, b.white, b.black, Side::white});
    }
    void add_error(const UvaError& e) { on_error(e); }
  } sink{g, on_case, on_error};
  return read_uva(in, g, sink);
}

}  // namespace pawntb::cli
