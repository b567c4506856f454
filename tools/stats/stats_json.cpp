#include "stats/stats_json.hpp"

#include <charconv>
#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <system_error>

namespace pawntb::stats {

namespace {

using analysis::EntryRange;
using analysis::MaterialStats;
using analysis::MaterialTally;
using analysis::StatsState;

constexpr int kStateVersion = 1;  // of the --resume file's layout

// 16 hex digits, as checksums are written.
std::string hex(std::uint64_t v) {
  char digits[17];
  std::snprintf(digits, sizeof digits, "%016" PRIx64, v);
  return digits;
}

}  // namespace

nlohmann::ordered_json to_json(const TableStats& s) {
  nlohmann::ordered_json distances = nlohmann::ordered_json::array();
  for (std::size_t d = 0; d < s.distances.size(); ++d) {
    distances.push_back(
        {{"plies", d}, {"wins", s.distances[d].wins}, {"losses", s.distances[d].losses}});
  }
  nlohmann::ordered_json materials = nlohmann::ordered_json::array();
  for (const MaterialStats& m : s.materials) {
    nlohmann::ordered_json longest = nullptr;
    if (m.longest_win >= 0) {
      longest = {{"plies", m.longest_win}, {"example", m.longest_win_example}};
    }
    materials.push_back({{"white_pawns", m.white_pawns},
                         {"black_pawns", m.black_pawns},
                         {"positions", m.positions},
                         {"side_to_move_wins", m.side_to_move_wins},
                         {"longest_win", longest},
                         {"zugzwangs", m.zugzwangs},
                         {"zugzwang_examples", m.zugzwang_examples}});
  }
  // The geometry as every JSON answer of pawntb gives it.
  return {{"geometry",
           {{"rows", s.geometry.rows}, {"cols", s.geometry.cols}, {"max_pawns", s.max_pawns}}},
          {"positions", s.positions},
          {"side_to_move_wins", s.side_to_move_wins},
          {"zugzwangs", s.zugzwangs},
          {"distances", std::move(distances)},
          {"materials", std::move(materials)}};
}

nlohmann::ordered_json state_json(const StatsState& s, const TableInfo& info) {
  nlohmann::ordered_json done = nlohmann::ordered_json::array();
  for (const EntryRange& r : s.done) done.push_back({r.first, r.end});
  nlohmann::ordered_json materials = nlohmann::ordered_json::array();
  for (std::size_t k = 0; k < s.materials.size(); ++k) {
    const MaterialTally& m = s.materials[k];
    if (m.positions == 0 && m.zugzwangs == 0 && m.longest_win < 0) continue;
    materials.push_back({{"white_pawns", k / StatsState::kSide},
                         {"black_pawns", k % StatsState::kSide},
                         {"positions", m.positions},
                         {"wins", m.wins},
                         {"zugzwangs", m.zugzwangs},
                         {"longest_win", m.longest_win},
                         {"longest_index", m.longest_index},
                         {"zugzwang_first", m.zugzwang_first}});
  }
  return {{"pawntb_stats_state", kStateVersion},
          {"table", info.path.string()},
          {"header_checksum", hex(s.header_checksum)},
          {"entries", info.entries},
          {"file_size", info.file_size},
          {"zugzwang_examples", s.zugzwang_examples},
          {"entries_done", s.entries_done()},
          {"done", std::move(done)},
          {"plies", s.plies},
          {"materials", std::move(materials)}};
}

std::optional<StatsState> read_state(const std::filesystem::path& path, const TableInfo& info) {
  std::ifstream in(path);
  if (!in) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return std::nullopt;
    throw std::invalid_argument(path.string() + ": cannot read the stats state");
  }
  const auto refuse = [&](const std::string& why) {
    return std::invalid_argument(path.string() + ": " + why);
  };
  StatsState s;
  std::string table;
  std::uint64_t entries = 0, file_size = 0;
  try {
    const nlohmann::json j = nlohmann::json::parse(in);
    if (j.at("pawntb_stats_state").get<int>() != kStateVersion) {
      throw refuse("a stats state of another pawntb version");
    }
    table = j.at("table").get<std::string>();
    const std::string checksum = j.at("header_checksum").get<std::string>();
    const auto [end, error] =
        std::from_chars(checksum.data(), checksum.data() + checksum.size(), s.header_checksum, 16);
    if (error != std::errc() || end != checksum.data() + checksum.size() || checksum.size() != 16) {
      throw refuse("not a pawntb stats state (bad header_checksum)");
    }
    entries = j.at("entries").get<std::uint64_t>();
    file_size = j.at("file_size").get<std::uint64_t>();
    s.zugzwang_examples = j.at("zugzwang_examples").get<std::size_t>();
    for (const auto& r : j.at("done")) {
      s.done.push_back(EntryRange{r.at(0).get<std::uint64_t>(), r.at(1).get<std::uint64_t>()});
    }
    s.plies = j.at("plies").get<std::vector<std::uint64_t>>();
    if (!s.plies.empty()) s.materials.resize(StatsState::kSide * StatsState::kSide);
    for (const auto& m : j.at("materials")) {
      const int w = m.at("white_pawns").get<int>(), b = m.at("black_pawns").get<int>();
      if (s.plies.empty() || w < 0 || b < 0 || w >= StatsState::kSide || b >= StatsState::kSide) {
        throw refuse("not a pawntb stats state (bad material)");
      }
      MaterialTally& t = s.materials[static_cast<std::size_t>(w * StatsState::kSide + b)];
      t.positions = m.at("positions").get<std::uint64_t>();
      t.wins = m.at("wins").get<std::uint64_t>();
      t.zugzwangs = m.at("zugzwangs").get<std::uint64_t>();
      t.longest_win = m.at("longest_win").get<int>();
      t.longest_index = m.at("longest_index").get<std::uint64_t>();
      t.zugzwang_first = m.at("zugzwang_first").get<std::vector<std::uint64_t>>();
    }
  } catch (const nlohmann::json::exception& e) {
    throw refuse(std::string("not a pawntb stats state (") + e.what() + ")");
  }
  if (s.header_checksum != info.header_checksum || entries != info.entries ||
      file_size != info.file_size) {
    throw refuse("the stats state of another table (" + table + ", header checksum " +
                 hex(s.header_checksum) + "); give another --resume file");
  }
  return s;
}

}  // namespace pawntb::stats
