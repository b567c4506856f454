#include "generate.hpp"

#include <unistd.h>

#include <boost/program_options.hpp>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "command_support.hpp"
#include "pawntb/generator.hpp"
#include "pawntb/probe.hpp"

namespace pawntb::cli {

namespace po = boost::program_options;

namespace {

namespace fs = std::filesystem;

// Refuses, before any solving, an output that cannot be written: a
// directory, a missing or unwritable directory. Throws GenerateError naming
// the path. (An existing file without --force is a usage error, refused by
// validate_generate.)
void check_output(const fs::path& output) {
  std::error_code ec;
  if (fs::is_directory(fs::status(output, ec))) {
    throw GenerateError(output.string() + ": is a directory; name a file with --output FILE");
  }
  const fs::path dir = output.has_parent_path() ? output.parent_path() : fs::path(".");
  if (!fs::is_directory(dir, ec)) {
    throw GenerateError("cannot write " + output.string() + ": no directory " + dir.string());
  }
  if (::access(dir.c_str(), W_OK | X_OK) != 0) {
    throw GenerateError("cannot write " + output.string() + ": directory " + dir.string() + ": " +
                        std::strerror(errno));
  }
}

// SIGINT, SIGTERM or SIGHUP while `generate` runs: remove the temporary
// file if there is one, say so and stop. The table is renamed into place only
// once complete, so the output file is untouched and an existing table stays
// as it was. Only async-signal-safe calls in the handler.
char temp_file[4096];                       // the writer's temporary file, when
volatile std::sig_atomic_t have_temp_file;  // have_temp_file is 1

void note_temp_file(const char* path) {
  have_temp_file = 0;
  if (path && std::strlen(path) < sizeof temp_file) {
    std::strcpy(temp_file, path);
    have_temp_file = 1;
  }
}

volatile std::sig_atomic_t resumable;  // 1: a tiered run, which the same command resumes

extern "C" void on_generate_signal(int signal) {
  if (have_temp_file) ::unlink(temp_file);
  static const char message[] = "pawntb generate: interrupted; the output file was not changed\n";
  (void)!::write(STDERR_FILENO, message, sizeof message - 1);
  static const char resume[] =
      "pawntb generate: the finished units are kept; run the same command to resume\n";
  if (resumable) (void)!::write(STDERR_FILENO, resume, sizeof resume - 1);
  ::_exit(128 + signal);
}

constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP};

// Installs the handler, except for signals the caller ignores (nohup).
void stop_cleanly_on_signals(bool tiered) {
  resumable = tiered;
  struct sigaction action {};
  action.sa_handler = on_generate_signal;
  sigemptyset(&action.sa_mask);
  for (const int signal : kStopSignals) {
    struct sigaction previous {};
    ::sigaction(signal, nullptr, &previous);
    if (previous.sa_handler != SIG_IGN) ::sigaction(signal, &action, nullptr);
  }
}

// Once the table is in place the message above would be wrong: back to the
// default actions (signals still ignored stay ignored).
void restore_signals() {
  for (const int signal : kStopSignals) {
    struct sigaction previous {};
    ::sigaction(signal, nullptr, &previous);
    if (previous.sa_handler == on_generate_signal) std::signal(signal, SIG_DFL);
  }
}

// What the run will do, on stderr before it starts (or on stdout for
// --plan): its size, memory, disk and time; with --ranks or --sample, also
// the ranks, the critical path and the rate.
void print_plan(std::FILE* to, const GenerationPlan& plan, const GenerateArgs& o) {
  if (!plan.in_memory()) std::fprintf(to, "pawntb generate: %s\n", plan.mode_reason.c_str());
  std::fprintf(to, "pawntb generate: %s positions in %s tiers", with_commas(plan.entries).c_str(),
               with_commas(plan.tiers).c_str());
  if (!plan.in_memory()) {
    std::fprintf(to, ", %s units (the largest %s entries)", with_commas(plan.units).c_str(),
                 with_commas(plan.largest_unit).c_str());
  }
  std::fprintf(to, "; memory: %s needed, limit %s\n", size_text(plan.memory_needed).c_str(),
               size_text(plan.memory_limit).c_str());
  if (!plan.in_memory()) {
    std::fprintf(to,
                 "pawntb generate: work directory %s; disk: about %s at the peak (unit files "
                 "and the table being assembled)",
                 plan.work_dir.string().c_str(), size_text(plan.disk_needed).c_str());
    if (plan.disk_free) std::fprintf(to, ", %s free", size_text(plan.disk_free).c_str());
    std::fprintf(to, "; %s\n", plan.work_dir_fate_reason.c_str());
  }
  std::fprintf(
      to, "pawntb generate: about %s at %s positions a second\n",
      duration_text(plan.seconds).c_str(),
      with_commas(static_cast<std::uint64_t>(static_cast<double>(plan.entries - plan.entries_done) /
                                             std::max(plan.seconds, 1e-9)))
          .c_str());
  if (o.ranks || o.sample) {
    std::fprintf(to, "pawntb generate: %s, %s of memory a rank",
                 count_of(plan.ranks, "rank", "ranks").c_str(),
                 size_text(plan.memory_needed).c_str());
    if (!plan.in_memory()) {
      std::fprintf(to, "; the critical path %s (%s positions, about %s)",
                   count_of(plan.critical_path_units, "unit", "units").c_str(),
                   with_commas(plan.critical_path_entries).c_str(),
                   duration_text(plan.critical_path_seconds).c_str());
    }
    std::fprintf(to,
                 "\npawntb generate: solving %s (%s positions a second a rank), assembling %s; "
                 "rate: %s\n",
                 duration_text(plan.solve_seconds).c_str(),
                 with_commas(static_cast<std::uint64_t>(plan.solve_rate)).c_str(),
                 duration_text(plan.assembly_seconds).c_str(), plan.rate_source.c_str());
  }
  if (plan.units_done) {
    std::fprintf(to,
                 "pawntb generate: resuming: %s of %s units (%s positions) already in the work "
                 "directory\n",
                 with_commas(plan.units_done).c_str(), with_commas(plan.units).c_str(),
                 with_commas(plan.entries_done).c_str());
  }
}

// --report's fields besides the command line and the run's cost (docs/cli.md,
// "Reports"): what was written, and what this run found done when it resumed.
nlohmann::ordered_json report_fields(const GenerationPlan& plan, const GenerationReport& report,
                                     const TableInfo& info, const fs::path& output) {
  const auto tiered = [&](auto value) {
    return plan.in_memory() ? nlohmann::ordered_json() : nlohmann::ordered_json(value);
  };
  return {{"table", output.string()},
          {"board", to_string(plan.geometry)},
          {"pawns", info.max_pawns},
          {"positions", info.entries},
          {"file_size", report.file_size},
          {"blocks", report.block_count},
          {"units", plan.units},
          {"units_resumed", plan.units_done},
          {"positions_resumed", plan.entries_done},
          {"work_dir", tiered(plan.work_dir.string())},
          {"work_dir_peak_bytes", tiered(report.work_dir_bytes)},
          {"assembly_peak_bytes", tiered(report.assembly_peak_bytes)}};
}

// The keys are documented in docs/cli.md ("The plan as JSON").
nlohmann::ordered_json plan_json(const GenerationPlan& plan) {
  using nlohmann::ordered_json;
  ordered_json j;
  j["board"] = to_string(plan.geometry);
  j["max_pawns"] = plan.max_pawns;
  j["positions"] = plan.entries;
  j["tiers"] = plan.tiers;
  j["units"] = plan.units;
  j["largest_unit_entries"] = plan.largest_unit;
  j["largest_unit_reads_entries"] = plan.largest_unit_reads;
  j["memory_limit_bytes"] = plan.memory_limit;
  j["memory_needed_bytes"] = plan.memory_needed;
  j["work_dir"] = plan.in_memory() ? ordered_json() : ordered_json(plan.work_dir.string());
  j["disk_needed_bytes"] = plan.disk_needed;
  j["disk_free_bytes"] = plan.disk_free;
  j["estimated_seconds"] = static_cast<std::uint64_t>(plan.seconds + 0.5);
  j["units_done"] = plan.units_done;
  j["fits_memory"] = plan.fits_memory();
  j["fits_disk"] = plan.fits_disk();
  j["fits"] = plan.fits();
  j["ranks"] = plan.ranks;
  j["memory_per_rank_bytes"] = plan.memory_needed;
  j["critical_path_units"] = plan.critical_path_units;
  j["critical_path_positions"] = plan.critical_path_entries;
  j["critical_path_seconds"] = static_cast<std::uint64_t>(plan.critical_path_seconds + 0.5);
  j["solve_seconds"] = static_cast<std::uint64_t>(plan.solve_seconds + 0.5);
  j["assembly_seconds"] = static_cast<std::uint64_t>(plan.assembly_seconds + 0.5);
  j["solve_rate"] = static_cast<std::uint64_t>(plan.solve_rate + 0.5);
  j["assembly_rate"] = static_cast<std::uint64_t>(plan.assembly_rate + 0.5);
  j["rate_source"] = plan.rate_source;
  j["sample"] = plan.sample_units == 0 ? ordered_json()
                                       : ordered_json{{"units", plan.sample_units},
                                                      {"positions", plan.sample_entries},
                                                      {"seconds", plan.sample_seconds},
                                                      {"cpu_seconds", plan.sample_cpu_seconds},
                                                      {"replaced", plan.sample_replaced}};
  return j;
}

// What the command line asks of the library (plan_generation decides the
// rest): a work directory FILE.work when it needs one, unless --work-dir.
GenerateRequest generate_request_of(const GenerateArgs& o) {
  GenerateRequest request;
  request.geometry = Geometry{o.rows, o.cols};
  request.max_pawns = o.pawns;
  request.threads = o.threads;
  request.memory_limit = o.memory.bytes;
  request.work_dir = o.work_dir;
  request.fallback_work_dir = o.output + ".work";
  request.keep_work_dir = o.keep_work_dir;
  request.ranks = o.ranks;
  request.sample_units = static_cast<std::size_t>(o.sample);
  return request;
}

int run_generate(const GenerateArgs& o) {
  // Under mpirun, rank 0 schedules and prints; the other ranks solve units
  // and print nothing (rank 0 reports their failures).
  const MpiSession mpi;
  const bool rank0 = mpi.rank() == 0;
  const fs::path output = o.output;
  const GenerateRequest request = generate_request_of(o);
  if (!rank0) {
    try {
      generate(request, {}, output);
    } catch (const GenerateError&) {
      // Stopped by rank 0 after a failure, which rank 0 reports and ends the
      // job with (status 1). A worker exiting non-zero here would let mpirun
      // end the job before rank 0 has printed why.
    }
    return kOk;
  }
  const GenerationPlan plan = plan_generation(request);
  if (o.plan) {
    print_result(
        o.json, [&] { return plan_json(plan); },
        [&] {
          print_plan(stdout, plan, o);
          std::printf("%s\n", plan.fits() ? "fits" : "does not fit");
        });
    return plan.fits() ? kOk : kRuntimeFailure;
  }
  check_output(output);
  print_plan(stderr, plan, o);
  check_plan(plan);
  stop_cleanly_on_signals(!plan.in_memory());
  const auto start = std::chrono::steady_clock::now();
  util::ProgressLine progress = progress_line("generate");
  GenerateCallbacks callbacks;
  callbacks.on_progress = [&](const Progress& p) {
    progress.update(p.stage, p.fraction_done, {p.units_done, p.units},
                    {p.positions_done, p.positions});
  };
  callbacks.on_notice = [](const std::string& message) {
    std::cerr << "pawntb generate: " << message << "\n";
  };
  callbacks.on_temp_file = note_temp_file;
  const GenerationReport report = generate(plan, callbacks, output);
  restore_signals();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // Reads back what was written: the header and block index are checked; no
  // block is decoded, so that the run stays within the memory it planned.
  const Table check = Table::open(output, Table::Load::on_demand);
  const TableInfo& info = check.info();
  std::printf("generated %s, K = %d: %s positions (white to move, after reductions)\n",
              to_string(plan.geometry).c_str(), o.pawns, with_commas(info.entries).c_str());
  std::printf("placements: %s of up to %s a side, either side to move\n",
              with_commas(info.placements).c_str(), count_of(o.pawns, "pawn", "pawns").c_str());
  // The longest game is a win or a loss for the side to move, as `info` says.
  std::printf("longest game: %s, e.g. %s\n",
              count_of(info.longest_game_plies, "ply", "plies").c_str(),
              info.longest_game_example.c_str());
  std::printf("time: %.3f s\nfile: %s, %s in %s\n", seconds, output.c_str(),
              count_of(report.file_size, "byte", "bytes").c_str(),
              count_of(report.block_count, "block", "blocks").c_str());
  if (!plan.in_memory()) {
    const bool kept = plan.work_dir_fate == WorkDirFate::kept;
    std::printf("work directory: %s of unit files at most (%s), %s\n",
                count_of(report.work_dir_bytes, "byte", "bytes").c_str(),
                size_text(report.work_dir_bytes).c_str(),
                report.work_dir_removed ? "removed"
                : kept                  ? "kept"
                                        : "kept (could not remove it)");
    std::printf("assembly: %s at most of unit files and table together\n",
                count_of(report.assembly_peak_bytes, "byte", "bytes").c_str());
  }
  if (!o.report.empty())
    write_report(o.report, o, report_fields(plan, report, info, output), start);
  return kOk;
}

void generate_options(po::options_description& desc, GenerateArgs& o) {
  desc.add_options()("rows", po::value(&o.rows)->default_value(4)->value_name("R"),
                     "board rows, 3..8")("cols",
                                         po::value(&o.cols)->default_value(4)->value_name("C"),
                                         "board columns, 3..8 (rows*cols <= 64)")(
      "pawns", po::value(&o.pawns)->value_name("K"), "most pawns a side, 1..cols (default: cols)")(
      "output,o", po::value(&o.output)->value_name("FILE"),
      "table file to write (default: ./RxC-kK.pawntb)")("force,f", po::bool_switch(&o.force),
                                                        "overwrite the output file if it exists")(
      "work-dir", po::value(&o.work_dir)->value_name("DIR"),
      "solve unit by unit, keeping finished units in DIR; run again to resume (default: in "
      "memory, or FILE.work when the table does not fit)")(
      "keep-work-dir", po::bool_switch(&o.keep_work_dir),
      "keep the work directory and its unit files once the table is written (the disk "
      "then holds them and the table)")(
      "plan", po::bool_switch(&o.plan),
      "print the plan (units, memory, disk, time) and stop: status 0 if it fits, 1 if not")(
      "json", po::bool_switch(&o.json), "with --plan: the plan as one JSON object")(
      "ranks", po::value(&o.ranks)->value_name("N"),
      "with --plan: plan for N MPI ranks (memory per rank, critical path, time)")(
      "sample", po::value(&o.sample)->value_name("N"),
      "with --plan: solve N units (in memory, writing nothing) to measure the rate");
  add_report_option(desc, o.report, "the table's size, the units and the work directory's peak");
  add_memory_option(desc, o.memory, "table values");
  add_threads_option(desc, o.threads);
}

std::string validate_generate(const po::variables_map& given,
                              const std::vector<std::string>& operands, GenerateArgs& o) {
  if (!operands.empty()) return "unexpected argument '" + operands.front() + "'";
  if (!Geometry{o.rows, o.cols}.valid()) {
    return "--rows and --cols must each be " + std::to_string(kMinSide) + ".." +
           std::to_string(kMaxSide) + ", with rows*cols <= " + std::to_string(kMaxSquares);
  }
  if (!given.count("pawns")) o.pawns = o.cols;
  if (o.pawns < 1 || o.pawns > o.cols) {
    return "--pawns must be 1.." + std::to_string(o.cols) + " (at most the columns)";
  }
  if (std::string problem = check_threads(o.threads); !problem.empty()) return problem;
  // Below 1 MiB no table fits (plans are reckoned in MiB).
  if (std::string problem = check_memory(given, o.memory, 1 << 20); !problem.empty()) {
    return problem;
  }
  if (given.count("work-dir") && o.work_dir.empty()) return "--work-dir needs a directory";
  if (o.json && !o.plan) return "--json goes with --plan";
  if (given.count("ranks") && !o.plan) return "--ranks goes with --plan";
  if (given.count("ranks") && o.ranks < 1) return "--ranks must be at least 1";
  if (given.count("sample") && !o.plan) return "--sample goes with --plan";
  if (given.count("sample") && o.sample < 1) return "--sample must be at least 1";
  if (std::string problem = check_report(given, o.report); !problem.empty()) return problem;
  if (given.count("report") && o.plan) return "--report does not go with --plan";
  if (!given.count("output")) {
    o.output = "./" + std::to_string(o.rows) + "x" + std::to_string(o.cols) + "-k" +
               std::to_string(o.pawns) + ".pawntb";
  } else if (o.output.empty()) {
    return "--output needs a file name";
  }
  // As zstd does: an existing file is kept unless --force. The command line
  // asks for what it cannot have, so a usage error (2), before any work.
  std::error_code ec;
  const fs::file_status status = fs::status(o.output, ec);
  if (fs::exists(status) && !fs::is_directory(status) && !o.force && !o.plan) {
    return o.output + ": already exists; not overwritten (use --force)";
  }
  return {};
}

}  // namespace

