// What the pawntb commands share: opening a table, the shared options,
// number formatting. Light on purpose: each command file includes what
// builds its options (boost/program_options.hpp) and what it prints with.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "commands.hpp"
#include "pawntb/probe.hpp"
#include "pawntb/util/progress_line.hpp"
#include "pawntb/util/text.hpp"

namespace pawntb::cli {

// For a command's validate when its one optional operand is the table file
// (the same as --table FILE): sets args.table.
std::string validate_table_operand(const boost::program_options::variables_map& given,
                                   const std::vector<std::string>& operands, CommandArgs& args);

// The --threads (-j) option of the commands that use several threads, bound
// to `threads` (0: one per hardware thread, as in the library), and its check
// (a usage error message, or empty).
void add_threads_option(boost::program_options::options_description& desc, unsigned& threads);
std::string check_threads(unsigned threads);

// --memory SIZE, "most memory for WHAT, e.g. 8G or 512M (default:
// DEFAULT_TEXT)", the command's own default, and its check, which sets memory.bytes and refuses a
// size below `minimum` bytes (a whole number of KiB), naming it.
void add_memory_option(boost::program_options::options_description& desc, MemoryArg& memory,
                       const std::string& what,
                       const std::string& default_text = "3/4 of the memory available");
std::string check_memory(const boost::program_options::variables_map& given, MemoryArg& memory,
                         std::uint64_t minimum = 1);

// --report FILE (generate, verify, stats), bound to `path`: the run's figures
// as one JSON object, written when the command ends (docs/cli.md, "Reports").
void add_report_option(boost::program_options::options_description& desc, std::string& path,
                       const std::string& what);
std::string check_report(const boost::program_options::variables_map& given,
                         const std::string& path);

// Writes a command's report to `path` atomically: "command" (args'
// command line, its words joined by spaces), then `fields`, then the run's
// cost: "wall_seconds" since `start`, and this process's "cpu_seconds" (user
// and system) and "peak_rss_bytes" (getrusage; under MPI, rank 0's alone).
// Throws std::system_error naming the file. Call once, from the command's
// thread, as it ends.
void write_report(const std::string& path, const CommandArgs& args,
                  const nlohmann::ordered_json& fields,
                  std::chrono::steady_clock::time_point start);

// A command's result on stdout: with --json (`json`), as_json() dumped with
// `indent` (-1: one line), any bytes of its strings that are not UTF-8 (a
// file name's) replaced by U+FFFD rather than failing the command; else
// as_text(), which prints the text itself.
void print_result(bool json, const std::function<nlohmann::ordered_json()>& as_json,
                  const std::function<void()>& as_text, int indent = -1);

// The --help paragraphs on which table a command uses without --table, where
// it is looked for and, here and now, where the search path leads. Reads the
// environment and the file system.
std::string table_search_help(DefaultTable table);

// The table for boards of geometry `g`: the file `given` (--table) when not
// empty, else the first Table::find(g) finds. Throws TableError; when no
// table for `g` exists, the message ends with "make one with `pawntb generate
// --rows R --cols C`". For the commands that pick a table by board size
// (probe, play); call from the command's thread.
Table open_table(const std::string& given, Geometry g, Table::Load load = Table::Load::automatic,
                 unsigned threads = 1, std::uint64_t cache_bytes = Table::kDefaultCacheBytes);

// The default table: the file `given` (--table) when not empty, else
// Table::default_path() ($PAWNTB_TABLE when it names a file, whatever its
// board size, else the 4x4 table along the search path). Throws TableError as
// open_table(). For the commands without a board size to go by (uva, info,
// verify, stats, probe --start); call from the command's thread.
Table open_default_table(const std::string& given, Table::Load load = Table::Load::automatic,
                         unsigned threads = 1,
                         std::uint64_t cache_bytes = Table::kDefaultCacheBytes);

// The progress line of a long command (generate, verify, stats) on stderr,
// with SIGCONT handled so that a stop (Ctrl-Z, then fg) does not count as
// work in its rate and time left (util::note_continued). Call from the
// command's thread, once.
util::ProgressLine progress_line(const char* command);

// Numbers, durations and sizes as pawntb prints them: "1,234,567",
// "4 min 5 s", "12,345 MiB".
using util::duration_text;
using util::size_text;
using util::with_commas;

// Sixteen lowercase hex digits.
std::string hex(std::uint64_t v);

// "1 block", "1,024 blocks".
std::string count_of(std::uint64_t n, const char* singular, const char* plural);

// "8G", "512M", "2GiB", "1000000": bytes; 0 when not a size.
std::uint64_t parse_size(const std::string& text);

}  // namespace pawntb::cli
