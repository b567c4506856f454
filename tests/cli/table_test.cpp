// Tests of the table lookup and of `pawntb info` and `pawntb verify`, run as a
// subprocess, on good, damaged and foreign files.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cli/command_support.hpp"
#include "pawntb/check.hpp"
#include "pawntb/probe.hpp"
#include "support/cli_support.hpp"

namespace {

using namespace pawntb_test;
using nlohmann::json;

// ---------------------------------------------------------------------------
// Tables: lookup, info, verify, damage.

TEST(CliTable, DefaultTableIsFoundWithoutTheEnvironment) {
  RunOptions options;
  options.table_env = std::nullopt;
  options.cwd = fs::temp_directory_path();  // not the source tree
  const RunResult r = run_cli({"probe", "--json", kStart}, options);
  ASSERT_EQ(r.status, 0) << r;
  const std::vector<json> answers = json_lines(r.out);
  ASSERT_EQ(answers.size(), 1u);
  EXPECT_EQ(answers[0]["plies"], 7);
  const RunResult i = run_cli({"info"}, options);
  EXPECT_EQ(i.status, 0) << i;
  EXPECT_TRUE(contains(i.out, "4x4")) << i;
}

TEST(CliTable, InfoAndVerifyTheDefaultTable) {
  const RunResult i = run_cli({"info"});
  EXPECT_EQ(i.status, 0) << i;
  EXPECT_TRUE(contains(i.out, kDefaultTable.string())) << i;
  EXPECT_TRUE(contains(i.out, "4x4, up to 4 pawns a side")) << i;
  EXPECT_TRUE(contains(i.out, "longest game:      13 plies")) << i;

  const RunResult v = run_cli({"verify"});
  EXPECT_EQ(v.status, 0) << v;
  EXPECT_TRUE(contains(v.out, ": ok,")) << v;

  const RunResult explicit_path = run_cli({"verify", kDefaultTable.string()});
  EXPECT_EQ(explicit_path.status, 0) << explicit_path;
}

TEST(CliTable, InfoAndVerifyTakeTheTableOption) {
  RunOptions no_env;
  no_env.table_env = std::nullopt;
  for (const char* command : {"info", "verify"}) {
    for (const char* flag : {"--table", "-t"}) {
      const RunResult r = run_cli({command, flag, kDefaultTable.string()}, no_env);
      EXPECT_EQ(r.status, 0) << r;
      EXPECT_TRUE(contains(r.out, kDefaultTable.string())) << r;
    }
    const RunResult missing = run_cli({command, "--table", "/nonexistent/t.pawntb"});
    EXPECT_EQ(missing.status, 1) << missing;
    EXPECT_TRUE(contains(missing.err, "/nonexistent/t.pawntb")) << missing;
    // The table once only: as the option or as the operand.
    const RunResult twice =
        run_cli({command, "--table", kDefaultTable.string(), kDefaultTable.string()});
    EXPECT_EQ(twice.status, 2) << twice;
    EXPECT_TRUE(contains(twice.err, "give the table once")) << twice;
  }
}

// A copy of the default table with one byte of its last block flipped: the
// header and block index are intact.
fs::path damaged_copy(const TempDir& dir) {
  std::string bytes = read_file(kDefaultTable);
  bytes.back() = static_cast<char>(bytes.back() ^ 0x10);
  const fs::path copy = dir / "damaged.pawntb";
  write_file(copy, bytes);
  return copy;
}

// info prints the header of a table with a damaged block, then the error.
TEST(CliTable, InfoShowsTheHeaderThenTheDamage) {
  TempDir dir;
  const fs::path copy = damaged_copy(dir);
  const RunResult good = run_cli({"info", kDefaultTable.string()});
  ASSERT_EQ(good.status, 0) << good;
  EXPECT_TRUE(contains(good.out, "blocks checked:    every block's checksum is right\n")) << good;
  const RunResult r = run_cli({"info", copy.string()});
  EXPECT_EQ(r.status, 1) << r;
  EXPECT_TRUE(contains(r.out, "file:              " + copy.string() + "\n")) << r;
  EXPECT_TRUE(contains(r.out, "geometry:          4x4, up to 4 pawns a side\n")) << r;
  EXPECT_TRUE(contains(r.out, "file checksum:")) << r;
  EXPECT_FALSE(contains(r.out, "blocks checked")) << r;
  EXPECT_EQ(lines_of(r.err).size(), 1u) << r;
  EXPECT_EQ(r.err.rfind("pawntb info: " + copy.string() + ": block ", 0), 0u) << r;
  // The header lines are those of the intact table, but for the file's name
  // and checksum.
  const std::vector<std::string> damaged_lines = lines_of(r.out), good_lines = lines_of(good.out);
  ASSERT_EQ(damaged_lines.size() + 1, good_lines.size()) << r;
  for (std::size_t i = 1; i + 1 < damaged_lines.size(); ++i) {
    EXPECT_EQ(damaged_lines[i], good_lines[i]);
  }
  const RunResult j = run_cli({"info", "--json", copy.string()});
  EXPECT_EQ(j.status, 1) << j;
  ASSERT_EQ(json_lines(j.out).size(), 1u) << j;
  EXPECT_EQ(json_lines(j.out)[0]["entries"], 281328) << j;
  EXPECT_TRUE(contains(j.err, "block ")) << j;
}

// info checks the blocks one at a time, keeping none: checking a 6x4 table
// (20 million entries) takes much less memory over checking the 3x3 one than
// holding the table would (a byte per entry, about 19,750 KiB). Not under
// the sanitizers, whose allocator keeps what is freed (kNoMemoryBound).
TEST(CliTable, InfoChecksBlocksWithoutHoldingTheTable) {
  TempDir dir;
  const fs::path big = dir / "6x4-k4.pawntb", small = dir / "3x3-k3.pawntb";
  ASSERT_EQ(run_cli({"generate", "--rows", "6", "--cols", "4", "-o", big.string()}).status, 0);
  ASSERT_EQ(run_cli({"generate", "--rows", "3", "--cols", "3", "-o", small.string()}).status, 0);
  const RunResult b = run_cli({"info", big.string()}), s = run_cli({"info", small.string()});
  ASSERT_EQ(b.status, 0) << b;
  ASSERT_EQ(s.status, 0) << s;
  EXPECT_TRUE(contains(b.out, "blocks checked:    every block's checksum is right\n")) << b;
  if (kSanitized) GTEST_SKIP() << kNoMemoryBound;
  EXPECT_LT(b.peak_rss_kib - s.peak_rss_kib, 19750 * 3 / 4)
      << b.peak_rss_kib << " against " << s.peak_rss_kib;
}

// info --json: the header and counts as one object, keys in the documented
// order, the same facts as the text.
TEST(CliTable, InfoJsonIsOneObjectInAFixedOrder) {
  const RunResult r = run_cli({"info", "--json", kDefaultTable.string()});
  ASSERT_EQ(r.status, 0) << r;
  EXPECT_EQ(r.err, "") << r;
  const std::vector<json> objects = json_lines(r.out);
  ASSERT_EQ(objects.size(), 1u) << r;
  const nlohmann::ordered_json info = nlohmann::ordered_json::parse(lines_of(r.out).at(0));
  std::vector<std::string> keys;
  for (const auto& item : info.items()) keys.push_back(item.key());
  const std::vector<std::string> expected = {"file",
                                             "format_version",
                                             "geometry",
                                             "entries",
                                             "placements",
                                             "white_wins",
                                             "longest_game_plies",
                                             "longest_game_example",
                                             "file_size",
                                             "blocks",
                                             "block_entries",
                                             "header_checksum",
                                             "index_checksum",
                                             "rules_fingerprint",
                                             "file_checksum",
                                             "file_checksum_listed_in"};
  EXPECT_EQ(keys, expected);
  const RunResult help = run_cli({"info", "--help"});
  std::string documented;
  for (const std::string& key : expected) {
    const std::size_t at = help.out.find(key, documented.empty() ? 0 : help.out.find(documented));
    EXPECT_NE(at, std::string::npos) << key << " is not documented in order\n" << help;
    documented = key;
  }
  // The same facts as the text, which this test does not compute again.
  const RunResult text = run_cli({"info", kDefaultTable.string()});
  EXPECT_EQ(info["file"], kDefaultTable.string());
  // The geometry as probe --json and the API give it.
  EXPECT_EQ(info["geometry"],
            nlohmann::ordered_json::parse(R"({"rows":4,"cols":4,"max_pawns":4})"));
  EXPECT_EQ(info["longest_game_plies"], 13);
  EXPECT_TRUE(contains(text.out, "entries:           281,328 ")) << text;
  EXPECT_EQ(info["entries"], 281328);
  EXPECT_EQ(info["file_size"], fs::file_size(kDefaultTable));
  EXPECT_TRUE(contains(text.out, info["file_checksum"].get<std::string>())) << text;
  EXPECT_TRUE(contains(text.out, info["header_checksum"].get<std::string>())) << text;
  EXPECT_EQ(info["file_checksum"], "46d61cf37f9b4956");  // data/checksums.txt, by hand
  EXPECT_EQ(info["file_checksum_listed_in"], (kDataDir / "checksums.txt").string());
}

// "as in .../checksums.txt" only where a checksums.txt lists the file's name
// with its checksum: next to the table, or in a directory of the search path.
TEST(CliTable, ChecksumIsListedOnlyWhenItIs) {
  TempDir dir, elsewhere;
  RunOptions options;
  options.table_env = std::nullopt;
  options.cwd = elsewhere.path();
  const fs::path copy = dir / "copy.pawntb";
  fs::copy_file(kDefaultTable, copy);
  const RunResult unlisted = run_cli({"info", copy.string()}, options);
  ASSERT_EQ(unlisted.status, 0) << unlisted;
  EXPECT_TRUE(contains(unlisted.out,
                       "46d61cf37f9b4956 (XXH3-64 of the whole file, not listed in "
                       "a checksums.txt)\n"))
      << unlisted;
  EXPECT_FALSE(contains(unlisted.out, "as in")) << unlisted;

  write_file(dir / "checksums.txt", "# ours\n0123456789abcdef  copy.pawntb\n");  // wrong sum
  const RunResult wrong = run_cli({"info", copy.string()}, options);
  EXPECT_TRUE(contains(wrong.out, "not listed")) << wrong;

  write_file(dir / "checksums.txt", "# ours\n46d61cf37f9b4956  copy.pawntb\n");
  const RunResult next_to_it = run_cli({"info", copy.string()}, options);
  EXPECT_TRUE(contains(next_to_it.out, "(XXH3-64 of the whole file, as in " +
                                           (dir / "checksums.txt").string() + ")\n"))
      << next_to_it;
  const RunResult as_json = run_cli({"info", "--json", copy.string()}, options);
  ASSERT_EQ(json_lines(as_json.out).size(), 1u) << as_json;
  EXPECT_EQ(json_lines(as_json.out)[0]["file_checksum_listed_in"],
            (dir / "checksums.txt").string());

  // A checksums.txt in a directory of the search path ($PAWNTB_TABLE here).
  TempDir listing;
  write_file(listing / "checksums.txt", "46d61cf37f9b4956  other.pawntb\n");
  fs::copy_file(kDefaultTable, elsewhere / "other.pawntb");
  RunOptions env = options;
  env.table_env = listing.path().string();
  const RunResult on_path = run_cli({"info", (elsewhere / "other.pawntb").string()}, env);
  EXPECT_TRUE(contains(on_path.out, "as in " + (listing / "checksums.txt").string())) << on_path;
}

// verify reports every damaged block, not only the first (blocks 1 and 3
// here).
TEST(CliTable, VerifyReportsEveryDamagedBlock) {
  TempDir dir;
  const fs::path copy = dir / "two.pawntb";
  write_file(copy, default_table_with_blocks_1_and_3_damaged());
  const RunResult r = run_cli({"verify", copy.string()});
  EXPECT_EQ(r.status, 1) << r;
  EXPECT_EQ(r.out, "") << r;
  const std::vector<std::string> lines = lines_of(r.err);
  ASSERT_GE(lines.size(), 3u) << r;
  EXPECT_EQ(lines[0], "pawntb verify: " + copy.string() + ": block 1: checksum mismatch") << r;
  EXPECT_EQ(lines[1], "pawntb verify: " + copy.string() + ": block 3: checksum mismatch") << r;
  EXPECT_EQ(lines.back(), "pawntb verify: " + copy.string() +
                              ": 2 blocks of 5 damaged; their positions were "
                              "not checked")
      << r;
}

// A --memory below one decoded block is refused, naming the minimum (the
// table would keep a block whatever it said).
TEST(CliTable, VerifyRefusesMemoryBelowOneBlock) {
  const RunResult r = run_cli({"verify", "--memory", "1", kDefaultTable.string()});
  EXPECT_EQ(r.status, 2) << r;
  EXPECT_EQ(r.out, "") << r;
  EXPECT_EQ(r.err, "pawntb verify: --memory 1 is below the minimum for " + kDefaultTable.string() +
                       ", 64K (a decoded block)\n")
      << r;
  EXPECT_EQ(run_cli({"verify", "--memory", "64K", kDefaultTable.string()}).status, 0);
}

// verify --resume FILE keeps the check's progress in FILE; run again, it
// carries on from there (here: from the end, so it checks nothing more and
// says the same). A FILE that is not a state, or is another table's, is a
// usage error naming it.
TEST(CliTable, VerifyResumesFromItsStateFile) {
  TempDir dir;
  const fs::path state = dir / "verify.json";
  const RunResult first = run_cli({"verify", "--resume", state.string(), kDefaultTable.string()});
  ASSERT_EQ(first.status, 0) << first;
  const json saved = json::parse(read_file(state));
  EXPECT_EQ(saved.at("entries_done"), pawntb::Table::open(kDefaultTable).info().entries);
  EXPECT_EQ(saved.at("checked"), saved.at("entries_done"));
  EXPECT_EQ(saved.at("mismatches"), 0);
  const RunResult again = run_cli({"verify", "--resume", state.string(), kDefaultTable.string()});
  ASSERT_EQ(again.status, 0) << again;
  EXPECT_EQ(again.out, first.out);
  EXPECT_TRUE(contains(again.err, "resuming from " + state.string() + ": 281,328 of 281,328"))
      << again;

  const fs::path other = dir / "other.json";
  const fs::path table_3x3 = kDefaultTable.parent_path() / "3x3-k3.pawntb";
  ASSERT_EQ(run_cli({"verify", "--resume", other.string(), table_3x3.string()}).status, 0);
  const RunResult foreign = run_cli({"verify", "--resume", other.string(), kDefaultTable.string()});
  EXPECT_EQ(foreign.status, 2) << foreign;
  EXPECT_TRUE(contains(foreign.err, other.string() + ": the verify state of another table"))
      << foreign;

  write_file(state, "{\"pawntb_verify_state\": 1, \"table\": ");
  const RunResult junk = run_cli({"verify", "--resume", state.string(), kDefaultTable.string()});
  EXPECT_EQ(junk.status, 2) << junk;
  EXPECT_TRUE(contains(junk.err, state.string() + ": not a pawntb verify state")) << junk;
  EXPECT_EQ(junk.out, "") << junk;
}

// verify: results on stdout, nothing on stderr when all is well.
TEST(CliTable, VerifyResultsGoToStdout) {
  const RunResult r = run_cli({"verify", kDefaultTable.string()});
  ASSERT_EQ(r.status, 0) << r;
  EXPECT_EQ(r.err, "") << r;
  const std::vector<std::string> lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 2u) << r;
  EXPECT_EQ(lines[0], kDefaultTable.string() + ": header, block index and all block checksums ok");
  EXPECT_EQ(lines[1],
            kDefaultTable.string() + ": ok, 281,328 positions agree with their successors");
}

