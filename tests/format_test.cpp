// Tests of pawntb::format: the index, the rules, the notation and the layout.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <memory>
#include <optional>
#include <tuple>
#include <utility>
#include <variant>

#include "pawntb/format/index.hpp"
#include "pawntb/format/layout.hpp"
#include "pawntb/format/stored.hpp"
#include "pawntb/format/values.hpp"
#include "pawntb/format/walk.hpp"
#include "pawntb/notation.hpp"
#include "support/test_support.hpp"

namespace pawntb {
namespace {

using format::Cursor;
using format::Index;
using pawntb_test::parse;

struct Domain {
  int rows, cols, k;
};

class IndexRoundTrip : public ::testing::TestWithParam<Domain> {};

// Every index unranks to a position in the domain that ranks back to itself.
TEST_P(IndexRoundTrip, RankUnrankWholeDomain) {
  const auto [rows, cols, k] = GetParam();
  const Index index(Geometry{rows, cols}, k);
  ASSERT_FALSE(index.too_large());
  for (std::uint64_t i = 0; i < index.size(); ++i) {
    const auto [white, black] = index.unrank(i);
    ASSERT_TRUE(index.contains(white, black)) << i;
    ASSERT_EQ(index.rank(white, black), i);
  }
}

// The index has exactly as many entries as there are domain positions,
// counted by brute force over every colouring of the board.
TEST_P(IndexRoundTrip, SizeMatchesBruteForceCount) {
  const auto [rows, cols, k] = GetParam();
  const Geometry g{rows, cols};
  const Index index(g, k);
  const int n = g.squares();
  std::uint64_t count = 0;
  std::uint64_t total = 1;
  for (int i = 0; i < n; ++i) total *= 3;
  for (std::uint64_t code = 0; code < total; ++code) {
    std::uint64_t white = 0, black = 0, c = code;
    for (int s = 0; s < n; ++s, c /= 3) {
      if (c % 3 == 1) white |= 1ULL << s;
      if (c % 3 == 2) black |= 1ULL << s;
    }
    const bool in_domain = !(white & game::white_goal(g)) && !(black & game::black_goal(g)) &&
                           std::popcount(white) >= 1 && std::popcount(white) <= k &&
                           std::popcount(black) <= k;
    ASSERT_EQ(index.contains(white, black), in_domain);
    count += in_domain;
  }
  EXPECT_EQ(index.size(), count);
}

INSTANTIATE_TEST_SUITE_P(Geometries, IndexRoundTrip,
                         ::testing::Values(Domain{3, 3, 3}, Domain{4, 4, 4}, Domain{3, 4, 2},
                                           Domain{4, 3, 3}, Domain{3, 5, 3}));

TEST(Index, PlacementCountOf4x4IsTheDocumentedOne) {
  EXPECT_EQ(format::placement_count(Geometry{4, 4}, 4), 2267253u);
  EXPECT_EQ(Index(Geometry{4, 4}, 4).size(), 281328u);
}

// The largest boards still index in 64 bits; sampled round trips there
// exercise the big binomials. Boards with more row-profile pairs than the
// index tabulates are refused.
TEST(Index, LargestBoardsRoundTrip) {
  for (const Domain d :
       {Domain{8, 8, 6}, Domain{7, 8, 7}, Domain{5, 5, 5}, Domain{8, 3, 3}, Domain{3, 8, 8}}) {
    const Index index(Geometry{d.rows, d.cols}, d.k);
    ASSERT_FALSE(index.too_large());
    const std::uint64_t step = index.size() / 9973 + 1;
    for (std::uint64_t i = 0; i < index.size(); i += step) {
      const auto [white, black] = index.unrank(i);
      ASSERT_TRUE(index.contains(white, black));
      ASSERT_EQ(index.rank(white, black), i);
    }
    const auto [white, black] = index.unrank(index.size() - 1);
    EXPECT_EQ(index.rank(white, black), index.size() - 1);
  }
  EXPECT_TRUE(Index(Geometry{8, 8}, 8).too_large());
  EXPECT_TRUE(Index(Geometry{8, 8}, 7).too_large());
}

TEST(Bitboard, SqueezeAndUnsqueezeInvertEachOther) {
  for (std::uint64_t mask = 0; mask < 256; ++mask) {
    for (std::uint64_t x = 0; x < 256; ++x) {
      const std::uint64_t under = x & mask;
      ASSERT_EQ(game::unsqueeze(game::squeeze(under, mask), mask), under);
    }
  }
}

std::string parse_error(std::string_view text) {
  auto parsed = parse_position(text);
  if (auto* e = std::get_if<ParseError>(&parsed)) return e->message;
  return "";
}

TEST(Notation, ParsesDigitsRowsAndSide) {
  const Position p = parse(".ppp/4/.PPP/4 w");
  EXPECT_EQ(p.geometry, (Geometry{4, 4}));
  EXPECT_EQ(p.white, 0x0E00u);
  EXPECT_EQ(p.black, 0x000Eu);
  EXPECT_EQ(p.to_move, Side::white);
  EXPECT_EQ(format_position(p), "1ppp/4/1PPP/4 w");
  EXPECT_EQ(parse(format_position(p)), p);
  EXPECT_EQ(parse("ppp/3/PPP b").to_move, Side::black);
}

TEST(Notation, RejectsBadText) {
  EXPECT_NE(parse_error(".ppx/4/.PPP/4 w").find("bad character 'x'"), std::string::npos);
  EXPECT_NE(parse_error(".ppp/3/.PPP/4 w").find("ragged"), std::string::npos);
  EXPECT_NE(parse_error(".ppp/4/.PPP/4 x").find("side to move"), std::string::npos);
  EXPECT_NE(parse_error(".ppp/4/.PPP/4").find("side to move"), std::string::npos);
  EXPECT_NE(parse_error("pp/2 w").find("rows and columns"), std::string::npos);
  EXPECT_NE(parse_error("9/9/9 w").find("bad character '9'"), std::string::npos);
  EXPECT_NE(parse_error(std::string("pp\0p/4/4/4 w", 12)).find("0x00"), std::string::npos);
  EXPECT_NE(parse_error("8P/8/8 w").find("more than 8"), std::string::npos);
}

// A digit is one run of empty squares; two in a row are refused, never added
// up ("12/12/12 w" was once read as "3/3/3 w").
TEST(Notation, TwoDigitsInARowAreAnError) {
  EXPECT_EQ(parse_error("12/12/12 w"),
            "two digits in a row in board (\"12\"): one digit 1-8 per run of empty squares");
  EXPECT_NE(parse_error("p11p/4/4/PPPP w").find("two digits in a row"), std::string::npos);
  EXPECT_NE(parse_error("pppp/22/4/PPPP w").find("two digits in a row"), std::string::npos);
  EXPECT_EQ(parse_error("p2p/4/4/PPPP w"), "");
  EXPECT_EQ(parse_error("3/3/3 w"), "");
}

// Messages count ranks from the bottom, as the drawn board labels them, and
// name squares as moves do.
TEST(Notation, ErrorsNameRanksFromTheBottom) {
  EXPECT_EQ(parse_error("pp/pp/4/PPPP w"), "ragged board: rank 4 has 2 squares, rank 1 has 4");
  EXPECT_EQ(parse_error(".ppp/4/.PP/4 w"), "ragged board: rank 2 has 3 squares, rank 1 has 4");
  EXPECT_EQ(parse_error("4/4/4/PPP w"), "ragged board: rank 1 has 3 squares, rank 2 has 4");
  EXPECT_EQ(parse_error("4/4/4P4/4 w"), "rank 2 has more than 8 squares");
}

// The board is checked before the side to move: "# comment" is a bad board.
TEST(Notation, ChecksTheBoardBeforeTheSide) {
  EXPECT_EQ(parse_error("# comment"), "bad character '#' in board: use P, p, . or 1-8");
  EXPECT_NE(parse_error("4/4/4 x").find("side to move"), std::string::npos);
  EXPECT_NE(parse_error("4/4/4").find("missing side to move"), std::string::npos);
  EXPECT_EQ(parse_error("4/4/4/4/4/4/4/4/4 w"), "more than 8 rows");
}

TEST(Notation, InvalidReasonNamesTheProblemAndTheSquare) {
  EXPECT_EQ(invalid_reason(parse("2P1/4/4/4 w")),
            "white pawn on c4 is on its goal row, with white to move");
  EXPECT_EQ(invalid_reason(parse("4/4/4/p3 b")),
            "black pawn on a1 is on its goal row, with black to move");
  Position overlap = parse("4/4/1P2/4 w");
  overlap.black = overlap.white;
  EXPECT_EQ(invalid_reason(overlap), "a white and a black pawn are both on b2");
  Position off_board = parse("4/4/4/4 w");
  off_board.white = 1ULL << 16;
  EXPECT_EQ(invalid_reason(off_board), "a pawn lies off the 4x4 board");
  EXPECT_NE(invalid_reason(Position{Geometry{9, 4}, 0, 0, Side::white}).find("9x4"),
            std::string::npos);
  for (const char* valid : {"2P1/4/4/4 b", ".ppp/4/.PPP/4 w", "4/4/4/p3 w"}) {
    EXPECT_NE(classify(parse(valid)), Status::invalid) << valid;
    EXPECT_EQ(invalid_reason(parse(valid)), "") << valid;
  }
}

TEST(Notation, NamesSquaresAndMovesLikeChess) {
  const Geometry g{4, 4};
  EXPECT_EQ(square_name(g, 12), "a1");  // bottom-left
  EXPECT_EQ(square_name(g, 3), "d4");   // top-right
  EXPECT_EQ(move_name(g, Move{9, 5}), "b2b3");
  EXPECT_EQ(move_name(g, Move{9, 6}), "b2c3");
}

std::string move_error(const char* position, std::string_view uci) {
  const auto parsed = parse_move(parse(position), uci);
  if (const auto* e = std::get_if<ParseError>(&parsed)) return e->message;
  return "";
}

TEST(Moves, ParseMoveAcceptsExactlyTheLegalMoves) {
  const Position p = parse(".ppp/4/.PPP/4 w");
  int legal = 0;
  for (int from = 0; from < 16; ++from) {
    for (int to = 0; to < 16; ++to) {
      const Move m{static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(to)};
      const auto parsed = parse_move(p, move_name(p.geometry, m));
      const MoveList moves = legal_moves(p);
      const bool is_legal = std::find(moves.begin(), moves.end(), m) != moves.end();
      ASSERT_EQ(std::holds_alternative<Move>(parsed), is_legal) << move_name(p.geometry, m);
      if (is_legal) {
        EXPECT_EQ(std::get<Move>(parsed), m);
      }
      legal += is_legal;
    }
  }
  EXPECT_EQ(legal, 3);
  // Squares in either case: a square has no colour.
  for (const char* uci : {"C2C3", "c2C3", "C2c3"}) {
    const auto upper = parse_move(p, uci);
    ASSERT_TRUE(std::holds_alternative<Move>(upper)) << uci;
    EXPECT_EQ(std::get<Move>(upper), std::get<Move>(parse_move(p, "c2c3"))) << uci;
  }
}

TEST(Moves, ParseMoveSaysWhatIsWrong) {
  EXPECT_EQ(move_error(".ppp/4/.PPP/4 w", "b2b4"), "b2b4: not a legal move for white");
  EXPECT_EQ(move_error(".ppp/4/.PPP/4 w", "a2a3"),
            "a2a3: not a legal move for white (no white pawn on a2)");
  EXPECT_EQ(move_error(".ppp/4/.PPP/4 b", "b2b1"),
            "b2b1: not a legal move for black (no black pawn on b2)");
  EXPECT_EQ(move_error(".ppp/4/.PPP/4 w", "c2c5"), "c2c5: c5 is off the 4x4 board");
  EXPECT_EQ(move_error(".ppp/4/.PPP/4 w", "e2e3"), "e2e3: e2 is off the 4x4 board");
  EXPECT_EQ(move_error(".ppp/4/.PPP/4 w", "c2"), "c2: expected two squares such as c2c3");
  EXPECT_EQ(move_error(".ppp/4/.PPP/4 w", "E2E3"), "E2E3: e2 is off the 4x4 board");
  EXPECT_EQ(move_error(".ppp/4/.PPP/4 w", "c2c"), "c2c: expected two squares such as c2c3");
  EXPECT_EQ(move_error(".ppp/4/.PPP/4 w", ""), ": expected two squares such as c2c3");
  EXPECT_EQ(move_error("P3/4/4/4 b", "b4b3"), "b4b3: the game is over: black has lost");
  EXPECT_EQ(move_error("P3/4/4/4 w", "a4a3"),
            "a4a3: the position is invalid: white pawn on a4 is on its goal row, with white to "
            "move");
}

TEST(Moves, PlayMovesFollowsAListAndNamesTheBadMove) {
  const Position start = parse("ppp/3/PPP w");
  const auto played = play_moves(start, "b1b2, a3b2 ,c1b2");
  ASSERT_TRUE(std::holds_alternative<Position>(played)) << std::get<ParseError>(played).message;
  EXPECT_EQ(format_position(std::get<Position>(played)), "1pp/1P1/P2 b");
  EXPECT_EQ(std::get<Position>(play_moves(start, "b1b2 a3b2")),
            std::get<Position>(play_moves(start, "b1b2,a3b2")));
  EXPECT_EQ(std::get<Position>(play_moves(start, "")), start);
  const auto bad = play_moves(start, "b1b2,a3b2,b2b3");
  ASSERT_TRUE(std::holds_alternative<ParseError>(bad));
  EXPECT_EQ(std::get<ParseError>(bad).message,
            "move 3: b2b3: not a legal move for white (no white pawn on b2)");
  EXPECT_EQ(std::get<ParseError>(play_moves(start, "b1b2;a3b2")).message,
            "move 1: b1b2;a3b2: expected two squares such as c2c3");
}

TEST(Moves, StartPositionFillsTheHomeRows) {
  EXPECT_EQ(format_position(start_position(Geometry{4, 4}, 4)), "pppp/4/4/PPPP w");
  EXPECT_EQ(format_position(start_position(Geometry{3, 3}, 3)), "ppp/3/PPP w");
  EXPECT_EQ(format_position(start_position(Geometry{4, 5}, 3)), "1ppp1/5/5/1PPP1 w");
  EXPECT_EQ(format_position(start_position(Geometry{4, 4}, 3)), "ppp1/4/4/PPP1 w");
  EXPECT_EQ(format_position(start_position(Geometry{5, 8}, 1)), "3p4/8/8/8/3P4 w");
  for (int k = 1; k <= 6; ++k) {
    EXPECT_EQ(classify(start_position(Geometry{5, 6}, k)), Status::playable) << k;
  }
}

// The most legal moves in a 4x4 position with up to 4 pawns a side (the
// default table; pawntb.h quotes it): every white-to-move entry of the index,
// which by the colour flip covers black to move too. Edge pawns have one
// capture: 2 + 3 + 3 + 2.
TEST(Rules, MostMovesOn4x4WithFourPawnsIsTen) {
  const Geometry g{4, 4};
  const format::Index index(g, 4);
  int most = 0;
  for (std::uint64_t i = 0; i < index.size(); ++i) {
    const auto [white, black] = index.unrank(i);
    most = std::max(most, legal_moves(Position{g, white, black, Side::white}).size);
  }
  EXPECT_EQ(most, 10);
}

TEST(Rules, ClassifiesInvalidOverAndPlayable) {
  EXPECT_EQ(classify(parse("P3/4/4/4 w")), Status::invalid);   // white on its goal, to move
  EXPECT_EQ(classify(parse("P3/4/4/4 b")), Status::over);      // white just arrived
  EXPECT_EQ(classify(parse("P3/4/4/p3 w")), Status::invalid);  // both on their goals
  EXPECT_EQ(classify(parse("4/p3/P3/4 w")), Status::over);     // blocked, no move
  EXPECT_EQ(classify(parse("4/4/4/4 w")), Status::over);       // no pawns
  EXPECT_EQ(classify(parse(".ppp/4/.PPP/4 w")), Status::playable);
}

// Why a game is over: the goal reached, no pawns, or pawns that cannot move;
// either side to move.
TEST(Rules, GameEndSaysWhy) {
  EXPECT_EQ(game_end(parse("P3/4/4/4 b")), GameEnd::goal);
  EXPECT_EQ(game_end(parse("4/4/4/p3 w")), GameEnd::goal);
  EXPECT_EQ(game_end(parse("P3/4/4/p3 w")), GameEnd::none);  // invalid: white on its goal
  EXPECT_EQ(game_end(parse("4/4/4/PPPP b")), GameEnd::no_pawns);
  EXPECT_EQ(game_end(parse("4/pppp/4/4 w")), GameEnd::no_pawns);
  EXPECT_EQ(game_end(parse("4/p3/P3/4 w")), GameEnd::no_moves);
  EXPECT_EQ(game_end(parse("4/p3/P3/4 b")), GameEnd::no_moves);
  EXPECT_EQ(game_end(parse("pppp/4/4/PPPP w")), GameEnd::none);
  EXPECT_STREQ(game_end_name(GameEnd::no_pawns), "no_pawns");
  EXPECT_EQ(game_end_name(GameEnd::none), nullptr);
}

TEST(Rules, GeneratesPushesAndCaptures) {
  const Position p = parse("4/1p2/P1P1/4 w");  // white a2, c2; black b3
  std::vector<std::string> names;
  for (const Move m : legal_moves(p)) names.push_back(move_name(p.geometry, m));
  EXPECT_EQ(names, (std::vector<std::string>{"a2a3", "a2b3", "c2b3", "c2c3"}));
  const Position q = play(p, Move{8, 5});  // a2xb3
  EXPECT_EQ(q.black, 0u);
  EXPECT_EQ(q.to_move, Side::black);
  const Position b = parse("4/1p2/P1P1/4 b");
  names.clear();
  for (const Move m : legal_moves(b)) names.push_back(move_name(b.geometry, m));
  EXPECT_EQ(names, (std::vector<std::string>{"b3a2", "b3b2", "b3c2"}));
}

format::Header sample_header() {
  format::Header h;
  h.geometry = Geometry{4, 4};
  h.max_pawns = 4;
  h.entry_count = 281328;
  h.placement_count = 2267253;
  h.block_entries = 1 << 18;
  h.block_count = 2;
  h.file_size = 1000;
  h.max_plies = 13;
  h.index_checksum = 42;
  h.win_count = 7;
  h.longest_index = 9;
  return h;
}

// Every field comes back as encoded, and the stored header checksum is that
// of the first 120 bytes.
TEST(Layout, HeaderRoundTrips) {
  const format::Header want = sample_header();
  const auto bytes = format::encode_header(want);
  auto decoded = format::decode_header(bytes, want.file_size);
  ASSERT_TRUE(std::holds_alternative<format::Header>(decoded))
      << std::get<format::LayoutError>(decoded).message;
  const auto& h = std::get<format::Header>(decoded);
  EXPECT_EQ(h.geometry, want.geometry);
  EXPECT_EQ(h.max_pawns, want.max_pawns);
  EXPECT_EQ(h.entry_count, want.entry_count);
  EXPECT_EQ(h.placement_count, want.placement_count);
  EXPECT_EQ(h.block_entries, want.block_entries);
  EXPECT_EQ(h.block_count, want.block_count);
  EXPECT_EQ(h.file_size, want.file_size);
  EXPECT_EQ(h.max_plies, want.max_plies);
  EXPECT_EQ(h.index_checksum, want.index_checksum);
  EXPECT_EQ(h.win_count, want.win_count);
  EXPECT_EQ(h.longest_index, want.longest_index);
  EXPECT_EQ(h.header_checksum, format::checksum64(std::span(bytes).first(120)));
}

std::string decode_error(const std::array<std::uint8_t, format::kHeaderSize>& bytes,
                         std::uint64_t size = 1000) {
  auto decoded = format::decode_header(bytes, size);
  if (auto* e = std::get_if<format::LayoutError>(&decoded)) return e->message;
  const auto& h = std::get<format::Header>(decoded);
  if (auto e = format::check_entry_count(h, format::Index(h.geometry, h.max_pawns))) {
    return e->message;
  }
  return "";
}

// Rewrites a header field and re-seals the checksum, as a table from another
// build would look.
std::array<std::uint8_t, format::kHeaderSize> resealed(
    std::array<std::uint8_t, format::kHeaderSize> bytes, std::size_t offset, std::uint8_t value) {
  bytes[offset] = value;
  const std::uint64_t sum = format::checksum64(std::span(bytes).first(120));
  for (int i = 0; i < 8; ++i) bytes[120 + i] = static_cast<std::uint8_t>(sum >> (8 * i));
  return bytes;
}

TEST(Layout, RefusesDamageAndMismatchesWithReasons) {
  const auto good = format::encode_header(sample_header());
  for (std::size_t i = 8; i < format::kHeaderSize; ++i) {
    auto bad = good;
    bad[i] ^= 0x01;
    EXPECT_NE(decode_error(bad), "") << "byte " << i;
  }
  auto bad_magic = good;
  bad_magic[0] = 'X';
  EXPECT_NE(decode_error(bad_magic).find("magic"), std::string::npos);
  // Older versions (1: filler bytes stored; 2: the region index) are refused by name.
  EXPECT_NE(decode_error(resealed(good, 8, 2)).find("format version 2, this build reads 3"),
            std::string::npos);
  EXPECT_NE(decode_error(resealed(good, 16, good[16] ^ 1)).find("rules fingerprint"),
            std::string::npos);
  EXPECT_NE(decode_error(resealed(good, 10, 9)).find("geometry"), std::string::npos);
  EXPECT_NE(decode_error(resealed(good, 12, 3)).find("entry count"), std::string::npos);
  EXPECT_NE(decode_error(good, 999).find("truncated"), std::string::npos);
}

TEST(Values, FoldPicksFastestWinOrLongestLoss) {
  format::ValueFold none;
  EXPECT_EQ(none.value(), 0);
  format::ValueFold losing;
  losing.add(3);
  losing.add(7);
  EXPECT_EQ(losing.value(), 8);
  format::ValueFold winning;
  winning.add(7);
  winning.add(4);
  winning.add(2);
  EXPECT_EQ(winning.value(), 3);
}

}  // namespace
}  // namespace pawntb

