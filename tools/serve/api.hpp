// The web explorer's JSON API (docs/api.md), apart from HTTP: each endpoint
// is a function from the request's parameters or body to a status and a
// JSON body. tools/serve/server.hpp puts them behind HTTP.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "serve/batch.hpp"
#include "serve/tables.hpp"

namespace pawntb::serve {

struct ApiResponse {
  int status = 200;
  std::string body;  // JSON
};

// {"error":"<message>"}.
std::string error_json(std::string_view message);

// The endpoints over a set of tables. Every member is thread-safe (the
// tables are immutable; the statistics are computed once, under a lock);
// they throw only std::bad_alloc. For the server, the tests and benchmarks.
class Api {
 public:
  explicit Api(TableSet tables);
  ~Api();

  // GET /api/v1/position?position=TEXT: 200 with the answer that `pawntb
  // probe --json` prints (without its first key), 400 naming what is wrong
  // with the position, or 500 naming a damaged table (probe_problem()).
  ApiResponse position(std::string_view text) const;

  // GET /api/v1/mainline?position=TEXT: the line of best play with the
  // position and its value after each ply; errors as position()'s.
  ApiResponse mainline(std::string_view text) const;

  // POST /api/v1/positions: `body` is a JSON array of up to kMaxBatch
  // position strings; 200 with an array of {"position", "winner", "plies",
  // "category"} or {"error"}, in order, 400 for a body that is not such
  // an array, or 500 naming a damaged table. Large batches are answered on
  // two threads (answer_batch).
  ApiResponse positions(std::string_view body) const;

  // GET /api/v1/tables.
  ApiResponse tables() const;

  // GET /api/v1/stats?table=NAME: the `pawntb stats --json` document,
  // computed when first asked for.
  ApiResponse stats(std::string_view table_name) const;

  const TableSet& table_set() const { return tables_; }

 private:
  struct StatsCache;
  TableSet tables_;
  std::string tables_json_;
  std::vector<std::unique_ptr<StatsCache>> stats_;  // one per table, in tables_ order
};

}  // namespace pawntb::serve
