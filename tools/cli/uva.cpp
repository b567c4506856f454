#include "uva.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <limits>
#include <utility>
#include <variant>

#include "command_support.hpp"
#include "pawntb/game/bitboard.hpp"
#include "pawntb/notation.hpp"
#include "swar.hpp"

namespace pawntb::cli {

namespace {

bool blank(std::string_view s) {
  return trim(s).empty();
}

// What is wrong with board row `text` (trimmed) of a board `cols` wide, or
// empty if it is `cols` of 'P', 'p' and '.'.
std::string row_problem(std::string_view text, int cols) {
  if (text.find_first_not_of("Pp.") != std::string_view::npos) {
    return std::get<ParseError>(parse_board_rows(&text, 1, Side::white)).message;
  }
  if (static_cast<int>(text.size()) == cols) return {};
  return "board row has " + count_of(text.size(), "square", "squares") + ", expected " +
         std::to_string(cols);
}

// The parse of boards in the read buffer, for one geometry known at compile
// time so that every mask, multiplier and shift is a constant.
//
// A board's text is `rows` lines of `cols` squares and "\n". The squares of
// up to 8 / cols rows are packed into one word and judged together. In 'P'
// (0x50), 'p' (0x70) and '.' (0x2E), bit 6 is set for a pawn and bit 5 as
// well for a black pawn; the squares are well formed iff they equal the
// text those bits spell: '.', plus 0x22 for a pawn, plus 0x20 more for a
// black one (no byte overflows).

// What a board's words add up to.
struct BoardBits {
  std::uint64_t wrong = 0;  // nonzero if some byte is not as expected
  std::uint64_t pawns = 0, black = 0;
};

// Byte i of a word of kCount squares to bit i.
template <int kCount>
constexpr std::array<int, 8> kSquareBits = [] {
  std::array<int, 8> to{};
  for (int i = 0; i < 8; ++i) to[i] = i < kCount ? i : -1;
  return to;
}();

// Adds `squares`, kCount squares and then zero bytes, to `bits` as the
// squares from `first_square` on.
template <int kCount>
constexpr void add_squares(std::uint64_t squares, int first_square, BoardBits& bits) {
  static_assert(swar::can_gather(kSquareBits<kCount>, 1) &&
                swar::can_gather(kSquareBits<kCount>, 5));
  constexpr std::uint64_t kInUse = swar::low_bytes(kCount);
  constexpr std::uint64_t kGatherPawns = swar::gather_multiplier(kSquareBits<kCount>, 1);
  constexpr std::uint64_t kGatherBlack = swar::gather_multiplier(kSquareBits<kCount>, 5);
  const std::uint64_t pawns = squares & swar::repeat_byte(0x40) & kInUse;
  const std::uint64_t black = squares & (pawns >> 1);  // bits 6 and 5 at bit 5
  bits.wrong |= squares ^ ((swar::repeat_byte('.') & kInUse) + (pawns >> 1) + (pawns >> 5) + black);
  bits.pawns |= swar::gather(pawns >> 5, kGatherPawns) << first_square;  // the flags at bit 1
  bits.black |= swar::gather(black, kGatherBlack) << first_square;
}

// Every byte value in every place: well formed iff 'P', 'p' or '.', and
// then a white or black pawn as it should be.
constexpr bool add_squares_is_exact() {
  for (int place = 0; place < 8; ++place) {
    for (int byte = 0; byte < 256; ++byte) {
      char text[] = "........";
      text[place] = static_cast<char>(byte);
      BoardBits bits;
      add_squares<8>(swar::load8(text), 0, bits);
      const bool good = byte == 'P' || byte == 'p' || byte == '.';
      if ((bits.wrong == 0) != good) return false;
      if (good && (bits.pawns != (byte == '.' ? 0u : 1u << place) ||
                   bits.black != (byte == 'p' ? 1u << place : 0u))) {
        return false;
      }
    }
  }
  return true;
}
static_assert(add_squares_is_exact());

// Adds rows kFirstRow.. of the board at `text` to `bits`, 8 / kCols rows
// (up to 8 squares) at a time.
template <int kRows, int kCols, int kFirstRow = 0>
void add_rows(const char* text, BoardBits& bits) {
  if constexpr (kFirstRow < kRows) {
    constexpr int kRowsHere = std::min(8 / kCols, kRows - kFirstRow);
    constexpr int kStride = kCols + 1;
    const char* row = text + kFirstRow * kStride;
    std::uint64_t squares = 0;  // row j's in bytes j*cols on
    for (int j = 0; j < kRowsHere; ++j) {
      squares |= (swar::load8(row + j * kStride) & swar::low_bytes(kCols)) << (8 * j * kCols);
    }
    add_squares<kRowsHere * kCols>(squares, kFirstRow * kCols, bits);
    // The rows' "\n"s, all in the word at kAt: their first 8 bytes, or
    // their last 8 if longer.
    constexpr int kAt = std::max(0, kRowsHere * kStride - 8);
    constexpr std::uint64_t kNewlines = [] {
      std::uint64_t bytes = 0;
      for (int j = 0; j < kRowsHere; ++j) {
        const int at = (j + 1) * kStride - 1 - kAt;
        bytes |= at >= 0 && at < 8 ? std::uint64_t{0xFF} << (8 * at) : 0;
      }
      return bytes;
    }();
    static_assert(std::popcount(kNewlines) == 8 * kRowsHere);
    // The loads reach at most 4 bytes past these rows: into the next row, or
    // at the buffer's end into its padding.
    static_assert(kRowsHere - 1 + 8 - kRowsHere * kStride <= int{LineReader::kPadding});
    bits.wrong |= (swar::load8(row + kAt) & kNewlines) ^ (swar::repeat_byte('\n') & kNewlines);
    add_rows<kRows, kCols, kFirstRow + kRowsHere>(text, bits);
  }
}

// One board at `text`, into `board`'s bitboards; false if it is not laid
// out exactly.
template <int kRows, int kCols>
bool parse_board(const char* text, UvaBoard& board) {
  BoardBits bits;
  add_rows<kRows, kCols>(text, bits);
  board.white = bits.pawns & ~bits.black;
  board.black = bits.black;
  return bits.wrong == 0;
}

template <int kRows, int kCols>
constexpr std::size_t kBoardBytes = std::size_t{kRows} * (kCols + 1);

// Boards parsed from the start of a text, and the bytes and lines they
// span with the empty lines before each.
struct BoardRun {
  std::size_t boards = 0, bytes = 0;
  std::uint64_t lines = 0;
};

// Boards after any empty lines, as many as fit `text` and `out`; the first
// line of `text` is number `line`.
template <int kRows, int kCols>
BoardRun parse_boards(std::string_view text, std::uint64_t line, std::span<UvaBoard> out) {
  const char* const end = text.data() + text.size();
  const char* done = text.data();  // the end of the last board parsed
  std::uint64_t lines = 0;         // lines before `done`
  auto board = out.begin();
  for (; board != out.end(); ++board) {
    const char* start = done;
    while (start != end && *start == '\n') ++start;
    if (end - start < static_cast<std::ptrdiff_t>(kBoardBytes<kRows, kCols>) ||
        !parse_board<kRows, kCols>(start, *board)) {
      break;
    }
    const std::uint64_t blank_lines = start - done;
    board->line = line + lines + blank_lines;
    lines += blank_lines + kRows;
    done = start + kBoardBytes<kRows, kCols>;
  }
  return {static_cast<std::size_t>(board - out.begin()),
          static_cast<std::size_t>(done - text.data()), lines};
}

using BoardParser = BoardRun (*)(std::string_view text, std::uint64_t line,
                                 std::span<UvaBoard> out);

// parse_boards for every geometry, by game::geometry_number.
constexpr auto kBoardParsers = game::per_geometry(
    []<class G>(G) -> BoardParser { return &parse_boards<G::value.rows, G::value.cols>; });

}  // namespace

UvaReader::UvaReader(LineReader& in, Geometry g) : in_(in), g_(g) {}

std::size_t UvaReader::next_boards(std::span<UvaBoard> out) {
  // Only boards within the count: the line-by-line reader reports the rest.
  if (boards_ >= count_ || !g_.valid()) return 0;
  const std::size_t max = std::min<std::uint64_t>(count_ - boards_, out.size());
  const BoardRun run = kBoardParsers[game::geometry_number(g_)](
      in_.buffered(), in_.line_count() + 1, out.first(max));
  in_.consume(run.bytes, run.lines);
  boards_ += run.boards;
  return run.boards;
}

bool UvaReader::next(UvaItem& item) {
  item.note = false;
  item.case_number = 0;
  if (stage_ == Stage::count) {
    stage_ = Stage::boards;
    if (read_count(item)) {
      stage_ = Stage::done;
      return true;
    }
  }
  if (stage_ == Stage::boards) {
    if (read_board(item)) return true;
    stage_ = Stage::count_mismatch;
  }
  if (stage_ == Stage::rest) {
    for (LineReader::Line line; in_.next(line);) {
    }
    stage_ = Stage::read_error;
  }
  const std::uint64_t last_line = in_.line_count();
  if (stage_ == Stage::count_mismatch) {
    stage_ = Stage::read_error;
    if (boards_ < count_) {
      item.line = last_line + (in_.read_error() ? 0 : 1);
      item.error = "the case count says " + with_commas(count_) + " but the input has " +
                   count_of(boards_, "board", "boards");
      return true;
    }
  }
  if (stage_ == Stage::read_error) {
    stage_ = Stage::done;
    if (in_.read_error()) {
      item.line = last_line;
      item.error = "read error";
      return true;
    }
  }
  return false;
}

// The case count: the first non-blank line. True with a problem in `item`.
bool UvaReader::read_count(UvaItem& item) {
  LineReader::Line line;
  bool have_line = false;
  while ((have_line = in_.next(line)) && !line.too_long && blank(line.text)) {
  }
  if (!have_line) {
    item.line = in_.line_count() + 1;
    item.error = "empty input: expected the number of cases";
    return true;
  }
  item.line = line.number;
  if (line.too_long) {
    item.error = LineReader::too_long_message();
    return true;
  }
  const std::string_view count_text = trim(line.text);
  const auto [end, ec] =
      std::from_chars(count_text.data(), count_text.data() + count_text.size(), count_);
  if (ec == std::errc::result_out_of_range) {
    count_ = 0;
    item.error = "case count " + printable(count_text) + " is too large: expected 0.." +
                 std::to_string(std::numeric_limits<std::uint64_t>::max());
    return true;
  }
  if (ec != std::errc() || end != count_text.data() + count_text.size()) {
    count_ = 0;
    item.error = "expected the number of cases, got '" + printable(count_text) + "'";
    return true;
  }
  return false;
}

// The line after a board row, or false if the board ends before it: at a
// blank line (which is consumed) or the end of the input.
bool UvaReader::next_row(LineReader::Line& line) {
  return in_.next(line) && (line.too_long || !blank(line.text));
}

// The next board within the count, or the problem with it, or the note on
// what follows the counted boards; false at the end of the input.
bool UvaReader::read_board(UvaItem& item) {
  LineReader::Line line;
  // Skip blank lines up to the next board.
  bool more = false;
  while ((more = in_.next(line)) && !line.too_long && blank(line.text)) {
  }
  if (!more) return false;
  const std::uint64_t first_line = line.number;
  if (boards_ == count_) {
    // As judges do: what follows the counted cases is not read.
    stage_ = Stage::rest;
    item.line = first_line;
    item.note = true;
    item.error =
        "input after the " + count_of(count_, "counted case", "counted cases") + " is ignored";
    return true;
  }
  item.case_number = ++boards_;
  // A board is up to `rows` consecutive non-blank lines.
  int have = 0;
  for (;;) {
    Row& row = rows_[have];
    row.line = line.number;
    row.too_long = line.too_long;
    row.text = trim(line.text);
    if (++have == g_.rows || !next_row(line)) break;
  }
  std::array<std::string_view, kMaxSide> texts;
  for (int r = 0; r < have; ++r) texts[r] = rows_[r].text;
  item.line = first_line;
  item.position = Position{g_, 0, 0, Side::white};
  item.error.clear();
  if (have == g_.rows) {
    const auto parsed = parse_board_rows(texts.data(), have, Side::white);
    const auto* position = std::get_if<Position>(&parsed);
    if (position && position->geometry == g_ &&
        std::none_of(rows_.begin(), rows_.begin() + have,
                     [](const Row& r) { return r.too_long; })) {
      item.position = *position;
      return true;
    }
  }
  // Not a board: the first wrong row says why, else it is short of rows.
  for (int r = 0; r < have && item.error.empty(); ++r) {
    item.line = rows_[r].line;
    item.error =
        rows_[r].too_long ? LineReader::too_long_message() : row_problem(texts[r], g_.cols);
  }
  if (item.error.empty()) {
    item.line = first_line;
    item.error =
        "board has " + count_of(have, "row", "rows") + ", expected " + std::to_string(g_.rows);
  }
  return true;
}

}  // namespace pawntb::cli
