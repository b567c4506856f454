// $PAWNTB_TABLE set to a path where there is nothing: the table search goes
// on without it (Table::search_path), which the commands that list or serve
// every table found must say, as the others do by failing to open it.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

namespace pawntb::common {

// "$PAWNTB_TABLE is /nowhere: No such file or directory; not searched", or
// empty when it is unset or names something.
inline std::string table_env_problem() {
  const char* value = std::getenv("PAWNTB_TABLE");
  if (value == nullptr || *value == '\0') return {};
  std::error_code ec;
  if (std::filesystem::exists(value, ec)) return {};
  const std::string why =
      ec ? ec.message() : std::make_error_code(std::errc::no_such_file_or_directory).message();
  return std::string("$PAWNTB_TABLE is ") + value + ": " + why + "; not searched";
}

}  // namespace pawntb::common
