// Tests of `pawntb uva`, run as a subprocess, and of its board reader in-process.
#include "cli/uva.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "cli/line_reader.hpp"
#include "pawntb/notation.hpp"
#include "pawntb/position.hpp"
#include "pawntb/probe.hpp"
#include "support/cli_support.hpp"

namespace {

using namespace pawntb_test;

// ---------------------------------------------------------------------------
// uva

TEST(CliUva, SampleGivesExactBytes) {
  const RunResult r = run_with_input({"uva"}, read_file(kUvaSample));
  EXPECT_EQ(r.status, 0) << r;
  EXPECT_EQ(r.out, kSampleAnswer);
  EXPECT_EQ(r.err, "") << r;
}

TEST(CliUva, CrlfLineEndingsGiveTheSameBytes) {
  const std::string sample = read_file(kUvaSample);
  ASSERT_FALSE(contains(sample, "\r"));
  const RunResult r = run_with_input({"uva"}, to_crlf(sample));
  EXPECT_EQ(r.status, 0) << r;
  EXPECT_EQ(r.out, kSampleAnswer);
  EXPECT_EQ(r.err, "") << r;
}

TEST(CliUva, NoFinalNewlineGivesTheSameBytes) {
  std::string sample = read_file(kUvaSample);
  while (!sample.empty() && (sample.back() == '\n' || sample.back() == '\r')) sample.pop_back();
  for (const std::string& input : {sample, to_crlf(sample)}) {
    const RunResult r = run_with_input({"uva"}, input);
    EXPECT_EQ(r.status, 0) << r;
    EXPECT_EQ(r.out, kSampleAnswer);
    EXPECT_EQ(r.err, "") << r;
  }
}

TEST(CliUva, ToleratesExtraBlankLinesAndSpaces) {
  const std::string input =
      "\n  2  \n\n\n .ppp\n....\t\n.PPP \n....\n \n\t\n...p\n...p\npP.P\n...P\n\n\n";
  const RunResult r = run_with_input({"uva"}, input);
  EXPECT_EQ(r.status, 0) << r;
  EXPECT_EQ(r.out, kSampleAnswer);
  EXPECT_EQ(r.err, "") << r;
}

TEST(CliUva, ZeroCasesPrintsNothing) {
  const RunResult r = run_with_input({"uva"}, "0\n");
  EXPECT_EQ(r.status, 0) << r;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "") << r;
}

// Line numbers: 1 is the count, boards start at 2, 7 and 12.
TEST(CliUva, BadCharacterCaseIsReportedOthersAnswered) {
  const std::string input =
      "3\n" + kGoodBoard1 + "\n" + board({".ppx", "....", ".PPP", "...."}) + "\n" + kGoodBoard2;
  const RunResult r = run_with_input({"uva"}, input);
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_EQ(r.out, kSampleAnswer);
  EXPECT_TRUE(contains(r.err, "pawntb uva: stdin:7:")) << r;
  EXPECT_TRUE(contains(r.err, "'x'")) << r;
  EXPECT_EQ(lines_of(r.err).size(), 1u) << r;
}

TEST(CliUva, ShortRowCaseIsReportedOthersAnswered) {
  const std::string input =
      "3\n" + kGoodBoard1 + "\n" + board({".ppp", "...", ".PPP", "...."}) + "\n" + kGoodBoard2;
  const RunResult r = run_with_input({"uva"}, input);
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_EQ(r.out, kSampleAnswer);
  EXPECT_TRUE(contains(r.err, "pawntb uva: stdin:8:")) << r;  // the short row itself
  EXPECT_EQ(lines_of(r.err).size(), 1u) << r;
}

TEST(CliUva, MissingRowCaseIsReportedOthersAnswered) {
  const std::string input =
      "3\n" + kGoodBoard1 + "\n" + board({".ppp", "....", ".PPP"}) + "\n" + kGoodBoard2;
  const RunResult r = run_with_input({"uva"}, input);
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_EQ(r.out, kSampleAnswer);
  EXPECT_TRUE(contains(r.err, "pawntb uva: stdin:7:")) << r;
  EXPECT_TRUE(contains(r.err, "3 rows")) << r;
}

