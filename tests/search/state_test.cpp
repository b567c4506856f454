// The distance's saved bounds (FILE.distance, search/src/state.cpp): what
// is saved comes back, with the seconds that --time counts, and a file of
// the first layout (PAWNDST1, no seconds) is still read.
#include "state.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "pawntb/format/layout.hpp"
#include "pawntb/position.hpp"
#include "support/test_support.hpp"

namespace {

using pawntb::search_detail::DistanceState;
using pawntb::search_detail::load_distance;
using pawntb::search_detail::save_distance;

std::vector<std::uint8_t> bytes_of(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write(const std::filesystem::path& file, const std::vector<std::uint8_t>& bytes) {
  std::ofstream(file, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

TEST(DistanceState, ComesBackWithItsSeconds) {
  pawntb_test::TempDir dir;
  const pawntb::Position root = pawntb::start_position({6, 6}, 6);
  DistanceState saved;
  saved.winner = pawntb::Side::black;
  saved.bounds = {14, 40, true};
  saved.nodes = 123456789;
  saved.seconds = 3601;
  const auto file = dir / "s.distance";
  EXPECT_EQ(save_distance(file, root, saved), 64u);
  const auto got = load_distance(file, root);
  ASSERT_TRUE(got);
  EXPECT_EQ(got->winner, pawntb::Side::black);
  EXPECT_EQ(got->bounds.lower, 14);
  EXPECT_EQ(got->bounds.upper, 40);
  EXPECT_TRUE(got->bounds.upper_found);
  EXPECT_EQ(got->nodes, 123456789u);
  EXPECT_EQ(got->seconds, 3601u);
  EXPECT_FALSE(load_distance(dir / "absent", root));
  EXPECT_THROW(load_distance(file, pawntb::start_position({6, 5}, 5)), std::invalid_argument);

  // The first layout: "PAWNDST1", the same 48 bytes without the seconds,
  // then their XXH3-64.
  std::vector<std::uint8_t> old = bytes_of(file);
  old.resize(48);
  old[7] = '1';
  const std::uint64_t sum = pawntb::format::checksum64(old);
  for (int i = 0; i < 8; ++i) old.push_back(static_cast<std::uint8_t>(sum >> (8 * i)));
  write(file, old);
  const auto first = load_distance(file, root);
  ASSERT_TRUE(first);
  EXPECT_EQ(first->bounds.lower, 14);
  EXPECT_EQ(first->nodes, 123456789u);
  EXPECT_EQ(first->seconds, 0u);

  old[7] = '3';  // no such layout
  write(file, old);
  EXPECT_THROW(load_distance(file, root), std::invalid_argument);
}

}  // namespace
