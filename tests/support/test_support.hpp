// Helpers shared by every test suite: the source tree's files, reading and
// writing whole files, temporary directories and parsing positions. Each
// exists once here; the suites do not keep copies.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "pawntb/position.hpp"

namespace pawntb_test {

namespace fs = std::filesystem;

inline const fs::path kSourceDir = PAWNTB_SOURCE_DIR;
inline const fs::path kDataDir = kSourceDir / "data";
inline const fs::path kDefaultTable = kDataDir / "4x4-k4.pawntb";

// Whether this build runs under the sanitizers (PAWNTB_CLI_SANITIZED). A
// bound on resident memory then measures their shadow memory, allocator and
// quarantine (a freed block stays resident) more than pawntb's: a test
// leaves such a bound out there, skipping with kNoMemoryBound, and checks it
// in the build without them (tools/test.sh runs both). Better still, a test
// checks an event instead.
inline constexpr bool kSanitized = PAWNTB_CLI_SANITIZED != 0;
inline constexpr char kNoMemoryBound[] =
    "a bound on resident memory, left out under the sanitizers: it would measure theirs";

// The whole file; empty if it cannot be read.
std::string read_file(const fs::path& path);
std::vector<std::uint8_t> read_bytes(const fs::path& path);

// Replaces the file's content; a failed write fails the test.
void write_file(const fs::path& path, std::string_view bytes);
void write_file(const fs::path& path, const std::vector<std::uint8_t>& bytes);

// The bytes of the default table with a byte changed in the zstd frames of
// blocks 1 and 3 (found from the block index: u64 little-endian offsets at
// 128 + 24 * block): opened on demand, probes that need those blocks fail.
std::vector<std::uint8_t> default_table_with_blocks_1_and_3_damaged();

// The position that `text` denotes; a parse error fails the test and gives a
// default Position.
pawntb::Position parse(std::string_view text);

// A fresh directory, removed with everything in it at destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }
  fs::path operator/(const std::string& name) const { return path_ / name; }

 private:
  fs::path path_;
};

}  // namespace pawntb_test