// The message should point at the line that holds the bad character (the
// header of uva.hpp: "1-based line the problem was found on"), as it does for
// a row of the wrong length, not at the board's first line.
TEST(CliUva, BadCharacterIsReportedOnItsOwnLine) {
  const std::string input = "2\n" + kGoodBoard1 + "\n" + board({".ppp", "....", ".PxP", "...."});
  const RunResult r = run_with_input({"uva"}, input);
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_EQ(r.out, "white (7)\n");
  EXPECT_TRUE(contains(r.err, "pawntb uva: stdin:9:")) << r;  // the board starts on line 7
}

TEST(CliUva, FewerBoardsThanTheCount) {
  const RunResult r = run_with_input({"uva"}, "3\n" + kGoodBoard1 + "\n" + kGoodBoard2);
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_EQ(r.out, kSampleAnswer);
  EXPECT_TRUE(contains(r.err, "case count says 3")) << r;
  EXPECT_TRUE(contains(r.err, "2 boards")) << r;
  EXPECT_TRUE(contains(r.err, "pawntb uva: stdin:")) << r;
}

// As judges do: what follows the counted boards is not read, with one note
// on stderr, and the exit status stays 0.
TEST(CliUva, BoardsAfterTheCountAreIgnoredWithOneNote) {
  const std::vector<std::string> tails = {
      kGoodBoard2,                                            // one more good board
      kGoodBoard2 + "\n" + kGoodBoard2 + "\n" + kGoodBoard1,  // several
      board({"xx", "....", "."}) + "\n" + kGoodBoard2,        // malformed ones
      std::string(10000, '.') + "\n",                         // an over-long line
  };
  for (const std::string& tail : tails) {
    for (const bool pipe : {false, true}) {
      RunOptions options;
      options.input = "1\n" + kGoodBoard1 + "\n" + tail;
      options.input_through_pipe = pipe;
      const RunResult r = run_cli({"uva"}, options);
      EXPECT_EQ(r.status, 0) << r;
      EXPECT_EQ(r.out, "white (7)\n");
      EXPECT_EQ(r.err, "pawntb uva: stdin:7: note: input after the 1 counted case is ignored\n") << r;
    }
  }
  // Plural, and from the fast path's end: many judge-layout boards, one extra.
  std::string input = "3\n";
  for (int i = 0; i < 4; ++i) input += "\n" + kGoodBoard1;
  const RunResult r = run_with_input({"uva"}, input);
  EXPECT_EQ(r.status, 0) << r;
  EXPECT_EQ(r.out, "white (7)\nwhite (7)\nwhite (7)\n");
  EXPECT_EQ(r.err, "pawntb uva: stdin:18: note: input after the 3 counted cases is ignored\n") << r;
}

// Blank lines after the counted boards are not more input.
TEST(CliUva, BlankLinesAfterTheCountAreNotNoted) {
  const RunResult r = run_with_input({"uva"}, "1\n" + kGoodBoard1 + "\n \n\t\n\n");
  EXPECT_EQ(r.status, 0) << r;
  EXPECT_EQ(r.out, "white (7)\n");
  EXPECT_EQ(r.err, "") << r;
}

// "1 board", "1 row", "1 square": singular where it is one.
TEST(CliUva, CountsInMessagesAreSingularForOne) {
  RunResult r = run_with_input({"uva"}, "2\n" + kGoodBoard1);
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_TRUE(contains(r.err, "the case count says 2 but the input has 1 board\n")) << r;
  r = run_with_input({"uva"}, "1\n.ppp\n");
  EXPECT_EQ(r.err, "pawntb uva: stdin:2: board has 1 row, expected 4\n") << r;
  r = run_with_input({"uva"}, "1\n.ppp\n...\n.PPP\n....\n");
  EXPECT_EQ(r.err, "pawntb uva: stdin:3: board row has 3 squares, expected 4\n") << r;
  r = run_with_input({"uva"}, "1\n.ppp\n.\n.PPP\n....\n");
  EXPECT_EQ(r.err, "pawntb uva: stdin:3: board row has 1 square, expected 4\n") << r;
}

