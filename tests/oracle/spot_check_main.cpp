// pawntb_spot_check TABLE SAMPLES SEED [NODE_BUDGET]: checks random positions
// of a table against an independent search (spot_check.hpp). Prints the
// counts and every disagreement. Exit status: 0 all checked positions agree,
// 1 a disagreement or the table cannot be opened, 2 usage error.
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string_view>

#include "oracle/spot_check.hpp"

namespace {

constexpr std::uint64_t kDefaultBudget = 2'000'000;

bool parse_count(std::string_view text, std::uint64_t& out) {
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && ptr == end && !text.empty();
}

int usage(const char* message) {
  std::fprintf(stderr,
               "pawntb_spot_check: %s\n"
               "usage: pawntb_spot_check TABLE SAMPLES SEED [NODE_BUDGET]\n"
               "  checks SAMPLES random positions with few pawns or pawns near their goal\n"
               "  against a plain search; a position needing more than NODE_BUDGET\n"
               "  (default %llu) search nodes is skipped and counted\n",
               message, static_cast<unsigned long long>(kDefaultBudget));
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4 || argc > 5) return usage("expected 3 or 4 arguments");
  std::uint64_t samples = 0, seed = 0, budget = kDefaultBudget;
  if (!parse_count(argv[2], samples)) return usage("SAMPLES is not a number");
  if (!parse_count(argv[3], seed)) return usage("SEED is not a number");
  if (argc == 5 && (!parse_count(argv[4], budget) || budget == 0))
    return usage("NODE_BUDGET is not a positive number");

  try {
    const pawntb::Table table = pawntb::Table::open(argv[1]);
    const pawntb::TableInfo& info = table.info();
    const auto report = pawntb_oracle::run_spot_check(
        info.geometry.rows, info.geometry.cols, info.max_pawns,
        [&table](const pawntb::Position& p) { return table.probe(p); }, samples, seed, budget);
    for (const std::string& line : report.disagreements) std::printf("DISAGREE %s\n", line.c_str());
    std::printf(
        "pawntb_spot_check %s: %llu samples (seed %llu), %llu agreed, %llu disagreed, "
        "%llu skipped (over %llu nodes); longest checked value %d plies, most nodes %llu\n",
        argv[1], static_cast<unsigned long long>(report.samples),
        static_cast<unsigned long long>(seed), static_cast<unsigned long long>(report.agreed),
        static_cast<unsigned long long>(report.disagreements.size()),
        static_cast<unsigned long long>(report.skipped), static_cast<unsigned long long>(budget),
        report.longest, static_cast<unsigned long long>(report.most_nodes));
    return report.disagreements.empty() ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pawntb_spot_check: %s\n", e.what());
    return 1;
  }
}
