// Uses the installed C++ API: opens the table given as argv[1], or without
// one the 4x4 table found along the search path (the installed package's
// share/pawntb, wherever the program runs), probes the starting position of
// UVa 10838's first sample and checks the answer.
#include <cstdio>
#include <exception>
#include <variant>

#include "pawntb/notation.hpp"
#include "pawntb/position.hpp"
#include "pawntb/probe.hpp"

int main(int argc, char** argv) {
  if (argc > 2) {
    std::fprintf(stderr, "usage: consumer [TABLE]\n");
    return 2;
  }
  try {
    const pawntb::Table table =
        argc == 2 ? pawntb::Table::open(argv[1]) : pawntb::Table::open_for({4, 4});
    const auto parsed = pawntb::parse_position(".ppp/4/.PPP/4 w");
    if (const auto* e = std::get_if<pawntb::ParseError>(&parsed)) {
      std::fprintf(stderr, "parse_position failed: %s\n", e->message.c_str());
      return 1;
    }
    const pawntb::Position& p = std::get<pawntb::Position>(parsed);

    const pawntb::ProbeResult r = table.probe(p);
    if (!r.ok()) {
      std::fprintf(stderr, "probe failed: %s\n", pawntb::describe(r.status));
      return 1;
    }
    if (r.winner != pawntb::Side::white || r.plies != 7) {
      std::fprintf(stderr, "probe: expected white in 7, got %s in %d\n",
                   pawntb::side_name(r.winner), r.plies);
      return 1;
    }

    const pawntb::RootResult root = table.probe_root(p);
    if (!root.value.ok() || root.moves.empty()) {
      std::fprintf(stderr, "probe_root: no moves (status %s)\n",
                   pawntb::describe(root.value.status));
      return 1;
    }
    const pawntb::MoveValue& best = root.moves.front();
    if (best.winner != pawntb::Side::white || best.plies != 6) {
      std::fprintf(stderr, "probe_root: best move %s gives %s in %d, expected white in 6\n",
                   pawntb::move_name(p.geometry, best.move).c_str(), pawntb::side_name(best.winner),
                   best.plies);
      return 1;
    }
    if (root.principal_variation.size() != 7) {
      std::fprintf(stderr, "probe_root: line of %zu moves, expected 7\n",
                   root.principal_variation.size());
      return 1;
    }
    std::printf("consumer: %s: %s: white wins in %d plies, best move %s\n",
                table.info().path.c_str(), pawntb::format_position(p).c_str(), r.plies,
                pawntb::move_name(p.geometry, best.move).c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "consumer: %s\n", e.what());
    return 1;
  }
}
