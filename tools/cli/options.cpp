#include <boost/program_options.hpp>
#include <ostream>

#include "commands.hpp"
#include "pawntb/position.hpp"

namespace pawntb::cli {

namespace po = boost::program_options;

namespace {

constexpr int kMaxThreads = 256;

constexpr char kUsage[] =
    "pawntb: exact tablebase for pawn chess (UVa 10838, Octapawn, Hexapawn)\n"
    "\n"
    "usage: pawntb COMMAND [OPTIONS]\n"
    "\n"
    "commands:\n"
    "  generate   solve every position and write a table file\n"
    "  info       show a table's header, counts, sizes and checksums\n"
    "  verify     check every checksum and every value of a table\n"
    "  uva        answer UVa 10838 judge input from stdin\n"
    "  probe      answer positions given as arguments, or one per line with -\n"
    "\n"
    "Run `pawntb COMMAND --help` for a command's options.\n"
    "Exit status: 0 ok, 1 runtime failure, 2 usage or input error.\n";

struct Command {
  const char* name;
  const char* synopsis;
  const char* details;
};

constexpr Command kCommands[] = {
    {"generate", "pawntb generate [--rows R] [--cols C] [--pawns K] [--output FILE] [--threads N]",
     "Solves every position with up to K pawns a side and writes the table atomically.\n"
     "The default output is data/RxC-kK.pawntb in the source tree (the default table\n"
     "for 4x4, K = 4)."},
    {"info", "pawntb info [FILE]", "Shows the header, geometry, counts, sizes and checksums."},
    {"verify", "pawntb verify [FILE]",
     "Checks every checksum, then re-derives every value from its successors.\n"
     "Exits 0 only if everything holds."},
    {"uva", "pawntb uva [--table FILE] < input",
     "Reads UVa 10838 input (a case count, then boards) and prints `white (7)` lines."},
    {"probe", "pawntb probe [--table FILE] [--json] POSITION... | -",
     "Answers positions such as '.ppp/4/.PPP/4 w' (rows from the top, '/' between\n"
     "rows, digits for empty squares, then w or b). With - reads one per line from stdin."},
};

const Command* find_command(const std::string& name) {
  for (const Command& c : kCommands) {
    if (name == c.name) return &c;
  }
  return nullptr;
}

po::options_description command_options(const std::string& name, Options& o) {
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help");
  if (name == "generate") {
    desc.add_options()("rows", po::value(&o.rows)->default_value(4), "board rows, 3..8")(
        "cols", po::value(&o.cols)->default_value(4), "board columns, 3..8 (rows*cols <= 64)")(
        "pawns", po::value(&o.pawns), "most pawns a side, 1..cols (default: cols)")(
        "output,o", po::value(&o.output), "table file to write")(
        "threads,j", po::value(&o.threads)->default_value(0), "threads (0: all cores)");
  } else if (name == "uva" || name == "probe") {
    desc.add_options()("table,t", po::value(&o.table), "table file (default: the 4x4 table)");
    if (name == "probe")
      desc.add_options()("json", po::bool_switch(&o.json), "one JSON object per line");
  }
  return desc;
}

}  // namespace

ParseOutcome parse_command_line(int argc, const char* const* argv, Options& o, std::ostream& out,
                                std::ostream& err) {
  if (argc < 2) {
    err << kUsage;
    return ParseOutcome::fail;
  }
  const std::string first = argv[1];
  if (first == "--help" || first == "-h" || first == "help") {
    out << kUsage;
    return ParseOutcome::exit;
  }
  if (first == "--version" || first == "-V") {
    out << "pawntb " << PAWNTB_VERSION << "\n";
    return ParseOutcome::exit;
  }
  const Command* command = find_command(first);
  if (!command) {
    err << "pawntb: unknown command '" << first << "'\n\n" << kUsage;
    return ParseOutcome::fail;
  }
  o.command = first;
  po::options_description desc = command_options(first, o);
  po::options_description hidden;
  po::positional_options_description positional;
  std::vector<std::string> operands;
  hidden.add_options()("operand", po::value(&operands));
  positional.add("operand", -1);
  po::options_description all;
  all.add(desc).add(hidden);

  po::variables_map vm;
  try {
    // The parser skips its argv[0]: here the command name.
    po::store(
        po::command_line_parser(argc - 1, argv + 1)
            .options(all)
            .positional(positional)
            .style(po::command_line_style::default_style & ~po::command_line_style::allow_guessing)
            .run(),
        vm);
    if (vm.count("help")) {
      out << "usage: " << command->synopsis << "\n\n" << command->details << "\n\n" << desc;
      return ParseOutcome::exit;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    err << "pawntb " << first << ": " << e.what() << "\nusage: " << command->synopsis << "\n";
    return ParseOutcome::fail;
  }

  auto usage_error = [&](const std::string& message) {
    err << "pawntb " << first << ": " << message << "\nusage: " << command->synopsis << "\n";
    return ParseOutcome::fail;
  };
  if (first == "generate" || first == "uva") {
    if (!operands.empty()) return usage_error("unexpected argument '" + operands.front() + "'");
  } else if (first == "info" || first == "verify") {
    if (operands.size() > 1) return usage_error("expected at most one table file");
    if (!operands.empty()) o.table = operands.front();
  } else {  // probe
    if (operands.empty()) return usage_error("expected positions, or - to read them from stdin");
    o.positions = operands;
  }
  if (first == "generate") {
    const bool sides_ok = o.rows >= kMinSide && o.rows <= kMaxSide && o.cols >= kMinSide &&
                          o.cols <= kMaxSide && o.rows * o.cols <= kMaxSquares;
    if (!sides_ok) {
      return usage_error("--rows and --cols must each be 3..8, with rows*cols <= 64");
    }
    if (!vm.count("pawns")) o.pawns = o.cols;
    if (o.pawns < 1 || o.pawns > o.cols) {
      return usage_error("--pawns must be 1.." + std::to_string(o.cols) + " (at most the columns)");
    }
    if (o.threads < 0 || o.threads > kMaxThreads) {
      return usage_error("--threads must be 0..." + std::to_string(kMaxThreads));
    }
  }
  return ParseOutcome::ok;
}

}  // namespace pawntb::cli