TEST(CliUva, EmptyInputIsAnError) {
  for (const std::string input : {"", "\n\n", "  \n\t\n"}) {
    const RunResult r = run_with_input({"uva"}, input);
    EXPECT_EQ(r.status, 2) << r;
    EXPECT_EQ(r.out, "");
    EXPECT_TRUE(contains(r.err, "empty input")) << r;
  }
}

TEST(CliUva, BadCountIsAnError) {
  for (const std::string count : {"abc", "-1", "2x", "1e3"}) {
    const RunResult r = run_with_input({"uva"}, count + "\n" + kGoodBoard1);
    EXPECT_EQ(r.status, 2) << count << "\n" << r;
    EXPECT_EQ(r.out, "") << r;
    EXPECT_EQ(r.err, "pawntb uva: stdin:1: expected the number of cases, got '" + count + "'\n") << r;
  }
}

// A count of digits that does not fit says so, with the range as 0..N.
TEST(CliUva, TooLargeCountSaysSo) {
  for (const std::string count : {"18446744073709551616", "99999999999999999999"}) {
    const RunResult r = run_with_input({"uva"}, count + "\n" + kGoodBoard1);
    EXPECT_EQ(r.status, 2) << r;
    EXPECT_EQ(r.out, "") << r;
    EXPECT_EQ(r.err,
              "pawntb uva: stdin:1: case count " + count + " is too large: expected 0..18446744073709551615\n")
        << r;
  }
  // The largest count is a count: the input is then short of boards.
  const RunResult r = run_with_input({"uva"}, "18446744073709551615\n" + kGoodBoard1);
  EXPECT_EQ(r.out, "white (7)\n");
  EXPECT_TRUE(contains(r.err,
                       "the case count says 18,446,744,073,709,551,615 but the input "
                       "has 1 board"))
      << r;
}

// A board that reads well but that the table cannot answer (white to move with
// a pawn on its goal row; more pawns than K) is an input error: it is reported
// with its line and case number in probe's words (the square, the side and the
// row, not a bare status), the other cases are still answered, and the exit
// status is 2.
TEST(CliUva, UnanswerableBoardIsAnInputError) {
  const std::vector<std::pair<std::string, std::string>> bad_boards = {
      // white on its goal row, white to move
      {board({"..P.", "....", "....", "...."}),
       "invalid position: white pawn on c4 is on its goal row, with white to move"},
      // 5 white pawns: more than K = 4
      {board({"PPPP", "P...", "....", "...."}), "more than 4 pawns a side, the table's limit"},
      {board({"pppp", ".p..", "....", "...."}), "more than 4 pawns a side, the table's limit"},
  };
  for (const auto& [bad, problem] : bad_boards) {
    const RunResult r =
        run_with_input({"uva"}, "3\n" + kGoodBoard1 + "\n" + bad + "\n" + kGoodBoard2);
    EXPECT_EQ(r.out, kSampleAnswer) << bad;
    EXPECT_EQ(r.err, "pawntb uva: stdin:7: case 2: " + problem + "\n") << r;
    EXPECT_EQ(r.status, 2) << "board:\n" << bad << r;
  }
  // Case numbers count every board, those answered from the read buffer, those
  // read line by line and malformed ones: here the bad board is case 4.
  const std::string malformed = board({".ppx", "....", ".PPP", "...."});
  const RunResult r = run_with_input(
      {"uva"}, "5\n" + kGoodBoard1 + "\n" + malformed + "\n" + kGoodBoard2 + "\n" +
                   bad_boards[0].first + "\n" + kGoodBoard1);
  EXPECT_EQ(r.out, "white (7)\nblack (2)\nwhite (7)\n") << r;
  EXPECT_EQ(lines_of(r.err),
            (std::vector<std::string>{"pawntb uva: stdin:7: bad character 'x' in board: use P, p or .",
                                      "pawntb uva: stdin:17: case 4: " + bad_boards[0].second}))
      << r;
}

