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

}  // namespace

extern "C" {

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
  try {
    pawntb::RootResult root;
    const pawntb_status s = probe_text(table, position, false, &root, err, err_size);
    if (s == PAWNTB_OK) *out = pawntb_result{static_cast<int>(root.value.winner), root.value.plies};
    return s;
  } catch (const std::bad_alloc&) {
    return fail(PAWNTB_ERROR_MEMORY, "out of memory", err, err_size);
  } catch (...) {
    return fail(PAWNTB_ERROR_TABLE, "unexpected error", err, err_size);
  }
}

pawntb_status pawntb_best_moves(const pawntb_table* table, const char* position, pawntb_move* moves,
                                size_t capacity, size_t* count, char* err, size_t err_size) {
  if (!count || (capacity > 0 && !moves)) {
    return fail(PAWNTB_ERROR_ARGUMENT, "NULL argument", err, err_size);
  }
  try {
    pawntb::RootResult root;
    const pawntb_status s = probe_text(table, position, true, &root, err, err_size);
    if (s != PAWNTB_OK) return s;
    *count = root.moves.size();
    const pawntb::Geometry g = table->table.info().geometry;
    for (std::size_t i = 0; i < root.moves.size() && i < capacity; ++i) {
      pawntb_move& m = moves[i];
      const std::string name = pawntb::move_name(g, root.moves[i].move);
      std::memset(m.uci, 0, sizeof m.uci);
      std::memcpy(m.uci, name.data(), std::min(name.size(), sizeof m.uci - 1));
      m.winner = static_cast<int>(root.moves[i].winner);
      m.plies = root.moves[i].plies;
    }
    return PAWNTB_OK;
  } catch (const std::bad_alloc&) {
    return fail(PAWNTB_ERROR_MEMORY, "out of memory", err, err_size);
  } catch (...) {
    return fail(PAWNTB_ERROR_TABLE, "unexpected error", err, err_size);
  }
}

}  // extern "C"