// verify --plan says what memory checks every tier whole, without checking;
// the --memory it advises does, and with less a check says so on stderr
// before it goes on in pieces.
TEST(CliTable, VerifyPlanAdvisesTheMemoryThatChecksEveryTierWhole) {
  const std::string table = kDefaultTable.string();
  const RunResult tight = run_cli({"verify", "--plan", "--memory", "64K", table});
  ASSERT_EQ(tight.status, 0) << tight;
  EXPECT_EQ(tight.err, "") << tight;
  EXPECT_FALSE(contains(tight.out, ": ok,")) << "--plan does not check";
  EXPECT_TRUE(contains(tight.out, "are checked in pieces")) << tight;
  const std::size_t at = tight.out.find("; --memory ");
  ASSERT_NE(at, std::string::npos) << tight;
  const std::string advised =
      tight.out.substr(at + 11, tight.out.find(' ', at + 11) - (at + 11));  // e.g. "192K"
  ASSERT_TRUE(!advised.empty() && advised.back() == 'K') << tight;

  const RunResult roomy = run_cli({"verify", "--plan", "--memory", advised, table});
  ASSERT_EQ(roomy.status, 0) << roomy;
  EXPECT_TRUE(contains(roomy.out, "every tier fits in --memory")) << roomy;

  const RunResult in_pieces = run_cli({"verify", "--memory", "64K", table});
  ASSERT_EQ(in_pieces.status, 0) << in_pieces;
  EXPECT_TRUE(contains(in_pieces.err, "are checked in pieces")) << in_pieces;
  EXPECT_TRUE(contains(in_pieces.out, ": ok,")) << in_pieces;
}