extern const Command kGenerate = command_entry<GenerateArgs, generate_options, validate_generate,
                                               run_generate>(
    "generate", "solve every position and write a table file",
    "pawntb generate [--rows R] [--cols C] [--pawns K] [--output FILE] [--force] [--threads N]\n"
    "                [--memory SIZE] [--work-dir DIR] [--keep-work-dir] [--report FILE]\n"
    "                [--plan [--json] [--ranks N] [--sample N]]",
    "Solves every position with up to K pawns a side and writes the table atomically.\n"
    "It writes RxC-kK.pawntb in the current directory (./4x4-k4.pawntb by default)\n"
    "unless --output names a file, and refuses to replace an existing file unless\n"
    "--force is given. The output is checked before solving starts.\n"
    "\n"
    "A table that fits in --memory is solved in memory. A larger one, or any with\n"
    "--work-dir, is solved unit by unit (format/FORMAT.md): a unit is a run of the\n"
    "positions of one layer (the tiers with the same pawns and advancement), at most\n"
    "2^24 of them unless one slice is larger, and only the unit being solved and the\n"
    "slices of earlier layers it moves to are in memory. Each finished unit is\n"
    "written to the work directory (FILE.work by default); the table is then\n"
    "assembled there, deleting unit files as it goes, so the disk holds about one\n"
    "table's size. If the run stops (a signal, a crash, a power cut), the same\n"
    "command resumes at the first unfinished unit or the assembly's last\n"
    "checkpoint; a damaged unit file is solved again. The run refuses up front,\n"
    "with the figures, when it does not fit --memory or the free disk; --plan\n"
    "prints those figures (units, memory, disk, time) and stops: --ranks N plans\n"
    "for N MPI ranks (memory per rank, the critical path), --sample N times N\n"
    "units of the board, solved in memory with made-up child values, for the\n"
    "rate instead of the default one.\n"
    "The work directory is removed once the table is written; --keep-work-dir\n"
    "keeps it and its unit files (then the disk holds them and the table).\n"
    "--report FILE writes the run's figures as JSON once the table is written: a\n"
    "run that resumed reports its own time, and how many units it found done.\n"
    "\n"
    "In a build with MPI (cmake -DPAWNTB_MPI=ON), `mpirun -np N pawntb generate ...`\n"
    "runs N ranks: rank 0 hands out the units whose child tiers are finished and\n"
    "writes the table, ranks 1..N-1 solve them, all in one work directory on a\n"
    "file system they share (FILE.work by default). --memory and --threads apply\n"
    "to each rank. A failed rank stops the run; the same command resumes it.",
    DefaultTable::none);

}  // namespace pawntb::cli
