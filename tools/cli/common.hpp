// What the pawntb commands share: the command table's entry, opening a
// table, number formatting and the progress line.
#pragma once

#include <boost/program_options.hpp>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <span>
#include <string>
#include <string_view>

#include "commands.hpp"
#include "pawntb/probe.hpp"
#include "pawntb/util/atomic_file.hpp"
#include "pawntb/util/progress_line.hpp"
#include "pawntb/util/text.hpp"

namespace pawntb::cli {

// Which table a command uses without --table.
enum class DefaultTable : std::uint8_t {
  none,           // the command takes no table (no --table option)
  four_by_four,   // the 4x4 table: Table::default_path()
  by_board_size,  // for each position, the table of its board size: Table::find()
};

// One command: adding a command means defining one of these (next to its run
// function) and listing it in kCommands (commands.cpp).
struct Command {
  const char* name;
  const char* summary;   // one line in `pawntb --help`
  const char* synopsis;  // "pawntb NAME [OPTIONS] ..."
  const char* details;   // the --help text after the synopsis
  // Without --table, which table the command uses; --help then says where
  // it is looked for (table_search_help()).
  DefaultTable default_table;
  // Adds the command's options (besides --help, --version and --table),
  // bound to fields of `o`. May be null.
  void (*add_options)(boost::program_options::options_description& desc, Options& o);
  // Checks the operands and option values once parsed and completes `o`.
  // Returns a usage error message, or empty when all is well. May be null:
  // then the command takes no operands.
  std::string (*validate)(const boost::program_options::variables_map& given,
                          const std::vector<std::string>& operands, Options& o);
  int (*run)(const Options& o);
};

// The command table's entries, one per command file.
extern const Command kGenerate, kInfo, kVerify, kUva, kProbe, kPlay, kStats, kServe, kTables;

// Every command, in the order `pawntb --help` lists them.
std::span<const Command* const> all_commands();

// The command called `name`, or null.
const Command* find_command(std::string_view name);

// A Command::validate for commands whose one optional operand is the table
// file (the same as --table FILE).
std::string validate_table_operand(const boost::program_options::variables_map& given,
                                   const std::vector<std::string>& operands, Options& o);

// The --threads (-j) option of the commands that use several threads, bound
// to o.threads (0: one per hardware thread, as in the library), and its check
// (a usage error message, or empty).
void add_threads_option(boost::program_options::options_description& desc, Options& o);
std::string check_threads(const Options& o);

// --memory SIZE, "most memory for WHAT, e.g. 8G or 512M (default: 3/4 of the
// memory available)", and its check, which sets o.memory_limit.
void add_memory_option(boost::program_options::options_description& desc, Options& o,
                       const std::string& what);
std::string check_memory(const boost::program_options::variables_map& given, Options& o);

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

// Numbers and durations as pawntb prints them: "1,234,567", "4 min 5 s".
using util::duration_text;
using util::with_commas;

// Files written atomically (util/.../atomic_file.hpp): a reader, or a crash,
// sees the old file or the new one; std::system_error names the file.
using util::write_file_atomically;

// Sixteen lowercase hex digits.
std::string hex(std::uint64_t v);

// "1 block", "1,024 blocks".
std::string count_of(std::uint64_t n, const char* singular, const char* plural);

// "12,345 MiB" / "1.5 GiB".
std::string size_text(std::uint64_t bytes);

// "8G", "512M", "2GiB", "1000000": bytes; 0 when not a size.
std::uint64_t parse_size(const std::string& text);

// The progress line of long commands (util/.../progress_line.hpp).
using util::ProgressLine;

}  // namespace pawntb::cli
