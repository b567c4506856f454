// A program that only probes, as an application would: tests/check/links.cmake
// shows that it links none of pawntb::check. Prints the start's value.
#include <cstdio>

#include "pawntb/probe.hpp"

int main() {
  try {
    const pawntb::Table table = pawntb::Table::open_default();
    const pawntb::ProbeResult r = table.probe(table.start_position());
    std::printf("%s in %d\n", pawntb::side_name(r.winner), r.plies);
    return r.ok() ? 0 : 1;
  } catch (const pawntb::TableError& e) {
    std::fprintf(stderr, "probe_only: %s\n", e.what());
    return 1;
  }
}