TEST(CliUva, OverlongLineIsReported) {
  const std::string input = "2\n" + kGoodBoard1 + "\n" + std::string(10000, '.') + "\n";
  const RunResult r = run_with_input({"uva"}, input);
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_EQ(r.out, "white (7)\n");
  EXPECT_TRUE(contains(r.err, "pawntb uva: stdin:7:")) << r;
}

TEST(CliUva, MissingTableIsARuntimeFailure) {
  const RunResult r =
      run_with_input({"uva", "--table", "/nonexistent/t.pawntb"}, read_file(kUvaSample));
  EXPECT_EQ(r.status, 1) << r;
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(contains(r.err, "/nonexistent/t.pawntb")) << r;
}

// ---------------------------------------------------------------------------
// The UVa reader in-process: boards parsed in the read buffer (next_boards)
// give what reading line by line (next alone) gives.

// A UVa input and what the reader should make of it.
struct UvaInput {
  pawntb::Geometry geometry;
  std::string text;
  // "LINE: WHITE BLACK" for each board laid out exactly as the judge writes
  // them and within the count, in order; empty when the input has others.
  std::vector<std::string> judge_boards;
};

std::string board_event(std::uint64_t line, std::uint64_t white, std::uint64_t black) {
  return std::to_string(line) + ": " + std::to_string(white) + " " + std::to_string(black);
}

// A random board's text (rows of cols, each with "\n") and its bitboards.
std::string random_board(pawntb::Geometry g, std::mt19937& rng, std::uint64_t& white,
                         std::uint64_t& black) {
  std::string text;
  white = black = 0;
  for (int s = 0; s < g.squares(); ++s) {
    const int pick = static_cast<int>(rng() % 6);  // half empty, a quarter each colour
    text += pick < 3 ? '.' : pick < 5 ? 'P' : 'p';
    if (pick == 3 || pick == 4) white |= std::uint64_t{1} << s;
    if (pick == 5) black |= std::uint64_t{1} << s;
    if (s % g.cols == g.cols - 1) text += '\n';
  }
  return text;
}

// `boards` boards as the judge writes them: the count, then each board after
// one empty line. With `blank_lines_between`, that many instead (0 and 2
// are tolerated, but not what the judge writes).
UvaInput judge_input(pawntb::Geometry g, int boards, std::uint32_t seed,
                     int blank_lines_between = 1) {
  std::mt19937 rng(seed);
  UvaInput input{g, std::to_string(boards) + "\n", {}};
  std::uint64_t line = 1;
  for (int b = 0; b < boards; ++b) {
    input.text.append(blank_lines_between, '\n');
    line += blank_lines_between;
    std::uint64_t white = 0, black = 0;
    input.text += random_board(g, rng, white, black);
    input.judge_boards.push_back(board_event(line + 1, white, black));
    line += g.rows;
  }
  return input;
}