namespace pawntb {
namespace {

// The cursor visits exactly the positions unrank gives, in index order.
TEST(Index, CursorWalksTheIndexInOrder) {
  for (const Geometry g : {Geometry{3, 3}, Geometry{4, 4}, Geometry{3, 5}, Geometry{5, 3}}) {
    const Index index(g, 3);
    Cursor cursor(index, 0);
    for (std::uint64_t i = 0;; ++i) {
      const auto [white, black] = index.unrank(i);
      ASSERT_EQ(cursor.index(), i);
      ASSERT_EQ(cursor.white(), white) << to_string(g) << " " << i;
      ASSERT_EQ(cursor.black(), black) << to_string(g) << " " << i;
      if (i + 1 == index.size()) break;
      cursor.next();
    }
    Cursor middle(index, index.size() / 2);
    middle.next();
    EXPECT_EQ(middle.index(), index.size() / 2 + 1);
    EXPECT_EQ(index.rank(middle.white(), middle.black()), middle.index());
  }
}

}  // namespace
}  // namespace pawntb

namespace pawntb {
namespace {

// next_run() lands where stepping through the run would, and win in one is
// the same across a run (the generator fills runs on that basis).
TEST(Index, CursorSkipsRunsConsistently) {
  for (const Geometry g : {Geometry{3, 3}, Geometry{4, 4}, Geometry{5, 4}}) {
    const Index index(g, 3);
    Cursor cursor(index, 0);
    while (true) {
      const std::uint64_t run = cursor.run_remaining();
      ASSERT_GE(run, 1u);
      const bool wins = game::wins_in_one(g, cursor.white(), cursor.black());
      Cursor walker = cursor;
      for (std::uint64_t k = 1; k < run; ++k) {
        walker.next();
        ASSERT_EQ(game::wins_in_one(g, walker.white(), walker.black()), wins);
      }
      if (cursor.index() + run == index.size()) break;
      walker.next();
      cursor.next_run();
      ASSERT_EQ(cursor.index(), walker.index());
      ASSERT_EQ(cursor.white(), walker.white());
      ASSERT_EQ(cursor.black(), walker.black());
    }
  }
}

// next_lane() lands where stepping through the lane would, and
// lane_remaining() counts the entries that share the slice and W.
TEST(Index, CursorSkipsLanesConsistently) {
  for (const Geometry g : {Geometry{3, 3}, Geometry{4, 4}, Geometry{5, 4}, Geometry{4, 5}}) {
    const Index index(g, g.cols == 5 ? 4 : 3);
    Cursor cursor(index, 0);
    std::uint64_t lanes = 0;
    while (true) {
      const std::uint64_t lane = cursor.lane_remaining();
      ASSERT_GE(lane, 1u);
      Cursor walker = cursor;
      for (std::uint64_t k = 1; k < lane; ++k) {
        walker.next();
        ASSERT_EQ(walker.white(), cursor.white());
        ASSERT_EQ(walker.lane_remaining(), lane - k);
      }
      ++lanes;
      if (cursor.index() + lane == index.size()) break;
      walker.next();  // the next lane: another W, or the next slice
      cursor.next_lane();
      ASSERT_EQ(cursor.index(), walker.index());
      ASSERT_EQ(cursor.white(), walker.white());
      ASSERT_EQ(cursor.black(), walker.black());
      // From the middle of a lane too.
      if (lane > 2) {
        Cursor middle(index, cursor.index() - lane + 1);
        middle.next_lane();
        ASSERT_EQ(middle.index(), cursor.index());
        ASSERT_EQ(middle.black(), cursor.black());
      }
    }
    EXPECT_GT(lanes, 10u);
  }
}

// LaneWalk goes lane by lane where the cursor goes entry by entry: the same
// first entries, sizes and white pawns; and a group of lanes with one W_1
// (row_1_group_end, next_row_1) ends where unrank says W_1 or the slice
// changes.
TEST(Index, LaneWalkAgreesWithTheCursor) {
  for (const Geometry g : {Geometry{3, 3}, Geometry{4, 4}, Geometry{5, 4}, Geometry{4, 5}}) {
    const Index index(g, g.cols == 5 ? 4 : 3);
    const std::uint64_t row_0 = game::row_mask(g, 0), row_1 = game::row_mask(g, 1);
    Cursor cursor(index, 0);
    format::LaneWalk lane(index, 0);
    std::uint64_t lanes = 0;
    while (true) {
      ASSERT_EQ(lane.first(), cursor.index());
      ASSERT_EQ(lane.size(), cursor.lane_remaining());
      ASSERT_EQ(lane.white(), cursor.white());
      ASSERT_EQ(lane.run_size(), cursor.run_remaining());
      ASSERT_EQ(lane.black_on_row_0(), std::popcount(cursor.black() & row_0));
      ASSERT_EQ(lane.black_off_row_0(), cursor.black_off_row_0());
      // From an entry inside the lane too.
      const format::LaneWalk inside(index, lane.first() + lane.size() - 1);
      ASSERT_EQ(inside.first(), lane.first());
      ASSERT_EQ(inside.white(), lane.white());
      const std::uint64_t end = lane.row_1_group_end();
      ASSERT_GT(end, lane.first());
      const std::size_t slice = index.slice_of(lane.first());
      ASSERT_EQ(index.slice_of(end - 1), slice);
      ASSERT_EQ(index.unrank(end - 1).white & row_1, lane.white() & row_1);
      if (end < index.size()) {
        format::LaneWalk jump = lane;
        jump.next_row_1();
        ASSERT_EQ(jump.first(), end);
        ASSERT_EQ(jump.white(), index.unrank(end).white);
        ASSERT_TRUE(index.slice_of(end) != slice ||
                    (index.unrank(end).white & row_1) != (lane.white() & row_1));
      }
      ++lanes;
      if (lane.first() + lane.size() == index.size()) break;
      lane.next();
      cursor.next_lane();
    }
    EXPECT_GT(lanes, 10u);
  }
}

}  // namespace
}  // namespace pawntb

