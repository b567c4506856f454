// Tests of pawntb::probe against the independent brute-force oracle, and of
// the table file's integrity checks.
#include "pawntb/probe.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <thread>
#include <variant>

#include "oracle/brute_force.hpp"
#include "pawntb/block_reader.hpp"
#include "pawntb/check.hpp"
#include "pawntb/format/index.hpp"
#include "pawntb/format/values.hpp"
#include "pawntb/game/rules.hpp"
#include "pawntb/generator.hpp"
#include "pawntb/notation.hpp"
#include "pawntb/pawntb.h"
#include "support/test_support.hpp"

namespace pawntb {
namespace {

using namespace pawntb_test;
using check::BlockDamage;
using check::TierChecksums;
using check::VerifyPlan;
using check::VerifyReport;
using check::VerifyState;

// verify()'s memory budget where it does not matter: room for all of 4x4.
constexpr std::uint64_t kVerifyMemory = std::uint64_t{1} << 30;

// The oracle's board string (rows*cols chars, top row first) as notation.
std::string notation(const std::string& board, int cols, bool white_to_move) {
  std::string text;
  for (std::size_t i = 0; i < board.size(); i += cols) {
    if (i) text += '/';
    text += board.substr(i, cols);
  }
  return text + (white_to_move ? " w" : " b");
}

// The same as a Position, square by square (no parser: the sweeps below call
// this millions of times, under the sanitizers too).
Position position_of(const std::string& board, int rows, int cols, bool white_to_move) {
  Position p{Geometry{rows, cols}, 0, 0, white_to_move ? Side::white : Side::black};
  for (std::size_t s = 0; s < board.size(); ++s) {
    if (board[s] == 'P') p.white |= std::uint64_t{1} << s;
    if (board[s] == 'p') p.black |= std::uint64_t{1} << s;
  }
  return p;
}

// A table for a small geometry, generated once per test binary.
const std::filesystem::path& table_3x3() {
  static const std::filesystem::path path = [] {
    auto p = std::filesystem::temp_directory_path() /
             ("pawntb-3x3-" + std::to_string(::getpid()) + ".pawntb");
    write_table(solve(Geometry{3, 3}, 3), p);
    return p;
  }();
  return path;
}

// Every placement of the domain, both sides to move, against the oracle.
// Every placement with either side to move, as the oracle solves it, against
// each of `tables` (one oracle pass for all of them: under the sanitizers the
// pass is most of the suite's time).
void expect_agrees_with_oracle(std::initializer_list<const Table*> tables, int rows, int cols,
                               int k) {
  pawntb_oracle::Solver oracle(rows, cols);
  std::uint64_t checked = 0, failures = 0;
  pawntb_oracle::for_each_placement(rows, cols, k, [&](const std::string& board) {
    for (const bool white : {true, false}) {
      const pawntb_oracle::Result want = oracle.solve(board, white);
      const Position position = position_of(board, rows, cols, white);
      for (const Table* table : tables) {
        const ProbeResult got = table->probe(position);
        ++checked;
        const bool same = want.valid ? got.ok() && (got.winner == Side::white) == want.white_wins &&
                                           got.plies == want.plies
                                     : got.status == ProbeStatus::invalid_position;
        if (!same && failures++ < 10) {
          ADD_FAILURE() << notation(board, cols, white) << " ("
                        << (table->info().fully_loaded ? "loaded" : "on demand") << "): oracle "
                        << (want.valid ? "" : "invalid ") << (want.white_wins ? "white " : "black ")
                        << want.plies << ", table " << describe(got.status) << " "
                        << side_name(got.winner) << " " << int{got.plies};
        }
      }
    }
  });
  EXPECT_EQ(failures, 0u) << "of " << checked;
}

// Loaded whole at open, and block by block on demand.
TEST(Oracle, Whole4x4DomainBothSidesToMove) {
  const Table loaded = Table::open(kDefaultTable, Table::Load::all);
  const Table on_demand = Table::open(kDefaultTable, Table::Load::on_demand);
  ASSERT_TRUE(loaded.info().fully_loaded);
  ASSERT_FALSE(on_demand.info().fully_loaded);
  expect_agrees_with_oracle({&loaded, &on_demand}, 4, 4, 4);
}

TEST(Oracle, Whole3x3DomainBothSidesToMove) {
  const Table table = Table::open(table_3x3());
  expect_agrees_with_oracle({&table}, 3, 3, 3);
}

TEST(KnownPositions, UvaSamples) {
  const Table table = Table::open(kDefaultTable);
  const ProbeResult a = table.probe(parse(".ppp/..../.PPP/.... w"));
  EXPECT_TRUE(a.ok());
  EXPECT_EQ(a.winner, Side::white);
  EXPECT_EQ(a.plies, 7);
  const ProbeResult b = table.probe(parse("...p/...p/pP.P/...P w"));
  EXPECT_EQ(b.winner, Side::black);
  EXPECT_EQ(b.plies, 2);
}

TEST(KnownPositions, HexapawnIsALossForWhiteInSix) {
  const ProbeResult r = Table::open(table_3x3()).probe(parse("ppp/3/PPP w"));
  EXPECT_EQ(r.winner, Side::black);
  EXPECT_EQ(r.plies, 6);
}

// The plies come from the oracle, which shares no code with the generator.
TEST(KnownPositions, OctapawnIsAWinForWhite) {
  const std::string start = "pppp........PPPP";
  const pawntb_oracle::Result want = pawntb_oracle::Solver(4, 4).solve(start, true);
  ASSERT_TRUE(want.valid);
  EXPECT_TRUE(want.white_wins);
  const ProbeResult r = Table::open(kDefaultTable).probe(parse(notation(start, 4, true)));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.winner, Side::white);
  EXPECT_EQ(r.plies, want.plies);
}

TEST(Probe, RefusesPositionsOutsideTheTable) {
  const Table table = Table::open(kDefaultTable);
  EXPECT_EQ(table.probe(parse("ppp/3/PPP w")).status, ProbeStatus::geometry_mismatch);
  EXPECT_EQ(table.probe(parse("ppp1/pp2/PP2/PPP1 w")).status, ProbeStatus::too_many_pawns);
  EXPECT_EQ(table.probe(parse("P3/4/4/4 w")).status, ProbeStatus::invalid_position);
  Position overlapping = parse("P3/4/4/4 b");
  overlapping.black = overlapping.white;
  EXPECT_EQ(table.probe(overlapping).status, ProbeStatus::invalid_position);
  const ProbeResult over = table.probe(parse("P3/4/4/4 b"));
  EXPECT_EQ(over.winner, Side::white);
  EXPECT_EQ(over.plies, 0);
}

// A failed probe is worded by probe_problem() alone (an invalid position
// by invalid_position_problem()): the C API, Python, the CLI and the server
// all say these words.
TEST(Probe, ProblemWordsAFailedProbe) {
  const Table table = Table::open(kDefaultTable);
  const auto problem = [&](const char* text) {
    const Position p = parse(text);
    return probe_problem(table, p, table.probe(p));
  };
  const std::string path = table.info().path.string();
  EXPECT_EQ(problem("ppp/3/PPP w"), "board is 3x3, the table " + path + " is 4x4");
  EXPECT_EQ(problem("ppp1/pp2/PP2/PPP1 w"), "more than 4 pawns a side, the table's limit");
  EXPECT_EQ(problem("P3/4/4/4 w"),
            "invalid position: white pawn on a4 is on its goal row, with white to move");
  // The same words without a table, for the rules alone (play, solve).
  EXPECT_EQ(invalid_position_problem(parse("P3/4/4/4 w")), problem("P3/4/4/4 w"));
  EXPECT_EQ(problem(".ppp/4/.PPP/4 w"), "");
  const Position p = parse("pppp/4/4/PPPP w");
  EXPECT_EQ(probe_problem(table, p, ProbeResult{ProbeStatus::damaged_table, Side::white, 0}),
            path + ": " + describe(ProbeStatus::damaged_table));
}

// value_for(): the lichess API's signed dtm and category, for either side.
TEST(Probe, ValueForSignsTheDtm) {
  EXPECT_EQ(value_for(Side::white, Side::white, 7).dtm, 7);
  EXPECT_STREQ(value_for(Side::white, Side::white, 7).category, "win");
  EXPECT_EQ(value_for(Side::black, Side::white, 7).dtm, -7);
  EXPECT_STREQ(value_for(Side::black, Side::white, 7).category, "loss");
  EXPECT_EQ(value_for(Side::black, Side::white, 0).dtm, 0);
  EXPECT_STREQ(value_for(Side::black, Side::white, 0).category, "loss");
}

TEST(Probe, StartPositionIsTheTablesGame) {
  const Table table = Table::open(kDefaultTable);
  EXPECT_EQ(format_position(table.start_position()), "pppp/4/4/PPPP w");
  const Table small = Table::open(table_3x3());
  EXPECT_EQ(small.start_position(), parse("ppp/3/PPP w"));
  // Hexapawn: black wins, and the moves of a game lead where play_moves goes.
  const ProbeResult r = small.probe(small.start_position());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.winner, Side::black);
  const RootResult root = small.probe_root(small.start_position());
  std::string line;
  for (const Move m : root.principal_variation) line += move_name(Geometry{3, 3}, m) + ",";
  const auto end = play_moves(small.start_position(), line);
  ASSERT_TRUE(std::holds_alternative<Position>(end)) << std::get<ParseError>(end).message;
  EXPECT_NE(classify(std::get<Position>(end)), Status::playable);
}