// Well-formed boards with every kind of departure from the judge's layout
// among them, each now and then: what the line-by-line reader accepts or
// reports, and the boundaries of the read buffer fall anywhere.
UvaInput mixed_input(pawntb::Geometry g, int boards, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<std::string> texts;
  for (int b = 0; b < boards; ++b) {
    std::uint64_t white = 0, black = 0;
    std::string board = random_board(g, rng, white, black);
    const std::size_t row_start = (rng() % g.rows) * (g.cols + 1);
    const std::size_t square = row_start + rng() % g.cols;
    switch (rng() % 40) {
      case 0:
        board.insert(row_start + g.cols, "\r");  // CRLF on one row
        break;
      case 1:
        board.insert(row_start + g.cols, " ");  // a trailing space
        break;
      case 2:
        board.insert(row_start, "\t");  // a leading tab
        break;
      case 3:
        board[square] = "x\0\xff-*p "[rng() % 7];  // a bad byte, or 'p' (well formed)
        break;
      case 4:
        board.erase(square, 1);  // a short row
        break;
      case 5:
        board.insert(square, ".");  // a long row
        break;
      case 6:
        board.erase(row_start, g.cols + 1);  // a missing row
        break;
      case 7:
        board += "\n\n";  // more empty lines
        break;
      case 8:
        board += std::string(5000, '.') + "\n";  // an over-long extra row
        break;
      case 9:
        board += " \t\n";  // a blank but not empty line
        break;
      case 10:
        board += "  \n";  // another
        break;
      case 11:
        board.insert(row_start, " ");  // a leading space
        break;
      default:
        break;
    }
    texts.push_back(board);
  }
  // A count one off now and then: the boards past it or missing are reported.
  const int count = boards + static_cast<int>(seed % 3) - 1;
  UvaInput input{g, std::to_string(count) + "\n", {}};
  for (std::size_t b = 0; b < texts.size(); ++b) {
    input.text += (b % 17 == 5 ? "" : "\n") + texts[b];  // now and then no empty line
  }
  if (seed % 2) input.text.pop_back();  // no final newline
  return input;
}

// What a reader gives, in order: board_event() for a board, "LINE: MESSAGE"
// for a problem; and how many boards came from next_boards().
struct UvaEvents {
  std::vector<std::string> events;
  std::uint64_t from_buffer = 0;
};

// Reads `in` as read_uva does (`use_buffer`: next_boards() before each
// next()) or with next() alone.
UvaEvents read_events(std::FILE* in, pawntb::Geometry g, bool use_buffer) {
  pawntb::cli::LineReader lines(in);
  pawntb::cli::UvaReader reader(lines, g);
  UvaEvents out;
  pawntb::cli::UvaItem item;
  for (;;) {
    if (use_buffer) {
      std::array<pawntb::cli::UvaBoard, 64> parsed;
      const std::size_t boards = reader.next_boards(parsed);
      for (std::size_t i = 0; i < boards; ++i) {
        out.events.push_back(board_event(parsed[i].line, parsed[i].white, parsed[i].black));
      }
      out.from_buffer += boards;
      if (boards > 0) continue;
    }
    if (!reader.next(item)) return out;
    EXPECT_EQ(item.position.geometry, g);
    EXPECT_EQ(item.position.to_move, pawntb::Side::white);
    out.events.push_back(item.error.empty()
                             ? board_event(item.line, item.position.white, item.position.black)
                             : std::to_string(item.line) + ": " + item.error);
  }
}

// How the input reaches the reader.
enum class Feed {
  file,      // a regular file: read(2) fills the buffer
  pipe_1,    // a pipe written 1 byte at a time
  pipe_7,    // 7 bytes at a time
  pipe_64k,  // 64 KiB + 3 bytes at a time
  memory,    // fmemopen: no file descriptor, fread
};
constexpr Feed kFeeds[] = {Feed::file, Feed::pipe_1, Feed::pipe_7, Feed::pipe_64k, Feed::memory};

const char* feed_name(Feed f) {
  switch (f) {
    case Feed::file:
      return "file";
    case Feed::pipe_1:
      return "pipe, 1 byte writes";
    case Feed::pipe_7:
      return "pipe, 7 byte writes";
    case Feed::pipe_64k:
      return "pipe, 64 KiB + 3 byte writes";
    case Feed::memory:
      return "fmemopen";
  }
  return "?";
}