// The helper the commands that answer positions share: --table when given,
// else the table for the board size, else advice on making one.
TEST(CliTable, OpenTableForABoardSize) {
  using pawntb::cli::open_table;
  EXPECT_EQ(open_table(kDefaultTable.string(), {3, 3}).info().geometry, (pawntb::Geometry{4, 4}))
      << "--table is used as given";
  EXPECT_EQ(open_table("", {4, 4}).info().geometry, (pawntb::Geometry{4, 4}));
  // No 5x7 table anywhere on the search path.
  try {
    open_table("", {5, 7});
    ADD_FAILURE() << "opened a 5x7 table";
  } catch (const pawntb::TableError& e) {
    const std::string message = e.what();
    EXPECT_TRUE(contains(message, "no table for 5x7")) << message;
    EXPECT_TRUE(contains(message, "make one with `pawntb generate --rows 5 --cols 7`")) << message;
  }
  // A table that exists but cannot be read is reported as such, no advice.
  TempDir dir;
  write_file(dir / "5x7-k7.pawntb", "not a table");
  const char* env = std::getenv("PAWNTB_TABLE");
  const std::optional<std::string> saved = env ? std::optional<std::string>(env) : std::nullopt;
  ::setenv("PAWNTB_TABLE", dir.path().c_str(), 1);
  for (const std::string& given : {std::string(), (dir / "5x7-k7.pawntb").string()}) {
    try {
      open_table(given, {5, 7});
      ADD_FAILURE() << "opened junk";
    } catch (const pawntb::TableError& e) {
      EXPECT_TRUE(contains(e.what(), (dir / "5x7-k7.pawntb").string())) << e.what();
      EXPECT_FALSE(contains(e.what(), "make one")) << e.what();
    }
  }
  if (saved) {
    ::setenv("PAWNTB_TABLE", saved->c_str(), 1);
  } else {
    ::unsetenv("PAWNTB_TABLE");
  }
}

