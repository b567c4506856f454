#include "tables_command.hpp"

#include <boost/program_options.hpp>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "command_support.hpp"
#include "common/table_env.hpp"
#include "pawntb/check.hpp"
#include "pawntb/probe.hpp"

namespace pawntb::cli {

namespace po = boost::program_options;

namespace {

namespace fs = std::filesystem;

// A file Table::find_all() found, opened (header and block index checked),
// every block read and checked as a probe would meet it, and checksummed; or
// why not.
struct Found {
  fs::path path;
  std::optional<TableInfo> info;
  std::uint64_t checksum = 0;  // XXH3-64 of the whole file
  std::string error;
};

Found examine(const fs::path& path) {
  Found f{path, std::nullopt, 0, {}};
  try {
    const Table table = Table::open(path, Table::Load::on_demand);
    // Each block once, none kept: a table far larger than memory is checked
    // too, in about the time file_checksum() takes to read it.
    const std::vector<check::BlockDamage> damage = check::check_blocks(table, 0);
    if (!damage.empty()) {
      f.error = path.string() + ": block " + std::to_string(damage[0].block) + ": " +
                damage[0].error;
      if (damage.size() > 1) {
        f.error += " (and " + std::to_string(damage.size() - 1) + " more damaged blocks)";
      }
      return f;
    }
    f.checksum = check::file_checksum(path);
    f.info = table.info();
  } catch (const TableError& e) {
    f.error = e.what();
  }
  return f;
}

nlohmann::ordered_json to_json(const Found& f) {
  nlohmann::ordered_json j;
  j["path"] = f.path.string();
  if (!f.info) {
    j["ok"] = false;
    j["error"] = f.error;
    return j;
  }
  j["ok"] = true;
  j["geometry"] = {{"rows", f.info->geometry.rows},
                   {"cols", f.info->geometry.cols},
                   {"max_pawns", f.info->max_pawns}};
  j["entries"] = f.info->entries;
  j["checksum"] = hex(f.checksum);
  return j;
}

int run_tables(const TablesArgs& o) {
  std::vector<Found> found;
  for (const fs::path& path : Table::find_all()) found.push_back(examine(path));
  bool all_ok = true;
  for (const Found& f : found) all_ok = all_ok && f.info.has_value();
  const auto as_json = [&] {
    nlohmann::ordered_json j;
    j["search_path"] = nlohmann::ordered_json::array();
    for (const fs::path& place : Table::search_path()) j["search_path"].push_back(place.string());
    j["tables"] = nlohmann::ordered_json::array();
    for (const Found& f : found) j["tables"].push_back(to_json(f));
    return j;
  };
  const auto as_text = [&] {
    // The path last and whole, so that a long one keeps the columns.
    std::printf("%-5s  %2s  %17s  %-16s  %-6s  %s\n", "board", "K", "entries", "checksum",
                "status", "path");
    for (const Found& f : found) {
      if (f.info) {
        std::printf("%-5s  %2d  %17s  %-16s  %-6s  %s\n", to_string(f.info->geometry).c_str(),
                    f.info->max_pawns, with_commas(f.info->entries).c_str(),
                    hex(f.checksum).c_str(), "ok", f.path.c_str());
      } else {
        std::printf("%-5s  %2s  %17s  %-16s  %-6s  %s\n", "-", "-", "-", "-", "error",
                    f.path.c_str());
      }
    }
  };
  print_result(o.json, as_json, as_text);
  check_stdout();
  // So is a $PAWNTB_TABLE that names nothing.
  const std::string env_problem = common::table_env_problem();
  if (!env_problem.empty()) std::fprintf(stderr, "pawntb tables: %s\n", env_problem.c_str());
  // A file that cannot be used is a runtime failure, said on stderr too.
  for (const Found& f : found) {
    if (!f.info) std::fprintf(stderr, "pawntb tables: %s\n", f.error.c_str());
  }
  if (found.empty()) {
    std::string places;
    for (const fs::path& place : Table::search_path()) {
      places += (places.empty() ? "" : ", ") + place.string();
    }
    std::fprintf(stderr, "pawntb tables: no tables (looked in: %s)\n", places.c_str());
    return kRuntimeFailure;
  }
  return all_ok && env_problem.empty() ? kOk : kRuntimeFailure;
}

void tables_options(po::options_description& desc, TablesArgs& o) {
  desc.add_options()("json", po::bool_switch(&o.json),
                     "one JSON object: {\"search_path\": [...], \"tables\": [...]}");
}

}  // namespace

extern const Command kTables = command_entry<TablesArgs, tables_options, nullptr, run_tables>(
    "tables", "list the tables the search path finds, and check that each can be used",
    "pawntb tables [--json]",
    "Lists every table file along the search path, in the order the commands\n"
    "take them (for each board size, the first with the most pawns K is used):\n"
    "$PAWNTB_TABLE when it names a file, then in each directory the files named\n"
    "RxC-kK.pawntb. For each: its board, K, entries, checksum (XXH3-64 of the\n"
    "whole file, as data/checksums.txt lists it), whether it can be used (ok:\n"
    "its header, block index and every block's checksum pass, as probes check\n"
    "them; `pawntb verify` also checks every value), and its path, last, so\n"
    "that a long one keeps the columns.\n"
    "A file that cannot be used is listed with status error, its reason is on\n"
    "stderr, and the exit status is 1; so is a $PAWNTB_TABLE that names nothing.\n"
    "--json gives one object: \"search_path\"\n"
    "(the directories, in order) and \"tables\", each {\"path\", \"ok\": true,\n"
    "\"geometry\": {\"rows\", \"cols\", \"max_pawns\"}, \"entries\", \"checksum\"} or\n"
    "{\"path\", \"ok\": false, \"error\"}. `pawntb probe --help` shows the search\n"
    "path as it is here.",
    DefaultTable::none);

}  // namespace pawntb::cli