namespace pawntb {
namespace {

// for_each_span, which writer and reader both use, classifies every entry as
// the format's definitions say (is_filler, value_by_rule, is_canonical), each
// once and in order, over the whole index and over ranges that cut runs.
TEST(Stored, SpansClassifyEveryEntryAsTheRulesSay) {
  using format::EntryKind;
  for (const Geometry g : {Geometry{3, 3}, Geometry{4, 4}, Geometry{4, 3}, Geometry{3, 5},
                           Geometry{5, 4}, Geometry{6, 4}, Geometry{4, 6}}) {
    // 5x4 and 6x4 with K = 2: middle sets span two bytes; 4x6 with K = 2:
    // rows of six squares.
    const int k = g.cols == 5 ? 3 : (g.rows >= 5 || g.cols >= 6) ? 2 : g.cols;
    const format::Index index(g, k);
    const auto symmetry = std::make_unique<game::BoardSymmetry>(g);
    std::vector<EntryKind> want(index.size());
    for (std::uint64_t i = 0; i < index.size(); ++i) {
      const auto [white, black] = index.unrank(i);
      const auto rule = format::value_by_rule(g, white, black);
      want[i] = !format::is_filler(g, white, black)      ? EntryKind::stored
                : rule == 1                             ? EntryKind::win_in_one
                : !format::is_canonical(g, white, black) ? EntryKind::mirror_image
                                                        : EntryKind::no_move;
    }
    for (const std::uint64_t step : {index.size(), std::uint64_t{4096}, std::uint64_t{7}}) {
      std::vector<EntryKind> got;
      std::uint64_t stored = 0;
      for (std::uint64_t begin = 0; begin < index.size(); begin += step) {
        const std::uint64_t end = std::min(begin + step, index.size());
        std::optional<EntryKind> previous;
        format::for_each_span(index, *symmetry, begin, end,
                             [&](std::uint64_t first, std::uint64_t n, EntryKind kind) {
                               ASSERT_EQ(first, got.size());
                               ASSERT_GE(n, 1u);
                               ASSERT_LE(first + n, end);
                               ASSERT_NE(previous, kind) << "adjacent spans of one kind";
                               previous = kind;
                               got.insert(got.end(), n, kind);
                               if (kind == EntryKind::stored) stored += n;
                             });
      }
      ASSERT_EQ(got, want) << to_string(g) << " step " << step;
      EXPECT_EQ(stored, format::stored_count(index, *symmetry, 0, index.size()));
    }
  }
}

// FORMAT.md section 6.3, worked example (4x4, K = 4): the digits of
// ".ppp/4/.PPP/4 w" are W_2 = {1,2,3} and B'_0 = {1,2,3}, each of rank
// C(1,1) + C(2,2) + C(3,3) = 3 among C(4,3) = 4 subsets; its mirror image's
// are {0,1,2}, rank 0.
static_assert(format::row_subset_rank(0b1110) == 3 && format::binomial(4, 3) == 4);
static_assert(format::row_subset_rank(0b0111) == 0);

// The worked example's tier, slice and indices, as FORMAT.md and the comment
// at the top of index.hpp give them.
TEST(Index, WorkedExampleOfFormatMd) {
  const Geometry g{4, 4};
  const Index index(g, 4);
  const Position p = parse(".ppp/4/.PPP/4 w");
  const Position image = parse("ppp./4/PPP./4 w");
  const std::uint64_t i = index.rank(p.white, p.black);
  EXPECT_EQ(i, 100492u);
  const std::size_t t = index.tier_of(i);
  EXPECT_EQ(t, 364u);
  const Index::Tier& tier = index.tiers()[t];
  EXPECT_EQ(std::tuple(tier.w, tier.b, tier.sw, tier.sb), std::tuple(3, 3, 3, 0));
  EXPECT_EQ(tier.first, 100477u);
  EXPECT_EQ(tier.size, 272u);
  // Both images share the slice: the row profiles do not see the mirror.
  const Index::SliceStart& slice = index.slice_with(p.white, p.black);
  EXPECT_EQ(&index.slice_with(image.white, image.black), &slice);
  EXPECT_EQ(slice.first, 100477u);
  EXPECT_EQ(i, slice.first + 3 * 4 + 3);  // white digits 3; black digits 3 of 4
  // The reader looks up the canonical image, the slice's first entry.
  const game::Pawns c = format::canonical(g, p.white, p.black);
  EXPECT_EQ(c.white, image.white);
  EXPECT_EQ(c.black, image.black);
  EXPECT_EQ(index.rank(c.white, c.black), 100477u);
  EXPECT_EQ(index.tier_of(100477), t);
}

// The tier counts FORMAT.md's table and index.hpp give, and the tiers tile
// the index in order.
TEST(Index, TierCountsOf3x3And4x4) {
  for (const auto& [g, k, tiers] : {std::tuple(Geometry{3, 3}, 3, std::size_t{75}),
                                    std::tuple(Geometry{4, 4}, 4, std::size_t{580})}) {
    const Index index(g, k);
    ASSERT_EQ(index.tiers().size(), tiers) << to_string(g);
    std::uint64_t next = 0;
    for (std::size_t t = 0; t < tiers; ++t) {
      const Index::Tier& tier = index.tiers()[t];
      ASSERT_EQ(tier.first, next) << to_string(g) << " tier " << t;
      ASSERT_GE(tier.size, 1u);
      ASSERT_EQ(index.tier_of(tier.first), t);
      next += tier.size;
    }
    EXPECT_EQ(next, index.size());
  }
}

// The white-to-move view of a position with black to move: rows turned over
// and colours swapped (FORMAT.md section 6.2), written out here from the
// definition.
game::Pawns white_to_move_view(const Position& p) {
  const Geometry g = p.geometry;
  const std::uint64_t row = (std::uint64_t{1} << g.cols) - 1;
  game::Pawns view{0, 0};
  for (int r = 0; r < g.rows; ++r) {
    const int to = (g.rows - 1 - r) * g.cols;
    view.white |= (p.black >> (r * g.cols) & row) << to;
    view.black |= (p.white >> (r * g.cols) & row) << to;
  }
  return view;
}

// The tier key (w, b, sw, sb) of a white-to-move position, from the
// definition: a white pawn on row r has advanced R-1-r rows, a black one r.
std::tuple<int, int, int, int> tier_key(Geometry g, std::uint64_t white, std::uint64_t black) {
  int sw = 0, sb = 0;
  for (int s = 0; s < g.squares(); ++s) {
    if (white >> s & 1) sw += g.rows - 1 - s / g.cols;
    if (black >> s & 1) sb += s / g.cols;
  }
  return {std::popcount(white), std::popcount(black), sw, sb};
}

// TIERS in index.hpp: every entry lies in the tier of its key, and every
// legal move leads to a finished game or to an entry of an earlier tier, so
// that a tier can be solved in one pass once the tiers before it are.
// Exhaustive, with the moves of position.hpp.
TEST(Index, EveryMoveGoesToAnEarlierTier) {
  for (const auto& [g, k] :
       {std::pair(Geometry{3, 3}, 3), std::pair(Geometry{4, 4}, 4), std::pair(Geometry{3, 5}, 5),
        std::pair(Geometry{4, 3}, 3), std::pair(Geometry{5, 4}, 4)}) {
    const Index index(g, k);
    const auto tiers = index.tiers();
    Cursor cursor(index, 0);
    std::size_t t = 0;
    std::uint64_t moves = 0;
    for (std::uint64_t i = 0;; ++i) {
      while (i >= tiers[t].first + tiers[t].size) ++t;
      const Position p{g, cursor.white(), cursor.black(), Side::white};
      const Index::Tier& tier = tiers[t];
      ASSERT_EQ(tier_key(g, p.white, p.black), std::tuple(tier.w, tier.b, tier.sw, tier.sb))
          << format_position(p);
      for (const Move m : legal_moves(p)) {
        const Position after = play(p, m);
        const game::Pawns view = white_to_move_view(after);
        if (!index.contains(view.white, view.black)) {  // only a finished game has no entry
          ASSERT_EQ(classify(after), Status::over) << format_position(after);
          continue;
        }
        ASSERT_LT(index.tier_of(index.rank(view.white, view.black)), t)
            << format_position(p) << " " << move_name(g, m);
        ++moves;
      }
      if (i + 1 == index.size()) break;
      cursor.next();
    }
    EXPECT_GT(moves, 0u) << to_string(g);
  }
}

}  // namespace
}  // namespace pawntb