// A failed probe cannot read as a result: its plies are kNoPlies, which no
// game has, in probe() and probe_many() alike.
TEST(Probe, FailedProbesHaveNoPlies) {
  const Table table = Table::open(kDefaultTable);
  const Position bad[] = {parse("ppp/3/PPP w"), parse("ppp1/pp2/PP2/PPP1 w"), parse("P3/4/4/4 w")};
  ProbeResult many[3];
  table.probe_many(bad, 3, many);
  for (int i = 0; i < 3; ++i) {
    const ProbeResult one = table.probe(bad[i]);
    EXPECT_FALSE(one.ok()) << i;
    EXPECT_EQ(one.plies, ProbeResult::kNoPlies) << i;
    EXPECT_EQ(many[i].status, one.status) << i;
    EXPECT_EQ(many[i].plies, ProbeResult::kNoPlies) << i;
  }
  EXPECT_GT(ProbeResult::kNoPlies, table.info().longest_game_plies);
}

// After the best move the winner is the same and the game one ply shorter;
// the principal variation plays out to the end.
TEST(Probe, BestMoveAndLineAreConsistentEverywhere) {
  const Table table = Table::open(kDefaultTable);
  std::uint64_t roots = 0;
  pawntb_oracle::for_each_placement(4, 4, 4, [&](const std::string& board) {
    for (const bool white : {true, false}) {
      const Position p = position_of(board, 4, 4, white);
      const RootResult root = table.probe_root(p);
      if (!root.value.ok()) continue;
      ++roots;
      ASSERT_EQ(root.moves.size(), static_cast<std::size_t>(legal_moves(p).size));
      ASSERT_EQ(root.principal_variation.size(), root.value.plies) << format_position(p);
      if (root.value.plies == 0) continue;
      ASSERT_EQ(root.moves.front().winner, root.value.winner) << format_position(p);
      ASSERT_EQ(root.moves.front().plies + 1, root.value.plies) << format_position(p);
      Position line = p;
      for (const Move m : root.principal_variation) line = play(line, m);
      ASSERT_EQ(classify(line), Status::over);
      ASSERT_EQ(line.to_move, opponent(root.value.winner));
    }
  });
  EXPECT_GT(roots, 1000000u);
}

// Loaded on demand with room for every block, for one block, or for two
// (blocks evicted as the threads race), the answers are the loaded table's.
TEST(Probe, ConcurrentProbesMatchASingleThread) {
  const Table reference = Table::open(kDefaultTable, Table::Load::all);
  const std::uint64_t block = reference.info().block_entries;
  for (const std::uint64_t cache : {Table::kDefaultCacheBytes, std::uint64_t{1}, 2 * block}) {
    // A table of its own for the threads, so that its blocks are first loaded
    // while they race.
    const Table shared = Table::open(kDefaultTable, Table::Load::on_demand, 1, cache);
    EXPECT_EQ(shared.info().cache_bytes,
              std::clamp<std::uint64_t>(cache / block, 1, shared.info().blocks) * block);
    const format::Index index(Geometry{4, 4}, 4);
    // A cache too small for the table decodes a block for most probes.
    const std::uint64_t step = cache < reference.info().entries ? 61 : 1;
    auto sweep = [&](const Table& table, std::uint64_t* sum) {
      std::uint64_t s = 0;
      for (std::uint64_t i = 0; i < index.size(); i += step) {
        const auto [white, black] = index.unrank(i);
        for (const Side side : {Side::white, Side::black}) {
          const ProbeResult r = table.probe(Position{Geometry{4, 4}, white, black, side});
          s = s * 31 + static_cast<std::uint64_t>(r.status) * 1000 + r.plies;
        }
      }
      *sum = s;
    };
    std::uint64_t single = 0;
    sweep(reference, &single);
    std::vector<std::uint64_t> sums(4);
    {
      std::vector<std::jthread> threads;
      for (auto& s : sums) threads.emplace_back(sweep, std::cref(shared), &s);
    }
    for (const auto s : sums) EXPECT_EQ(s, single) << cache << " bytes of cache";
  }
}

