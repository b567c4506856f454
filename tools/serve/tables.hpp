// The tables a server answers from: several board sizes at once, at most one
// table per (rows, cols, K). Immutable once made; any thread may read it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pawntb/probe.hpp"

namespace pawntb::serve {

struct LoadedTable {
  std::string name;        // "4x4-k4"
  Table table;             // probes are thread-safe
  std::uint64_t checksum;  // XXH3-64 of the file
};

// A file found along the search path that cannot be served.
struct SkippedFile {
  std::filesystem::path path;
  std::string error;  // TableError::what(): names the file and the check that failed
};

class TableSet {
 public:
  // Opens each file (Table::Load::automatic: a table of up to 64 Mi entries
  // is decoded, and every checksum checked, now; a larger one, such as 6x6,
  // decodes its blocks as they are probed, into the default bounded cache, and
  // a damaged block then makes the positions that need it an error answer;
  // the tests give Load::on_demand to meet one in a small table).
  // Throws TableError naming the file when one cannot be opened, or when two
  // are for the same (rows, cols, K).
  static TableSet open(const std::vector<std::filesystem::path>& files,
                       Table::Load load = Table::Load::automatic);

  // The tables Table::find_all() finds along the search path (the rule of
  // Table::find(): files named RxC-kK.pawntb), the first found for each
  // (rows, cols, K). A file that cannot be opened is skipped and kept in
  // skipped(). Throws TableError, naming the search path, when none can be
  // opened.
  static TableSet open_default();

  // In increasing (rows, cols, K).
  const std::vector<LoadedTable>& tables() const { return tables_; }

  // The table with the largest K for boards of g, or null.
  const LoadedTable* for_geometry(Geometry g) const;

  // The table called `name` ("4x4-k4"), or null.
  const LoadedTable* named(std::string_view name) const;

  // "3x3-k3, 4x4-k4": the names, for error messages.
  std::string names() const;

  // The files open_default() found and could not open, in the order found.
  const std::vector<SkippedFile>& skipped() const { return skipped_; }

 private:
  TableSet(std::vector<LoadedTable> tables, std::vector<SkippedFile> skipped)
      : tables_(std::move(tables)), skipped_(std::move(skipped)) {}
  std::vector<LoadedTable> tables_;
  std::vector<SkippedFile> skipped_;
};

// "4x4-k4": a table's name, as the file names of `pawntb generate`.
std::string table_name(const TableInfo& info);

}  // namespace pawntb::serve
