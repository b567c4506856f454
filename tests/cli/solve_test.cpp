// Tests of `pawntb solve` and `pawntb check-proof` as a subprocess: the
// answers themselves are checked against the oracle and the tables in
// tests/search; here the command must resume after a kill, refuse what it
// cannot go on from, and give its documented JSON.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/cli_support.hpp"
#include "support/test_support.hpp"

namespace {

using namespace pawntb_test;

nlohmann::json solve_json(const std::vector<std::string>& extra) {
  std::vector<std::string> args{"solve", "--json", "--no-tables", "--memory", "64M"};
  args.insert(args.end(), extra.begin(), extra.end());
  const RunResult r = run_cli(args);
  EXPECT_EQ(r.status, 0) << r;
  return nlohmann::json::parse(r.out);
}

// SIGKILLed once its state file exists (it saved at least once), the plain
// search of 5x6 goes on from the file when the same command runs again,
// counts the nodes of both parts, and names the winner that the search with
// all its knowledge names.
TEST(CliSolve, ResumesAfterAKill) {
  TempDir dir;
  const fs::path state = dir / "5x6.state";
  const std::vector<std::string> args{"solve",         "--rows", "5",       "--cols",
                                      "6",             "--baseline", "--no-tables",
                                      "--memory",      "256M",   "--threads", "1",
                                      "--resume",      state.string(), "--save-every", "1",
                                      "--json"};
  // The file appears whole (it is renamed into place): then kill.
  const KillEnd end = kill_when_ready(args, dir.path(), [&] { return fs::exists(state); });
  ASSERT_EQ(end, KillEnd::killed) << "the search ended before it was killed: "
                                  << read_file(dir / "out.txt") << read_file(dir / "err.txt");

  const RunResult resumed = run_cli(args);
  ASSERT_EQ(resumed.status, 0) << resumed;
  const nlohmann::json part = nlohmann::json::parse(resumed.out);
  EXPECT_TRUE(part.at("resumed").get<bool>()) << part;
  EXPECT_EQ(part.at("resume"), state.string());
  EXPECT_EQ(part.at("tt_bytes"), 256u << 20);
  const nlohmann::json fresh = solve_json({"--rows", "5", "--cols", "6"});
  EXPECT_EQ(part.at("winner"), fresh.at("winner"));
  EXPECT_GT(part.at("nodes").get<std::uint64_t>(), 0u);

  // Without --memory, the saved table's size is kept.
  const RunResult again = run_cli({"solve", "--rows", "5", "--cols", "6", "--baseline",
                                   "--no-tables", "--resume", state.string(), "--json"});
  ASSERT_EQ(again.status, 0) << again;
  EXPECT_EQ(nlohmann::json::parse(again.out).at("tt_bytes"), 256u << 20);

  // Another position, or another table size, is refused by name (exit 2).
  RunResult r = run_cli({"solve", "--rows", "6", "--cols", "5", "--resume", state.string()});
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_TRUE(contains(r.err, state.string() + " is the state of another search")) << r;
  r = run_cli({"solve", "--rows", "5", "--cols", "6", "--memory", "64M", "--resume",
               state.string()});
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_TRUE(contains(r.err, state.string() + " holds a table of 268435456 bytes")) << r;
}

// A state cut short, one of another position, and one whose table size
// --memory contradicts are refused (exit 2), naming the file; so is
// --save-every without --resume.
TEST(CliSolve, RefusesAStateItCannotResume) {
  TempDir dir;
  const fs::path state = dir / "4x5.state";
  const RunResult made = run_cli({"solve", "--rows", "4", "--cols", "5", "--no-tables",
                                  "--memory", "1M", "--resume", state.string()});
  ASSERT_EQ(made.status, 0) << made;
  // A search that ends before its first save writes no state.
  ASSERT_FALSE(fs::exists(state));
  {
    std::ofstream f(state, std::ios::binary);
    f << "PAWNSTA1 and then not much";
  }
  RunResult r = run_cli({"solve", "--rows", "4", "--cols", "5", "--resume", state.string()});
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_TRUE(contains(r.err, state.string() + ": not a pawntb search state")) << r;

  r = run_cli({"solve", "--rows", "4", "--cols", "5", "--save-every", "5"});
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_TRUE(contains(r.err, "--save-every needs --resume")) << r;
}

// --root-first: the moves, in their order, in the JSON; one that is not the
// root's, or given twice, is a usage error naming it, and df-pn takes none.
// (SearchOracle.AnyRootMoveTriedFirstGivesTheSameWinner checks the search.)
TEST(CliSolve, RootMovesTriedFirst) {
  RunResult r = run_cli({"solve", "--rows", "4", "--cols", "5", "--threads", "1", "--json",
                         "--root-first", "e1e2,a1a2"});
  ASSERT_EQ(r.status, 0) << r;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["root_first"], nlohmann::json::array({"e1e2", "a1a2"})) << r;
  r = run_cli({"solve", "--rows", "4", "--cols", "5", "--root-first", "a1a3"});
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_TRUE(contains(r.err, "--root-first: a1a3")) << r;
  r = run_cli({"solve", "--rows", "4", "--cols", "5", "--root-first", "a1a2 a1a2"});
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_TRUE(contains(r.err, "--root-first: a1a2 given twice")) << r;
  r = run_cli({"solve", "--rows", "4", "--cols", "5", "--root-first", " , "});
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_TRUE(contains(r.err, "--root-first: no move given")) << r;
  r = run_cli({"solve", "--rows", "4", "--cols", "5", "--algorithm", "dfpn", "--root-first", "a1a2"});
  EXPECT_EQ(r.status, 2) << r;
}