// probe_many gives what probe gives, position by position: over every index
// of a table, both sides to move, with positions it refuses among them, in
// groups of many sizes, for tables loaded whole or on demand and for middle
// regions of one byte (4x4) and two (4x5).
TEST(Probe, ProbeManyMatchesProbe) {
  const TempDir dir;
  const std::filesystem::path path_4x5 = dir / "4x5.pawntb";
  write_table(solve(Geometry{4, 5}, 2), path_4x5);
  for (const std::filesystem::path& path : {kDefaultTable, path_4x5}) {
    for (const auto load : {Table::Load::all, Table::Load::on_demand}) {
      const Table table = Table::open(path, load);
      const TableInfo& info = table.info();
      const format::Index index(info.geometry, info.max_pawns);
      std::vector<Position> positions;
      for (std::uint64_t i = 0; i < index.size(); ++i) {
        const auto [white, black] = index.unrank(i);
        for (const Side side : {Side::white, Side::black}) {
          positions.push_back(Position{info.geometry, white, black, side});
        }
        if (i % 1000 == 0) {  // refused: overlapping, off the board, another geometry
          positions.push_back(Position{info.geometry, white, white, Side::white});
          positions.push_back(Position{info.geometry, white | 1ULL << 50, black, Side::black});
          positions.push_back(Position{Geometry{3, 3}, 0, 0, Side::white});
        }
      }
      for (const std::size_t group : {std::size_t{1}, std::size_t{63}, std::size_t{1000}}) {
        std::vector<ProbeResult> results(positions.size());
        for (std::size_t first = 0; first < positions.size(); first += group) {
          const std::size_t count = std::min(group, positions.size() - first);
          table.probe_many(positions.data() + first, count, results.data() + first);
        }
        std::uint64_t differences = 0;
        for (std::size_t i = 0; i < positions.size(); ++i) {
          const ProbeResult want = table.probe(positions[i]);
          const bool same =
              results[i].status == want.status &&
              (!want.ok() || (results[i].winner == want.winner && results[i].plies == want.plies));
          if (!same && differences++ < 5) {
            ADD_FAILURE() << path << " group " << group << ": " << format_position(positions[i]);
          }
        }
        EXPECT_EQ(differences, 0u);
      }
      // Only `count` positions are answered.
      std::vector<ProbeResult> short_results(3, ProbeResult{ProbeStatus::damaged_table});
      table.probe_many(positions.data(), 2, short_results.data());
      EXPECT_EQ(short_results[1].status, table.probe(positions[1]).status);
      EXPECT_EQ(short_results[2].status, ProbeStatus::damaged_table);
    }
  }
  std::filesystem::remove_all(path_4x5.parent_path());
}

TEST(File, RoundTripGivesTheSolvedValues) {
  const Geometry g{3, 4};
  const SolvedTable solved = solve(g, 3);
  const TempDir dir;
  const auto path = dir / "3x4.pawntb";
  write_table(solved, path);
  const Table table = Table::open(path);
  EXPECT_EQ(table.info().entries, solved.values.size());
  EXPECT_EQ(table.info().longest_game_plies, solved.max_plies);
  const format::Index index(g, 3);
  for (std::uint64_t i = 0; i < index.size(); ++i) {
    const auto [white, black] = index.unrank(i);
    const ProbeResult r = table.probe(Position{g, white, black, Side::white});
    ASSERT_TRUE(r.ok());
    const game::Pawns c = format::canonical(g, white, black);
    ASSERT_EQ(r.plies, solved.values[index.rank(c.white, c.black)]) << i;
  }
  EXPECT_TRUE(check::verify(table, kVerifyMemory).ok());
}

// verify() reports from the calling thread, never going back, ending at 1.
TEST(Progress, VerifyReportsUpToOne) {
  std::vector<double> fractions;
  const Table table = Table::open(kDefaultTable);
  const VerifyReport report = check::verify(table, kVerifyMemory, [&](const Progress& p) {
    EXPECT_STREQ(p.stage, "verify");
    fractions.push_back(p.fraction_done);
  });
  EXPECT_TRUE(report.ok());
  ASSERT_GT(fractions.size(), 2u);
  EXPECT_TRUE(std::is_sorted(fractions.begin(), fractions.end()));
  EXPECT_GE(fractions.front(), 0.0);
  EXPECT_EQ(fractions.back(), 1.0);
}

std::string open_error(const std::filesystem::path& path, Table::Load load = Table::Load::all) {
  try {
    Table::open(path, load);
  } catch (const TableError& e) {
    return e.what();
  }
  return "";
}

TEST(File, EverySingleByteChangeIsRefusedAtOpen) {
  const auto good = read_bytes(table_3x3());
  const TempDir dir;
  const auto path = dir / "damaged.pawntb";
  for (std::size_t i = 0; i < good.size(); ++i) {
    for (const std::uint8_t flip : {std::uint8_t{0x01}, std::uint8_t{0x80}, std::uint8_t{0xFF}}) {
      auto bad = good;
      bad[i] ^= flip;
      write_file(path, bad);
      const std::string error = open_error(path);
      ASSERT_NE(error, "") << "byte " << i << " ^ " << int{flip} << " was not detected";
      ASSERT_NE(error.find(path.string()), std::string::npos) << error;
    }
  }
}

TEST(File, EveryTruncationAndExtensionIsRefusedAtOpen) {
  const auto good = read_bytes(table_3x3());
  const TempDir dir;
  const auto path = dir / "truncated.pawntb";
  for (std::size_t n = 0; n < good.size(); ++n) {
    write_file(path, std::vector<std::uint8_t>(good.begin(), good.begin() + n));
    ASSERT_NE(open_error(path, Table::Load::on_demand), "") << "length " << n;
  }
  auto longer = good;
  longer.push_back(0);
  write_file(path, longer);
  EXPECT_NE(open_error(path).find("truncated or extended"), std::string::npos);
}

// The default table: each byte changed in turn (in place, restored after),
// and truncations at some 640 lengths, are refused at open with the file named.
TEST(File, DefaultTableSweepRefusesEveryChangedByteAndTruncation) {
  const auto good = read_bytes(kDefaultTable);
  const TempDir dir;
  const auto path = dir / "sweep.pawntb";
  write_file(path, good);
  std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
  for (std::size_t i = 0; i < good.size(); ++i) {
    const char changed = static_cast<char>(good[i] ^ (1u << (i % 8)));
    file.seekp(static_cast<std::streamoff>(i)).write(&changed, 1).flush();
    const std::string error = open_error(path);
    const char original = static_cast<char>(good[i]);
    file.seekp(static_cast<std::streamoff>(i)).write(&original, 1).flush();
    ASSERT_NE(error.find(path.string()), std::string::npos) << "byte " << i << ": " << error;
  }
  EXPECT_TRUE(open_error(path).empty()) << "the restored copy must open";
  file.close();
  for (std::size_t n = 0; n < good.size(); n += 1 + n / 64) {
    write_file(path, std::vector<std::uint8_t>(good.begin(), good.begin() + n));
    ASSERT_NE(open_error(path), "") << "length " << n;
  }
}