TEST(CliTable, InfoOnAMissingFile) {
  const RunResult r = run_cli({"info", "/nonexistent"});
  EXPECT_EQ(r.status, 1) << r;
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(contains(r.err, "/nonexistent")) << r;
}

TEST(CliTable, DamagedCopiesAreRefused) {
  TempDir dir;
  const std::string original = read_file(kDefaultTable);
  ASSERT_GT(original.size(), 1000u);
  const fs::path copy = dir / "damaged.pawntb";
  const std::size_t size = original.size();
  for (const std::size_t offset :
       {std::size_t{0}, std::size_t{12}, std::size_t{100}, size / 3, size / 2, size - 1}) {
    std::string bytes = original;
    bytes[offset] = static_cast<char>(bytes[offset] ^ 0x10);
    write_file(copy, bytes);
    const RunResult v = run_cli({"verify", copy.string()});
    EXPECT_EQ(v.status, 1) << "byte " << offset << "\n" << v;
    EXPECT_TRUE(contains(v.err, copy.string())) << "byte " << offset << "\n" << v;
  }
  // A truncated copy too, and every command refuses it.
  write_file(copy, original.substr(0, size - 100));
  for (const auto& args :
       std::vector<std::vector<std::string>>{{"verify", copy.string()},
                                             {"info", copy.string()},
                                             {"probe", "--table", copy.string(), kStart}}) {
    const RunResult r = run_cli(args);
    EXPECT_EQ(r.status, 1) << args[0] << "\n" << r;
    EXPECT_TRUE(contains(r.err, copy.string())) << r;
    EXPECT_EQ(r.out, "") << r;
  }
}

