#include <boost/program_options.hpp>
#include <ostream>
#include <sstream>

#include "command_support.hpp"
#include "commands.hpp"

namespace pawntb::cli {

namespace po = boost::program_options;

namespace {

std::string usage() {
  std::string text =
      "pawntb: exact tablebase for pawn chess (UVa 10838, Octapawn, Hexapawn)\n"
      "\n"
      "usage: pawntb COMMAND [OPTIONS]\n"
      "\n"
      "commands:\n";
  for (const Command* c : all_commands()) {
    const std::string name = c->name;
    text +=
        "  " + name + std::string(name.size() < 11 ? 11 - name.size() : 1, ' ') + c->summary + "\n";
  }
  return text +
         "\n"
         "Run `pawntb COMMAND --help` for a command's options.\n"
         "Exit status: 0 ok, 1 runtime failure, 2 usage or input error.\n";
}

constexpr char kVersion[] = "pawntb " PAWNTB_VERSION "\n";

std::string help(const Command& command, const po::options_description& desc) {
  std::ostringstream text;
  text << "usage: " << command.synopsis << "\n\n" << command.details << "\n\n";
  if (command.default_table != DefaultTable::none)
    text << table_search_help(command.default_table) << "\n";
  text << desc;
  return text.str();
}

}  // namespace

ParseOutcome parse_command_line(int argc, const char* const* argv, CommandLine& line,
                                std::ostream& out, std::ostream& err) {
  if (argc < 2) {
    err << usage();
    return ParseOutcome::fail;
  }
  const std::string first = argv[1];
  if (first == "--help" || first == "-h" || first == "help") {
    out << usage();
    return ParseOutcome::exit;
  }
  if (first == "--version" || first == "-V") {
    out << kVersion;
    return ParseOutcome::exit;
  }
  const Command* command = find_command(first);
  if (!command) {
    const bool option = first.size() > 1 && first[0] == '-';
    err << "pawntb: unknown " << (option ? "option" : "command") << " '" << first << "'\n\n"
        << usage();
    return ParseOutcome::fail;
  }
  line.command = command;
  line.args = command->make_args();
  CommandArgs& args = *line.args;
  args.command_line.assign(argv, argv + argc);
  po::options_description desc("options");
  desc.add_options()("help,h", "show this help")("version,V", "show the version");
  if (command->default_table != DefaultTable::none) {
    desc.add_options()("table,t", po::value(&args.table)->value_name("FILE"),
                       "table file (default: see above)");
  }
  if (command->add_options) command->add_options(desc, args);
  po::options_description hidden;
  po::positional_options_description positional;
  std::vector<std::string> operands;
  hidden.add_options()("operand", po::value(&operands));
  positional.add("operand", -1);
  po::options_description all;
  all.add(desc).add(hidden);

  auto usage_error = [&](const std::string& message) {
    err << "pawntb " << first << ": " << message << "\nusage: " << command->synopsis << "\n";
    return ParseOutcome::fail;
  };
  po::variables_map given;
  try {
    // The parser skips its argv[0]: here the command name.
    po::store(
        po::command_line_parser(argc - 1, argv + 1)
            .options(all)
            .positional(positional)
            .style(po::command_line_style::default_style & ~po::command_line_style::allow_guessing)
            .run(),
        given);
    if (given.count("help")) {
      out << help(*command, desc);
      return ParseOutcome::exit;
    }
    if (given.count("version")) {
      out << kVersion;
      return ParseOutcome::exit;
    }
    po::notify(given);
  } catch (const po::error& e) {
    return usage_error(e.what());
  }
  if (!command->validate) {
    if (!operands.empty()) return usage_error("unexpected argument '" + operands.front() + "'");
    return ParseOutcome::ok;
  }
  const std::string problem = command->validate(given, operands, args);
  return problem.empty() ? ParseOutcome::ok : usage_error(problem);
}

}  // namespace pawntb::cli