TEST(File, DamagedBlockIsReportedWhenLoadedOnDemand) {
  auto bytes = read_bytes(kDefaultTable);
  bytes.back() ^= 0x40;  // inside the last block
  const TempDir dir;
  const auto path = dir / "lazy.pawntb";
  write_file(path, bytes);
  const Table table = Table::open(path, Table::Load::on_demand);  // header and index are fine
  bool damaged = false;
  const format::Index index(Geometry{4, 4}, 4);
  for (std::uint64_t i = 0; i < index.size(); ++i) {
    const auto [white, black] = index.unrank(i);
    const ProbeResult r = table.probe(Position{Geometry{4, 4}, white, black, Side::white});
    damaged |= r.status == ProbeStatus::damaged_table;
    ASSERT_TRUE(r.ok() || r.status == ProbeStatus::damaged_table);
  }
  EXPECT_TRUE(damaged);
  EXPECT_NE(open_error(path), "");
}

// Blocks decoded at open on several threads: the same table, and for a
// damaged one the same error, that of the lowest damaged block.
TEST(File, DecodingOnManyThreadsGivesTheSameTableAndErrors) {
  const Table one = Table::open(kDefaultTable, Table::Load::all, 1);
  const format::Index index(Geometry{4, 4}, 4);
  for (const unsigned threads : {0u, 2u, 3u, 16u}) {
    const Table many = Table::open(kDefaultTable, Table::Load::all, threads);
    for (std::uint64_t i = 0; i < index.size(); ++i) {
      const auto [white, black] = index.unrank(i);
      for (const Side side : {Side::white, Side::black}) {
        const Position p{Geometry{4, 4}, white, black, side};
        const ProbeResult a = one.probe(p), b = many.probe(p);
        ASSERT_TRUE(a.ok() && b.ok() && a.winner == b.winner && a.plies == b.plies)
            << threads << " threads: " << format_position(p);
      }
    }
  }
  const TempDir dir;
  const auto path = dir / "two_damaged_blocks.pawntb";
  write_file(path, default_table_with_blocks_1_and_3_damaged());
  const std::string expected = path.string() + ": block 1: checksum mismatch";
  for (const unsigned threads : {1u, 2u, 5u, 8u}) {
    try {
      Table::open(path, Table::Load::all, threads);
      ADD_FAILURE() << threads << " threads: the damaged table opened";
    } catch (const TableError& e) {
      EXPECT_EQ(std::string(e.what()), expected) << threads << " threads";
    }
  }
}

// verify() on a lazily loaded table with two damaged blocks names both and
// checks the positions of the others.
TEST(File, VerifyReportsEveryDamagedBlock) {
  const TempDir dir;
  const auto path = dir / "verify_two_damaged_blocks.pawntb";
  write_file(path, default_table_with_blocks_1_and_3_damaged());
  const Table table = Table::open(path, Table::Load::on_demand);
  const VerifyReport report = check::verify(table, kVerifyMemory);
  EXPECT_FALSE(report.ok());
  ASSERT_EQ(report.damaged_blocks.size(), 2u);
  EXPECT_EQ(report.damaged_blocks[0].block, 1u);
  EXPECT_EQ(report.damaged_blocks[0].error, "checksum mismatch");
  EXPECT_EQ(report.damaged_blocks[1].block, 3u);
  EXPECT_EQ(report.damaged_blocks[1].error, "checksum mismatch");
  EXPECT_EQ(report.mismatches, 0u) << report.first_mismatch;
  EXPECT_GT(report.checked, 0u);
  EXPECT_LT(report.checked, table.info().entries - 2 * table.info().block_entries);
  const VerifyReport good =
      check::verify(Table::open(kDefaultTable, Table::Load::on_demand), kVerifyMemory);
  EXPECT_TRUE(good.ok()) << good.first_mismatch;
  EXPECT_TRUE(good.damaged_blocks.empty());
  EXPECT_EQ(good.checked, table.info().entries);
}

// A 4x4 table with one stored value two plies too long (same winner, so the
// header's counts still hold), and the message verify() must give for it.
struct TableWithAWrongValue {
  std::filesystem::path path;
  std::uint64_t index = 0;  // the entry changed
  std::string expected;     // "table says white in 7, successors say white in 5"
};
// Changes the first entry at or after `from` for which accept(index) holds
// and whose value can grow by two.
template <class Accept>
TableWithAWrongValue write_table_with_a_wrong_value(const std::filesystem::path& path,
                                                    std::uint64_t from, Accept accept) {
  SolvedTable solved = solve(Geometry{4, 4}, 4);
  const format::Index index(Geometry{4, 4}, 4);
  for (std::uint64_t i = from; i < index.size(); ++i) {
    const auto [white, black] = index.unrank(i);
    const int v = solved.values[i];
    if (format::is_filler(Geometry{4, 4}, white, black) || v < 1 || v + 2 > solved.max_plies ||
        !accept(i)) {
      continue;
    }
    solved.values[i] = static_cast<std::uint8_t>(v + 2);
    write_table(solved, path);
    const std::string side = v % 2 ? "white" : "black";
    return {path, i,
            "table says " + side + " in " + std::to_string(v + 2) + ", successors say " + side +
                " in " + std::to_string(v)};
  }
  ADD_FAILURE() << "no value to change";
  return {};
}
TableWithAWrongValue write_table_with_a_wrong_value(const std::filesystem::path& path) {
  return write_table_with_a_wrong_value(path, 281328 / 2, [](std::uint64_t) { return true; });
}

// The ways verify() reads a table (verify.cpp): loaded at open (the table is
// the image); decoded tier by tier with room for all; with room for 3 of the
// 5 blocks, so that blocks are dropped and decoded again; and with room for
// one, so that most tiers are checked in pieces.
struct VerifyLoad {
  Table::Load load;
  std::uint64_t memory_bytes;
  const char* name;
};
constexpr VerifyLoad kVerifyLoads[] = {
    {Table::Load::all, kVerifyMemory, "loaded"},
    {Table::Load::on_demand, kVerifyMemory, "tier by tier"},
    {Table::Load::on_demand, 3 << 16, "dropping blocks"},
    {Table::Load::on_demand, 1, "in pieces"},
};

