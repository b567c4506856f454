#include "verify.hpp"

#include <boost/program_options.hpp>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "command_support.hpp"
#include "pawntb/check.hpp"
#include "pawntb/probe.hpp"
#include "pawntb/util/atomic_file.hpp"

namespace pawntb::cli {

namespace po = boost::program_options;

namespace {

using check::BlockDamage;
using check::VerifyCheckpoint;
using check::VerifyPlan;
using check::VerifyReport;
using check::VerifyState;

constexpr int kStateVersion = 1;  // of the --resume file's layout
constexpr auto kStateEvery = std::chrono::seconds(30);

// What --resume FILE holds: the library's state, and the wall time spent on
// the check by every run so far.
struct SavedState {
  VerifyState state;
  double wall_seconds = 0;
};

nlohmann::ordered_json state_json(const VerifyState& s, const TableInfo& info,
                                  double wall_seconds) {
  nlohmann::ordered_json damaged = nlohmann::ordered_json::array();
  for (const BlockDamage& d : s.report.damaged_blocks) {
    damaged.push_back({{"block", d.block}, {"error", d.error}});
  }
  return {{"pawntb_verify_state", kStateVersion},
          {"table", info.path.string()},
          {"header_checksum", hex(s.header_checksum)},
          {"entries", info.entries},
          {"entries_done", s.entries_done},
          {"blocks_checked", s.blocks_checked},
          {"damaged_blocks", damaged},
          {"checked", s.report.checked},
          {"mismatches", s.report.mismatches},
          {"first_mismatch", s.report.first_mismatch},
          {"white_wins", s.white_wins},
          {"max_plies", s.max_plies},
          {"longest_ok", s.longest_ok},
          {"wall_seconds", std::round(wall_seconds)}};
}

// The state saved in `path` for this table; SavedState{} when there is no
// such file. Throws std::invalid_argument naming the file when it is not a
// verify state or is of another table.
SavedState read_state(const std::filesystem::path& path, const TableInfo& info) {
  std::ifstream in(path);
  if (!in) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return {};
    throw std::invalid_argument(path.string() + ": cannot read the verify state");
  }
  const auto refuse = [&](const std::string& why) {
    return std::invalid_argument(path.string() + ": " + why);
  };
  VerifyState s;
  double wall_seconds = 0;
  std::string table;
  try {
    const nlohmann::json j = nlohmann::json::parse(in);
    if (j.at("pawntb_verify_state").get<int>() != kStateVersion) {
      throw refuse("a verify state of another pawntb version");
    }
    table = j.at("table").get<std::string>();
    const std::string checksum = j.at("header_checksum").get<std::string>();
    const auto [end, error] =
        std::from_chars(checksum.data(), checksum.data() + checksum.size(), s.header_checksum, 16);
    if (error != std::errc() || end != checksum.data() + checksum.size()) {
      throw refuse("not a pawntb verify state (bad header_checksum)");
    }
    s.entries_done = j.at("entries_done").get<std::uint64_t>();
    s.blocks_checked = j.at("blocks_checked").get<bool>();
    for (const auto& d : j.at("damaged_blocks")) {
      s.report.damaged_blocks.push_back(
          BlockDamage{d.at("block").get<std::uint32_t>(), d.at("error").get<std::string>()});
    }
    s.report.checked = j.at("checked").get<std::uint64_t>();
    s.report.mismatches = j.at("mismatches").get<std::uint64_t>();
    s.report.first_mismatch = j.at("first_mismatch").get<std::string>();
    s.white_wins = j.at("white_wins").get<std::uint64_t>();
    s.max_plies = j.at("max_plies").get<int>();
    s.longest_ok = j.at("longest_ok").get<bool>();
    wall_seconds = j.at("wall_seconds").get<double>();
  } catch (const nlohmann::json::exception& e) {
    throw refuse(std::string("not a pawntb verify state (") + e.what() + ")");
  }
  if (s.header_checksum != info.header_checksum) {
    throw refuse("the verify state of another table (" + table + ", header checksum " +
                 hex(s.header_checksum) + "); give another --resume file");
  }
  if (s.entries_done > info.entries) throw refuse("the verify state is past the table's end");
  return {s, wall_seconds};
}

// Bytes as --memory is shown: KiB below a MiB (a small table's image pages
// of 64 KiB), else size_text().
std::string memory_text(std::uint64_t bytes) {
  return bytes < (1 << 20) ? with_commas(bytes >> 10) + " KiB" : size_text(bytes);
}

// What the check holds in memory (check::verify_plan), for --plan (every
// time) and before a check (only when some tiers are checked in pieces).
std::string plan_text(const VerifyPlan& plan) {
  if (plan.tiers_in_pieces == 0) {
    return "every tier fits in --memory " + memory_text(plan.memory_bytes) +
           " with the tiers its moves lead to, and is checked whole (the largest needs " +
           memory_text(plan.largest_tier_bytes) + ")";
  }
  // A --memory that can be given as it is, rounded up: K below a MiB (whole
  // 64 KiB pages then), else whole MiB. The budget is whole blocks, and a
  // page of the image is a whole number of blocks.
  const std::uint64_t bytes = plan.largest_tier_bytes;
  std::string whole = bytes < (1 << 20) ? std::to_string(bytes >> 10) + "K"
                                        : std::to_string((bytes + (1 << 20) - 1) >> 20) + "M";
  if (bytes >= (std::uint64_t{10} << 30)) whole += " (" + size_text(bytes) + ")";
  char share[32];
  std::snprintf(share, sizeof share, "%.1f %%",
                100.0 * static_cast<double>(plan.entries_in_pieces) /
                    static_cast<double>(std::max<std::uint64_t>(plan.entries, 1)));
  return with_commas(plan.tiers_in_pieces) + " of " + count_of(plan.tiers, "tier", "tiers") +
         " (" + share + " of the positions) need more than --memory " +
         memory_text(plan.memory_bytes) +
         " with the tiers their moves lead to, and are checked in pieces, more slowly; "
         "--memory " + whole + " checks every tier whole";
}

// --report's fields besides the command line and the run's cost (docs/cli.md,
// "Reports"). `summary`: the line that says how the check ended.
nlohmann::ordered_json report_fields(const TableInfo& info, const VerifyReport& report,
                                     const std::string& summary, const std::string& resume,
                                     const SavedState& saved, double seconds) {
  return {
      {"table", info.path.string()},
      {"ok", report.ok()},
      {"summary", summary},
      {"positions", info.entries},
      {"checked", report.checked},
      {"mismatches", report.mismatches},
      {"damaged_blocks", report.damaged_blocks.size()},
      {"resume_file", resume.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(resume)},
      {"positions_resumed", saved.state.entries_done},
      {"wall_seconds_all_runs", saved.wall_seconds + seconds}};
}

// Opened on demand, so that a damaged block does not stop the check: every
// damaged block is reported (stderr), and the positions of the others are
// still checked. Results on stdout.
int run_verify(const VerifyArgs& o) {
  const std::uint64_t memory = o.memory.bytes ? o.memory.bytes : check::default_memory_bytes();
  const Table table = open_default_table(o.table, Table::Load::on_demand);
  const TableInfo& info = table.info();
  const char* path = info.path.c_str();
  // The check keeps one decoded block whatever --memory says.
  if (o.memory.bytes != 0 && o.memory.bytes < info.block_entries) {
    const std::uint32_t least = info.block_entries;
    const std::string size = least % 1024 ? std::to_string(least) : std::to_string(least >> 10) + "K";
    std::fprintf(stderr, "pawntb verify: --memory %s is below the minimum for %s, %s (a decoded block)\n",
                 o.memory.given.c_str(), path, size.c_str());
    return kUsageError;
  }
  const VerifyPlan plan = check::verify_plan(table, memory);
  if (o.plan) {
    std::printf("%s: %s positions; %s\n", path, with_commas(info.entries).c_str(),
                plan_text(plan).c_str());
    return kOk;
  }
  if (plan.tiers_in_pieces) std::fprintf(stderr, "pawntb verify: %s\n", plan_text(plan).c_str());
  SavedState saved;
  VerifyState& from = saved.state;
  VerifyCheckpoint save;
  const auto start = std::chrono::steady_clock::now();
  auto last_save = start;
  if (!o.resume.empty()) {
    try {
      saved = read_state(o.resume, info);
    } catch (const std::invalid_argument& e) {
      std::fprintf(stderr, "pawntb verify: %s\n", e.what());
      return kUsageError;
    }
    if (from.header_checksum != 0) {
      std::fprintf(stderr, "pawntb verify: resuming from %s: %s of %s positions checked\n",
                   o.resume.c_str(), with_commas(from.entries_done).c_str(),
                   with_commas(info.entries).c_str());
    }
    save = [&](const VerifyState& s) {
      const auto now = std::chrono::steady_clock::now();
      if (now - last_save < kStateEvery && s.entries_done != 0 && s.entries_done != info.entries) {
        return;
      }
      last_save = now;
      const double seconds = std::chrono::duration<double>(now - start).count();
      util::write_file_atomically(o.resume,
                                  state_json(s, info, saved.wall_seconds + seconds).dump(2) + "\n");
    };
  }
  util::ProgressLine progress = progress_line("verify");
  const VerifyReport report = check::verify(
      table, memory, [&](const Progress& p) { progress.update(p.stage, p.fraction_done); },
      o.threads, from, save);
  for (const BlockDamage& damage : report.damaged_blocks) {
    std::fprintf(stderr, "pawntb verify: %s: block %u: %s\n", path, damage.block, damage.error.c_str());
  }
  std::string summary;
  if (report.damaged_blocks.empty()) {
    std::printf("%s: header, block index and all block checksums ok\n", path);
  } else {
    summary = std::string(path) + ": " + count_of(report.damaged_blocks.size(), "block", "blocks") +
              " of " + with_commas(info.blocks) + " damaged; their positions were not checked";
    std::fprintf(stderr, "pawntb verify: %s\n", summary.c_str());
  }
  if (report.mismatches > 0) {
    summary = std::string(path) + ": " + with_commas(report.mismatches) + " of " +
              with_commas(report.checked) + " values wrong; first: " + report.first_mismatch;
    std::fprintf(stderr, "pawntb verify: %s\n", summary.c_str());
  }
  if (report.ok()) {
    summary = std::string(path) + ": ok, " + with_commas(report.checked) +
              " positions agree with their successors";
    std::printf("%s\n", summary.c_str());
  }
  if (!o.report.empty()) {
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    write_report(o.report, o, report_fields(info, report, summary, o.resume, saved, seconds),
                 start);
  }
  return report.ok() ? kOk : kRuntimeFailure;
}

void verify_options(po::options_description& desc, VerifyArgs& o) {
  add_memory_option(desc, o.memory, "decoded values");
  desc.add_options()(
      "resume", po::value(&o.resume)->value_name("FILE"),
      "keep the progress in FILE (JSON, rewritten every 30 s) and carry on from it if it "
      "exists")(
      "plan", po::bool_switch(&o.plan),
      "print how much memory the check holds, and which tiers do not fit in --memory, and "
      "stop");
  add_report_option(desc, o.report, "whether it holds, the positions checked");
  add_threads_option(desc, o.threads);
}

std::string validate_verify(const po::variables_map& given,
                            const std::vector<std::string>& operands, VerifyArgs& o) {
  if (std::string problem = check_threads(o.threads); !problem.empty()) return problem;
  if (std::string problem = check_memory(given, o.memory); !problem.empty()) return problem;
  if (given.count("resume") && o.resume.empty()) return "--resume needs a file name";
  if (std::string problem = check_report(given, o.report); !problem.empty()) return problem;
  if (given.count("report") && o.plan) return "--report does not go with --plan";
  return validate_table_operand(given, operands, o);
}

}  // namespace

extern const Command kVerify =
    command_entry<VerifyArgs, verify_options, validate_verify, run_verify>(
        "verify", "check every checksum and every value of a table",
        "pawntb verify [--table FILE | FILE] [--threads N] [--memory SIZE] [--resume FILE] "
        "[--report FILE] [--plan]",
        "Checks every checksum, then re-derives every value from its successors.\n"
        "Every damaged block is reported (stderr) and the others are still checked.\n"
        "Results go to stdout. Exits 0 only if everything holds.\n"
        "\n"
        "The check goes tier by tier, as `pawntb generate` solves: it decodes a tier\n"
        "and the earlier tiers its moves lead to in bulk, keeping at most --memory of\n"
        "decoded values (the least recently used are dropped). Give it room for the\n"
        "largest tier with those it leads to (--plan says how much): a tier that\n"
        "does not fit is checked in pieces, in the same memory but slower.\n"
        "With --resume FILE, a check that is stopped loses at most its last minute:\n"
        "run the same command again to carry on.\n"
        "--report FILE writes the check's figures as JSON when it ends, held or not;\n"
        "with --resume, also the wall time of every run of the check.",
        DefaultTable::four_by_four);

}  // namespace pawntb::cli
