// Tests of where pawntb::Table looks for tables: Table::search_path, find,
// find_in, open_for and default_path, with $PAWNTB_TABLE as a file and a
// directory; and of file_checksum, checksum_listing and info_fields.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "pawntb/check.hpp"
#include "pawntb/format/layout.hpp"
#include "pawntb/generator.hpp"
#include "pawntb/probe.hpp"

namespace pawntb {
namespace {

namespace fs = std::filesystem;

const fs::path kTable = fs::path(PAWNTB_SOURCE_DIR) / "data" / "4x4-k4.pawntb";
// No table of this board can be made (its index is too large), so no place
// has one; data/ holds the small boards' tables, 3x7 among them.
constexpr Geometry kMissing{8, 8};

// Runs each test in an empty scratch directory with $PAWNTB_TABLE unset, and
// puts both back afterwards.
class Locate : public ::testing::Test {
 protected:
  void SetUp() override {
    old_cwd_ = fs::current_path();
    if (const char* env = std::getenv("PAWNTB_TABLE")) old_env_ = env;
    ::unsetenv("PAWNTB_TABLE");
    dir_ = fs::temp_directory_path() /
           ("pawntb-locate-" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "-" +
            std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    fs::current_path(dir_);
  }
  void TearDown() override {
    fs::current_path(old_cwd_);
    fs::remove_all(dir_);
    if (old_env_.empty()) {
      ::unsetenv("PAWNTB_TABLE");
    } else {
      ::setenv("PAWNTB_TABLE", old_env_.c_str(), 1);
    }
  }
  // A link named name (in the scratch directory unless absolute) to the 4x4 table.
  fs::path table_named(const fs::path& name) {
    const fs::path link = dir_ / name;
    fs::create_directories(link.parent_path());
    fs::create_symlink(kTable, link);
    return link;
  }
  fs::path dir_, old_cwd_;
  std::string old_env_;
};

TEST_F(Locate, SearchPathIsEnvThenCurrentDirThenDataThenInstalledData) {
  const auto without_env = Table::search_path();
  ASSERT_EQ(without_env.size(), 3u);
  EXPECT_EQ(without_env[0], ".");
  EXPECT_EQ(without_env[1], "data");
  // The test binary is in the build tree: its data directory is the staged one.
  EXPECT_TRUE(fs::equivalent(without_env[2], fs::path(PAWNTB_BINARY_DIR) / "share" / "pawntb"))
      << without_env[2];
  EXPECT_TRUE(fs::is_regular_file(without_env[2] / "4x4-k4.pawntb"));

  ::setenv("PAWNTB_TABLE", "/some/tables", 1);
  const auto with_env = Table::search_path();
  ASSERT_EQ(with_env.size(), 4u);
  EXPECT_EQ(with_env[0], "/some/tables");
  EXPECT_EQ(std::vector(with_env.begin() + 1, with_env.end()), without_env);
}

TEST_F(Locate, FindsTheInstalledDataWhenNothingIsNearer) {
  const auto found = Table::find(Geometry{4, 4});
  ASSERT_TRUE(found);
  EXPECT_EQ(*found, Table::search_path().back() / "4x4-k4.pawntb");
  EXPECT_EQ(Table::default_path(), *found);
}

TEST_F(Locate, CurrentDirectoryComesBeforeData) {
  table_named("data/4x4-k4.pawntb");
  EXPECT_EQ(Table::find(Geometry{4, 4}), fs::path("data") / "4x4-k4.pawntb");
  table_named("4x4-k4.pawntb");
  EXPECT_EQ(Table::find(Geometry{4, 4}), fs::path(".") / "4x4-k4.pawntb");
  EXPECT_EQ(Table::default_path(), fs::path(".") / "4x4-k4.pawntb");
}

TEST_F(Locate, PrefersTheTableWithMostPawns) {
  table_named("data/4x4-k2.pawntb");
  EXPECT_EQ(Table::find(Geometry{4, 4}), fs::path("data") / "4x4-k2.pawntb");
  table_named("data/4x4-k3.pawntb");
  EXPECT_EQ(Table::find(Geometry{4, 4}), fs::path("data") / "4x4-k3.pawntb");
  // Other names and other geometries are not tables for 4x4.
  table_named("data/4x4-k4.pawntb.tmp");
  table_named("data/4x5-k4.pawntb");
  EXPECT_EQ(Table::find(Geometry{4, 4}), fs::path("data") / "4x4-k3.pawntb");
}

TEST_F(Locate, EnvDirectoryComesFirst) {
  table_named("4x4-k4.pawntb");
  const fs::path chosen = table_named("chosen/4x4-k4.pawntb");
  ::setenv("PAWNTB_TABLE", (dir_ / "chosen").c_str(), 1);
  EXPECT_EQ(Table::find(Geometry{4, 4}), chosen);
  const Table t = Table::open_for(Geometry{4, 4});
  EXPECT_EQ(t.info().path, chosen);
  EXPECT_EQ(t.info().geometry, (Geometry{4, 4}));
}

TEST_F(Locate, EnvFileIsUsedForItsGeometryOnly) {
  const fs::path file = table_named("somewhere/any-name.bin");
  ::setenv("PAWNTB_TABLE", file.c_str(), 1);
  EXPECT_EQ(Table::find(Geometry{4, 4}), file);
  EXPECT_EQ(Table::open_for(Geometry{4, 4}).info().path, file);
  // Its header says 4x4: for 8x8 the search goes on, and finds nothing.
  EXPECT_EQ(Table::find(kMissing), std::nullopt);
}

TEST_F(Locate, EnvFileOfAnotherGeometryIsTheDefaultButNotFoundFor4x4) {
  const fs::path small = dir_ / "small.pawntb";
  write_table(solve(Geometry{3, 3}, 3), small);
  table_named("4x4-k4.pawntb");
  ::setenv("PAWNTB_TABLE", small.c_str(), 1);
  EXPECT_EQ(Table::find(Geometry{3, 3}), small);
  EXPECT_EQ(Table::open_for(Geometry{3, 3}).info().geometry, (Geometry{3, 3}));
  // For 4x4 its header rules it out and the search goes on.
  EXPECT_EQ(Table::find(Geometry{4, 4}), fs::path(".") / "4x4-k4.pawntb");
  // The default table is the one $PAWNTB_TABLE names, whatever its geometry.
  EXPECT_EQ(Table::default_path(), small);
  EXPECT_EQ(Table::open_default().info().geometry, (Geometry{3, 3}));
}

TEST_F(Locate, EnvFileThatCannotBeReadIsNotSkipped) {
  const fs::path missing = dir_ / "no-such.pawntb";
  table_named("4x4-k4.pawntb");
  ::setenv("PAWNTB_TABLE", missing.c_str(), 1);
  EXPECT_EQ(Table::find(Geometry{4, 4}), missing);
  try {
    (void)Table::open_for(Geometry{4, 4});
    FAIL() << "open_for opened something";
  } catch (const TableError& e) {
    EXPECT_NE(std::string(e.what()).find(missing.string()), std::string::npos) << e.what();
  }
}

TEST_F(Locate, MissingGeometryNamesEveryPlaceLooked) {
  fs::create_directories(dir_ / "tables");  // an empty directory
  ::setenv("PAWNTB_TABLE", (dir_ / "tables").c_str(), 1);
  EXPECT_EQ(Table::find(kMissing), std::nullopt);
  try {
    (void)Table::open_for(kMissing);
    FAIL() << "open_for found a table for 8x8";
  } catch (const TableError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind("no table for 8x8 (looked in: ", 0), 0u) << message;
    for (const auto& place : Table::search_path()) {
      EXPECT_NE(message.find(place.string()), std::string::npos) << place << " in " << message;
    }
  }
}

TEST_F(Locate, InvalidGeometryHasNoTable) {
  EXPECT_EQ(Table::find(Geometry{2, 2}), std::nullopt);
  EXPECT_EQ(Table::find(Geometry{9, 4}), std::nullopt);
  EXPECT_EQ(Table::find_in(".", Geometry{2, 2}), std::nullopt);
}

TEST_F(Locate, FindInLooksInThatDirectoryOnly) {
  table_named("4x4-k4.pawntb");  // in the current directory, which find() searches
  const fs::path tables = dir_ / "tables";
  fs::create_directories(tables);
  EXPECT_EQ(Table::find_in(tables, Geometry{4, 4}), std::nullopt);
  table_named("tables/4x4-k2.pawntb");
  table_named("tables/4x4-k3.pawntb");
  table_named("tables/4x5-k4.pawntb");
  EXPECT_EQ(Table::find_in(tables, Geometry{4, 4}), tables / "4x4-k3.pawntb");
  EXPECT_EQ(Table::find_in(tables, Geometry{3, 3}), std::nullopt);
  EXPECT_EQ(Table::find_in(dir_ / "no-such-directory", Geometry{4, 4}), std::nullopt);
}

TEST_F(Locate, FileChecksumIsTheOneDataChecksumsTxtLists) {
  std::ifstream list(kTable.parent_path() / "checksums.txt");
  std::string line, listed;
  while (std::getline(list, line)) {
    if (line.size() > 18 && line.substr(18) == "4x4-k4.pawntb") listed = line.substr(0, 16);
  }
  ASSERT_EQ(listed.size(), 16u) << "data/checksums.txt has no line for 4x4-k4.pawntb";
  EXPECT_EQ(check::file_checksum(kTable), std::stoull(listed, nullptr, 16));
}

TEST_F(Locate, FileChecksumReadsInPiecesAsOneWhole) {
  // Larger than the 1 MiB pieces, and not a multiple of them.
  std::vector<std::uint8_t> bytes((std::size_t{3} << 20) + 5);
  std::mt19937_64 random(27);
  for (auto& b : bytes) b = static_cast<std::uint8_t>(random());
  const fs::path file = dir_ / "bytes.bin";
  std::ofstream(file, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
  EXPECT_EQ(check::file_checksum(file), format::checksum64(bytes));
  std::ofstream(dir_ / "empty.bin").close();
  EXPECT_EQ(check::file_checksum(dir_ / "empty.bin"), format::checksum64({}));
}

TEST_F(Locate, FileChecksumOfAFileThatCannotBeReadNamesIt) {
  for (const fs::path& bad : {dir_ / "no-such.pawntb", dir_}) {
    try {
      (void)check::file_checksum(bad);
      FAIL() << "a checksum of " << bad;
    } catch (const TableError& e) {
      EXPECT_EQ(std::string(e.what()).rfind(bad.string() + ": ", 0), 0u) << e.what();
    }
  }
}

TEST_F(Locate, ChecksumListingNextToTheTableThenOnTheSearchPath) {
  const fs::path table = table_named("tables/mine.pawntb");  // no list in data/ names it
  const std::uint64_t sum = check::file_checksum(table);
  const std::string line = "0123456789abcdef  mine.pawntb\n";
  char digits[17];
  std::snprintf(digits, sizeof digits, "%016llx", static_cast<unsigned long long>(sum));
  EXPECT_EQ(check::checksum_listing(table, sum), fs::path());
  // A list in the current directory, which is on the search path.
  std::ofstream(dir_ / "checksums.txt") << line << digits << "  mine.pawntb\n";
  EXPECT_EQ(check::checksum_listing(table, sum), fs::path(".") / "checksums.txt");
  // One next to the table comes first; a line for another checksum is no listing.
  std::ofstream(dir_ / "tables" / "checksums.txt") << digits << "  mine.pawntb\n";
  EXPECT_EQ(check::checksum_listing(table, sum), dir_ / "tables" / "checksums.txt");
  EXPECT_EQ(check::checksum_listing(table, sum ^ 1), fs::path());
  EXPECT_EQ(check::checksum_listing(table, 0x0123456789abcdefULL), fs::path(".") / "checksums.txt");
}

TEST_F(Locate, InfoFieldsAreTheHeadersFactsInInfosOrder) {
  const Table table = Table::open(kTable);
  const TableInfo& info = table.info();
  const std::vector<InfoField> fields =
      info_fields(info, 0x00ab00000000cdefULL, fs::path("somewhere") / "checksums.txt");
  std::vector<std::string> keys;
  for (const InfoField& f : fields) keys.emplace_back(f.key);
  EXPECT_EQ(keys, (std::vector<std::string>{
                      "file", "format_version", "geometry", "entries", "placements", "white_wins",
                      "longest_game_plies", "longest_game_example", "file_size", "blocks",
                      "block_entries", "header_checksum", "index_checksum", "rules_fingerprint",
                      "file_checksum", "file_checksum_listed_in"}));
  using Value = decltype(InfoField::value);
  const auto value = [&](std::string_view key) {
    for (const InfoField& f : fields) {
      if (key == f.key) return f.value;
    }
    return Value(nullptr);
  };
  EXPECT_EQ(value("file"), Value(kTable.string()));
  // One convention for the geometry: the object of probe --json and the API.
  EXPECT_EQ(value("geometry"), Value(InfoObject{{"rows", 4}, {"cols", 4}, {"max_pawns", 4}}));
  EXPECT_EQ(value("entries"), Value(info.entries));
  EXPECT_EQ(value("white_wins"), Value(info.white_wins));
  EXPECT_EQ(value("longest_game_plies"),
            Value(static_cast<std::uint64_t>(info.longest_game_plies)));
  EXPECT_EQ(value("longest_game_example"), Value(info.longest_game_example));
  EXPECT_EQ(value("blocks"), Value(std::uint64_t{info.blocks}));
  EXPECT_EQ(value("file_checksum"), Value(std::string("00ab00000000cdef")));
  EXPECT_EQ(std::get<std::string>(value("header_checksum")).size(), 16u);
  EXPECT_EQ(std::stoull(std::get<std::string>(value("header_checksum")), nullptr, 16),
            info.header_checksum);
  EXPECT_EQ(value("file_checksum_listed_in"),
            Value((fs::path("somewhere") / "checksums.txt").string()));
  EXPECT_EQ(info_fields(info, 0, {}).back().value, Value(nullptr));
}

}  // namespace
}  // namespace pawntb