// verify() finds a wrong value whose block is sound, and a verify resumed
// from any of its checkpoints reports what the whole run reports.
TEST(File, VerifyFindsAWrongValueAndResumesFromEveryCheckpoint) {
  const TempDir dir;
  const TableWithAWrongValue bad = write_table_with_a_wrong_value(dir / "wrong_value.pawntb");
  for (const VerifyLoad& load : kVerifyLoads) {
    SCOPED_TRACE(load.name);
    const Table table = Table::open(bad.path, load.load);
    std::vector<VerifyState> checkpoints;
    const VerifyReport whole =
        check::verify(table, load.memory_bytes, {}, 2, {},
                      [&](const VerifyState& s) { checkpoints.push_back(s); });
    EXPECT_FALSE(whole.ok());
    EXPECT_GE(whole.mismatches, 1u);
    EXPECT_TRUE(whole.damaged_blocks.empty());
    EXPECT_NE(whole.first_mismatch.find(bad.expected), std::string::npos) << whole.first_mismatch;
    EXPECT_EQ(whole.checked, table.info().entries);
    // Every 64th of the entries, at the end of a tier or of a piece: 5 or
    // more here, the last at the end, when every block has been read.
    ASSERT_GE(checkpoints.size(), 4u);
    for (std::size_t c = 1; c < checkpoints.size(); ++c) {
      EXPECT_GT(checkpoints[c].entries_done, checkpoints[c - 1].entries_done);
    }
    EXPECT_EQ(checkpoints.back().entries_done, table.info().entries);
    EXPECT_TRUE(checkpoints.back().blocks_checked);
    std::vector<VerifyState> starts{VerifyState{}};
    starts.insert(starts.end(), checkpoints.begin(), checkpoints.end());
    for (const VerifyState& from : starts) {
      EXPECT_EQ(from.header_checksum, from.entries_done ? table.info().header_checksum : 0);
      const VerifyReport resumed = check::verify(table, load.memory_bytes, {}, 1, from);
      EXPECT_EQ(resumed.checked, whole.checked) << from.entries_done;
      EXPECT_EQ(resumed.mismatches, whole.mismatches) << from.entries_done;
      EXPECT_EQ(resumed.first_mismatch, whole.first_mismatch) << from.entries_done;
    }
  }
  // A state of another table, or past the end, is refused.
  const Table good = Table::open(kDefaultTable);
  VerifyState other;
  other.header_checksum = Table::open(table_3x3()).info().header_checksum;
  EXPECT_THROW(check::verify(good, kVerifyMemory, {}, 1, other), std::invalid_argument);
  VerifyState past;
  past.entries_done = good.info().entries + 1;
  EXPECT_THROW(check::verify(good, kVerifyMemory, {}, 1, past), std::invalid_argument);
}

// verify_plan() says how much memory checks every tier whole: with that much
// none is checked in pieces, with a block less at least one is; a table
// loaded at open needs none. Over the 3x7 table (tiers of many sizes).
TEST(File, VerifyPlanSaysWhatMemoryChecksEveryTierWhole) {
  const fs::path path = kDataDir / "3x7-k7.pawntb";
  const format::Index index(Geometry{3, 7}, 7);
  std::uint64_t tiers = 0;
  for (const auto& tier : index.tiers()) tiers += tier.size != 0;

  const Table lazy = Table::open(path, Table::Load::on_demand);
  const VerifyPlan roomy = check::verify_plan(lazy, kVerifyMemory);  // 1 GiB: all of it
  EXPECT_EQ(roomy.tiers, tiers);
  EXPECT_EQ(roomy.entries, index.size());
  // At most the whole table's blocks are held.
  EXPECT_EQ(roomy.memory_bytes, std::uint64_t{lazy.info().blocks} * lazy.info().block_entries);
  EXPECT_GE(roomy.memory_bytes, index.size());
  EXPECT_EQ(roomy.tiers_in_pieces, 0u);
  EXPECT_EQ(roomy.entries_in_pieces, 0u);
  // At least the largest tier's entries, at most the whole table (in units).
  std::uint64_t largest_tier = 0;
  for (const auto& tier : index.tiers()) largest_tier = std::max(largest_tier, tier.size);
  EXPECT_GE(roomy.largest_tier_bytes, largest_tier);
  EXPECT_LE(roomy.largest_tier_bytes, index.size() + (std::uint64_t{1} << 24));

  const VerifyPlan fits = check::verify_plan(lazy, roomy.largest_tier_bytes);
  EXPECT_EQ(fits.memory_bytes, roomy.largest_tier_bytes);
  EXPECT_EQ(fits.largest_tier_bytes, roomy.largest_tier_bytes);
  EXPECT_EQ(fits.tiers_in_pieces, 0u);

  const VerifyPlan short_by_a_block = check::verify_plan(lazy, roomy.largest_tier_bytes - 1);
  EXPECT_LT(short_by_a_block.memory_bytes, roomy.largest_tier_bytes);
  EXPECT_GE(short_by_a_block.tiers_in_pieces, 1u);
  EXPECT_LT(short_by_a_block.tiers_in_pieces, tiers);
  EXPECT_GT(short_by_a_block.entries_in_pieces, 0u);
  EXPECT_LT(short_by_a_block.entries_in_pieces, index.size());

  const VerifyPlan loaded = check::verify_plan(Table::open(path, Table::Load::all), kVerifyMemory);
  EXPECT_EQ(loaded.memory_bytes, 0u);
  EXPECT_EQ(loaded.tiers_in_pieces, 0u);
  EXPECT_EQ(loaded.largest_tier_bytes, roomy.largest_tier_bytes);
}

// A wrong value in the last entry of a tier (the last that a tier's pass
// reads) is found, however the table is read, and resuming at the tier's
// start finds it too.
TEST(File, VerifyFindsAWrongValueInATiersLastEntry) {
  const TempDir dir;
  const format::Index index(Geometry{4, 4}, 4);
  const auto last_of_a_tier = [&](std::uint64_t i) {
    return i + 1 == index.size() || index.tier_of(i + 1) != index.tier_of(i);
  };
  const TableWithAWrongValue bad =
      write_table_with_a_wrong_value(dir / "wrong_last.pawntb", index.size() / 3, last_of_a_tier);
  ASSERT_TRUE(last_of_a_tier(bad.index));
  const auto [white, black] = index.unrank(bad.index);
  const std::string where = format_position(Position{Geometry{4, 4}, white, black, Side::white});
  for (const VerifyLoad& load : kVerifyLoads) {
    SCOPED_TRACE(load.name);
    const Table table = Table::open(bad.path, load.load);
    for (const std::uint64_t from :
         {std::uint64_t{0}, index.tiers()[index.tier_of(bad.index)].first, bad.index}) {
      VerifyState state;
      state.header_checksum = from ? table.info().header_checksum : 0;
      state.entries_done = from;
      const VerifyReport report = check::verify(table, load.memory_bytes, {}, 2, state);
      EXPECT_EQ(report.first_mismatch, where + ": " + bad.expected) << from;
    }
  }
}

