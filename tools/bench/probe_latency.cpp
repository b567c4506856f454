// Probe latency of a table opened on demand, cold and warm: the time to open
// it, then the latency of each of N probes at random entries while their
// blocks are decoded for the first time (cold), and again once they are in
// the cache (warm). The table's pages are dropped from the page cache first
// (posix_fadvise), so that a cold probe reads the disk.
//
//   build/tools/bench/probe_latency TABLE [COUNT] [CACHE_MIB]
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "pawntb/format/index.hpp"
#include "pawntb/probe.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double microseconds(Clock::duration d) {
  return std::chrono::duration<double, std::micro>(d).count();
}

void drop_from_page_cache(const char* path) {
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  ::fdatasync(fd);
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  ::close(fd);
}

// Median, 90th and 99th percentile of the latencies, in microseconds.
void report(const char* what, std::vector<double> us) {
  std::sort(us.begin(), us.end());
  const auto at = [&](double q) {
    return us[static_cast<std::size_t>(q * static_cast<double>(us.size() - 1))];
  };
  double sum = 0;
  for (const double u : us) sum += u;
  std::printf("%-5s probes: median %.3f us, p90 %.3f us, p99 %.3f us, mean %.3f us\n", what,
              at(0.5), at(0.9), at(0.99), sum / static_cast<double>(us.size()));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 4) {
    std::fprintf(stderr, "usage: probe_latency TABLE [COUNT (10000)] [CACHE_MIB (1024)]\n");
    return 2;
  }
  const char* path = argv[1];
  const std::size_t count = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 10000;
  const std::uint64_t cache = (argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 1024) << 20;
  if (count == 0 || cache == 0) {
    std::fprintf(stderr, "probe_latency: COUNT and CACHE_MIB must be positive\n");
    return 2;
  }
  try {
    drop_from_page_cache(path);
    const auto opening = Clock::now();
    const pawntb::Table table = pawntb::Table::open(path, pawntb::Table::Load::on_demand, 1, cache);
    const double open_us = microseconds(Clock::now() - opening);
    const pawntb::TableInfo& info = table.info();
    // Random entries, uniformly over the index, as positions.
    const pawntb::format::Index index(info.geometry, info.max_pawns);
    std::mt19937_64 random(2026);
    std::vector<pawntb::Position> positions;
    for (std::size_t k = 0; k < count; ++k) {
      const auto [white, black] = index.unrank(random() % info.entries);
      positions.push_back(pawntb::Position{info.geometry, white, black, pawntb::Side::white});
    }
    std::printf("%s: %s, %llu entries in %u blocks; open %.1f ms; cache %.1f MiB\n", path,
                pawntb::to_string(info.geometry).c_str(),
                static_cast<unsigned long long>(info.entries), info.blocks, open_us / 1000,
                static_cast<double>(info.cache_bytes) / (1 << 20));
    unsigned sink = 0;
    for (const char* pass : {"cold", "warm"}) {
      std::vector<double> us;
      us.reserve(count);
      for (const pawntb::Position& p : positions) {
        const auto start = Clock::now();
        const pawntb::ProbeResult r = table.probe(p);
        us.push_back(microseconds(Clock::now() - start));
        if (!r.ok()) {
          std::fprintf(stderr, "probe_latency: %s\n", pawntb::probe_problem(table, p, r).c_str());
          return 1;
        }
        sink += r.plies;
      }
      report(pass, us);
    }
    // Warm, without a clock read per probe.
    const auto start = Clock::now();
    constexpr int kRounds = 20;
    for (int round = 0; round < kRounds; ++round) {
      for (const pawntb::Position& p : positions) sink += table.probe(p).plies;
    }
    std::printf("warm  loop: %.1f ns per probe (%d rounds; %u)\n",
                microseconds(Clock::now() - start) * 1000 / (kRounds * static_cast<double>(count)),
                kRounds, sink & 1);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "probe_latency: %s\n", e.what());
    return 1;
  }
  return 0;
}
