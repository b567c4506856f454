#include "serve/tables.hpp"

#include <algorithm>
#include <map>
#include <system_error>
#include <tuple>

#include "pawntb/check.hpp"

namespace pawntb::serve {

namespace fs = std::filesystem;

namespace {

using Key = std::tuple<int, int, int>;  // rows, cols, K

Key key_of(const TableInfo& info) {
  return {info.geometry.rows, info.geometry.cols, info.max_pawns};
}

// Opens `file` into `found` unless a table of its (rows, cols, K) is there;
// `duplicate_is_error` for files named on the command line.
void add(std::map<Key, LoadedTable>& found, const fs::path& file, bool duplicate_is_error,
         Table::Load load = Table::Load::automatic) {
  Table table = Table::open(file, load);
  const TableInfo& info = table.info();
  const auto it = found.find(key_of(info));
  if (it != found.end()) {
    if (!duplicate_is_error) return;
    throw TableError(file.string() + ": a second table for " + table_name(info) +
                     " (the first is " + it->second.table.info().path.string() + ")");
  }
  std::string name = table_name(info);
  const std::uint64_t checksum = check::file_checksum(file);
  found.emplace(key_of(info), LoadedTable{std::move(name), std::move(table), checksum});
}

std::vector<LoadedTable> in_order(std::map<Key, LoadedTable>& found) {
  std::vector<LoadedTable> out;
  for (auto& [key, table] : found) out.push_back(std::move(table));
  return out;
}

}  // namespace

std::string table_name(const TableInfo& info) {
  return to_string(info.geometry) + "-k" + std::to_string(info.max_pawns);
}

TableSet TableSet::open(const std::vector<fs::path>& files, Table::Load load) {
  std::map<Key, LoadedTable> found;
  for (const fs::path& file : files) add(found, file, true, load);
  return TableSet(in_order(found), {});
}

TableSet TableSet::open_default() {
  std::map<Key, LoadedTable> found;
  std::vector<SkippedFile> skipped;
  for (const fs::path& file : Table::find_all()) {
    try {
      add(found, file, false);
    } catch (const TableError& e) {
      skipped.push_back({file, e.what()});
    }
  }
  if (found.empty()) {
    std::string places;
    for (const fs::path& place : Table::search_path()) {
      places += (places.empty() ? "" : ", ") + place.string();
    }
    std::string why;
    for (const SkippedFile& s : skipped) why += "; " + s.error;
    throw TableError("no table to serve (looked in: " + places + ")" + why);
  }
  return TableSet(in_order(found), std::move(skipped));
}

const LoadedTable* TableSet::for_geometry(Geometry g) const {
  const LoadedTable* best = nullptr;
  for (const LoadedTable& t : tables_) {
    if (t.table.info().geometry == g) best = &t;  // in increasing K: the last is the largest
  }
  return best;
}

const LoadedTable* TableSet::named(std::string_view name) const {
  for (const LoadedTable& t : tables_) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

std::string TableSet::names() const {
  std::string out;
  for (const LoadedTable& t : tables_) out += (out.empty() ? "" : ", ") + t.name;
  return out;
}

}  // namespace pawntb::serve