// verify() re-derives the positions that need their successors in batches,
// the loads of a batch's successors started before any is compared
// (verify.cpp, Checker): a wrong value is found in every place of a tier's
// first batches, and in the last such position of a range a thread checks
// and the first of the next (with room for one block, a tier is checked in
// pieces of 256 entries from its start) and of the tier, however the table
// is read.
TEST(File, VerifyFindsAWrongValueInEveryPlaceOfABatch) {
  const TempDir dir;
  const Geometry g{4, 4};
  const SolvedTable solved = solve(g, 4);
  const format::Index index(g, 4);
  const auto tiers = index.tiers();
  const format::Index::Tier& tier = *std::max_element(
      tiers.begin(), tiers.end(), [](const auto& a, const auto& b) { return a.size < b.size; });
  constexpr std::uint64_t kPiece = 256;
  // The tier's positions re-derived from their successors: canonical, and
  // without a win in one.
  std::vector<std::uint64_t> derived;
  for (std::uint64_t i = tier.first; i < tier.first + tier.size; ++i) {
    const auto [white, black] = index.unrank(i);
    if (format::is_canonical(g, white, black) && !game::wins_in_one(g, white, black)) {
      derived.push_back(i);
    }
  }
  // More than two batches' worth (a batch is 32 positions), both sides of
  // the end of the first piece, and the tier's last.
  ASSERT_GT(derived.size(), 100u);
  std::vector<std::uint64_t> wrong(derived.begin(), derived.begin() + 70);
  const auto after = std::lower_bound(derived.begin(), derived.end(), tier.first + kPiece);
  ASSERT_NE(after, derived.begin());
  ASSERT_NE(after, derived.end());
  wrong.insert(wrong.end(), {after[-1], after[0], derived.back()});
  int changed = 0;
  for (const std::uint64_t i : wrong) {
    const auto [white, black] = index.unrank(i);
    if (format::is_filler(g, white, black)) continue;  // no move: not stored, decided by rule
    SolvedTable bad = solved;
    const int v = solved.values[i];
    const int stored = v + 2 <= solved.max_plies ? v + 2 : v - 2;
    bad.values[i] = static_cast<std::uint8_t>(stored);
    const fs::path path = dir / "wrong_in_a_batch.pawntb";
    write_table(bad, path);
    ++changed;
    const std::string side = v % 2 ? "white" : "black";
    const std::string expected = format_position(Position{g, white, black, Side::white}) +
                                 ": table says " + side + " in " + std::to_string(stored) +
                                 ", successors say " + side + " in " + std::to_string(v);
    for (const VerifyLoad& load : kVerifyLoads) {
      SCOPED_TRACE(load.name);
      const Table table = Table::open(path, load.load);
      // From the tier's start: the wrong value is the first that disagrees
      // (the positions that read it are in later tiers).
      VerifyState from;
      from.header_checksum = table.info().header_checksum;
      from.entries_done = tier.first;
      EXPECT_EQ(check::verify(table, load.memory_bytes, {}, 1, from).first_mismatch, expected)
          << "entry " << i;
    }
  }
  EXPECT_GT(changed, 60);
}

// A wrong value in a child tier is found where it is, and in a position of
// a later tier that reads it: the parent's best move leads to it.
TEST(File, VerifyFindsAWrongValueThroughAChildTier) {
  const TempDir dir;
  const Table good = Table::open(kDefaultTable);
  const format::Index index(Geometry{4, 4}, 4);
  const Geometry g{4, 4};
  // A parent that wins by exactly one fastest move, and the entry after it.
  std::uint64_t parent = 0, child = 0;
  for (std::uint64_t i = index.size() / 2; i < index.size() && !child; ++i) {
    const auto [white, black] = index.unrank(i);
    if (format::is_filler(g, white, black)) continue;
    const RootResult root = good.probe_root(Position{g, white, black, Side::white});
    const bool unique = root.moves.size() == 1 || root.moves[1].winner != Side::white ||
                        root.moves[1].plies != root.moves[0].plies;
    if (root.value.winner != Side::white || root.value.plies < 3 || !unique ||
        root.value.plies + 1 > good.info().longest_game_plies) {
      continue;
    }
    const Position after = play(Position{g, white, black, Side::white}, root.moves[0].move);
    // Its entry: the white-to-move view, canonical.
    const std::uint64_t w = game::flip_rows(g, after.black), b = game::flip_rows(g, after.white);
    const game::Pawns c = format::canonical(g, w, b);
    if (!index.contains(c.white, c.black) || format::is_filler(g, c.white, c.black)) continue;
    parent = i;
    child = index.rank(c.white, c.black);
  }
  ASSERT_NE(child, 0u);
  ASSERT_NE(index.tier_of(child), index.tier_of(parent));
  const TableWithAWrongValue bad = write_table_with_a_wrong_value(
      dir / "wrong_child.pawntb", child, [&](std::uint64_t i) { return i == child; });
  ASSERT_EQ(bad.index, child);
  for (const VerifyLoad& load : kVerifyLoads) {
    SCOPED_TRACE(load.name);
    const Table table = Table::open(bad.path, load.load);
    const VerifyReport all = check::verify(table, load.memory_bytes, {}, 2);
    EXPECT_GE(all.mismatches, 2u) << "the parent did not see the wrong child";
    EXPECT_NE(all.first_mismatch.find(bad.expected), std::string::npos) << all.first_mismatch;
    // From the parent's tier on, the child's tier is only read: the
    // parent's value no longer follows from it.
    VerifyState later;
    later.header_checksum = table.info().header_checksum;
    later.entries_done = index.tiers()[index.tier_of(parent)].first;
    EXPECT_GE(check::verify(table, load.memory_bytes, {}, 2, later).mismatches, 1u);
  }
}