TEST(CliTable, NotATableIsRefused) {
  TempDir dir;
  const fs::path junk = dir / "junk.pawntb";
  write_file(junk, "this is not a table\n");
  const RunResult r = run_cli({"info", junk.string()});
  EXPECT_EQ(r.status, 1) << r;
  EXPECT_TRUE(contains(r.err, junk.string())) << r;
  const RunResult e = run_cli({"info", dir.path().string()});  // a directory
  EXPECT_EQ(e.status, 1) << e;
  const RunResult empty_file = [&] {
    write_file(junk, "");
    return run_cli({"verify", junk.string()});
  }();
  EXPECT_EQ(empty_file.status, 1) << empty_file;
}

// `pawntb tables` lists what the search path finds, by the rule find() uses:
// only files named RxC-kK.pawntb, most pawns first; a bad one is listed with
// its error (exit 1), a file of another name not at all.
TEST(CliTable, TablesListsWhatTheSearchPathFinds) {
  TempDir dir;
  fs::copy_file(kDataDir / "3x3-k3.pawntb", dir / "3x3-k3.pawntb");
  fs::copy_file(kDataDir / "3x3-k3.pawntb", dir / "3x3-k2.pawntb");  // K in the name, not read
  write_file(dir / "3x4-k4.pawntb", "");                             // damaged
  write_file(dir / "notes.pawntb", "");                              // not a table's name
  RunOptions options;
  options.cwd = dir.path();
  options.table_env = dir.path().string();
  const RunResult r = run_cli({"tables", "--json"}, options);
  EXPECT_EQ(r.status, 1) << r;
  const json j = json::parse(r.out);
  ASSERT_TRUE(j["search_path"].is_array()) << r;
  EXPECT_EQ(j["search_path"][0], dir.path().string());
  std::vector<std::string> paths;
  for (const json& t : j["tables"]) paths.push_back(t["path"]);
  // $PAWNTB_TABLE's directory first: 3x3 (K 3, then 2), then 3x4; the
  // current directory is the same one and is not listed again; then the
  // installed tables.
  ASSERT_GE(paths.size(), 3u) << r;
  EXPECT_EQ(paths[0], (dir / "3x3-k3.pawntb").string());
  EXPECT_EQ(paths[1], (dir / "3x3-k2.pawntb").string());
  EXPECT_EQ(paths[2], (dir / "3x4-k4.pawntb").string());
  for (const std::string& path : paths) {
    EXPECT_FALSE(contains(path, "notes")) << path;
    EXPECT_FALSE(path.starts_with("./")) << path;
  }
  const json& good = j["tables"][0];
  EXPECT_EQ(good["ok"], true);
  EXPECT_EQ(good["geometry"], json::parse(R"({"rows":3,"cols":3,"max_pawns":3})"));
  EXPECT_EQ(good["entries"], 1028);
  EXPECT_EQ(good["checksum"],
            pawntb::cli::hex(pawntb::check::file_checksum(kDataDir / "3x3-k3.pawntb")));
  const json& bad = j["tables"][2];
  EXPECT_EQ(bad["ok"], false);
  EXPECT_TRUE(contains(bad["error"].get<std::string>(), "3x4-k4.pawntb")) << bad.dump();
  EXPECT_TRUE(contains(r.err, "pawntb tables: " + (dir / "3x4-k4.pawntb").string())) << r;

  const RunResult text = run_cli({"tables"}, options);
  EXPECT_EQ(text.status, 1) << text;
  EXPECT_TRUE(contains(text.out, "  " + (dir / "3x3-k3.pawntb").string() + "\n")) << text;
  EXPECT_TRUE(contains(text.out, "  1,028  ")) << text;
  EXPECT_TRUE(contains(text.out, "  error   " + (dir / "3x4-k4.pawntb").string() + "\n")) << text;

  // Only good tables: exit 0. And `pawntb --help` lists the command.
  fs::remove(dir / "3x4-k4.pawntb");
  EXPECT_EQ(run_cli({"tables"}, options).status, 0);
  EXPECT_TRUE(contains(run_cli({"--help"}).out, "\n  tables ")) << "--help does not list tables";
}

