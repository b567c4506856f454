#include <cstring>
#include <new>
#include <variant>

#include "pawntb/notation.hpp"
#include "pawntb/pawntb.h"
#include "pawntb/probe.hpp"

struct pawntb_table {
  pawntb::Table table;
};

namespace {

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

// Parses and probes; on success fills *root (and its moves if wanted).
pawntb_status probe_text(const pawntb_table* table, const char* position, bool with_moves,
                         pawntb::RootResult* root, char* err, std::size_t err_size) {
  if (!table || !position) return fail(PAWNTB_ERROR_ARGUMENT, "NULL argument", err, err_size);
  const auto parsed = pawntb::parse_position(position);
  if (const auto* e = std::get_if<pawntb::ParseError>(&parsed)) {
    return fail(PAWNTB_ERROR_POSITION, e->message.c_str(), err, err_size);
  }
  const auto& p = std::get<pawntb::Position>(parsed);
  if (with_moves) {
    *root = table->table.probe_root(p);
  } else {
    root->value = table->table.probe(p);
  }
  switch (root->value.status) {
    case pawntb::ProbeStatus::ok:
      return PAWNTB_OK;
    case pawntb::ProbeStatus::damaged_table:
      return fail(PAWNTB_ERROR_TABLE, pawntb::describe(root->value.status), err, err_size);
    case pawntb::ProbeStatus::invalid_position:
      return fail(PAWNTB_ERROR_POSITION, ("invalid position: " + pawntb::invalid_reason(p)).c_str(),
                  err, err_size);
    default:
      return fail(PAWNTB_ERROR_POSITION, pawntb::describe(root->value.status), err, err_size);
  }
}

void copy_move(pawntb_move& out, pawntb::Geometry g, pawntb::Move m, pawntb::Side winner,
               int plies) {
  const std::string name = pawntb::move_name(g, m);
  std::memset(out.uci, 0, sizeof out.uci);
  std::memcpy(out.uci, name.data(), std::min(name.size(), sizeof out.uci - 1));
  out.winner = static_cast<int>(winner);
  out.plies = plies;
}

// Runs call(), turning exceptions into a status and a message.
template <class Call>
pawntb_status guarded(Call call, char* err, std::size_t err_size) noexcept {
  try {
    return call();
  } catch (const std::bad_alloc&) {
    return fail(PAWNTB_ERROR_MEMORY, "out of memory", err, err_size);
  } catch (...) {
    return fail(PAWNTB_ERROR_TABLE, "unexpected error", err, err_size);
  }
}

// Probes with moves and writes the moves pick(root) gives, as
// pawntb_best_moves and pawntb_principal_variation document.
template <class Pick>
pawntb_status write_moves(const pawntb_table* table, const char* position, pawntb_move* moves,
                          std::size_t capacity, std::size_t* count, char* err, std::size_t err_size,
                          Pick pick) {
  if (!count || (capacity > 0 && !moves)) {
    return fail(PAWNTB_ERROR_ARGUMENT, "NULL argument", err, err_size);
  }
  *count = 0;
  return guarded(
      [&] {
        pawntb::RootResult root;
        const pawntb_status s = probe_text(table, position, true, &root, err, err_size);
        if (s != PAWNTB_OK) return s;
        const std::vector<pawntb::MoveValue> picked = pick(root);
        *count = picked.size();
        const pawntb::Geometry g = table->table.info().geometry;
        for (std::size_t i = 0; i < picked.size() && i < capacity; ++i) {
          copy_move(moves[i], g, picked[i].move, picked[i].winner, picked[i].plies);
        }
        return PAWNTB_OK;
      },
      err, err_size);
}

}  // namespace

extern "C" {

const char* pawntb_version(void) {
  return PAWNTB_VERSION;
}

pawntb_status pawntb_open(const char* path, pawntb_table** out, char* err, size_t err_size) {
  if (!out) return fail(PAWNTB_ERROR_ARGUMENT, "NULL argument", err, err_size);
  *out = nullptr;
  try {
    *out = new pawntb_table{path ? pawntb::Table::open(path) : pawntb::Table::open_default()};
    return PAWNTB_OK;
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

void pawntb_close(pawntb_table* table) {
  delete table;
}

pawntb_status pawntb_probe(const pawntb_table* table, const char* position, pawntb_result* out,
                           char* err, size_t err_size) {
  if (!out) return fail(PAWNTB_ERROR_ARGUMENT, "NULL argument", err, err_size);
  *out = pawntb_result{PAWNTB_NONE, -1};
  return guarded(
      [&] {
        pawntb::RootResult root;
        const pawntb_status s = probe_text(table, position, false, &root, err, err_size);
        if (s == PAWNTB_OK) {
          *out = pawntb_result{static_cast<int>(root.value.winner), root.value.plies};
        }
        return s;
      },
      err, err_size);
}

pawntb_status pawntb_best_moves(const pawntb_table* table, const char* position, pawntb_move* moves,
                                size_t capacity, size_t* count, char* err, size_t err_size) {
  return write_moves(table, position, moves, capacity, count, err, err_size,
                     [](const pawntb::RootResult& root) { return root.moves; });
}

pawntb_status pawntb_principal_variation(const pawntb_table* table, const char* position,
                                         pawntb_move* moves, size_t capacity, size_t* count,
                                         char* err, size_t err_size) {
  return write_moves(
      table, position, moves, capacity, count, err, err_size, [](const pawntb::RootResult& root) {
        // Best play keeps the winner; each move takes one ply off.
        std::vector<pawntb::MoveValue> line;
        for (const pawntb::Move m : root.principal_variation) {
          const auto left = static_cast<std::uint8_t>(root.value.plies - line.size() - 1);
          line.push_back(pawntb::MoveValue{m, root.value.winner, left});
        }
        return line;
      });
}

pawntb_status pawntb_table_info(const pawntb_table* table, pawntb_info* out, char* err,
                                size_t err_size) {
  if (!table || !out) return fail(PAWNTB_ERROR_ARGUMENT, "NULL argument", err, err_size);
  const pawntb::TableInfo& info = table->table.info();
  *out = pawntb_info{};
  out->rows = info.geometry.rows;
  out->cols = info.geometry.cols;
  out->max_pawns = info.max_pawns;
  out->format_version = info.format_version;
  out->max_plies = info.max_plies;
  out->entries = info.entries;
  out->placements = info.placements;
  out->white_wins = info.white_wins;
  out->file_size = info.file_size;
  out->header_checksum = info.header_checksum;
  out->index_checksum = info.index_checksum;
  return PAWNTB_OK;
}

}  // extern "C"