// tier_checksums() is the same whether the table is loaded at open or read
// block by block (4x5: more blocks than it decodes at once), tiles the
// entries, and reports damage instead of checksums.
TEST(File, TierChecksumsAgreeLoadedOrNot) {
  const TempDir dir;
  const auto path = dir / "4x5.pawntb";
  write_table(solve(Geometry{4, 5}, 5), path);
  const TierChecksums loaded = check::tier_checksums(Table::open(path, Table::Load::all), 2);
  const TierChecksums lazy = check::tier_checksums(Table::open(path, Table::Load::on_demand), 3);
  ASSERT_TRUE(loaded.damaged_blocks.empty());
  ASSERT_TRUE(lazy.damaged_blocks.empty());
  ASSERT_EQ(loaded.tiers.size(), lazy.tiers.size());
  ASSERT_GT(Table::open(path).info().blocks, 32u);
  std::uint64_t next = 0;
  for (std::size_t t = 0; t < loaded.tiers.size(); ++t) {
    EXPECT_EQ(loaded.tiers[t].tier, t);
    EXPECT_EQ(loaded.tiers[t].first_entry, next);
    next += loaded.tiers[t].entries;
    EXPECT_EQ(loaded.tiers[t].checksum, lazy.tiers[t].checksum) << t;
    EXPECT_EQ(loaded.tiers[t].first_entry, lazy.tiers[t].first_entry) << t;
  }
  EXPECT_EQ(next, Table::open(path).info().entries);
  const auto damaged = dir / "damaged.pawntb";
  write_file(damaged, default_table_with_blocks_1_and_3_damaged());
  const TierChecksums bad = check::tier_checksums(Table::open(damaged, Table::Load::on_demand));
  EXPECT_TRUE(bad.tiers.empty());
  ASSERT_EQ(bad.damaged_blocks.size(), 2u);
  EXPECT_EQ(bad.damaged_blocks[1].block, 3u);
}

// check_blocks() names every damaged block of a lazily loaded table, on any
// number of threads; a table loaded at open was checked then.
TEST(File, CheckBlocksReportsEveryDamagedBlock) {
  const TempDir dir;
  const auto path = dir / "check_two_damaged_blocks.pawntb";
  write_file(path, default_table_with_blocks_1_and_3_damaged());
  const Table table = Table::open(path, Table::Load::on_demand);
  for (const unsigned threads : {1u, 2u, 5u}) {
    const std::vector<BlockDamage> damage = check::check_blocks(table, threads);
    ASSERT_EQ(damage.size(), 2u) << threads << " threads";
    EXPECT_EQ(damage[0].block, 1u);
    EXPECT_EQ(damage[0].error, "checksum mismatch");
    EXPECT_EQ(damage[1].block, 3u);
    EXPECT_EQ(damage[1].error, "checksum mismatch");
  }
  EXPECT_TRUE(check::check_blocks(Table::open(kDefaultTable, Table::Load::on_demand), 2).empty());
  EXPECT_TRUE(check::check_blocks(Table::open(kDefaultTable, Table::Load::all)).empty());
}

// read_entries() gives every entry's plies, whether the table is loaded at
// open or not and wherever the range cuts a block; a mirror image holds 0
// or, when it wins in one, 1 (FORMAT.md 7).
TEST(File, ReadEntriesGivesTheDecodedBlocks) {
  const Table loaded = Table::open(kDefaultTable, Table::Load::all);
  const Table lazy = Table::open(kDefaultTable, Table::Load::on_demand);
  const format::Index index(Geometry{4, 4}, 4);
  const std::uint64_t n = index.size(), block = lazy.info().block_entries;
  std::vector<std::uint8_t> all(n);
  check::read_entries(lazy, 0, n, all.data());
  for (std::uint64_t i = 0; i < n; ++i) {
    const auto [white, black] = index.unrank(i);
    const ProbeResult r = loaded.probe(Position{Geometry{4, 4}, white, black, Side::white});
    const game::Pawns c = format::canonical(Geometry{4, 4}, white, black);
    if (c.white != white || c.black != black) {
      ASSERT_TRUE(all[i] == 0 || all[i] == r.plies) << i;
    } else {
      ASSERT_EQ(all[i], r.plies) << i;
    }
  }
  for (const auto& [first, count] : std::vector<std::pair<std::uint64_t, std::uint64_t>>{
           {0, n}, {1, block + 5}, {block - 1, 2}, {3 * block, block}, {n - 3, 3}, {n, 0}}) {
    for (const Table* table : {&loaded, &lazy}) {
      std::vector<std::uint8_t> part(count + 1, 0xEE);
      check::read_entries(*table, first, count, part.data());
      EXPECT_TRUE(std::equal(all.begin() + first, all.begin() + first + count, part.begin()))
          << first << " + " << count;
      EXPECT_EQ(part.back(), 0xEE) << "written past the range";
    }
  }
  std::uint8_t byte = 0;
  EXPECT_THROW(check::read_entries(lazy, n, 1, &byte), std::out_of_range);
  EXPECT_THROW(check::read_entries(loaded, n - 1, 2, &byte), std::out_of_range);
  const TempDir dir;
  const auto path = dir / "damaged.pawntb";
  write_file(path, default_table_with_blocks_1_and_3_damaged());
  const Table damaged = Table::open(path, Table::Load::on_demand);
  check::read_entries(damaged, 0, block, all.data());  // block 0 is whole
  try {
    check::read_entries(damaged, block - 1, 2, all.data());
    ADD_FAILURE() << "read a damaged block";
  } catch (const TableError& e) {
    EXPECT_EQ(std::string(e.what()), path.string() + ": block 1: checksum mismatch");
  }
}

// BlockReader, the whole-table walks' door to the blocks: its ranges cover
// the entries in order, each block reads as read_entries gives it (loaded at
// open or not), a damaged block says so, and a block past the last throws.
TEST(File, BlockReaderReadsEveryBlock) {
  const Table loaded = Table::open(kDefaultTable, Table::Load::all);
  const Table lazy = Table::open(kDefaultTable, Table::Load::on_demand);
  const std::uint64_t n = lazy.info().entries;
  std::vector<std::uint8_t> all(n);
  check::read_entries(loaded, 0, n, all.data());
  for (const Table* table : {&loaded, &lazy}) {
    BlockReader reader(*table);
    EXPECT_EQ(reader.loaded_entries() != nullptr, table == &loaded);
    ASSERT_EQ(reader.blocks(), table->info().blocks);
    std::uint64_t next = 0;
    for (std::uint32_t b = 0; b < reader.blocks(); ++b) {
      const BlockRange range = reader.range(b);
      EXPECT_EQ(range.first, next) << b;
      std::vector<std::uint8_t> block(range.count + 1, 0xEE);
      EXPECT_EQ(reader.read(b, block.data()), nullptr) << b;
      EXPECT_TRUE(std::equal(block.begin(), block.end() - 1, all.begin() + range.first)) << b;
      EXPECT_EQ(block.back(), 0xEE) << "written past the block";
      next += range.count;
    }
    EXPECT_EQ(next, n);
    EXPECT_THROW(reader.range(reader.blocks()), std::out_of_range);
    EXPECT_THROW(reader.read(reader.blocks(), all.data()), std::out_of_range);
  }
  const TempDir dir;
  const auto path = dir / "damaged.pawntb";
  write_file(path, default_table_with_blocks_1_and_3_damaged());
  BlockReader damaged(Table::open(path, Table::Load::on_demand));  // keeps the table alive
  std::vector<std::uint8_t> block(damaged.range(0).count);  // the largest: a whole block
  EXPECT_EQ(damaged.read(0, block.data()), nullptr);
  EXPECT_STREQ(damaged.read(1, block.data()), "checksum mismatch");
}

