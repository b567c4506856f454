#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "pawntb/notation.hpp"
#include "pawntb/pawntb.h"
#include "pawntb/probe.hpp"

struct pawntb_table {
  pawntb::Table table;
};

namespace {

namespace fs = std::filesystem;

// Copies the message into err (truncated, NUL-terminated); allocates nothing,
// so it is safe inside catch handlers.
pawntb_status fail(pawntb_status status, const char* message, char* err,
                   std::size_t err_size) noexcept {
  if (err && err_size > 0) {
    const std::size_t n = std::min(std::strlen(message), err_size - 1);
    std::memcpy(err, message, n);
    err[n] = '\0';
  }
  return status;
}

// "position is NULL": which argument, so that a caller need not guess.
pawntb_status null_argument(const char* name, char* err, std::size_t err_size) noexcept {
  char message[64];
  std::snprintf(message, sizeof message, "%s is NULL", name);
  return fail(PAWNTB_ERROR_ARGUMENT, message, err, err_size);
}

// Runs call(), turning exceptions into a status and a message.
template <class Call>
pawntb_status guarded(Call call, char* err, std::size_t err_size) noexcept {
  try {
    return call();
  } catch (const pawntb::TableError& e) {
    return fail(PAWNTB_ERROR_TABLE, e.what(), err, err_size);
  } catch (const std::bad_alloc&) {
    return fail(PAWNTB_ERROR_MEMORY, "out of memory", err, err_size);
  } catch (const std::exception& e) {
    return fail(PAWNTB_ERROR_TABLE, e.what(), err, err_size);
  } catch (...) {
    return fail(PAWNTB_ERROR_TABLE, "unexpected error", err, err_size);
  }
}

// Copies text into out (out_size bytes, NUL-terminated), or says how many
// bytes it needs.
pawntb_status copy_text(const std::string& text, char* out, std::size_t out_size, char* err,
                        std::size_t err_size) {
  if (!out) return null_argument("out", err, err_size);
  if (text.size() >= out_size) {
    return fail(PAWNTB_ERROR_ARGUMENT,
                ("out_size " + std::to_string(out_size) + " is too small: " +
                 std::to_string(text.size() + 1) + " bytes needed")
                    .c_str(),
                err, err_size);
  }
  std::memcpy(out, text.c_str(), text.size() + 1);
  return PAWNTB_OK;
}

// Parses a position; on failure the message, with its status.
pawntb_status parse(const char* text, pawntb::Position& p, std::string& message) {
  const auto parsed = pawntb::parse_position(text);
  if (const auto* e = std::get_if<pawntb::ParseError>(&parsed)) {
    message = e->message;
    return PAWNTB_ERROR_POSITION;
  }
  p = std::get<pawntb::Position>(parsed);
  return PAWNTB_OK;
}

// The status and message of a probe of p that failed (r not ok), in the
// words of pawntb::probe_problem().
pawntb_status probe_problem(const pawntb::Table& table, const pawntb::Position& p,
                            const pawntb::ProbeResult& r, std::string& message) {
  if (r.ok()) return PAWNTB_OK;
  message = pawntb::probe_problem(table, p, r);
  return r.status == pawntb::ProbeStatus::damaged_table ? PAWNTB_ERROR_TABLE
                                                        : PAWNTB_ERROR_POSITION;
}

pawntb_result failed_result(pawntb_status status) {
  return pawntb_result{PAWNTB_NONE, -1, 0, PAWNTB_END_NONE, status};
}

pawntb_result result_of(const pawntb::Position& p, const pawntb::ProbeResult& r) {
  return pawntb_result{static_cast<int>(r.winner), r.plies,
                       pawntb::value_for(p.to_move, r.winner, r.plies).dtm,
                       static_cast<int>(r.plies == 0 ? pawntb::game_end(p) : pawntb::GameEnd::none),
                       PAWNTB_OK};
}
static_assert(static_cast<int>(pawntb::GameEnd::goal) == PAWNTB_END_GOAL &&
              static_cast<int>(pawntb::GameEnd::no_pawns) == PAWNTB_END_NO_PAWNS &&
              static_cast<int>(pawntb::GameEnd::no_moves) == PAWNTB_END_NO_MOVES);

// Parses and probes; on success fills *root (and its moves if wanted).
pawntb_status probe_text(const pawntb_table* table, const char* position, bool with_moves,
                         pawntb::Position& p, pawntb::RootResult* root, char* err,
                         std::size_t err_size) {
  if (!table) return null_argument("table", err, err_size);
  if (!position) return null_argument("position", err, err_size);
  std::string message;
  pawntb_status s = parse(position, p, message);
  if (s == PAWNTB_OK) {
    if (with_moves) {
      *root = table->table.probe_root(p);
    } else {
      root->value = table->table.probe(p);
    }
    s = probe_problem(table->table, p, root->value, message);
  }
  return s == PAWNTB_OK ? s : fail(s, message.c_str(), err, err_size);
}

void copy_move(pawntb_move& out, const pawntb::Position& before, pawntb::Move m,
               pawntb::Side winner, int plies) {
  const std::string name = pawntb::move_name(before.geometry, m);
  std::memset(out.uci, 0, sizeof out.uci);
  std::memcpy(out.uci, name.data(), std::min(name.size(), sizeof out.uci - 1));
  out.winner = static_cast<int>(winner);
  out.plies = plies;
  out.dtm = pawntb::value_for(pawntb::opponent(before.to_move), winner, plies).dtm;
}

// Probes with moves and writes the moves pick(root) gives, as
// pawntb_best_moves and pawntb_principal_variation document. The moves of a
// `line` follow each other; the others all start at the position.
template <class Pick>
pawntb_status write_moves(const pawntb_table* table, const char* position, pawntb_move* moves,
                          std::size_t capacity, std::size_t* count, char* err, std::size_t err_size,
                          bool line, Pick pick) {
  if (!count) return null_argument("count", err, err_size);
  *count = 0;
  if (capacity > 0 && !moves) return null_argument("moves (with capacity > 0)", err, err_size);
  return guarded(
      [&] {
        pawntb::RootResult root;
        pawntb::Position p;
        const pawntb_status s = probe_text(table, position, true, p, &root, err, err_size);
        if (s != PAWNTB_OK) return s;
        const std::vector<pawntb::MoveValue> picked = pick(root);
        *count = picked.size();
        pawntb::Position before = p;
        for (std::size_t i = 0; i < picked.size() && i < capacity; ++i) {
          copy_move(moves[i], before, picked[i].move, picked[i].winner, picked[i].plies);
          if (line) before = pawntb::play(before, picked[i].move);
        }
        return PAWNTB_OK;
      },
      err, err_size);
}

pawntb_status open_into(pawntb_table** out, const fs::path& path) {
  *out = new pawntb_table{pawntb::Table::open(path)};
  return PAWNTB_OK;
}

}  // namespace