// `ok` means a probe will not meet damage: a byte flipped in a block (whose
// header and index still open) is listed as an error naming the block.
TEST(CliTable, TablesChecksEveryBlock) {
  TempDir dir;
  std::string bytes = read_file(kDefaultTable);
  ASSERT_GT(bytes.size(), 6000u);
  bytes[6000] = static_cast<char>(bytes[6000] ^ 0xff);
  write_file(dir / "4x4-k4.pawntb", bytes);
  RunOptions options;
  options.cwd = dir.path();
  options.table_env = dir.path().string();
  const RunResult probe = run_cli({"probe", "pppp/4/4/PPPP w"}, options);
  ASSERT_EQ(probe.status, 1) << "the flipped byte is not in a block a probe reads\n" << probe;
  const RunResult r = run_cli({"tables", "--json"}, options);
  EXPECT_EQ(r.status, 1) << r;
  const json j = json::parse(r.out);
  ASSERT_FALSE(j["tables"].empty()) << r;
  EXPECT_EQ(j["tables"][0]["path"], (dir / "4x4-k4.pawntb").string());
  EXPECT_EQ(j["tables"][0]["ok"], false) << r;
  EXPECT_TRUE(contains(j["tables"][0].value("error", ""), ": block 2: checksum mismatch")) << r;
  const RunResult text = run_cli({"tables"}, options);
  EXPECT_TRUE(contains(text.out, "  error   " + (dir / "4x4-k4.pawntb").string() + "\n")) << text;
}