TEST(File, MissingAndForeignFilesAreRefused) {
  EXPECT_NE(open_error("/nonexistent/table.pawntb").find("/nonexistent/table.pawntb"),
            std::string::npos);
  const TempDir dir;
  const auto path = dir / "text.pawntb";
  write_file(path, std::vector<std::uint8_t>(300, 'a'));
  EXPECT_NE(open_error(path).find("magic"), std::string::npos);
  EXPECT_NE(open_error(dir.path()).find("not a regular file"), std::string::npos);
}

TEST(CApi, ProbesAndRanksMoves) {
  pawntb_table* table = nullptr;
  char err[256] = "";
  ASSERT_EQ(pawntb_open(kDefaultTable.c_str(), &table, err, sizeof err), PAWNTB_OK) << err;
  pawntb_result r{};
  ASSERT_EQ(pawntb_probe(table, ".ppp/4/.PPP/4 w", &r, err, sizeof err), PAWNTB_OK) << err;
  EXPECT_EQ(r.winner, PAWNTB_WHITE);
  EXPECT_EQ(r.plies, 7);
  pawntb_move moves[24];
  std::size_t count = 0;
  ASSERT_EQ(pawntb_best_moves(table, ".ppp/4/.PPP/4 w", moves, 24, &count, err, sizeof err),
            PAWNTB_OK);
  ASSERT_EQ(count, 3u);
  EXPECT_EQ(moves[0].winner, PAWNTB_WHITE);
  EXPECT_EQ(moves[0].plies, 6);
  EXPECT_EQ(pawntb_probe(table, "garbage", &r, err, sizeof err), PAWNTB_ERROR_POSITION);
  EXPECT_GT(std::strlen(err), 0u);
  EXPECT_EQ(pawntb_probe(table, "ppp/3/PPP w", &r, err, sizeof err), PAWNTB_ERROR_POSITION);
  EXPECT_EQ(std::string(err), probe_problem(Table::open(kDefaultTable), parse("ppp/3/PPP w"),
                                            ProbeResult{ProbeStatus::geometry_mismatch}));
  EXPECT_EQ(pawntb_probe(table, "ppp1/pp2/PP2/PPP1 w", &r, err, sizeof err), PAWNTB_ERROR_POSITION);
  EXPECT_STREQ(err, "more than 4 pawns a side, the table's limit");
  EXPECT_EQ(pawntb_probe(nullptr, "ppp/3/PPP w", &r, err, sizeof err), PAWNTB_ERROR_ARGUMENT);
  pawntb_close(table);
  pawntb_table* none = nullptr;
  EXPECT_EQ(pawntb_open("/nonexistent.pawntb", &none, err, sizeof err), PAWNTB_ERROR_TABLE);
  EXPECT_EQ(none, nullptr);
  EXPECT_NE(std::string(err).find("/nonexistent.pawntb"), std::string::npos);
}

TEST(CApi, PrincipalVariationTableInfoVersionAndFailureValues) {
  pawntb_table* table = nullptr;
  char err[256] = "";
  ASSERT_EQ(pawntb_open(kDefaultTable.c_str(), &table, err, sizeof err), PAWNTB_OK) << err;
  const char* start = ".ppp/4/.PPP/4 w";
  const RootResult root = Table::open(kDefaultTable).probe_root(parse(start));
  pawntb_move line[32];
  std::size_t count = 99;
  ASSERT_EQ(pawntb_principal_variation(table, start, line, 32, &count, err, sizeof err), PAWNTB_OK)
      << err;
  ASSERT_EQ(count, root.principal_variation.size());
  ASSERT_EQ(count, 7u);
  Position p = parse(start);
  for (std::size_t i = 0; i < count; ++i) {
    EXPECT_EQ(line[i].uci, move_name(p.geometry, root.principal_variation[i])) << i;
    p = play(p, root.principal_variation[i]);
    pawntb_result after{};
    ASSERT_EQ(pawntb_probe(table, format_position(p).c_str(), &after, err, sizeof err), PAWNTB_OK);
    EXPECT_EQ(line[i].winner, after.winner) << i;
    EXPECT_EQ(line[i].plies, after.plies) << i;
  }
  EXPECT_EQ(pawntb_principal_variation(table, start, nullptr, 0, &count, err, sizeof err),
            PAWNTB_OK);
  EXPECT_EQ(count, 7u);

  pawntb_info info{};
  ASSERT_EQ(pawntb_table_info(table, &info, err, sizeof err), PAWNTB_OK);
  const Table reference = Table::open(kDefaultTable);
  const TableInfo& want = reference.info();  // valid while `reference` lives
  EXPECT_EQ(info.rows, 4);
  EXPECT_EQ(info.cols, 4);
  EXPECT_EQ(info.max_pawns, want.max_pawns);
  EXPECT_EQ(info.format_version, want.format_version);
  EXPECT_EQ(info.longest_game_plies, want.longest_game_plies);
  EXPECT_EQ(info.longest_game_example, want.longest_game_example);
  EXPECT_EQ(info.entries, want.entries);
  EXPECT_EQ(info.placements, want.placements);
  EXPECT_EQ(info.white_wins, want.white_wins);
  EXPECT_EQ(info.file_size, want.file_size);
  EXPECT_EQ(info.header_checksum, want.header_checksum);
  EXPECT_EQ(info.index_checksum, want.index_checksum);
  EXPECT_EQ(pawntb_table_info(nullptr, &info, err, sizeof err), PAWNTB_ERROR_ARGUMENT);
  EXPECT_STRNE(pawntb_version(), "");

  // Failures cannot read as results.
  pawntb_result r{PAWNTB_WHITE, 0, 0, PAWNTB_END_NONE, PAWNTB_OK};
  EXPECT_EQ(pawntb_probe(table, "P3/4/4/4 w", &r, err, sizeof err), PAWNTB_ERROR_POSITION);
  EXPECT_EQ(r.winner, PAWNTB_NONE);
  EXPECT_EQ(r.plies, -1);
  EXPECT_STREQ(err, "invalid position: white pawn on a4 is on its goal row, with white to move");
  EXPECT_EQ(pawntb_best_moves(table, "garbage", line, 32, &count, err, sizeof err),
            PAWNTB_ERROR_POSITION);
  EXPECT_EQ(count, 0u);
  count = 5;
  EXPECT_EQ(pawntb_principal_variation(table, "ppp/3/PPP w", line, 32, &count, err, sizeof err),
            PAWNTB_ERROR_POSITION);
  EXPECT_EQ(count, 0u);
  pawntb_close(table);
}

}  // namespace
}  // namespace pawntb
