// The errors the extension raises, and the reading of position texts that
// raise them.
#include <algorithm>
#include <string>
#include <system_error>
#include <variant>
#include <vector>

#include "extension.hpp"
#include "pawntb/check.hpp"

namespace pawntb::python {

ErrorTypes errors;

void raise(py::handle type, const std::string& message) {
  PyErr_SetString(type.ptr(), message.c_str());
  throw py::error_already_set();
}

void raise_table_error(const TableError& e, bool missing) {
  raise(missing ? errors.missing_table : errors.damaged_table, e.what());
}

bool no_such_file(const fs::path& path) {
  std::error_code ec;
  return !fs::exists(path, ec);
}

std::string_view text_of(py::handle object, const char* what) {
  if (!PyUnicode_Check(object.ptr())) {
    throw py::type_error(std::string(what) + " must be a str, not " +
                         Py_TYPE(object.ptr())->tp_name);
  }
  Py_ssize_t size = 0;
  const char* data = PyUnicode_AsUTF8AndSize(object.ptr(), &size);
  if (data == nullptr) {
    PyErr_Clear();
    raise(errors.invalid_position,
          std::string(what) + " is not valid text (not encodable as UTF-8)");
  }
  return {data, static_cast<std::size_t>(size)};
}

std::string_view position_text(py::handle object, const char* what) {
  std::string_view text = text_of(object, what);
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

std::string quoted(std::string_view text) {
  return "position '" + printable(text) + "'";
}

Position parse_or_raise(std::string_view text) {
  auto parsed = parse_position(text);
  if (const auto* e = std::get_if<ParseError>(&parsed)) {
    raise(errors.invalid_position, quoted(text) + ": " + e->message);
  }
  return std::get<Position>(parsed);
}

Position parse_valid_or_raise(std::string_view text) {
  const Position p = parse_or_raise(text);
  if (classify(p) == Status::invalid) {
    raise(errors.invalid_position, quoted(text) + ": " + invalid_position_problem(p));
  }
  return p;
}

namespace {

// A probe says only that a block of a table loaded on demand is damaged,
// not which: tables up to this size are read through to name it (within a
// second or so); of a larger one, `pawntb info` names them.
constexpr std::uint64_t kNameBlocksUpTo = std::uint64_t{64} << 20;

// The damaged blocks of a table, for a message: " (block 2: checksum
// mismatch)", as open() names the first with load "all".
std::string damaged_blocks(const Table& table) {
  const TableInfo& info = table.info();
  if (info.file_size > kNameBlocksUpTo) {
    return " (`pawntb info " + info.path.string() + "` names the damaged blocks)";
  }
  std::vector<check::BlockDamage> damage;
  try {
    py::gil_scoped_release release;
    damage = check::check_blocks(table, 0);
  } catch (const std::exception&) {
    return "";  // no memory for the check: the message without the blocks
  }
  constexpr std::size_t kShown = 3;
  std::string out;
  for (std::size_t i = 0; i < std::min(damage.size(), kShown); ++i) {
    out += (i == 0 ? " (block " : "; block ") + std::to_string(damage[i].block) + ": " +
           damage[i].error;
  }
  if (damage.size() > kShown) out += "; " + std::to_string(damage.size() - kShown) + " more";
  return out.empty() ? out : out + ")";
}

}  // namespace

void raise_damaged(const Table& table) {
  // probe_problem() reads no position for a damaged table.
  raise(errors.damaged_table,
        probe_problem(table, Position{}, ProbeResult{ProbeStatus::damaged_table}) +
            damaged_blocks(table));
}

void check_value(const Table& table, const Position& p, std::string_view text, ProbeResult r) {
  switch (r.status) {
    case ProbeStatus::ok:
      return;
    case ProbeStatus::invalid_position:
    case ProbeStatus::geometry_mismatch:
    case ProbeStatus::too_many_pawns:
      raise(errors.invalid_position, quoted(text) + ": " + probe_problem(table, p, r));
    case ProbeStatus::damaged_table:
      raise_damaged(table);
  }
  raise(errors.error, quoted(text) + ": " + describe(r.status));
}

}  // namespace pawntb::python