UvaEvents read_fed(const std::string& text, pawntb::Geometry g, Feed feed, bool use_buffer) {
  UvaEvents events;
  if (feed == Feed::file || feed == Feed::memory) {
    std::string copy = text;
    std::FILE* in = feed == Feed::file ? std::tmpfile() : fmemopen(copy.data(), copy.size(), "rb");
    EXPECT_NE(in, nullptr);
    if (!in) return events;
    if (feed == Feed::file) {
      std::fwrite(text.data(), 1, text.size(), in);
      std::rewind(in);
    }
    events = read_events(in, g, use_buffer);
    std::fclose(in);
    return events;
  }
  int fds[2];
  EXPECT_EQ(::pipe(fds), 0);
  const std::size_t chunk = feed == Feed::pipe_1 ? 1 : feed == Feed::pipe_7 ? 7 : (1 << 16) + 3;
  std::thread writer([&] {
    for (std::size_t at = 0; at < text.size(); at += chunk) {
      const std::size_t n = std::min(chunk, text.size() - at);
      for (std::size_t done = 0; done < n;) {
        const ssize_t w = ::write(fds[1], text.data() + at + done, n - done);
        if (w <= 0) break;
        done += static_cast<std::size_t>(w);
      }
    }
    ::close(fds[1]);
  });
  std::FILE* in = ::fdopen(fds[0], "rb");
  events = read_events(in, g, use_buffer);
  std::fclose(in);
  writer.join();
  return events;
}

// Whether each read fills the buffer (so only a board cut by its end is
// read line by line), unlike a pipe, whose reads bring what has been
// written so far.
bool reads_fill_the_buffer(Feed feed) {
  return feed == Feed::file || feed == Feed::memory;
}

// At most this many boards of `text` are read line by line when each read
// fills the buffer: the first (next() reads it after the count), and one
// per refill.
std::size_t boards_cut_by_refills(const std::string& text) {
  return text.size() / (pawntb::cli::LineReader::kBufferSize / 2) + 2;
}

TEST(UvaReader, JudgeLayoutIsParsedInTheBufferAsLineByLine) {
  for (const int blank_lines : {1, 0, 2}) {
    const UvaInput input = judge_input({4, 4}, 20000, 7, blank_lines);
    for (const Feed feed : kFeeds) {
      SCOPED_TRACE(std::string(feed_name(feed)) + ", " + std::to_string(blank_lines) +
                   " empty lines between boards");
      const UvaEvents fast = read_fed(input.text, input.geometry, feed, true);
      const UvaEvents slow = read_fed(input.text, input.geometry, feed, false);
      EXPECT_EQ(fast.events, input.judge_boards);
      EXPECT_EQ(slow.events, input.judge_boards);
      EXPECT_EQ(slow.from_buffer, 0u);
      if (reads_fill_the_buffer(feed)) {
        EXPECT_GE(fast.from_buffer + boards_cut_by_refills(input.text), input.judge_boards.size());
      }
    }
  }
}

TEST(UvaReader, EveryGeometryAndMalformedBoardsAsLineByLine) {
  for (int rows = pawntb::kMinSide; rows <= pawntb::kMaxSide; ++rows) {
    for (int cols = pawntb::kMinSide; cols <= pawntb::kMaxSide; ++cols) {
      const pawntb::Geometry g{rows, cols};
      for (const std::uint32_t seed : {1u, 2u, 3u}) {
        SCOPED_TRACE(pawntb::to_string(g) + ", seed " + std::to_string(seed));
        const UvaInput well_formed = judge_input(g, 300, seed);
        const UvaEvents fast = read_fed(well_formed.text, g, Feed::file, true);
        EXPECT_EQ(fast.events, well_formed.judge_boards);
        // All but the first board, which next() reads after the count.
        EXPECT_EQ(fast.from_buffer, well_formed.judge_boards.size() - 1);

        const UvaInput mixed = mixed_input(g, 300, seed);
        for (const Feed feed : {Feed::file, Feed::pipe_7, Feed::memory}) {
          SCOPED_TRACE(feed_name(feed));
          const UvaEvents mixed_fast = read_fed(mixed.text, g, feed, true);
          const UvaEvents mixed_slow = read_fed(mixed.text, g, feed, false);
          EXPECT_EQ(mixed_fast.events, mixed_slow.events);
          if (reads_fill_the_buffer(feed)) {
            EXPECT_GT(mixed_fast.from_buffer, 150u);
          }
        }
      }
    }
  }
}

