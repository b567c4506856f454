// Reader for UVa 10838 judge input: a case count, then that many boards of
// `rows` lines of `cols` squares ('P', 'p', '.'), white to move, with blank
// lines between boards. CRLF line endings are accepted.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "line_reader.hpp"
#include "pawntb/position.hpp"

namespace pawntb::cli {

struct UvaError {
  std::uint64_t line;   // 1-based line the problem was found on
  std::string message;  // what is wrong
};

// Calls on_case for each well-formed board (its first line number and the
// position) and on_error for each problem, then carries on with the next
// board. Returns the number of errors reported.
std::uint64_t read_uva(LineReader& in, Geometry g,
                       const std::function<void(std::uint64_t, const Position&)>& on_case,
                       const std::function<void(const UvaError&)>& on_error);

}  // namespace pawntb::cli