// --memory bounds the transposition table, measured by peak RSS: a search
// of 6x6 that fills a 1 MiB table holds no more than 3x3's with the same
// table (the search's own memory does not grow with its nodes), and a 16 MiB
// table adds at most its 15 MiB more (and an eighth for a sanitizer's
// shadow), with the same answer.
TEST(CliSolve, TheTableStaysWithinMemory) {
  const auto run = [](const std::string& board, const std::string& memory) {
    RunResult r = run_cli({"solve", "--rows", board.substr(0, 1), "--cols", board.substr(2),
                           "--no-tables", "--threads", "1", "--memory", memory, "--json"});
    EXPECT_EQ(r.status, 0) << r;
    return r;
  };
  const RunResult tiny = run("3x3", "1M"), full = run("6x6", "1M"), large = run("6x6", "16M");
  const nlohmann::json f = nlohmann::json::parse(full.out), l = nlohmann::json::parse(large.out);
  ASSERT_EQ(f.at("tt_bytes"), 1u << 20);
  EXPECT_EQ(f.at("tt_used"), f.at("tt_entries")) << "the 1 MiB table is not full: " << f;
  EXPECT_GT(f.at("nodes").get<std::uint64_t>(), f.at("tt_entries").get<std::uint64_t>());
  EXPECT_EQ(f.at("winner"), l.at("winner"));
  // A sanitizer's allocator and quarantine hold more beside the table.
  constexpr long kSlackKib = pawntb_test::kSanitized ? 16384 : 4096;
  EXPECT_LE(full.peak_rss_kib, tiny.peak_rss_kib + kSlackKib)
      << full.peak_rss_kib << " KiB against " << tiny.peak_rss_kib;
  EXPECT_LE(large.peak_rss_kib, full.peak_rss_kib + 15 * 1024 * 9 / 8 + kSlackKib)
      << large.peak_rss_kib << " KiB against " << full.peak_rss_kib;
}