// pawntb uva answers in groups of boards. Over many groups of mostly
// judge-layout boards with malformed and unanswerable ones among them, from
// a file and from a pipe, it prints what reading line by line and probing
// one board at a time gives: every answer in order, and the errors in order.
TEST(UvaReader, CliAnswersAsLineByLineThroughManyGroups) {
  const pawntb::Geometry g{4, 4};
  const pawntb::Table table = pawntb::Table::open(kDefaultTable);
  // Boards with up to 4 pawns a side off their goal rows; now and then one
  // with a bad square, one with 5 white pawns, or one in CRLF rows. Most
  // chunks of answers have no error.
  std::mt19937 rng(5);
  const int boards = 90000;
  UvaInput input{g, std::to_string(boards) + "\n", {}};
  for (int b = 0; b < boards; ++b) {
    std::string text = "................";
    for (const char pawn : {'P', 'p'}) {
      const int count = static_cast<int>(rng() % 5);
      for (int placed = 0; placed < count;) {
        const int square = static_cast<int>(rng() % 12) + (pawn == 'P' ? 4 : 0);
        if (text[square] == '.') {
          text[square] = pawn;
          ++placed;
        }
      }
    }
    if (b % 2999 == 3) text[rng() % 16] = 'x';
    if (b % 1777 == 5) text.replace(4, 5, "PPPPP");
    const std::string end_of_row = b % 101 == 9 ? "\r\n" : "\n";
    input.text += "\n";
    for (int row = 0; row < 4; ++row) input.text += text.substr(4 * row, 4) + end_of_row;
  }
  // Boards and their answers from the line-by-line reader and the library.
  std::string expected_out;
  std::vector<std::string> expected_errors;
  std::FILE* in = fmemopen(input.text.data(), input.text.size(), "rb");
  ASSERT_NE(in, nullptr);
  pawntb::cli::LineReader lines(in);
  pawntb::cli::UvaReader reader(lines, g);
  std::uint64_t answered = 0;
  for (pawntb::cli::UvaItem item; reader.next(item);) {
    if (!item.error.empty()) {
      expected_errors.push_back("pawntb uva: stdin:" + std::to_string(item.line) + ": " + item.error);
      continue;
    }
    const pawntb::ProbeResult r = table.probe(item.position);
    if (!r.ok()) {
      // The CLI's words for it (this test is about the reader, not the words).
      expected_errors.push_back("pawntb uva: stdin:" + std::to_string(item.line) + ": case " +
                                std::to_string(item.case_number) + ": " +
                                pawntb::probe_problem(table, item.position, r));
      continue;
    }
    expected_out +=
        std::string(pawntb::side_name(r.winner)) + " (" + std::to_string(r.plies) + ")\n";
    ++answered;
  }
  std::fclose(in);
  ASSERT_GT(answered, 1u << 16);  // many groups, and more than one read buffer
  ASSERT_GT(expected_errors.size(), 50u);
  ASSERT_LT(expected_errors.size(), 100u);  // all shown
  std::string expected_err;
  for (const std::string& e : expected_errors) expected_err += e + "\n";

  for (const bool pipe : {false, true}) {
    SCOPED_TRACE(pipe ? "stdin a pipe" : "stdin a file");
    RunOptions options;
    options.input = input.text;
    options.input_through_pipe = pipe;
    const RunResult r = run_cli({"uva"}, options);
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(r.out == expected_out) << "stdout differs";
    EXPECT_EQ(r.err, expected_err);
  }
}

// The read buffer's end falls at every place of some board: the input is
// shifted by 0..board size bytes of leading empty lines.
TEST(UvaReader, BoardsCutByTheBufferEnd) {
  const pawntb::Geometry g{4, 4};
  const UvaInput base = judge_input(g, 10000, 11);
  for (int shift = 0; shift <= 21; ++shift) {
    SCOPED_TRACE("shift " + std::to_string(shift));
    std::vector<std::string> expected;
    for (const std::string& e : base.judge_boards) {  // lines move down by `shift`
      const std::size_t colon = e.find(':');
      expected.push_back(std::to_string(std::stoull(e.substr(0, colon)) + shift) + e.substr(colon));
    }
    const UvaEvents fast = read_fed(std::string(shift, '\n') + base.text, g, Feed::file, true);
    EXPECT_EQ(fast.events, expected);
    EXPECT_GE(fast.from_buffer + boards_cut_by_refills(base.text), expected.size());
  }
}

