// pawntb::search against oracles that share none of its code: the
// brute-force minimax of tests/oracle on small boards, and the committed
// tables (probe) on random positions, with tables as leaves and without;
// and pawntb::proof's checker on certificates, whole and tampered with.
#include "pawntb/search.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "oracle/brute_force.hpp"
#include "pawntb/format/layout.hpp"
#include "pawntb/generator.hpp"
#include "pawntb/notation.hpp"
#include "pawntb/probe.hpp"
#include "pawntb/proof.hpp"
#include "support/test_support.hpp"

namespace {

using pawntb::Geometry;
using pawntb::Position;
using pawntb::Side;
using pawntb::search::Knowledge;
using pawntb::search::SolveOptions;
using pawntb_test::kDataDir;
using pawntb_test::TempDir;

SolveOptions small_options(Knowledge k = {}) {
  SolveOptions o;
  o.memory_bytes = 1 << 16;  // small: the tables are allocated for every solve
  o.threads = 1;             // one worker: SearchThreads compares it with two
  o.knowledge = k;
  return o;
}

// A random valid position of g with 0..pawns pawns a side, `side` to move.
Position random_position(std::mt19937_64& rng, Geometry g, int pawns, Side side) {
  for (;;) {
    Position p{g, 0, 0, side};
    std::uniform_int_distribution<int> count(0, pawns), square(0, g.squares() - 1);
    const int white = count(rng), black = count(rng);
    while (std::popcount(p.white) < white) p.white |= 1ULL << square(rng);
    while (std::popcount(p.black) < black) {
      const std::uint64_t bit = 1ULL << square(rng);
      if (!(p.white & bit)) p.black |= bit;
    }
    if (pawntb::classify(p) != pawntb::Status::invalid) return p;
  }
}

std::string board_text(const Position& p) {
  std::string text;
  for (int s = 0; s < p.geometry.squares(); ++s) {
    text += (p.white >> s & 1) ? 'P' : (p.black >> s & 1) ? 'p' : '.';
  }
  return text;
}

// The knowledge settings the tests run: all of it, none of it, and each
// piece left out in turn.
std::vector<Knowledge> knowledge_settings() {
  std::vector<Knowledge> out{Knowledge{}, Knowledge::none()};
  for (int i = 0; i < 6; ++i) {
    Knowledge k;
    bool* pieces[] = {&k.win_in_one, &k.threats,   &k.unstoppable,
                      &k.ordering,   &k.lookahead, &k.symmetry};
    *pieces[i] = false;
    out.push_back(k);
  }
  return out;
}

TEST(SearchOracle, SmallBoardsAgreeWithBruteForce) {
  std::mt19937_64 rng(10838);
  for (const Geometry g :
       {Geometry{3, 3}, Geometry{3, 4}, Geometry{4, 3}, Geometry{4, 4}, Geometry{4, 5}}) {
    pawntb_oracle::Solver oracle(g.rows, g.cols);
    const auto settings = knowledge_settings();
    for (int i = 0; i < 300; ++i) {
      const Position p = random_position(rng, g, g.cols, i % 2 ? Side::black : Side::white);
      const auto expected = oracle.solve(board_text(p), p.to_move == Side::white);
      ASSERT_TRUE(expected.valid);
      const Side winner = expected.white_wins ? Side::white : Side::black;
      const Knowledge k = settings[static_cast<std::size_t>(i) % settings.size()];
      const auto r = pawntb::search::solve(p, small_options(k));
      ASSERT_EQ(r.winner, winner) << pawntb::format_position(p);
      if (r.has_best_move) {  // the move it names wins: the position after it is lost
        const Position next = pawntb::play(p, pawntb::Move{r.best_move.from, r.best_move.to});
        const auto after = oracle.solve(board_text(next), next.to_move == Side::white);
        EXPECT_EQ(after.white_wins, expected.white_wins) << pawntb::format_position(p);
      }
    }
  }
}

// df-pn (--algorithm dfpn) against the same oracle: the winner, and the
// move it names wins; with all its knowledge, without threats, and
// without ordering.
TEST(SearchOracle, ProofNumbersAgreeWithBruteForce) {
  std::mt19937_64 rng(20261204);
  for (const Geometry g :
       {Geometry{3, 3}, Geometry{3, 4}, Geometry{4, 3}, Geometry{4, 4}, Geometry{4, 5}}) {
    pawntb_oracle::Solver oracle(g.rows, g.cols);
    for (int i = 0; i < 300; ++i) {
      const Position p = random_position(rng, g, g.cols, i % 2 ? Side::black : Side::white);
      const auto expected = oracle.solve(board_text(p), p.to_move == Side::white);
      ASSERT_TRUE(expected.valid);
      SolveOptions o = small_options();
      o.algorithm = pawntb::search::Algorithm::proof_numbers;
      o.knowledge.threats = i % 3 != 1;
      o.knowledge.ordering = i % 3 != 2;
      const auto r = pawntb::search::solve(p, o);
      ASSERT_EQ(r.winner, expected.white_wins ? Side::white : Side::black)
          << pawntb::format_position(p);
      if (r.has_best_move) {
        const Position next = pawntb::play(p, pawntb::Move{r.best_move.from, r.best_move.to});
        const auto after = oracle.solve(board_text(next), next.to_move == Side::white);
        EXPECT_EQ(after.white_wins, expected.white_wins) << pawntb::format_position(p);
      }
    }
  }
}

TEST(SearchOracle, StartsOfSmallBoards) {
  for (const Geometry g : {Geometry{3, 5}, Geometry{5, 3}, Geometry{3, 6}, Geometry{6, 3}}) {
    pawntb_oracle::Solver oracle(g.rows, g.cols);
    const Position p = pawntb::start_position(g, g.cols);
    const auto expected = oracle.solve(board_text(p), true);
    EXPECT_EQ(pawntb::search::solve(p, small_options()).winner,
              expected.white_wins ? Side::white : Side::black)
        << to_string(g);
  }
}

// Every committed table (a test each, so that they run side by side): its
// start, and 10,000 random valid positions, both sides to move alike, solved
// without tables and with a table of fewer pawns of the same board as
// leaves (made here), against the table's own answer.
std::vector<std::string> committed_tables() {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(kDataDir)) {
    if (entry.path().extension() == ".pawntb") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

class SearchAgreesWithProbe : public ::testing::TestWithParam<std::string> {};

TEST_P(SearchAgreesWithProbe, OnRandomPositions) {
  TempDir dir;
  std::mt19937_64 rng(2026);
  const pawntb::Table table = pawntb::Table::open(kDataDir / (GetParam() + ".pawntb"));
  const Geometry g = table.info().geometry;
  const int k = table.info().max_pawns;
  // Leaves: a table of the same board with one pawn fewer a side.
  pawntb::GenerateRequest gen;
  gen.geometry = g;
  gen.max_pawns = std::max(1, k - 1);
  const auto leaves = dir / (to_string(g) + "-k" + std::to_string(gen.max_pawns) + ".pawntb");
  pawntb::generate(gen, {}, leaves);
  const pawntb::Table leaf_table = pawntb::Table::open(leaves);  // opened once for all
  SolveOptions with_leaves = small_options();
  with_leaves.open_tables = {&leaf_table};
  const Position start = table.start_position();
  EXPECT_EQ(pawntb::search::solve(start, small_options()).winner, table.probe(start).winner);
  SolveOptions by_path = small_options();  // the same table by its path
  by_path.tables = {leaves};
  EXPECT_EQ(pawntb::search::solve(start, by_path).table_pawns, gen.max_pawns);
  // Under the sanitizers a tenth: the same checks, within the suite's time.
  for (int i = 0; i < (pawntb_test::kSanitized ? 1000 : 10000); ++i) {
    const Position p = random_position(rng, g, k, i % 2 ? Side::black : Side::white);
    const pawntb::ProbeResult expected = table.probe(p);
    ASSERT_TRUE(expected.ok()) << pawntb::format_position(p);
    ASSERT_EQ(pawntb::search::solve(p, small_options()).winner, expected.winner)
        << pawntb::format_position(p);
    const auto r = pawntb::search::solve(p, with_leaves);
    ASSERT_EQ(r.winner, expected.winner) << pawntb::format_position(p);
    ASSERT_EQ(r.table_pawns, gen.max_pawns);
    if (i % 10 == 5) {  // df-pn too, on one position in 10, with leaves and without
      SolveOptions numbers = i % 20 == 5 ? small_options() : with_leaves;
      numbers.algorithm = pawntb::search::Algorithm::proof_numbers;
      ASSERT_EQ(pawntb::search::solve(p, numbers).winner, expected.winner)
          << pawntb::format_position(p);
    }
    if (i % 20 == 0) {  // the distance too, on one position in 20, with leaves and without
      SolveOptions distance = i % 40 ? small_options() : with_leaves;
      distance.distance = true;
      const auto d = pawntb::search::solve(p, distance);
      ASSERT_EQ(d.plies_lower, expected.plies) << pawntb::format_position(p);
      ASSERT_EQ(d.plies_upper, expected.plies) << pawntb::format_position(p);
      ASSERT_TRUE(d.plies_upper_found);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(CommittedTables, SearchAgreesWithProbe,
                         ::testing::ValuesIn(committed_tables()),
                         [](const ::testing::TestParamInfo<std::string>& param) {
                           std::string name = param.param;  // "4x4-k4": "4x4_k4"
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

TEST(SearchTables, EveryCommittedTableIsTested) {
  EXPECT_GE(committed_tables().size(), 2u);
}

// The winner and the distance of the start of every solved board up to 30
// squares, as the published answers (data/answers, from the tables) give
// them.
TEST(SearchTables, StartsOfSolvedBoards) {
  int boards = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kDataDir / "answers")) {
    if (entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path());
    const nlohmann::json j = nlohmann::json::parse(in);
    if (!j.contains("start")) continue;  // a board still running
    const Position start = pawntb_test::parse(j.at("start").at("position").get<std::string>());
    if (start.geometry.squares() > 30) continue;
    ++boards;
    SolveOptions o = small_options();
    o.memory_bytes = 16 << 20;
    // The distance too (a few seconds at 30 squares; under the sanitizers
    // up to 25).
    o.distance = start.geometry.squares() <= (pawntb_test::kSanitized ? 25 : 30);
    const auto r = pawntb::search::solve(start, o);
    EXPECT_EQ(side_name(r.winner), j.at("start").at("winner").get<std::string>()) << entry.path();
    if (o.distance) {
      EXPECT_EQ(r.plies_lower, j.at("start").at("plies").get<int>()) << entry.path();
      EXPECT_EQ(r.plies_upper, r.plies_lower) << entry.path();
      EXPECT_TRUE(r.plies_upper_found) << entry.path();
    }
  }
  EXPECT_GE(boards, 15);
}

TEST(SearchMemory, AFullTableGivesTheSameAnswer) {
  const Position p = pawntb::start_position({5, 5}, 5);
  SolveOptions tiny = small_options(), large = small_options();
  tiny.memory_bytes = 64;  // one bucket: replaced all the time
  large.memory_bytes = 64 << 20;
  const auto a = pawntb::search::solve(p, tiny), b = pawntb::search::solve(p, large);
  EXPECT_EQ(a.tt_bytes, 64u);
  EXPECT_LE(b.tt_bytes, 64u << 20);
  EXPECT_EQ(a.winner, b.winner);
  EXPECT_GT(a.nodes, b.nodes);  // replacing costs work, never the answer
}

// df-pn's two tables bounded to one bucket each: more work, the same answer.
TEST(SearchMemory, ProofNumbersInFullTablesGiveTheSameAnswer) {
  const Position p = pawntb::start_position({5, 5}, 5);
  SolveOptions tiny = small_options(), large = small_options();
  tiny.algorithm = large.algorithm = pawntb::search::Algorithm::proof_numbers;
  tiny.memory_bytes = 64;
  tiny.numbers_memory_bytes = 64;
  large.memory_bytes = 64 << 20;
  const auto a = pawntb::search::solve(p, tiny), b = pawntb::search::solve(p, large);
  EXPECT_EQ(a.numbers_bytes, 64u);
  EXPECT_EQ(b.numbers_bytes, 32u << 20);  // half of --memory by default
  EXPECT_EQ(a.winner, b.winner);
  EXPECT_EQ(a.winner, pawntb::search::solve(p, small_options()).winner);
  EXPECT_GT(a.nodes, b.nodes);
  EXPECT_EQ(b.threads, 1u);
}

// A state saved by one algorithm resumes with the other: both keep proven
// results, facts of the game, in the same table.
TEST(SearchState, EitherAlgorithmResumesTheOthersState) {
  TempDir dir;
  const Position p = pawntb::start_position({5, 6}, 6);
  for (const auto first :
       {pawntb::search::Algorithm::depth_first, pawntb::search::Algorithm::proof_numbers}) {
    SolveOptions o = small_options();
    o.memory_bytes = 1 << 20;
    o.algorithm = first;
    o.state = dir / "5x6.state";
    o.certificate = dir / "5x6.prf";  // a certificate asked for: the state is saved after the search
    std::filesystem::remove(o.state);
    const auto a = pawntb::search::solve(p, o);
    ASSERT_TRUE(std::filesystem::exists(o.state));
    o.algorithm = first == pawntb::search::Algorithm::depth_first
                      ? pawntb::search::Algorithm::proof_numbers
                      : pawntb::search::Algorithm::depth_first;
    const auto b = pawntb::search::solve(p, o);
    EXPECT_TRUE(b.resumed);
    EXPECT_EQ(a.winner, b.winner);
    EXPECT_TRUE(pawntb::proof::check_proof(o.certificate, {}).ok);
  }
}

// The root's moves in shuffled orders: the same winner as the usual order,
// and as the oracle, each time.
TEST(SearchOracle, ShuffledRootOrdersAgree) {
  for (const Geometry g : {Geometry{3, 5}, Geometry{4, 4}, Geometry{4, 5}, Geometry{5, 3}}) {
    pawntb_oracle::Solver oracle(g.rows, g.cols);
    const Position p = pawntb::start_position(g, g.cols);
    const Side winner = oracle.solve(board_text(p), true).white_wins ? Side::white : Side::black;
    for (std::uint64_t seed = 0; seed < 6; ++seed) {
      SolveOptions o = small_options();
      o.root_seed = seed;
      EXPECT_EQ(pawntb::search::solve(p, o).winner, winner) << to_string(g) << " seed " << seed;
    }
  }
}

// Each root move tried first: the oracle's winner every time, and when the
// move tried first wins (the oracle says its position is lost for the
// opponent), that is the winning move found, on one worker.
TEST(SearchOracle, AnyRootMoveTriedFirstGivesTheSameWinner) {
  for (const Geometry g : {Geometry{3, 5}, Geometry{4, 4}, Geometry{4, 5}, Geometry{5, 4}}) {
    pawntb_oracle::Solver oracle(g.rows, g.cols);
    const Position p = pawntb::start_position(g, g.cols);
    const Side winner = oracle.solve(board_text(p), true).white_wins ? Side::white : Side::black;
    int winning_moves = 0;
    for (const pawntb::Move m : pawntb::legal_moves(p)) {
      const bool m_wins = oracle.solve(board_text(pawntb::play(p, m)), false).white_wins;
      winning_moves += m_wins;
      SolveOptions o = small_options();
      o.root_first = {m};
      const auto r = pawntb::search::solve(p, o);
      EXPECT_EQ(r.winner, winner) << to_string(g) << " " << pawntb::move_name(g, m);
      if (m_wins) {
        EXPECT_TRUE(r.has_best_move && r.best_move == m) << to_string(g) << " " << pawntb::move_name(g, m);
      }
    }
    EXPECT_EQ(winning_moves > 0, winner == Side::white) << to_string(g);
  }
  const Position p = pawntb::start_position({4, 4}, 4);
  SolveOptions o = small_options();
  o.root_first = {pawntb::Move{12, 4}};  // a1a3: two squares
  EXPECT_THROW(pawntb::search::solve(p, o), std::invalid_argument);
  EXPECT_EQ(pawntb::search::root_first_problem(p, o.root_first), "a1a3 is not a move of the root");
  o.root_first = {pawntb::legal_moves(p).moves[0], pawntb::legal_moves(p).moves[0]};
  EXPECT_THROW(pawntb::search::solve(p, o), std::invalid_argument);
  EXPECT_EQ(pawntb::search::root_first_problem(p, o.root_first),
            pawntb::move_name(p.geometry, o.root_first[0]) + " given twice");
  o.root_first.pop_back();
  EXPECT_EQ(pawntb::search::root_first_problem(p, o.root_first), "");
}

// Progress names the root move being searched. On 6x6 black wins, so one
// worker refutes every root move in turn: the one given first, then the
// others in the files' order. The moves named, each once in the order they
// were first named, follow that order (a report may fall between two).
TEST(SearchProgress, NamesTheRootMoveBeingSearched) {
  const Position p6 = pawntb::start_position({6, 6}, 6);
  const pawntb::MoveList legal = pawntb::legal_moves(p6);
  std::vector<pawntb::Move> order(legal.begin(), legal.end());
  std::sort(order.begin(), order.end(), [](pawntb::Move a, pawntb::Move b) { return a.from < b.from; });
  std::rotate(order.begin(), order.begin() + 3, order.begin() + 4);  // the d-pawn's first
  SolveOptions o = small_options();
  o.memory_bytes = 1 << 20;
  o.progress_every = std::chrono::milliseconds(1);
  o.root_first = {order[0]};
  std::vector<pawntb::Move> named;
  pawntb::search::solve(p6, o, [&](const pawntb::search::SearchProgress& r) {
    ASSERT_LE(r.root_moves_searching.size(), 1u);  // one worker
    for (const pawntb::Move m : r.root_moves_searching) {
      if (named.empty() || named.back() != m) named.push_back(m);
    }
  });
  ASSERT_FALSE(named.empty());  // reported every millisecond of a search of 0.8 M nodes
  auto at = order.begin();
  for (const pawntb::Move m : named) {
    at = std::find(at, order.end(), m);
    ASSERT_NE(at, order.end()) << pawntb::move_name(p6.geometry, m) << " named out of order";
  }
}

// After the search, progress goes on while the certificate is walked and
// the distance searched: every 4,096 of the distance's nodes, and once a
// question, when the bounds change.
TEST(SearchProgress, GoesOnThroughTheWalkAndTheDistance) {
  TempDir dir;
  SolveOptions o = small_options();
  o.progress_every = std::chrono::milliseconds(0);  // every call reports
  o.certificate = dir / "5x5.prf";
  o.distance = true;
  int walk = 0, between = 0, bounds_changed = 0, lower = -1, upper = -1;
  const auto r = pawntb::search::solve(
      pawntb::start_position({5, 5}, 5), o, [&](const pawntb::search::SearchProgress& p) {
        walk += p.writing_certificate;
        if (!p.distance_searched) return;
        if (p.plies_lower != lower || p.plies_upper != upper) {
          ++bounds_changed;
          lower = p.plies_lower;
          upper = p.plies_upper;
        }
        between += p.distance_nodes > 0 && p.distance_nodes % 4096 == 0;
      });
  EXPECT_TRUE(r.plies_upper_found && r.plies_lower == r.plies_upper);
  EXPECT_GT(walk, 0);
  EXPECT_GT(bounds_changed, 1);
  EXPECT_GT(between, 2);
}

TEST(SearchThreads, TwoThreadsGiveTheSameAnswer) {
  for (const Geometry g : {Geometry{4, 5}, Geometry{5, 5}, Geometry{6, 4}}) {
    const Position p = pawntb::start_position(g, g.cols);
    SolveOptions one = small_options(), two = small_options();
    two.threads = 2;
    EXPECT_EQ(pawntb::search::solve(p, one).winner, pawntb::search::solve(p, two).winner);
  }
}

// By default solve() runs a worker per hardware thread, as generate() and
// the CLI's --threads count them, and gives the answer one worker gives.
TEST(SearchThreads, TheDefaultIsOnePerHardwareThread) {
  EXPECT_EQ(SolveOptions{}.threads, pawntb::GenerateRequest{}.threads);
  EXPECT_EQ(SolveOptions{}.threads, 0u);
  const Position p = pawntb::start_position({5, 5}, 5);
  SolveOptions all = small_options();
  all.threads = SolveOptions{}.threads;
  EXPECT_EQ(pawntb::search::solve(p, all).winner, pawntb::search::solve(p, small_options()).winner);
}

TEST(SearchErrors, InvalidPositionThrows) {
  const Position p{{4, 4}, 1, 1, Side::white};  // overlapping pawns
  EXPECT_THROW(pawntb::search::solve(p, small_options()), std::invalid_argument);
}

// ---------------------------------------------------------------------------
// Certificates.

std::vector<std::uint8_t> read_bytes(const std::filesystem::path& f) {
  std::ifstream in(f, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::filesystem::path& f, const std::vector<std::uint8_t>& b) {
  std::ofstream out(f, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

// Writes the checksum of the bytes before the last eight into the last eight,
// as a forger would.
void reseal(std::vector<std::uint8_t>& b) {
  const std::size_t body = b.size() - 8;
  const std::uint64_t sum = pawntb::format::checksum64(std::span(b.data(), body));
  for (int i = 0; i < 8; ++i) b[body + i] = static_cast<std::uint8_t>(sum >> (8 * i));
}

constexpr std::size_t kHeader = 56, kEntry = 18;

// By either algorithm: the walk reads what the search proved.
TEST(Certificate, ProofsOfSmallBoardsPass) {
  TempDir dir;
  for (const auto algorithm :
       {pawntb::search::Algorithm::depth_first, pawntb::search::Algorithm::proof_numbers}) {
    for (const Geometry g :
         {Geometry{3, 3}, Geometry{4, 4}, Geometry{4, 5}, Geometry{5, 5}, Geometry{6, 4}}) {
      SolveOptions o = small_options();
      o.memory_bytes = 1 << 20;
      o.algorithm = algorithm;
      o.certificate = dir / (to_string(g) + ".prf");
      const auto r = pawntb::search::solve(pawntb::start_position(g, g.cols), o);
      const auto report = pawntb::proof::check_proof(o.certificate, {});
      EXPECT_TRUE(report.ok) << to_string(g) << ": " << report.error;
      EXPECT_EQ(report.winner, r.winner);
      EXPECT_EQ(report.entries, r.certificate_positions);
      // The longest line bounds the distance from above, with its parity.
      pawntb_oracle::Solver oracle(g.rows, g.cols);
      const auto truth = oracle.solve(board_text(pawntb::start_position(g, g.cols)), true);
      EXPECT_GE(report.longest_line, truth.plies) << to_string(g);
      EXPECT_EQ(report.longest_line % 2, truth.plies % 2) << to_string(g);
    }
  }
}

// Every board up to 6x6, without tables: the proof of its start passes the
// checker and names the winner the published answers give (label `slow`).
TEST(CertificateSlow, EveryBoardUpTo6x6) {
  TempDir dir;
  for (int rows = 3; rows <= 6; ++rows) {
    for (int cols = 3; cols <= 6; ++cols) {
      const Geometry g{rows, cols};
      SolveOptions o = small_options();
      o.memory_bytes = 64 << 20;
      o.certificate = dir / (to_string(g) + ".prf");
      const auto r = pawntb::search::solve(pawntb::start_position(g, cols), o);
      const auto report = pawntb::proof::check_proof(o.certificate, {});
      EXPECT_TRUE(report.ok) << to_string(g) << ": " << report.error;
      EXPECT_EQ(report.winner, r.winner) << to_string(g);
      std::ifstream in(kDataDir / "answers" /
                       (to_string(g) + "-k" + std::to_string(cols) + ".json"));
      ASSERT_TRUE(in) << to_string(g);
      EXPECT_EQ(side_name(report.winner),
                nlohmann::json::parse(in).at("start").at("winner").get<std::string>())
          << to_string(g);
      std::filesystem::remove(o.certificate);
    }
  }
}

TEST(Certificate, ProofWithTableLeavesPasses) {
  TempDir dir;
  pawntb::GenerateRequest gen;
  gen.geometry = {5, 4};
  gen.max_pawns = 2;
  const auto leaves = dir / "5x4-k2.pawntb";
  pawntb::generate(gen, {}, leaves);
  SolveOptions o = small_options();
  o.tables = {leaves};
  o.certificate = dir / "5x4.prf";
  const auto r = pawntb::search::solve(pawntb::start_position({5, 4}, 4), o);
  const auto report = pawntb::proof::check_proof(o.certificate, {leaves});
  EXPECT_TRUE(report.ok) << report.error;
  EXPECT_GT(report.table_leaves, 0u);
  EXPECT_EQ(report.winner, r.winner);
  // Without the table, the leaves cannot be checked.
  const auto without = pawntb::proof::check_proof(o.certificate, {});
  EXPECT_FALSE(without.ok);
  EXPECT_NE(without.error.find("5x4-k2.pawntb"), std::string::npos) << without.error;
}

// The distance is searched after the certificate's walk: its questions
// would replace the search's entries, and a walk after them would list a
// larger proof.
TEST(Certificate, TheDistanceLeavesTheProofAlone) {
  TempDir dir;
  SolveOptions plain = small_options(), with_distance = small_options();
  plain.certificate = dir / "plain.prf";
  with_distance.certificate = dir / "distance.prf";
  with_distance.distance = true;
  const Position start = pawntb::start_position({5, 6}, 6);
  const auto a = pawntb::search::solve(start, plain);
  const auto b = pawntb::search::solve(start, with_distance);
  EXPECT_EQ(a.certificate_positions, b.certificate_positions);
  EXPECT_EQ(read_bytes(plain.certificate), read_bytes(with_distance.certificate));
  EXPECT_TRUE(b.plies_upper_found);
}

class Tampered : public ::testing::Test {
 protected:
  void SetUp() override {
    SolveOptions o = small_options();
    o.certificate = dir_ / "5x5.prf";
    pawntb::search::solve(pawntb::start_position({5, 5}, 5), o);
    bytes_ = read_bytes(o.certificate);
    ASSERT_GT(bytes_.size(), kHeader + 8 + 10 * kEntry);
  }
  pawntb::proof::ProofReport check(const std::vector<std::uint8_t>& b) {
    write_bytes(dir_ / "t.prf", b);
    return pawntb::proof::check_proof(dir_ / "t.prf", {});
  }
  TempDir dir_;
  std::vector<std::uint8_t> bytes_;
};

TEST_F(Tampered, Untouched) {
  EXPECT_TRUE(check(bytes_).ok);
}

TEST_F(Tampered, WinsInOneAreLeftToTheRules) {
  // 5x5 is a white win: no stored move goes onto row 0 (a win in one is
  // not listed), yet the checker finds such wins on the way.
  ASSERT_EQ(bytes_[15], 0);
  const std::size_t entries = (bytes_.size() - kHeader - 8) / kEntry;
  for (std::size_t i = 0; i < entries; ++i) {
    EXPECT_GE(bytes_[kHeader + i * kEntry + 17], 5) << "entry " << i;
  }
  EXPECT_GT(check(bytes_).wins_in_one, 0u);
}

TEST_F(Tampered, OneByteFlipped) {
  for (const std::size_t at : {std::size_t{20}, kHeader + 3, bytes_.size() - 1}) {
    auto b = bytes_;
    b[at] ^= 0x10;
    const auto r = check(b);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("checksum"), std::string::npos) << r.error;
  }
}

TEST_F(Tampered, OneMoveChanged) {
  // Every stored move is reached, so changing any one to another square
  // breaks the proof: an illegal move, or a line the table of moves does not
  // cover. Entry 5's target goes one file over.
  auto b = bytes_;
  const std::size_t at = kHeader + 5 * kEntry + 17;
  b[at] = static_cast<std::uint8_t>(b[at] % 5 == 4 ? b[at] - 1 : b[at] + 1);
  reseal(b);
  const auto r = check(b);
  EXPECT_FALSE(r.ok);
  EXPECT_FALSE(r.position.empty()) << r.error;
}

TEST_F(Tampered, OnePositionLeftOut) {
  auto b = bytes_;
  const std::size_t at = kHeader + 7 * kEntry;
  b.erase(b.begin() + static_cast<std::ptrdiff_t>(at),
          b.begin() + static_cast<std::ptrdiff_t>(at + kEntry));
  std::uint64_t n = 0;
  for (int i = 0; i < 8; ++i) n |= std::uint64_t{b[48 + i]} << (8 * i);
  --n;
  for (int i = 0; i < 8; ++i) b[48 + i] = static_cast<std::uint8_t>(n >> (8 * i));
  reseal(b);
  const auto r = check(b);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("no move is stored"), std::string::npos) << r.error;
}

TEST_F(Tampered, WinnerSwapped) {
  auto b = bytes_;
  b[15] ^= 1;
  reseal(b);
  EXPECT_FALSE(check(b).ok);
}

TEST_F(Tampered, Truncated) {
  auto b = bytes_;
  b.resize(b.size() - kEntry);
  reseal(b);
  const auto r = check(b);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("size"), std::string::npos) << r.error;
}

}  // namespace
