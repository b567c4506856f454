// The published statistics documents (data/stats/RxC-kK.json, whole
// `pawntb stats --json` outputs that tools/results.py keeps) against
// themselves and their boards' records (data/answers/RxC-kK.json), with no
// table: the counts by distance and by material add up to the totals, wins
// and losses fall on the distances the rules allow, the record's summary is
// the document's, and a record with statistics has its document.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "support/test_support.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kStatsDir = pawntb_test::kDataDir / "stats";
const fs::path kRecordDir = pawntb_test::kDataDir / "answers";

// "4x4-k4" for data/answers/4x4-k4.json, nothing for the other JSON files
// there (RxC-kK.progress.json, projections.json).
std::optional<std::string> board_name(const fs::path& path) {
  const std::string stem = path.stem().string();
  if (path.extension() != ".json" || stem.find('.') != std::string::npos ||
      stem.find("-k") == std::string::npos)
    return std::nullopt;
  return stem;
}

// Every board with a record or a statistics document.
std::vector<std::string> boards() {
  std::set<std::string> names;
  for (const fs::path& dir : {kRecordDir, kStatsDir}) {
    if (!fs::is_directory(dir)) continue;
    for (const auto& entry : fs::directory_iterator(dir))
      if (const std::optional<std::string> name = board_name(entry.path())) names.insert(*name);
  }
  return {names.begin(), names.end()};
}

std::optional<json> read_json(const fs::path& path) {
  if (!fs::is_regular_file(path)) return std::nullopt;
  return json::parse(pawntb_test::read_file(path));
}

std::uint64_t count(const json& value) {
  return value.get<std::uint64_t>();
}

// Every way board `name`'s statistics document and record disagree, in
// themselves or with each other, one line each. Either may be missing.
std::vector<std::string> check_statistics(const std::string& name,
                                          const std::optional<json>& record,
                                          const std::optional<json>& document) {
  std::vector<std::string> problems;
  const bool summarized = record && record->contains("stats") && !(*record)["stats"].is_null();
  if (!document) {
    if (summarized)
      problems.push_back("the record has statistics but no data/stats/" + name + ".json");
    return problems;
  }
  const json& d = *document;
  // "4x4-k4": {"rows": 4, "cols": 4, "max_pawns": 4}
  const std::size_t x = name.find('x'), k = name.find("-k");
  const json geometry{{"rows", std::stoi(name.substr(0, x))},
                      {"cols", std::stoi(name.substr(x + 1, k - x - 1))},
                      {"max_pawns", std::stoi(name.substr(k + 2))}};
  if (d.at("geometry") != geometry)
    problems.push_back("the document is of " + d.at("geometry").dump() + ", not of " + name);
  const std::uint64_t positions = count(d.at("positions"));
  const std::uint64_t wins = count(d.at("side_to_move_wins"));
  const std::uint64_t zugzwangs = count(d.at("zugzwangs"));
  // "the distances hold 5 positions, not 6"
  auto adds_up = [&](const char* parts, const char* what, std::uint64_t sum, std::uint64_t total) {
    if (sum != total)
      problems.push_back(std::string("the ") + parts + " hold " + std::to_string(sum) + " " + what +
                         ", not " + std::to_string(total));
  };

  // By distance: 0, 1, ... in order; the side to move wins at odd distances
  // and loses at even ones (docs/stats.md).
  std::uint64_t distance_sum = 0, distance_wins = 0, longest_wins = 0;
  int plies = 0, longest = -1;
  for (const json& distance : d.at("distances")) {
    const std::uint64_t w = count(distance.at("wins")), l = count(distance.at("losses"));
    if (distance.at("plies") != plies)
      problems.push_back("distance " + std::to_string(plies) + " is listed as " +
                         distance.at("plies").dump());
    if ((plies % 2 == 0 && w != 0) || (plies % 2 == 1 && l != 0))
      problems.push_back("distance " + std::to_string(plies) + " has " +
                         (plies % 2 == 0 ? "wins" : "losses"));
    distance_sum += w + l;
    distance_wins += w;
    if (w > 0) longest = plies, longest_wins = w;
    ++plies;
  }
  adds_up("distances", "positions", distance_sum, positions);
  adds_up("distances", "wins", distance_wins, wins);

  // By material: the positions, wins and zugzwangs add up; a zugzwang is a
  // loss; the longest win over the materials is the last distance with a win.
  std::uint64_t material_sum = 0, material_wins = 0, material_zugzwangs = 0;
  int material_longest = -1;
  std::set<std::string> longest_examples;
  for (const json& material : d.at("materials")) {
    const std::string which = "material " + material.at("white_pawns").dump() + "-" +
                              material.at("black_pawns").dump() + ": ";
    const std::uint64_t p = count(material.at("positions")),
                        w = count(material.at("side_to_move_wins")),
                        z = count(material.at("zugzwangs"));
    material_sum += p;
    material_wins += w;
    material_zugzwangs += z;
    if (w > p || z > p - w)
      problems.push_back(which + "more wins or zugzwangs than positions, losses");
    if (material.at("zugzwang_examples").size() != std::min<std::uint64_t>(z, 3))
      problems.push_back(which + "the zugzwang examples are not the first up to 3");
    const json& longest_win = material.at("longest_win");
    if (longest_win.is_null() != (w == 0))
      problems.push_back(which + "a longest win without wins, or none");
    if (longest_win.is_null()) continue;
    const int material_plies = longest_win.at("plies").get<int>();
    if (material_plies > material_longest)
      material_longest = material_plies, longest_examples.clear();
    if (material_plies == material_longest) longest_examples.insert(longest_win.at("example"));
  }
  adds_up("materials", "positions", material_sum, positions);
  adds_up("materials", "wins", material_wins, wins);
  adds_up("materials", "zugzwangs", material_zugzwangs, zugzwangs);
  if (material_longest != longest)
    problems.push_back("the materials' longest win is " + std::to_string(material_longest) +
                       " plies, the distances' " + std::to_string(longest));

  // The record: its summary is the document's (tools/results.py, stats_figures);
  // the header counts white to move, half of both sides to move.
  if (!record) {
    problems.push_back("no record data/answers/" + name + ".json");
    return problems;
  }
  if (!summarized) {
    problems.push_back("the record has no statistics summary");
    return problems;
  }
  const json& s = (*record)["stats"];
  if (count(s.at("positions")) != positions || count(s.at("side_to_move_wins")) != wins ||
      count(s.at("zugzwangs")) != zugzwangs)
    problems.push_back("the record's positions, wins or zugzwangs are not the document's");
  const json& longest_win = s.at("longest_win");
  if (longest_win.at("plies") != longest || count(longest_win.at("positions")) != longest_wins ||
      longest_examples.count(longest_win.at("example").get<std::string>()) == 0)
    problems.push_back("the record's longest win is not the document's");
  const json& info = record->at("info");
  if (2 * count(info.at("entries")) != positions || 2 * count(info.at("white_wins")) != wins)
    problems.push_back("the header's entries or win count are not half the document's");
  return problems;
}

