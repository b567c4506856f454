#include "support/test_support.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <variant>

#include "pawntb/notation.hpp"

namespace pawntb_test {

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<std::uint8_t> read_bytes(const fs::path& path) {
  const std::string bytes = read_file(path);
  return {bytes.begin(), bytes.end()};
}

void write_file(const fs::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(out.good()) << "cannot write " << path;
}

void write_file(const fs::path& path, const std::vector<std::uint8_t>& bytes) {
  write_file(path, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

std::vector<std::uint8_t> default_table_with_blocks_1_and_3_damaged() {
  auto bytes = read_bytes(kDefaultTable);
  const auto frame_offset = [&](int block) {
    std::uint64_t offset = 0;
    for (int i = 7; i >= 0; --i) offset = offset << 8 | bytes[128 + 24 * block + i];
    return offset;
  };
  bytes[frame_offset(3) + 10] ^= 0x10;
  bytes[frame_offset(1) + 10] ^= 0x10;
  return bytes;
}

pawntb::Position parse(std::string_view text) {
  auto parsed = pawntb::parse_position(text);
  if (auto* e = std::get_if<pawntb::ParseError>(&parsed)) {
    ADD_FAILURE() << "cannot parse '" << text << "': " << e->message;
    return {};
  }
  return std::get<pawntb::Position>(parsed);
}

TempDir::TempDir() {
  std::string pattern = (fs::temp_directory_path() / "pawntb-test.XXXXXX").string();
  if (!::mkdtemp(pattern.data())) {
    ADD_FAILURE() << "mkdtemp: " << std::strerror(errno);
  }
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

}  // namespace pawntb_test