extern "C" {

const char* pawntb_version(void) {
  return PAWNTB_VERSION;
}

pawntb_status pawntb_open(const char* path, pawntb_table** out, char* err, size_t err_size) {
  if (!out) return null_argument("out", err, err_size);
  *out = nullptr;
  return guarded(
      [&] { return open_into(out, path ? fs::path(path) : pawntb::Table::default_path()); }, err,
      err_size);
}

pawntb_status pawntb_open_for(int rows, int cols, const char* search_path, pawntb_table** out,
                              char* err, size_t err_size) {
  if (!out) return null_argument("out", err, err_size);
  *out = nullptr;
  const pawntb::Geometry g{rows, cols};
  if (!g.valid()) {
    const std::string message = "no board " + std::to_string(rows) + "x" + std::to_string(cols) +
                                ": rows and cols must be 3..8, rows*cols <= 64";
    return fail(PAWNTB_ERROR_ARGUMENT, message.c_str(), err, err_size);
  }
  return guarded(
      [&] {
        if (!search_path) {
          *out = new pawntb_table{pawntb::Table::open_for(g)};
          return PAWNTB_OK;
        }
        // Directories separated by ':' (empty ones, as in "a::b", are skipped
        // by the search).
        std::vector<fs::path> directories;
        for (std::string_view rest = search_path; !rest.empty();) {
          const std::size_t colon = std::min(rest.find(':'), rest.size());
          directories.emplace_back(rest.substr(0, colon));
          rest.remove_prefix(std::min(colon + 1, rest.size()));
        }
        *out = new pawntb_table{pawntb::Table::open_for(g, directories)};
        return PAWNTB_OK;
      },
      err, err_size);
}

pawntb_status pawntb_search_path(char* out, size_t out_size, char* err, size_t err_size) {
  return guarded(
      [&] {
        std::string text;
        for (const fs::path& place : pawntb::Table::search_path()) {
          text += (text.empty() ? "" : ":") + place.string();
        }
        return copy_text(text, out, out_size, err, err_size);
      },
      err, err_size);
}

void pawntb_close(pawntb_table* table) {
  delete table;
}

pawntb_status pawntb_probe(const pawntb_table* table, const char* position, pawntb_result* out,
                           char* err, size_t err_size) {
  if (!out) return null_argument("out", err, err_size);
  *out = failed_result(PAWNTB_ERROR_ARGUMENT);
  const pawntb_status s = guarded(
      [&] {
        pawntb::RootResult root;
        pawntb::Position p;
        const pawntb_status status = probe_text(table, position, false, p, &root, err, err_size);
        if (status == PAWNTB_OK) *out = result_of(p, root.value);
        return status;
      },
      err, err_size);
  out->status = s;
  return s;
}

pawntb_status pawntb_probe_many(const pawntb_table* table, const char* const* positions,
                                size_t count, pawntb_result* results, char* err,
                                size_t err_size) {
  if (count == 0) return PAWNTB_OK;
  if (!table) return null_argument("table", err, err_size);
  if (!positions) return null_argument("positions", err, err_size);
  if (!results) return null_argument("results", err, err_size);
  return guarded(
      [&] {
        std::vector<pawntb::Position> parsed(count);
        std::vector<std::string> problems(count);
        std::vector<pawntb_status> statuses(count, PAWNTB_OK);
        for (std::size_t i = 0; i < count; ++i) {
          if (!positions[i]) {
            statuses[i] = PAWNTB_ERROR_ARGUMENT;
            problems[i] = "positions[" + std::to_string(i) + "] is NULL";
            continue;
          }
          statuses[i] = parse(positions[i], parsed[i], problems[i]);
        }
        // Unparsed positions stay default (invalid) and are not looked at.
        std::vector<pawntb::ProbeResult> values(count);
        table->table.probe_many(parsed.data(), count, values.data());
        pawntb_status first = PAWNTB_OK;
        std::size_t first_at = 0;
        for (std::size_t i = 0; i < count; ++i) {
          if (statuses[i] == PAWNTB_OK) {
            statuses[i] = probe_problem(table->table, parsed[i], values[i], problems[i]);
          }
          results[i] = statuses[i] == PAWNTB_OK ? result_of(parsed[i], values[i])
                                                : failed_result(statuses[i]);
          if (statuses[i] != PAWNTB_OK && first == PAWNTB_OK) {
            first = statuses[i];
            first_at = i;
          }
        }
        if (first == PAWNTB_OK) return first;
        const std::string message =
            "position " + std::to_string(first_at) + ": " + problems[first_at];
        return fail(first, message.c_str(), err, err_size);
      },
      err, err_size);
}

pawntb_status pawntb_best_moves(const pawntb_table* table, const char* position, pawntb_move* moves,
                                size_t capacity, size_t* count, char* err, size_t err_size) {
  return write_moves(table, position, moves, capacity, count, err, err_size, false,
                     [](const pawntb::RootResult& root) { return root.moves; });
}

pawntb_status pawntb_principal_variation(const pawntb_table* table, const char* position,
                                         pawntb_move* moves, size_t capacity, size_t* count,
                                         char* err, size_t err_size) {
  return write_moves(
      table, position, moves, capacity, count, err, err_size, true,
      [](const pawntb::RootResult& root) {
        // Best play keeps the winner; each move takes one ply off.
        std::vector<pawntb::MoveValue> line;
        for (const pawntb::Move m : root.principal_variation) {
          const auto left = static_cast<std::uint8_t>(root.value.plies - line.size() - 1);
          line.push_back(pawntb::MoveValue{m, root.value.winner, left});
        }
        return line;
      });
}

pawntb_status pawntb_start_position(const pawntb_table* table, char* out, size_t out_size,
                                    char* err, size_t err_size) {
  if (!table) return null_argument("table", err, err_size);
  return guarded(
      [&] {
        return copy_text(pawntb::format_position(table->table.start_position()), out, out_size,
                         err, err_size);
      },
      err, err_size);
}

pawntb_status pawntb_play(const char* position, const char* moves, char* out, size_t out_size,
                          char* err, size_t err_size) {
  if (!position) return null_argument("position", err, err_size);
  if (!moves) return null_argument("moves", err, err_size);
  return guarded(
      [&] {
        pawntb::Position p;
        std::string message;
        if (parse(position, p, message) != PAWNTB_OK) {
          return fail(PAWNTB_ERROR_POSITION, message.c_str(), err, err_size);
        }
        const auto after = pawntb::play_moves(p, moves);
        if (const auto* e = std::get_if<pawntb::ParseError>(&after)) {
          return fail(PAWNTB_ERROR_POSITION, e->message.c_str(), err, err_size);
        }
        return copy_text(pawntb::format_position(std::get<pawntb::Position>(after)), out,
                         out_size, err, err_size);
      },
      err, err_size);
}

pawntb_status pawntb_table_info(const pawntb_table* table, pawntb_info* out, char* err,
                                size_t err_size) {
  if (!table) return null_argument("table", err, err_size);
  if (!out) return null_argument("out", err, err_size);
  const pawntb::TableInfo& info = table->table.info();
  *out = pawntb_info{};
  out->rows = info.geometry.rows;
  out->cols = info.geometry.cols;
  out->max_pawns = info.max_pawns;
  out->format_version = info.format_version;
  out->longest_game_plies = info.longest_game_plies;
  std::strncpy(out->longest_game_example, info.longest_game_example.c_str(),
               sizeof out->longest_game_example - 1);
  out->entries = info.entries;
  out->placements = info.placements;
  out->white_wins = info.white_wins;
  out->file_size = info.file_size;
  out->header_checksum = info.header_checksum;
  out->index_checksum = info.index_checksum;
  return PAWNTB_OK;
}

}  // extern "C"