TEST(UvaReader, LastBoardWithoutFinalNewline) {
  const pawntb::Geometry g{4, 4};
  UvaInput input = judge_input(g, 100, 5);
  input.text.pop_back();
  for (const Feed feed : kFeeds) {
    SCOPED_TRACE(feed_name(feed));
    EXPECT_EQ(read_fed(input.text, g, feed, true).events, input.judge_boards);
  }
}

// Interactive use: a board is answered as soon as its last line has come,
// before the reader waits for more.
TEST(UvaReader, AnswersEachBoardBeforeWaitingForMore) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  std::atomic<int> answered{0};
  bool answered_in_time = false;
  std::thread writer([&] {
    const std::string first = "2\n\n" + kGoodBoard1;
    (void)!::write(fds[1], first.data(), first.size());
    const auto deadline = std::chrono::steady_clock::now() + kHangGuard;
    while (answered < 1 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    answered_in_time = answered == 1;
    const std::string second = "\n" + kGoodBoard2;
    (void)!::write(fds[1], second.data(), second.size());
    ::close(fds[1]);
  });
  std::FILE* in = ::fdopen(fds[0], "rb");
  pawntb::cli::LineReader lines(in);
  std::vector<std::uint64_t> first_lines;
  const std::uint64_t errors = pawntb::cli::read_uva(
      lines, {4, 4},
      [&](std::uint64_t line, const pawntb::Position&) {
        first_lines.push_back(line);
        ++answered;
      },
      [](const pawntb::cli::UvaError& e) { ADD_FAILURE() << e.line << ": " << e.message; });
  std::fclose(in);
  writer.join();
  EXPECT_TRUE(answered_in_time) << "the first board was not answered before more input came";
  EXPECT_EQ(errors, 0u);
  EXPECT_EQ(first_lines, (std::vector<std::uint64_t>{3, 8}));
}

// The CLI on many boards: the answers are the table's, and the same bytes,
// messages and status come from CRLF input, which is read line by line.
TEST(CliUva, ManyBoardsAnswerAsTheTableAndAsCrlfInput) {
  const pawntb::Table table = pawntb::Table::open(kDefaultTable);
  const pawntb::Geometry g = table.info().geometry;
  std::mt19937 rng(3);
  std::string input = "5000\n", expected_out;
  std::vector<std::string> expected_places;
  std::uint64_t line = 2;
  for (int b = 0; b < 5000; ++b) {
    std::uint64_t white = 0, black = 0;
    input += "\n" + random_board(g, rng, white, black);
    const pawntb::ProbeResult r =
        table.probe(pawntb::Position{g, white, black, pawntb::Side::white});
    if (r.ok()) {
      expected_out +=
          std::string(pawntb::side_name(r.winner)) + " (" + std::to_string(r.plies) + ")\n";
    } else {
      expected_places.push_back("stdin:" + std::to_string(line + 1));
    }
    line += g.rows + 1;
  }
  ASSERT_GT(expected_out.size(), 1000u);
  ASSERT_FALSE(expected_places.empty());
  const RunResult lf = run_with_input({"uva"}, input);
  EXPECT_EQ(lf.status, 2);
  EXPECT_EQ(lf.out, expected_out);
  std::vector<std::string> places = error_places(lf.err);
  places.resize(std::min(places.size(), expected_places.size()));
  expected_places.resize(std::min<std::size_t>(expected_places.size(), 100));
  EXPECT_EQ(places, expected_places);
  const RunResult crlf = run_with_input({"uva"}, to_crlf(input));
  EXPECT_EQ(crlf.status, lf.status);
  EXPECT_EQ(crlf.out, lf.out);
  EXPECT_EQ(crlf.err, lf.err);
}

}  // namespace
