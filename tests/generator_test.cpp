// Tests of the generator: determinism, the committed table, refusals, the
// atomic write, and the tier solver's StepRanker.
#include "pawntb/generator.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <thread>

#include "pawntb/format/index.hpp"
#include "pawntb/format/layout.hpp"
#include "pawntb/format/values.hpp"
#include "pawntb/format/walk.hpp"
#include "step_ranker.hpp"
#include "support/test_support.hpp"

namespace pawntb {
namespace {

using namespace pawntb_test;

std::vector<std::uint8_t> generate_bytes(Geometry g, int k, int threads) {
  return encode_table(solve(g, k, threads), threads);
}

TEST(Generator, CommittedTableEqualsAFreshGenerationByteForByte) {
  const auto committed = read_bytes(kDataDir / "4x4-k4.pawntb");
  ASSERT_FALSE(committed.empty()) << "data/4x4-k4.pawntb is missing";
  EXPECT_EQ(generate_bytes(Geometry{4, 4}, 4, 0), committed);
}

// data/checksums.txt lists "<xxh3-64 hex>  <file>" for each committed table.
TEST(Generator, CommittedTablesMatchTheGoldenChecksums) {
  std::ifstream list(kDataDir / "checksums.txt");
  ASSERT_TRUE(list) << "data/checksums.txt is missing";
  std::string line;
  int checked = 0;
  while (std::getline(list, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string sum, name;
    fields >> sum >> name;
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx",
                  static_cast<unsigned long long>(format::checksum64(read_bytes(kDataDir / name))));
    EXPECT_EQ(sum, hex) << name;
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

// The solver's values agree with one-ply minimax over its own values at
// every canonical entry, and its statistics count every index.
TEST(Generator, ValuesAreConsistentAtEveryCanonicalEntry) {
  for (const Geometry g : {Geometry{3, 3}, Geometry{4, 4}, Geometry{4, 3}, Geometry{3, 5}}) {
    const int max_pawns = g.cols == 5 ? 3 : g.cols;
    const SolvedTable table = solve(g, max_pawns);
    const format::Index index(g, max_pawns);
    // The value of white-to-move (white, black) from the solver's entries.
    auto value = [&](std::uint64_t white, std::uint64_t black) -> int {
      if (!white || (black & game::black_goal(g))) return 0;
      const game::Pawns c = format::canonical(g, white, black);
      return table.values[index.rank(c.white, c.black)];
    };
    std::uint64_t wins = 0;
    for (std::uint64_t i = 0; i < index.size(); ++i) {
      const auto [white, black] = index.unrank(i);
      const int v = value(white, black);
      wins += v & 1;
      if (!format::is_canonical(g, white, black)) continue;
      ASSERT_EQ(v, table.values[i]);
      const Position p{g, white, black, Side::white};
      format::ValueFold fold;
      for (const Move m : legal_moves(p)) {
        const Position next = play(p, m);
        if (classify(next) == Status::over) {
          fold.add(0);  // white reached row 0 or took the last black pawn
          continue;
        }
        fold.add(static_cast<format::Plies>(
            value(game::flip_rows(g, next.black), game::flip_rows(g, next.white))));
      }
      ASSERT_EQ(table.values[i], fold.value()) << to_string(g) << " " << i;
    }
    EXPECT_EQ(table.win_count, wins) << to_string(g);
  }
}

TEST(Generator, OutputIsDeterministicForAnyThreadCount) {
  for (const Geometry g : {Geometry{3, 3}, Geometry{4, 3}, Geometry{3, 5}}) {
    EXPECT_EQ(generate_bytes(g, 3, 1), generate_bytes(g, 3, 2)) << to_string(g);
    EXPECT_EQ(generate_bytes(g, 3, 2), generate_bytes(g, 3, 3)) << to_string(g);
  }
}

// Unit by unit, the group cache leaves room for the rest of the process as
// measured. When that rest (here 96 MiB of touched ballast, more than the
// plan's 48 MiB) leaves a unit and what it reads less than they need, the
// run goes on above the limit, says so once, and makes the same table.
TEST(Generator, SaysOnceWhenTheRestOfTheProcessPushesTiersOverTheLimit) {
  TempDir dir;
  GenerateRequest o;
  o.geometry = Geometry{4, 4};
  o.max_pawns = 4;
  o.threads = 1;
  o.work_dir = dir / "work";
  std::vector<std::string> notices;
  GenerateCallbacks callbacks;
  callbacks.on_notice = [&](const std::string& message) { notices.push_back(message); };
  o.memory_limit = std::uint64_t{4} << 30;
  generate(o, callbacks, dir / "roomy.pawntb");
  EXPECT_TRUE(notices.empty()) << notices.front();

  o.memory_limit = plan_generation(o).memory_needed;  // just what the plan asks for
  const std::vector<char> ballast(std::size_t{96} << 20, 1);
  generate(o, callbacks, dir / "tight.pawntb");
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_NE(notices[0].find(" and the slices it reads need "), std::string::npos) << notices[0];
  EXPECT_NE(notices[0].find("memory limit; going on above it"), std::string::npos) << notices[0];
  EXPECT_EQ(ballast[ballast.size() / 2], 1);
  EXPECT_EQ(read_bytes(dir / "tight.pawntb"), read_bytes(kDefaultTable));
  EXPECT_EQ(read_bytes(dir / "roomy.pawntb"), read_bytes(kDefaultTable));
}

std::string solve_error(Geometry g, int k) {
  try {
    solve(g, k);
  } catch (const GenerateError& e) {
    return e.what();
  }
  return "";
}

TEST(Generator, RefusesParametersOutOfRange) {
  EXPECT_NE(solve_error(Geometry{2, 4}, 2).find("unsupported"), std::string::npos);
  EXPECT_NE(solve_error(Geometry{9, 4}, 2).find("unsupported"), std::string::npos);
  EXPECT_NE(solve_error(Geometry{4, 4}, 5).find("unsupported"), std::string::npos);
  EXPECT_NE(solve_error(Geometry{4, 4}, 0).find("unsupported"), std::string::npos);
}

TEST(Generator, RefusesRunsThatDoNotFitInMemory) {
  const std::string big = solve_error(Geometry{8, 8}, 6);
  EXPECT_NE(big.find("needs"), std::string::npos) << big;
  EXPECT_NE(big.find("MiB"), std::string::npos) << big;
}

SolvedTable small_table() {
  return solve(Geometry{3, 3}, 3);
}

// Every call of a progress callback, checked when the run is over: each
// stage in `stages` was reported, in that order, from the calling thread,
// with fractions in 0..1 that never decrease and a last report of exactly 1.
class ProgressRecord {
 public:
  ProgressCallback callback() {
    return [this](const Progress& p) {
      EXPECT_EQ(std::this_thread::get_id(), caller_) << p.stage;
      calls_.emplace_back(p.stage, p.fraction_done);
    };
  }
  void expect_stages(const std::vector<std::string>& stages) const {
    std::vector<std::string> seen;
    for (std::size_t i = 0; i < calls_.size(); ++i) {
      const auto& [stage, fraction] = calls_[i];
      EXPECT_GE(fraction, 0.0) << stage;
      EXPECT_LE(fraction, 1.0) << stage;
      if (seen.empty() || seen.back() != stage) {
        if (!seen.empty()) {
          EXPECT_EQ(calls_[i - 1].second, 1.0) << seen.back() << " ended early";
        }
        seen.push_back(stage);
      } else {
        EXPECT_GE(fraction, calls_[i - 1].second) << stage << " went back at call " << i;
      }
    }
    EXPECT_EQ(seen, stages);
    if (!calls_.empty()) {
      EXPECT_EQ(calls_.back().second, 1.0) << calls_.back().first;
    }
  }

 private:
  std::thread::id caller_ = std::this_thread::get_id();
  std::vector<std::pair<std::string, double>> calls_;
};

TEST(Progress, SolveAndCompressReportEveryStageUpToOne) {
  for (const unsigned threads : {1u, 2u, 3u}) {
    ProgressRecord record;
    const ProgressCallback on_progress = record.callback();
    const SolvedTable table = solve(Geometry{4, 4}, 4, threads, on_progress);  // 5 blocks
    encode_table(table, threads, on_progress);
    record.expect_stages({"solve", "compress"});
  }
  ProgressRecord record;
  const TempDir dir;
  const auto path = dir / "t.pawntb";
  write_table(small_table(), path, 2, nullptr, record.callback());
  record.expect_stages({"compress"});
}

TEST(Writer, WritesAtomicallyAndLeavesNoTemporaryFiles) {
  const TempDir dir;
  const auto path = dir / "t.pawntb";
  const SolvedTable table = small_table();
  const WriteSummary s = write_table(table, path);
  EXPECT_EQ(std::filesystem::file_size(path), s.file_size);
  EXPECT_EQ(read_bytes(path), encode_table(table)) << "the file is not the table's bytes";
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), {}), 1);
}

// (An interrupted run keeping the old table is CliGenerate.SignalLeavesTheOldTable...)
TEST(Writer, FailureNamesTheFileAndLeavesNothing) {
  const TempDir dir;
  try {
    write_table(small_table(), dir / "missing" / "t.pawntb");
    FAIL() << "expected GenerateError";
  } catch (const GenerateError& e) {
    EXPECT_NE(std::string(e.what()).find((dir / "missing").string()), std::string::npos);
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "missing"));
  try {
    write_table(small_table(), "/dev/full");
    FAIL() << "expected GenerateError";
  } catch (const GenerateError& e) {
    EXPECT_NE(std::string(e.what()).find("/dev/full"), std::string::npos);
  }
  // A directory in the way is refused without touching it.
  std::filesystem::create_directories(dir / "table.pawntb");
  EXPECT_THROW(write_table(small_table(), dir / "table.pawntb"), GenerateError);
  EXPECT_TRUE(std::filesystem::is_directory(dir / "table.pawntb"));
}

}  // namespace
}  // namespace pawntb

