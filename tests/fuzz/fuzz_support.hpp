// Shared by the fuzz targets: the default table, opened once.
#pragma once

#include <cstdlib>

#include "pawntb/probe.hpp"

namespace pawntb_fuzz {

inline const pawntb::Table& default_table() {
  static const pawntb::Table table = pawntb::Table::open(PAWNTB_DEFAULT_TABLE);
  return table;
}

}  // namespace pawntb_fuzz
