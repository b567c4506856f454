// Table: opening a table, its facts, and probing one position.
#include <optional>
#include <string>
#include <system_error>
#include <type_traits>
#include <utility>
#include <variant>

#include "extension.hpp"
#include "pawntb/check.hpp"

namespace pawntb::python {

std::uint64_t PyTable::file_checksum() {
  if (!checksum_) {
    const Table table = get();
    std::uint64_t sum = 0;
    std::optional<TableError> failed;
    {
      py::gil_scoped_release release;
      try {
        sum = pawntb::check::file_checksum(table.info().path);
      } catch (const TableError& e) {
        failed = e;
      }
    }
    if (failed) raise_table_error(*failed, no_such_file(table.info().path));
    checksum_ = sum;
  }
  return *checksum_;
}

namespace {

Table::Load load_named(std::string_view load) {
  if (load == "automatic") return Table::Load::automatic;
  if (load == "all") return Table::Load::all;
  if (load == "on_demand") return Table::Load::on_demand;
  throw py::value_error("load must be 'automatic', 'all' or 'on_demand', not '" + printable(load) +
                        "'");
}

// open() with the GIL released; its TableError is raised as a missing table
// if missing() says so afterwards, else as a damaged one.
template <class Open, class Missing>
Table open_without_gil(const Open& open, const Missing& missing) {
  std::optional<TableError> failed;
  std::optional<Table> table;
  {
    py::gil_scoped_release release;
    try {
      table.emplace(open());
    } catch (const TableError& e) {
      failed = e;
    }
  }
  if (failed) raise_table_error(*failed, missing());
  return *std::move(table);
}

}  // namespace

PyTable open_table(const std::optional<fs::path>& path, std::optional<int> rows,
                   std::optional<int> cols, std::string_view load_name) {
  if (rows.has_value() != cols.has_value()) {
    throw py::value_error("open_table(): give rows and cols together, or neither");
  }
  const Table::Load load = load_named(load_name);
  std::optional<Geometry> wanted;
  if (rows) {
    wanted = Geometry{*rows, *cols};
    if (!wanted->valid()) {
      throw py::value_error("open_table(): rows and cols must each be 3..8, with rows * cols <= " +
                            std::to_string(kMaxSquares) + ", not " + std::to_string(*rows) +
                            " and " + std::to_string(*cols));
    }
  }
  if (!path && wanted) {
    // As the pawntb command searches, and in its words (no_table_for()).
    return PyTable(open_without_gil([&] { return Table::open_for(*wanted, load); },
                                    [&] { return !Table::find(*wanted); }));
  }
  fs::path file;
  std::error_code ec;
  if (!path) {
    try {
      file = Table::default_path();
    } catch (const TableError& e) {
      raise_table_error(e, true);
    }
  } else if (fs::is_directory(*path, ec)) {
    const Geometry g = wanted.value_or(Geometry{4, 4});
    const auto found = Table::find_in(*path, g);
    if (!found) {
      raise(errors.missing_table,
            no_table_for(g, " in " + path->string() + " (no file " + to_string(g) + "-kK.pawntb)"));
    }
    file = *found;
  } else {
    file = *path;
  }
  Table table =
      open_without_gil([&] { return Table::open(file, load); }, [&] { return no_such_file(file); });
  if (wanted && table.info().geometry != *wanted) {
    raise(errors.missing_table, no_table_for(*wanted, ": " + file.string() + " is a table for " +
                                                          to_string(table.info().geometry)));
  }
  return PyTable(std::move(table));
}

py::dict info_of(PyTable& self) {
  const Table table = self.get();
  const TableInfo& i = table.info();
  const std::uint64_t checksum = self.file_checksum();
  py::dict d;
  for (const InfoField& field : info_fields(i, checksum, pawntb::check::checksum_listing(i.path, checksum))) {
    d[field.key] = std::visit(
        [](const auto& value) -> py::object {
          if constexpr (std::is_same_v<std::decay_t<decltype(value)>, InfoObject>) {
            py::dict object;  // in order, as the JSON's keys
            for (const auto& [key, number] : value) object[py::str(key)] = number;
            return std::move(object);
          } else {
            return py::cast(value);
          }
        },
        field.value);
  }
  return d;
}

namespace {

// The position and its value, or the error of a probe that fails.
std::pair<Position, ProbeResult> value_of(const Table& table, py::handle position) {
  const std::string_view text = position_text(position, "position");
  const Position p = parse_or_raise(text);
  const ProbeResult r = table.probe(p);
  check_value(table, p, text, r);
  return {p, r};
}

}  // namespace

Answer probe_text(const Table& table, py::handle position) {
  const auto [p, r] = value_of(table, position);
  return Answer(table, p, r);
}

int wdl_of(const Table& table, py::handle position) {
  const auto [p, r] = value_of(table, position);
  return r.winner == p.to_move ? 1 : -1;
}

int dtm_of(const Table& table, py::handle position) {
  const auto [p, r] = value_of(table, position);
  return Value{p.to_move, r.winner, r.plies}.dtm();
}

}  // namespace pawntb::python