// A $PAWNTB_TABLE that names nothing is not passed over in silence.
TEST(CliTable, TablesSaysWhenPawntbTableNamesNothing) {
  TempDir dir;
  RunOptions options;
  options.cwd = dir.path();
  options.table_env = (dir / "nowhere").string();
  const RunResult r = run_cli({"tables"}, options);
  EXPECT_EQ(r.status, 1) << r;
  EXPECT_TRUE(contains(r.err, "pawntb tables: $PAWNTB_TABLE is " + (dir / "nowhere").string() +
                                  ": No such file or directory; not searched\n"))
      << r;
  EXPECT_TRUE(contains(r.out, "  ok  ")) << "the installed tables are listed still\n" << r;
}

// The text view keeps its columns whatever the paths' lengths: the path comes
// last, whole, and every row's fields start where the header's do.
TEST(CliTable, TablesTextKeepsItsColumnsWithLongPaths) {
  TempDir top;
  const fs::path dir = top / (std::string(70, 'd') + "/" + std::string(40, 'e'));
  fs::create_directories(dir);
  fs::copy_file(kDataDir / "3x3-k3.pawntb", dir / "3x3-k3.pawntb");
  write_file(dir / "3x4-k4.pawntb", "");  // damaged
  RunOptions options;
  options.cwd = top.path();
  options.table_env = dir.string();
  const RunResult r = run_cli({"tables"}, options);
  EXPECT_EQ(r.status, 1) << r;
  const std::vector<std::string> lines = lines_of(r.out);
  ASSERT_GE(lines.size(), 3u) << r;
  const std::string& header = lines[0];
  const std::size_t path_at = header.find("path");
  ASSERT_EQ(path_at, header.size() - 4) << "the path is not the last column: " << header;
  const std::vector<std::pair<std::string, std::string>> rows = {
      {(dir / "3x3-k3.pawntb").string(), "ok"}, {(dir / "3x4-k4.pawntb").string(), "error"}};
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::string& line = lines[i + 1];
    const auto& [path, status] = rows[i];
    EXPECT_EQ(line.substr(std::min(path_at, line.size())), path) << r;
    EXPECT_EQ(line.find(status, header.find("status")), header.find("status")) << r;
    EXPECT_EQ(line.find_first_not_of(' ', header.find("board")), header.find("board")) << r;
  }
  EXPECT_EQ(lines[1].find("3x3"), header.find("board")) << r;
  EXPECT_EQ(
      lines[1].find(pawntb::cli::hex(pawntb::check::file_checksum(kDataDir / "3x3-k3.pawntb"))),
      header.find("checksum"))
      << r;
}

}  // namespace