namespace pawntb {
namespace {

using format::Index;
using generator_detail::StepRanker;

// StepRanker::rank_step gives rank() of every position one black step from
// a base, over every base of the index and every step it has.
template <class G>
void expect_steps_rank_as_rank(int max_pawns) {
  constexpr Geometry g = G::value;
  const Index index(g, max_pawns);
  StepRanker<g> ranker(index);
  format::Cursor cursor(index, 0);
  std::uint64_t steps = 0;
  for (std::uint64_t i = 0;; ++i) {
    const std::uint64_t white = cursor.white(), black = cursor.black();
    ranker.reset(white, black);
    for (int s = 0; s + 1 <= g.rows - 2; ++s) {
      for (int c = 0; c < g.cols; ++c) {
        const int from = s * g.cols + c, to = from + g.cols;
        if (!(black >> from & 1) || ((white | black) >> to & 1)) continue;
        const std::uint64_t after = black ^ (1ULL << from) ^ (1ULL << to);
        ASSERT_EQ(ranker.rank_step(s, 1ULL << c), index.rank(white, after))
            << to_string(g) << " entry " << i << " step " << from << "-" << to;
        ++steps;
      }
    }
    if (i + 1 == index.size()) break;
    cursor.next();
  }
  EXPECT_GT(steps, index.size() / 4) << to_string(g);
}

TEST(StepRanker, AgreesWithRank) {
  expect_steps_rank_as_rank<game::FixedGeometry<3, 3>>(3);
  expect_steps_rank_as_rank<game::FixedGeometry<4, 4>>(4);
  expect_steps_rank_as_rank<game::FixedGeometry<5, 3>>(3);
  expect_steps_rank_as_rank<game::FixedGeometry<4, 5>>(4);
  expect_steps_rank_as_rank<game::FixedGeometry<6, 3>>(3);
}

// The worked example of step_ranker.hpp.
TEST(StepRanker, WorkedExample) {
  const Index index(Geometry{4, 4}, 4);
  StepRanker<Geometry{4, 4}> ranker(index);
  ranker.reset(0x0E00, 0x000E);
  const Index::SliceStart& slice = index.slice_with(0x0E00, 0x002C);
  EXPECT_EQ(ranker.rank_step(0, 1u << 1), slice.first + 3 * 24 + 21);
  EXPECT_EQ(ranker.rank_step(0, 1u << 1), index.rank(0x0E00, 0x002C));
}

}  // namespace
}  // namespace pawntb
