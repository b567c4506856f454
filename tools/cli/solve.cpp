#include "solve.hpp"

#include <algorithm>
#include <boost/program_options.hpp>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <variant>

#include "command_support.hpp"
#include "pawntb/notation.hpp"
#include "pawntb/probe.hpp"
#include "pawntb/search.hpp"
#include "pawntb/util/memory.hpp"

namespace pawntb::cli {

namespace po = boost::program_options;

namespace {

// The transposition table by default: a third of default_memory_limit(), at
// most 1 GiB, so that a shared machine's other jobs keep the rest.
std::uint64_t default_tt_bytes() {
  return std::min<std::uint64_t>(util::default_memory_limit() / 3, std::uint64_t{1} << 30);
}

// The knowledge --without LIST leaves out: names separated by commas.
// Returns a usage error, or empty.
std::string apply_without(const std::string& list, search::Knowledge& k) {
  std::stringstream in(list);
  std::string name;
  while (std::getline(in, name, ',')) {
    if (name == "win-in-one") {
      k.win_in_one = false;
    } else if (name == "threats") {
      k.threats = false;
    } else if (name == "unstoppable") {
      k.unstoppable = false;
    } else if (name == "ordering") {
      k.ordering = false;
    } else if (name == "lookahead") {
      k.lookahead = false;
    } else if (name == "symmetry") {
      k.symmetry = false;
    } else if (!name.empty()) {
      return "--without: unknown knowledge '" + name +
             "' (win-in-one, threats, unstoppable, ordering, lookahead, symmetry)";
    }
  }
  return {};
}

// The table files for `g`: the largest K of each --tables directory, then
// the search path's.
std::vector<std::filesystem::path> table_files(const SolveArgs& o, Geometry g) {
  std::vector<std::filesystem::path> files;
  if (o.no_tables || o.baseline) return files;
  for (const std::string& dir : o.tables) {
    if (auto f = Table::find_in(dir, g)) files.push_back(*f);
  }
  if (auto f = Table::find(g)) files.push_back(*f);
  return files;
}

int run_solve(const SolveArgs& o) {
  Position root;
  if (!o.position.empty()) {
    const auto parsed = parse_position(o.position);
    if (const auto* e = std::get_if<ParseError>(&parsed)) {
      std::fprintf(stderr, "pawntb solve: --position: %s\n", e->message.c_str());
      return kUsageError;
    }
    root = std::get<Position>(parsed);
  } else {
    root = start_position(Geometry{o.rows, o.cols}, o.cols);
  }
  if (classify(root) == Status::invalid) {
    std::fprintf(stderr, "pawntb solve: %s\n", invalid_position_problem(root).c_str());
    return kUsageError;
  }
  search::SolveOptions options;
  // --root-first: moves of the root, separated by commas or spaces.
  {
    std::string list = o.root_first;
    std::replace(list.begin(), list.end(), ',', ' ');
    std::istringstream words(list);
    std::string uci;
    while (words >> uci) {
      const auto m = parse_move(root, uci);
      if (const auto* e = std::get_if<ParseError>(&m)) {
        std::fprintf(stderr, "pawntb solve: --root-first: %s\n", e->message.c_str());
        return kUsageError;
      }
      options.root_first.push_back(std::get<Move>(m));
    }
    if (const std::string problem = search::root_first_problem(root, options.root_first);
        !problem.empty()) {
      std::fprintf(stderr, "pawntb solve: --root-first: %s\n", problem.c_str());
      return kUsageError;
    }
  }
  // Resumed without --memory: the saved table's size (0 tells solve()).
  std::error_code ec;
  const bool resuming = !o.resume.empty() && std::filesystem::exists(o.resume, ec);
  options.memory_bytes = o.memory.bytes ? o.memory.bytes : resuming ? 0 : default_tt_bytes();
  options.state = o.resume;
  options.save_every = std::chrono::seconds(o.save_every_seconds);
  options.threads = o.threads;
  if (o.algorithm == "dfpn") options.algorithm = search::Algorithm::proof_numbers;
  options.root_seed = o.root_seed;
  if (o.baseline) options.knowledge = search::Knowledge::none();
  apply_without(o.without, options.knowledge);
  options.tables = table_files(o, root.geometry);
  options.certificate = o.certificate;
  options.certificate_memory_bytes = o.certificate_memory.bytes;
  options.distance = o.dtm;
  options.distance_time = std::chrono::seconds(o.time_seconds);
  options.progress_every = std::chrono::seconds(o.progress_seconds);
  // After the search, each line starts with its answer: "white wins; ".
  const auto progress = [&root](const search::SearchProgress& p) {
    const std::string answer = p.decided ? std::string(side_name(p.winner)) + " wins; " : std::string();
    if (p.distance_searched) {
      // "at least 1 ply", "at least 23 and at most 35 plies"
      const std::string bounds =
          p.plies_upper_found
              ? std::to_string(p.plies_lower) + " and at most " + std::to_string(p.plies_upper) +
                    " plies"
              : std::to_string(p.plies_lower) + (p.plies_lower == 1 ? " ply" : " plies");
      std::fprintf(stderr, "pawntb solve: %sdistance: at least %s, %s nodes, %s\n",
                   answer.c_str(), bounds.c_str(), with_commas(p.distance_nodes).c_str(),
                   duration_text(p.seconds).c_str());
      return;
    }
    if (p.writing_certificate) {
      std::fprintf(stderr, "pawntb solve: %swriting the certificate: %s positions listed, %s\n",
                   answer.c_str(), with_commas(p.certificate_positions).c_str(),
                   duration_text(p.seconds).c_str());
      return;
    }
    // ", searching g1g2" (and another, with threads on two)
    std::string searching;
    for (const Move m : p.root_moves_searching) {
      searching += (searching.empty() ? ", searching " : " and ") + move_name(root.geometry, m);
    }
    std::fprintf(stderr,
                 "pawntb solve: %s nodes, %s nodes/s, table %.0f %% full, root moves: %d proven, "
                 "%d refuted of %d%s, %s\n",
                 with_commas(p.nodes).c_str(),
                 with_commas(static_cast<std::uint64_t>(p.nodes_per_second)).c_str(),
                 100 * p.table_fill, p.root_moves_proven, p.root_moves_refuted, p.root_moves,
                 searching.c_str(), duration_text(p.seconds).c_str());
  };
  search::SolveResult r;
  try {
    r = search::solve(root, options, progress);
  } catch (const std::invalid_argument& e) {  // a --resume file it cannot go on from
    std::fprintf(stderr, "pawntb solve: %s\n", e.what());
    return kUsageError;
  }
  const Geometry g = root.geometry;
  const std::string best =
      r.has_best_move ? move_name(g, Move{r.best_move.from, r.best_move.to}) : std::string();
  const bool exact = o.dtm && r.plies_upper_found && r.plies_lower == r.plies_upper;
  const auto as_json = [&] {
    const search::Knowledge& k = options.knowledge;
    return nlohmann::ordered_json{
        {"position", format_position(root)},
        {"geometry", {{"rows", g.rows}, {"cols", g.cols}}},
        {"to_move", side_name(root.to_move)},
        {"winner", side_name(r.winner)},
        {"best_move", r.has_best_move ? nlohmann::ordered_json(best) : nullptr},
        {"nodes", r.nodes},
        {"seconds", r.seconds},
        {"nodes_per_second", r.seconds > 0 ? static_cast<double>(r.nodes) / r.seconds : 0.0},
        {"table", r.table.empty() ? nlohmann::ordered_json(nullptr)
                                  : nlohmann::ordered_json(r.table.string())},
        {"table_pawns", r.table_pawns},
        {"table_probes", r.table_probes},
        {"tt_bytes", r.tt_bytes},
        {"tt_entries", r.tt_entries},
        {"tt_used", r.tt_used},
        {"algorithm", o.algorithm},
        {"threads", r.threads},
        {"numbers_bytes", r.numbers_bytes},
        {"root_seed", o.root_seed},
        {"root_first", [&] {
           auto moves = nlohmann::ordered_json::array();
           for (const Move m : options.root_first) moves.push_back(move_name(g, m));
           return moves;
         }()},
        {"knowledge",
         {{"win_in_one", k.win_in_one},
          {"threats", k.threats},
          {"unstoppable", k.unstoppable},
          {"ordering", k.ordering},
          {"lookahead", k.lookahead},
          {"symmetry", k.symmetry}}},
        {"plies", exact ? nlohmann::ordered_json(r.plies_lower) : nullptr},
        {"plies_lower", o.dtm ? nlohmann::ordered_json(r.plies_lower) : nullptr},
        {"plies_upper",
         o.dtm && r.plies_upper_found ? nlohmann::ordered_json(r.plies_upper) : nullptr},
        {"distance_nodes", r.distance_nodes},
        {"certificate", o.certificate.empty() ? nlohmann::ordered_json(nullptr)
                                              : nlohmann::ordered_json(o.certificate)},
        {"certificate_positions", r.certificate_positions},
        {"certificate_error", r.certificate_error.empty()
                                  ? nlohmann::ordered_json(nullptr)
                                  : nlohmann::ordered_json(r.certificate_error)},
        {"resume", o.resume.empty() ? nlohmann::ordered_json(nullptr)
                                    : nlohmann::ordered_json(o.resume)},
        {"resumed", r.resumed},
        {"states_saved", r.states_saved}};
  };
  const auto as_text = [&] {
    if (r.resumed) std::printf("went on from %s\n", o.resume.c_str());
    std::printf("%s %s: %s wins", to_string(g).c_str(), format_position(root).c_str(),
                side_name(r.winner));
    if (exact) {
      std::printf(" in %d plies", r.plies_lower);
    } else if (o.dtm && r.plies_upper_found) {
      std::printf(" in at most %d plies and in no fewer than %d (--time ran out)", r.plies_upper,
                  r.plies_lower);
    } else if (o.dtm) {
      std::printf(" in no fewer than %d plies (--time ran out before a line was found)",
                  r.plies_lower);
    }
    std::printf("\n");
    if (r.has_best_move) std::printf("winning move: %s\n", best.c_str());
    std::printf("searched %s nodes in %s", with_commas(r.nodes).c_str(),
                duration_text(r.seconds).c_str());
    if (!r.table.empty()) {
      std::printf(", %s positions answered by %s", with_commas(r.table_probes).c_str(),
                  r.table.c_str());
    }
    std::printf("\n");
    if (!o.certificate.empty() && r.certificate_error.empty()) {
      std::printf("certificate: %s, %s positions of the winner to move, %s\n",
                  o.certificate.c_str(), with_commas(r.certificate_positions).c_str(),
                  (with_commas(r.certificate_bytes) + " bytes").c_str());
    }
  };
  print_result(o.json, as_json, as_text);
  if (!r.certificate_error.empty()) {  // the answer stands; the proof asked for is missing
    std::fprintf(stderr, "pawntb solve: %s: not written: %s\n", o.certificate.c_str(),
                 r.certificate_error.c_str());
    return kRuntimeFailure;
  }
  return kOk;
}

void solve_options(po::options_description& desc, SolveArgs& o) {
  desc.add_options()("rows", po::value(&o.rows)->value_name("R"), "board rows, 3..8")(
      "cols", po::value(&o.cols)->value_name("C"), "board columns, 3..8 (C pawns a side)")(
      "position", po::value(&o.position)->value_name("FEN"),
      "solve this position instead of a start (its board size from the text)")(
      "tables", po::value(&o.tables)->composing()->value_name("DIR"),
      "also look for tables of the board size in DIR (repeatable)")(
      "no-tables", po::bool_switch(&o.no_tables), "answer no position by a table")(
      "certificate", po::value(&o.certificate)->value_name("FILE"),
      "write the proof to FILE, for `pawntb check-proof`")(
      "without", po::value(&o.without)->value_name("LIST"),
      "leave out knowledge: win-in-one,threats,unstoppable,ordering,lookahead,symmetry")(
      "algorithm", po::value(&o.algorithm)->value_name("NAME"),
      "dfs: boolean depth-first search, on --threads (the default); dfpn: depth-first "
      "proof-number search, on one thread, with a table of proof numbers of half --memory "
      "beside the transposition table")(
      "root-seed", po::value(&o.root_seed)->value_name("N"),
      "with dfs: take the root's moves in an order shuffled by N (0, the default: the usual "
      "order), for a second proof that searches the tree another way")(
      "root-first", po::value(&o.root_first)->value_name("LIST"),
      "with dfs: try these moves of the root first, in this order, separated by commas or "
      "spaces (e.g. b1b2, or b1b2,c1c2), then the others: a guess of the winning move spares "
      "the refutation of the moves before it")(
      "baseline", po::bool_switch(&o.baseline),
      "plain boolean search with a transposition table: no knowledge, no tables")(
      "json", po::bool_switch(&o.json), "print the result as one JSON object")(
      "progress", po::value(&o.progress_seconds)->value_name("S"),
      "seconds between progress lines on stderr (default 10)")(
      "resume", po::value(&o.resume)->value_name("FILE"),
      "save the search's state to FILE every --save-every seconds, and go on from "
      "FILE when it exists")(
      "save-every", po::value(&o.save_every_seconds)->value_name("S"),
      "seconds between saves of --resume FILE (default 300)")(
      "dtm", po::bool_switch(&o.dtm),
      "also prove the distance: plies to the end, the winner hurrying, the loser holding out")(
      "time", po::value(&o.time_seconds)->value_name("S"),
      "with --dtm: search the distance at most S seconds in all, those of the parts before "
      "included with --resume, then print the bounds proven (default: no limit)")(
      "certificate-memory", po::value(&o.certificate_memory.given)->value_name("SIZE"),
      "most memory for listing the certificate's positions, 12 to 20 bytes each (default: 3/4 "
      "of the memory available when the search ends); a larger proof is not written");
  add_memory_option(desc, o.memory, "the transposition table",
                    "1/4 of the memory available, at most 1G");
  add_threads_option(desc, o.threads);
}

std::string validate_solve(const po::variables_map& given, const std::vector<std::string>& operands,
                           SolveArgs& o) {
  if (!operands.empty()) return "unexpected operand '" + operands.front() + "'";
  const bool board = given.count("rows") || given.count("cols");
  if (board == !o.position.empty()) return "give --rows and --cols, or --position";
  if (board && !(given.count("rows") && given.count("cols"))) return "give both --rows and --cols";
  if (board && !Geometry{o.rows, o.cols}.valid()) return "--rows and --cols must be 3..8";
  if (o.algorithm != "dfs" && o.algorithm != "dfpn") {
    return "--algorithm: unknown algorithm '" + o.algorithm + "' (dfs, dfpn)";
  }
  if (given.count("root-seed") && o.algorithm != "dfs") return "--root-seed needs --algorithm dfs";
  if (given.count("root-first") && o.algorithm != "dfs") return "--root-first needs --algorithm dfs";
  if (given.count("root-first") &&
      o.root_first.find_first_not_of(", \t") == std::string::npos) {
    return "--root-first: no move given";
  }
  if (o.progress_seconds < 1) return "--progress must be at least 1";
  if (o.save_every_seconds < 1) return "--save-every must be at least 1";
  if (given.count("save-every") && o.resume.empty()) return "--save-every needs --resume FILE";
  if (given.count("time") && !o.dtm) return "--time needs --dtm";
  if (o.time_seconds < 0) return "--time must be at least 0";
  if (given.count("certificate-memory")) {
    if (o.certificate.empty()) return "--certificate-memory needs --certificate FILE";
    o.certificate_memory.bytes = parse_size(o.certificate_memory.given);
    if (o.certificate_memory.bytes == 0) {
      return "--certificate-memory must be a size such as 8G, 512M or 2000000000";
    }
  }
  search::Knowledge k;
  if (std::string problem = apply_without(o.without, k); !problem.empty()) return problem;
  if (std::string problem = check_threads(o.threads); !problem.empty()) return problem;
  return check_memory(given, o.memory, 64);
}

}  // namespace

extern const Command kSolve = command_entry<SolveArgs, solve_options, validate_solve, run_solve>(
    "solve", "prove who wins a position by search, with tables as leaves",
    "pawntb solve (--rows R --cols C | --position FEN) [--tables DIR]... [--no-tables] "
    "[--memory SIZE] [--threads N] [--algorithm dfs|dfpn] [--root-seed N] [--root-first LIST] [--dtm [--time S]] [--certificate FILE [--certificate-memory SIZE]] "
    "[--resume FILE [--save-every S]] [--json] "
    "[--without LIST] [--baseline]",
    "Proves who wins the start of an R x C board (C pawns a side), or any position,\n"
    "by a depth-first search with a transposition table and the game's knowledge\n"
    "(docs/search.md), or with --algorithm dfpn by proof-number search. Positions that a table of the board size covers (fewer\n"
    "pawns: `pawntb generate --pawns K`) are answered by a probe. The table is\n"
    "looked for in each --tables DIR, then along the search path. --memory bounds\n"
    "the transposition table (default: 1/4 of the memory available, at most 1G).\n"
    "--dtm also proves the start's distance in plies, or within --time the bounds\n"
    "of it that it could prove (its table of bounds takes --memory again).\n"
    "--certificate FILE writes the proof (docs/certificate.md), which\n"
    "`pawntb check-proof FILE` replays with code of its own; a proof too large\n"
    "for --certificate-memory is not written (exit status 1, after the answer).\n"
    "--resume FILE saves the search's state (its table) every --save-every\n"
    "seconds; run the same command again after a kill and it goes on from there.\n"
    "Progress goes to stderr every --progress seconds.",
    DefaultTable::none);

}  // namespace pawntb::cli