class StatsFiles : public testing::TestWithParam<std::string> {};

TEST_P(StatsFiles, AgreeWithThemselvesAndTheirRecord) {
  const std::string name = GetParam();
  for (const std::string& problem : check_statistics(name, read_json(kRecordDir / (name + ".json")),
                                                     read_json(kStatsDir / (name + ".json"))))
    ADD_FAILURE() << name << ": " << problem;
}

std::string test_name(const testing::TestParamInfo<std::string>& param) {
  std::string name = param.param;
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(Files, StatsFiles, testing::ValuesIn(boards()), test_name);

// Each kind of wrong figure, in the document or the record, is caught.
TEST(StatsFilesCheck, CatchesWrongFigures) {
  const std::string name = "4x4-k4";
  const std::optional<json> record = read_json(kRecordDir / (name + ".json"));
  const std::optional<json> document = read_json(kStatsDir / (name + ".json"));
  ASSERT_TRUE(record && document);
  ASSERT_TRUE(check_statistics(name, record, document).empty());
  // A document changed by `change`, and a record.
  auto changed = [](const std::optional<json>& original, auto change) {
    json copy = *original;
    change(copy);
    return std::optional<json>(copy);
  };
  auto plus_one = [](json& value) { value = value.get<std::uint64_t>() + 1; };
  const std::vector<std::optional<json>> wrong_documents{
      changed(document, [&](json& d) { plus_one(d["distances"][1]["wins"]); }),
      changed(document, [&](json& d) { plus_one(d["distances"][2]["losses"]); }),
      changed(document, [&](json& d) { d["distances"][1]["plies"] = 2; }),
      changed(document, [&](json& d) { plus_one(d["materials"][3]["positions"]); }),
      changed(document, [&](json& d) { plus_one(d["materials"][3]["side_to_move_wins"]); }),
      changed(document, [&](json& d) { plus_one(d["zugzwangs"]); }),
      changed(document, [&](json& d) { d["materials"].erase(d["materials"].begin()); }),
      changed(document, [&](json& d) { d["distances"].erase(d["distances"].end() - 1); }),
      changed(document, [&](json& d) { d["geometry"]["cols"] = 5; }),
      std::nullopt};
  for (const std::optional<json>& wrong : wrong_documents)
    EXPECT_FALSE(check_statistics(name, record, wrong).empty()) << (wrong ? wrong->dump() : "none");
  const std::vector<std::optional<json>> wrong_records{
      changed(record, [&](json& r) { plus_one(r["stats"]["positions"]); }),
      changed(record, [&](json& r) { plus_one(r["stats"]["zugzwangs"]); }),
      changed(record, [&](json& r) { plus_one(r["stats"]["longest_win"]["plies"]); }),
      changed(record, [&](json& r) { plus_one(r["stats"]["longest_win"]["positions"]); }),
      changed(record, [&](json& r) { r["stats"]["longest_win"]["example"] = "4/4/4/PPPP b"; }),
      changed(record, [&](json& r) { plus_one(r["info"]["white_wins"]); }),
      changed(record, [&](json& r) { r["stats"] = nullptr; }),
      std::nullopt};
  for (const std::optional<json>& wrong : wrong_records)
    EXPECT_FALSE(check_statistics(name, wrong, document).empty())
        << (wrong ? wrong->dump() : "none");
}

}  // namespace
