#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "commands.hpp"
#include "common.hpp"
#include "pawntb/generator.hpp"
#include "pawntb/probe.hpp"

namespace pawntb::cli {

namespace po = boost::program_options;

namespace {

namespace fs = std::filesystem;

// Refuses, before any solving, an output that cannot be written: an existing
// file without --force (as zstd does), a directory, a missing or unwritable
// directory. Throws GenerateError naming the path.
void check_output(const fs::path& output, bool force) {
  std::error_code ec;
  const fs::file_status status = fs::status(output, ec);
  if (fs::is_directory(status)) {
    throw GenerateError(output.string() + ": is a directory; name a file with --output FILE");
  }
  if (fs::exists(status) && !force) {
    throw GenerateError(output.string() + ": already exists; not overwritten (use --force)");
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

extern "C" void on_generate_signal(int signal) {
  if (have_temp_file) ::unlink(temp_file);
  static const char message[] = "pawntb generate: interrupted; the output file was not changed\n";
  (void)!::write(STDERR_FILENO, message, sizeof message - 1);
  ::_exit(128 + signal);
}

constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP};

// Installs the handler, except for signals the caller ignores (nohup).
void stop_cleanly_on_signals() {
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

int run_generate(const Options& o) {
  const fs::path output = o.output;
  const Geometry g{o.rows, o.cols};
  memory_needed(g, o.pawns);  // refuses bad parameters before any work
  check_output(output, o.force);
  stop_cleanly_on_signals();
  const auto start = std::chrono::steady_clock::now();
  ProgressLine progress;
  GenerateOptions options;
  options.geometry = g;
  options.max_pawns = o.pawns;
  options.threads = o.threads;
  options.on_progress = [&](const Progress& p) { progress.update(p.stage, p.fraction_done); };
  const SolvedTable table = solve(options);
  progress.update("compress", 0);
  const WriteSummary written =
      write_table(table, output, o.threads, note_temp_file, options.on_progress);
  restore_signals();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const Table check = Table::open(output);  // reads back what was written
  const TableInfo& info = check.info();
  std::printf("generated %s, K = %d: %s positions (white to move, after reductions)\n",
              to_string(g).c_str(), o.pawns, with_commas(info.entries).c_str());
  std::printf("placements: %s of up to %s a side, either side to move\n",
              with_commas(info.placements).c_str(), count_of(o.pawns, "pawn", "pawns").c_str());
  std::printf("longest win: %s, e.g. %s\n", count_of(info.max_plies, "ply", "plies").c_str(),
              info.longest_example.c_str());
  std::printf("time: %.3f s\nfile: %s, %s in %s\n", seconds, output.c_str(),
              count_of(written.file_size, "byte", "bytes").c_str(),
              count_of(written.block_count, "block", "blocks").c_str());
  return kOk;
}

void generate_options(po::options_description& desc, Options& o) {
  desc.add_options()("rows", po::value(&o.rows)->default_value(4)->value_name("R"),
                     "board rows, 3..8")("cols",
                                         po::value(&o.cols)->default_value(4)->value_name("C"),
                                         "board columns, 3..8 (rows*cols <= 64)")(
      "pawns", po::value(&o.pawns)->value_name("K"), "most pawns a side, 1..cols (default: cols)")(
      "output,o", po::value(&o.output)->value_name("FILE"),
      "table file to write (default: ./RxC-kK.pawntb)")("force,f", po::bool_switch(&o.force),
                                                        "overwrite the output file if it exists");
  add_threads_option(desc, o);
}

std::string validate_generate(const po::variables_map& given,
                              const std::vector<std::string>& operands, Options& o) {
  if (!operands.empty()) return "unexpected argument '" + operands.front() + "'";
  if (!Geometry{o.rows, o.cols}.valid()) {
    return "--rows and --cols must each be " + std::to_string(kMinSide) + ".." +
           std::to_string(kMaxSide) + ", with rows*cols <= " + std::to_string(kMaxSquares);
  }
  if (!given.count("pawns")) o.pawns = o.cols;
  if (o.pawns < 1 || o.pawns > o.cols) {
    return "--pawns must be 1.." + std::to_string(o.cols) + " (at most the columns)";
  }
  if (std::string problem = check_threads(o); !problem.empty()) return problem;
  if (!given.count("output")) {
    o.output = "./" + std::to_string(o.rows) + "x" + std::to_string(o.cols) + "-k" +
               std::to_string(o.pawns) + ".pawntb";
  } else if (o.output.empty()) {
    return "--output needs a file name";
  }
  return {};
}

}  // namespace

extern const Command kGenerate{
    "generate",
    "solve every position and write a table file",
    "pawntb generate [--rows R] [--cols C] [--pawns K] [--output FILE] [--force] [--threads N]",
    "Solves every position with up to K pawns a side and writes the table atomically.\n"
    "It writes RxC-kK.pawntb in the current directory (./4x4-k4.pawntb by default)\n"
    "unless --output names a file, and refuses to replace an existing file unless\n"
    "--force is given. The output is checked before solving starts.",
    DefaultTable::none,
    generate_options,
    validate_generate,
    run_generate};

}  // namespace pawntb::cli