// --dtm prints the distance; with a --time too short for 6x6's (seconds on
// an idle machine), the bounds it proved, which hold the table's 30.
TEST(CliSolve, DistanceAndItsBounds) {
  const nlohmann::json exact = solve_json({"--rows", "4", "--cols", "4", "--dtm"});
  EXPECT_EQ(exact.at("plies"), 11) << exact;
  EXPECT_EQ(exact.at("plies_lower"), 11);
  EXPECT_EQ(exact.at("plies_upper"), 11);
  const RunResult text = run_cli({"solve", "--rows", "4", "--cols", "4", "--dtm"});
  EXPECT_TRUE(contains(text.out, "white wins in 11 plies")) << text;

  // Cut after 2 s, with progress every second: the distance's search shows
  // its nodes before it answers its first question.
  const RunResult cut_run =
      run_cli({"solve", "--json", "--no-tables", "--memory", "64M", "--rows", "6", "--cols", "6",
               "--threads", "1", "--dtm", "--time", "2", "--progress", "1"});
  ASSERT_EQ(cut_run.status, 0) << cut_run;
  const nlohmann::json cut = nlohmann::json::parse(cut_run.out);
  EXPECT_TRUE(contains(cut_run.err, "distance: at least ")) << cut_run;
  EXPECT_TRUE(contains(cut_run.err, " nodes, ")) << cut_run;
  if (cut.at("plies").is_null()) {
    const int lower = cut.at("plies_lower");
    EXPECT_LE(lower, 30) << cut;
    EXPECT_EQ(lower % 2, 0);  // white to move loses: an even value
    if (!cut.at("plies_upper").is_null()) {  // a line was found in time
      const int upper = cut.at("plies_upper");
      EXPECT_GE(upper, 30) << cut;
      EXPECT_EQ(upper % 2, 0);
    }
  } else {  // a machine fast enough to finish in the second
    EXPECT_EQ(cut.at("plies"), 30) << cut;
  }
  const RunResult alone = run_cli({"solve", "--rows", "4", "--cols", "4", "--time", "5"});
  EXPECT_EQ(alone.status, 2) << alone;
  EXPECT_TRUE(contains(alone.err, "--time needs --dtm")) << alone;
}

// A proof larger than --certificate-memory is not written: the answer is
// still printed (the same as with room enough), the file is not there, the
// exit status is 1 and stderr says why. With room, the certificate is
// written and check-proof holds it.
TEST(CliSolve, ACertificateTooLargeIsNotWrittenButTheAnswerStands) {
  TempDir dir;
  const fs::path file = dir / "5x6.prf";
  const RunResult small = run_cli({"solve", "--rows", "5", "--cols", "6", "--no-tables", "--json",
                                   "--memory", "64M", "--certificate", file.string(),
                                   "--certificate-memory", "64K"});
  EXPECT_EQ(small.status, 1) << small;
  EXPECT_FALSE(fs::exists(file));
  EXPECT_TRUE(contains(small.err, "not written")) << small;
  const nlohmann::json cut = nlohmann::json::parse(small.out);
  EXPECT_TRUE(cut.at("certificate_error").is_string()) << cut;

  const nlohmann::json whole =
      solve_json({"--rows", "5", "--cols", "6", "--certificate", file.string()});
  EXPECT_TRUE(whole.at("certificate_error").is_null()) << whole;
  EXPECT_EQ(cut.at("winner"), whole.at("winner"));
  EXPECT_LT(cut.at("certificate_positions").get<std::uint64_t>(),
            whole.at("certificate_positions").get<std::uint64_t>());
  const RunResult check = run_cli({"check-proof", "--json", file.string()});
  ASSERT_EQ(check.status, 0) << check;
  EXPECT_EQ(nlohmann::json::parse(check.out).at("winner"), whole.at("winner"));

  const RunResult alone =
      run_cli({"solve", "--rows", "5", "--cols", "6", "--certificate-memory", "1G"});
  EXPECT_EQ(alone.status, 2) << alone;
  EXPECT_TRUE(contains(alone.err, "--certificate-memory needs --certificate")) << alone;
}

// The positions still to visit, from a saved walk's header (offset 40;
// docs/search.md, "Resume"); 0 when the file is not there yet.
std::uint64_t walk_to_visit(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  unsigned char b[48];
  if (!in.read(reinterpret_cast<char*>(b), 48)) return 0;
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= std::uint64_t{b[40 + i]} << (8 * i);
  return v;
}

