// Where tables are found: $PAWNTB_TABLE, the current directory, data/, and
// the installed data directory, located at run time relative to the binary
// that holds this code, so that an installed prefix can be moved. This file
// is the one statement of that rule (Table::search_path() and find() in
// probe.hpp document it; the CLI's --help and pawntb.h point there).
#include <dlfcn.h>
#include <link.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <tuple>
#include <system_error>

#include "pawntb/probe.hpp"

// <prefix>/share/pawntb of the installed package a program's static
// pawntb::probe came from: defined in a source that the CMake package adds to
// the program (cmake/pawntbConfig.cmake.in), else absent (null).
extern "C" [[gnu::weak]] const char pawntb_installed_table_dir[];

namespace pawntb {

namespace fs = std::filesystem;

namespace {

// Any object of this library: dladdr() tells which file holds it.
const char kAnchor = 0;

// $PAWNTB_TABLE, or empty when it is unset or empty.
fs::path env_table() {
  const char* env = std::getenv("PAWNTB_TABLE");
  return env ? fs::path(env) : fs::path();
}

// <directory of the binary>/<path from its install directory to the data
// directory>: the shared library when this code is one (found with
// dladdr); else, in a program built against the installed static library,
// the package's directory (pawntb_installed_table_dir); else the executable
// (/proc/self/exe), as for the installed pawntb CLI. The relative paths are
// worked out by CMake from the install directories. Empty when unknown.
fs::path installed_data_dir() {
  std::error_code ec;
  Dl_info info{};
  link_map* object = nullptr;
  // The main program's link map has an empty name.
  if (::dladdr1(&kAnchor, &info, reinterpret_cast<void**>(&object), RTLD_DL_LINKMAP) != 0 &&
      object != nullptr && object->l_name != nullptr && object->l_name[0] != '\0') {
    const fs::path library = fs::weakly_canonical(object->l_name, ec);
    if (!ec) return (library.parent_path() / PAWNTB_LIBDIR_TO_DATADIR).lexically_normal();
  }
  if (pawntb_installed_table_dir != nullptr) return fs::path(pawntb_installed_table_dir);
  const fs::path executable = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  return (executable.parent_path() / PAWNTB_BINDIR_TO_DATADIR).lexically_normal();
}

// False only for a readable table of another geometry.
bool may_hold(const fs::path& file, Geometry g) {
  try {
    return Table::open(file, Table::Load::on_demand).info().geometry == g;
  } catch (const TableError&) {
    return true;
  }
}

// " (looked in: ., data)": the places a search went through, for no_table_for().
std::string looked_in(const std::vector<fs::path>& places) {
  std::string out;
  for (const auto& place : places) {
    if (!place.empty()) out += (out.empty() ? "" : ", ") + place.string();
  }
  return " (looked in: " + out + ")";
}

fs::path find_or_throw(Geometry g) {
  if (auto found = Table::find(g)) return *std::move(found);
  throw TableError(no_table_for(g, looked_in(Table::search_path())));
}

}  // namespace

std::string no_table_for(Geometry g, std::string_view where) {
  return "no table for " + to_string(g) + std::string(where);
}

Table Table::open_for(Geometry g, const std::vector<fs::path>& directories, Load load) {
  for (const fs::path& directory : directories) {
    if (directory.empty()) continue;
    if (auto file = find_in(directory, g)) return open(*file, load);
  }
  throw TableError(no_table_for(g, looked_in(directories)));
}

std::vector<fs::path> Table::search_path() {
  // The binary does not move while it runs.
  static const fs::path installed = installed_data_dir();
  std::vector<fs::path> places;
  if (fs::path env = env_table(); !env.empty()) places.push_back(std::move(env));
  places.emplace_back(".");
  places.emplace_back("data");
  if (!installed.empty()) places.push_back(installed);
  return places;
}

std::optional<fs::path> Table::find(Geometry g) {
  if (!g.valid()) return std::nullopt;
  const fs::path env = env_table();
  for (const auto& place : search_path()) {
    std::error_code ec;
    if (fs::is_directory(place, ec)) {
      if (auto file = find_in(place, g)) return file;
    } else if (place == env && may_hold(place, g)) {
      return place;
    }
  }
  return std::nullopt;
}

std::optional<fs::path> Table::find_in(const fs::path& directory, Geometry g) {
  if (!g.valid()) return std::nullopt;
  for (int k = g.cols; k >= 1; --k) {
    fs::path file = directory / (to_string(g) + "-k" + std::to_string(k) + ".pawntb");
    std::error_code ec;
    if (fs::is_regular_file(file, ec)) return file;
  }
  return std::nullopt;
}

std::vector<fs::path> Table::find_all() {
  std::vector<fs::path> files;
  std::vector<fs::path> searched;  // each directory once, however it is named
  const fs::path env = env_table();
  for (const auto& place : search_path()) {
    std::error_code ec;
    if (!fs::is_directory(place, ec)) {
      if (place == env && fs::exists(place, ec)) files.push_back(place);
      continue;
    }
    const fs::path canonical = fs::canonical(place, ec);
    if (ec || std::find(searched.begin(), searched.end(), canonical) != searched.end()) continue;
    searched.push_back(canonical);
    // (rows, cols, -K, path) of each file with a table's name.
    std::vector<std::tuple<int, int, int, fs::path>> named;
    for (const fs::directory_entry& e : fs::directory_iterator(place, ec)) {
      const std::string name = e.path().filename().string();
      int rows = 0, cols = 0, k = 0;
      char tail = 0;
      // "3x3-k3.pawntb": exactly what find_in() would build for it.
      if (std::sscanf(name.c_str(), "%1dx%1d-k%1d.pawntb%c", &rows, &cols, &k, &tail) != 3) continue;
      const Geometry g{rows, cols};
      if (!g.valid() || k < 1 || k > cols ||
          name != to_string(g) + "-k" + std::to_string(k) + ".pawntb" || !e.is_regular_file(ec)) {
        continue;
      }
      named.emplace_back(rows, cols, -k, e.path());
    }
    std::sort(named.begin(), named.end());
    for (auto& entry : named) files.push_back(std::move(std::get<3>(entry)));
  }
  return files;
}

Table Table::open_for(Geometry g, Load load, unsigned threads, std::uint64_t cache_bytes) {
  return open(find_or_throw(g), load, threads, cache_bytes);
}

fs::path Table::default_path() {
  // An explicit $PAWNTB_TABLE file is used or refused, never skipped.
  std::error_code ec;
  if (fs::path env = env_table(); !env.empty() && !fs::is_directory(env, ec)) return env;
  return find_or_throw(Geometry{4, 4});
}

}  // namespace pawntb