// The certificate's walk is saved beside the state (FILE.walk) with the
// table: killed part way through the walk (its file lists positions still
// to visit), the same command goes on from it, and its certificate passes
// check-proof. With a 32 KiB table the walk searches again most of what it
// lists, for several seconds (10 s of its 13.5 on a loaded 2-core machine),
// long enough to be caught part way. A damaged walk is refused by
// name.
TEST(CliSolve, TheCertificatesWalkResumesAfterAKill) {
  TempDir dir;
  const fs::path state = dir / "6x6.state", walk = dir / "6x6.state.walk",
                 proof = dir / "6x6.prf";
  const std::vector<std::string> args{
      "solve",    "--rows",         "6",  "--cols",        "6",           "--no-tables",
      "--memory", "32K",            "--threads", "1",     "--resume",    state.string(),
      "--save-every", "1",          "--certificate", proof.string(), "--json"};
  const KillEnd end = kill_when_ready(args, dir.path(), [&] { return walk_to_visit(walk) > 0; });
  ASSERT_EQ(end, KillEnd::killed) << "the walk ended before it was killed: "
                                  << read_file(dir / "err.txt");
  const RunResult resumed = run_cli(args);
  ASSERT_EQ(resumed.status, 0) << resumed;
  const nlohmann::json part = nlohmann::json::parse(resumed.out);
  EXPECT_TRUE(part.at("resumed").get<bool>());
  EXPECT_EQ(walk_to_visit(walk), 0u);  // kept, done: a kill after this walks no more
  const RunResult check = run_cli({"check-proof", "--json", proof.string()});
  ASSERT_EQ(check.status, 0) << check;
  const nlohmann::json checked = nlohmann::json::parse(check.out);
  EXPECT_EQ(checked.at("winner"), part.at("winner"));
  EXPECT_EQ(checked.at("entries"), part.at("certificate_positions"));

  std::string bytes = read_file(walk);
  bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 1);
  std::ofstream(walk, std::ios::binary | std::ios::trunc) << bytes;
  const RunResult damaged = run_cli(args);
  EXPECT_EQ(damaged.status, 2) << damaged;
  EXPECT_TRUE(contains(damaged.err, walk.string() + ": not a saved walk")) << damaged;
}

// The byte of a saved distance (FILE.distance) that says an upper bound was
// found (docs/search.md, "Resume"); false when the file is not there yet.
bool distance_upper_found(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  char b[48];
  return in.read(b, 48) && b[33] == 1;
}

// The distance's bounds are saved beside the state (FILE.distance) each time
// they narrow: killed after its first question, the same command asks only
// what is left and gives the value that an uninterrupted run gives; run once
// more, it searches no further. A damaged file is refused by name. With a
// 32 KiB table the distance of 5x6 asks several questions for seconds.
TEST(CliSolve, TheDistanceResumesAfterAKill) {
  TempDir dir;
  const fs::path state = dir / "5x6.state", distance = dir / "5x6.state.distance";
  const std::vector<std::string> args{
      "solve",    "--rows",  "5",         "--cols", "6",        "--no-tables",
      "--memory", "32K",     "--threads", "1",      "--resume", state.string(),
      "--dtm",    "--json"};
  const KillEnd end =
      kill_when_ready(args, dir.path(), [&] { return distance_upper_found(distance); });
  ASSERT_EQ(end, KillEnd::killed) << "the distance ended before it was killed: "
                                  << read_file(dir / "err.txt");
  const RunResult resumed = run_cli(args);
  ASSERT_EQ(resumed.status, 0) << resumed;
  const nlohmann::json part = nlohmann::json::parse(resumed.out);
  const nlohmann::json fresh = solve_json({"--rows", "5", "--cols", "6", "--dtm"});
  EXPECT_EQ(part.at("plies"), fresh.at("plies")) << part;
  EXPECT_EQ(part.at("plies_lower"), fresh.at("plies_lower"));

  const RunResult again = run_cli(args);  // the exact value is saved: no question left
  ASSERT_EQ(again.status, 0) << again;
  const nlohmann::json done = nlohmann::json::parse(again.out);
  EXPECT_EQ(done.at("plies"), fresh.at("plies"));
  EXPECT_EQ(done.at("distance_nodes"), part.at("distance_nodes"));

  std::string bytes = read_file(distance);
  bytes[34] = static_cast<char>(bytes[34] ^ 1);  // the lower bound
  std::ofstream(distance, std::ios::binary | std::ios::trunc) << bytes;
  const RunResult damaged = run_cli(args);
  EXPECT_EQ(damaged.status, 2) << damaged;
  EXPECT_TRUE(contains(damaged.err, distance.string() + ": not the saved distance")) << damaged;
}

// --time counts the distance's seconds in all: FILE.distance keeps those of
// each part, and a run whose time the parts before have spent asks nothing
// more. 6x6's distance with a 32 KiB table takes far more than a second.
TEST(CliSolve, TheDistanceTimeCountsThePartsBefore) {
  TempDir dir;
  const fs::path state = dir / "6x6.state", distance = dir / "6x6.state.distance";
  const std::vector<std::string> args{
      "solve",     "--rows",   "6",       "--cols", "6",      "--no-tables", "--memory", "32K",
      "--threads", "1",        "--resume", state.string(), "--dtm", "--time", "1",     "--json"};
  const RunResult first = run_cli(args);
  ASSERT_EQ(first.status, 0) << first;
  const nlohmann::json part = nlohmann::json::parse(first.out);
  ASSERT_TRUE(part.at("plies").is_null()) << "the distance ended within its second: " << part;
  const std::string saved = read_file(distance);
  ASSERT_EQ(saved.size(), 64u);
  std::uint64_t seconds = 0;
  for (int i = 7; i >= 0; --i) seconds = seconds << 8 | static_cast<unsigned char>(saved[48 + i]);
  EXPECT_GE(seconds, 1u);

  const RunResult again = run_cli(args);
  ASSERT_EQ(again.status, 0) << again;
  const nlohmann::json spent = nlohmann::json::parse(again.out);
  EXPECT_EQ(spent.at("distance_nodes"), part.at("distance_nodes")) << spent;
  EXPECT_EQ(spent.at("plies_lower"), part.at("plies_lower"));
}

// --algorithm dfpn names the winner the default search names, on one
// thread, and says so in the JSON; an unknown algorithm is a usage error.
TEST(CliSolve, ProofNumbersAsAnAlgorithm) {
  const nlohmann::json dfs = solve_json({"--rows", "5", "--cols", "5", "--threads", "2"});
  const nlohmann::json dfpn =
      solve_json({"--rows", "5", "--cols", "5", "--threads", "2", "--algorithm", "dfpn"});
  EXPECT_EQ(dfs.at("algorithm"), "dfs");
  EXPECT_EQ(dfs.at("threads"), 2);
  EXPECT_EQ(dfs.at("numbers_bytes"), 0);
  EXPECT_EQ(dfpn.at("algorithm"), "dfpn");
  EXPECT_EQ(dfpn.at("threads"), 1) << dfpn;
  EXPECT_EQ(dfpn.at("numbers_bytes"), 32u << 20) << dfpn;  // half of the 64M table
  EXPECT_EQ(dfpn.at("winner"), dfs.at("winner"));
  const nlohmann::json seeded = solve_json({"--rows", "5", "--cols", "5", "--root-seed", "7"});
  EXPECT_EQ(seeded.at("root_seed"), 7);
  EXPECT_EQ(seeded.at("winner"), dfs.at("winner"));
  const RunResult mixed =
      run_cli({"solve", "--rows", "5", "--cols", "5", "--algorithm", "dfpn", "--root-seed", "7"});
  EXPECT_EQ(mixed.status, 2) << mixed;
  EXPECT_TRUE(contains(mixed.err, "--root-seed needs --algorithm dfs")) << mixed;
  const RunResult bad = run_cli({"solve", "--rows", "5", "--cols", "5", "--algorithm", "pns"});
  EXPECT_EQ(bad.status, 2) << bad;
  EXPECT_TRUE(contains(bad.err, "unknown algorithm 'pns' (dfs, dfpn)")) << bad;
}

}  // namespace
