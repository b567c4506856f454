#include "info.hpp"

#include <boost/program_options.hpp>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "command_support.hpp"
#include "pawntb/check.hpp"
#include "pawntb/probe.hpp"

namespace pawntb::cli {

namespace po = boost::program_options;

namespace {

namespace fs = std::filesystem;
using check::BlockDamage;
using check::TierChecksum;
using check::TierChecksums;

// What info prints, in this order; the --json keys are the same facts.
nlohmann::ordered_json describe(const TableInfo& i, std::uint64_t checksum,
                                const fs::path& listed_in) {
  nlohmann::ordered_json j;
  for (const InfoField& field : info_fields(i, checksum, listed_in)) {
    std::visit(
        [&](const auto& value) {
          if constexpr (std::is_same_v<std::decay_t<decltype(value)>, InfoObject>) {
            nlohmann::ordered_json& object = j[field.key] = nlohmann::ordered_json::object();
            for (const auto& [key, number] : value) object[key] = number;
          } else {
            j[field.key] = value;
          }
        },
        field.value);
  }
  return j;
}

void print_text(const TableInfo& i, std::uint64_t checksum, const fs::path& listed_in) {
  std::printf("file:              %s\n", i.path.c_str());
  std::printf("format version:    %d\n", i.format_version);
  std::printf("geometry:          %s, up to %s a side\n", to_string(i.geometry).c_str(),
              count_of(i.max_pawns, "pawn", "pawns").c_str());
  std::printf("entries:           %s (white to move, not terminal by rule)\n",
              with_commas(i.entries).c_str());
  std::printf("placements:        %s (0..%d pawns a side), either side to move\n",
              with_commas(i.placements).c_str(), i.max_pawns);
  std::printf("white wins:        %s of the entries\n", with_commas(i.white_wins).c_str());
  std::printf("longest game:      %s, e.g. %s\n", count_of(i.longest_game_plies, "ply", "plies").c_str(),
              i.longest_game_example.c_str());
  std::printf("file size:         %s (%s raw entries)\n",
              count_of(i.file_size, "byte", "bytes").c_str(), with_commas(i.entries).c_str());
  std::printf("blocks:            %s of %s entries, zstd\n", with_commas(i.blocks).c_str(),
              with_commas(i.block_entries).c_str());
  std::printf("header checksum:   %s (XXH3-64)\n", hex(i.header_checksum).c_str());
  std::printf("index checksum:    %s (XXH3-64)\n", hex(i.index_checksum).c_str());
  std::printf("rules fingerprint: %s\n", hex(i.rules_fingerprint).c_str());
  const std::string listed =
      listed_in.empty() ? "not listed in a checksums.txt" : "as in " + listed_in.string();
  std::printf("file checksum:     %s (XXH3-64 of the whole file, %s)\n", hex(checksum).c_str(),
              listed.c_str());
}

// One line per tier, tab-separated, after a line of column names.
void print_tiers(const std::vector<TierChecksum>& tiers) {
  std::printf(
      "tier\twhite_pawns\tblack_pawns\twhite_advance\tblack_advance\tfirst_entry\t"
      "entries\txxh3_64\n");
  for (const TierChecksum& t : tiers) {
    std::printf("%u\t%d\t%d\t%d\t%d\t%llu\t%llu\t%s\n", t.tier, t.white_pawns, t.black_pawns,
                t.white_advance, t.black_advance, static_cast<unsigned long long>(t.first_entry),
                static_cast<unsigned long long>(t.entries), hex(t.checksum).c_str());
  }
}

nlohmann::ordered_json tiers_json(const std::vector<TierChecksum>& tiers) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const TierChecksum& t : tiers) {
    out.push_back({{"tier", t.tier},
                   {"white_pawns", t.white_pawns},
                   {"black_pawns", t.black_pawns},
                   {"white_advance", t.white_advance},
                   {"black_advance", t.black_advance},
                   {"first_entry", t.first_entry},
                   {"entries", t.entries},
                   {"xxh3_64", hex(t.checksum)}});
  }
  return out;
}

void report_damage(const TableInfo& info, const std::vector<BlockDamage>& damage) {
  for (const BlockDamage& d : damage) {
    std::fprintf(stderr, "pawntb info: %s: block %u: %s\n", info.path.c_str(), d.block,
                 d.error.c_str());
  }
}

// --tiers: every block is decoded first, then the checksums are printed.
int run_info_tiers(const InfoArgs& o, const Table& table, std::uint64_t checksum,
                   const fs::path& listed_in) {
  const TierChecksums tiers = check::tier_checksums(table, o.threads);
  report_damage(table.info(), tiers.damaged_blocks);
  if (!tiers.damaged_blocks.empty()) return kRuntimeFailure;
  print_result(
      o.json,
      [&] {
        nlohmann::ordered_json j = describe(table.info(), checksum, listed_in);
        j["tiers"] = tiers_json(tiers.tiers);
        return j;
      },
      [&] { print_tiers(tiers.tiers); });
  return kOk;
}

// The header first (from a table opened on demand), then every block is
// checked: a damaged block is reported after the header, on stderr.
int run_info(const InfoArgs& o) {
  const Table table = open_default_table(o.table, Table::Load::on_demand);
  const TableInfo& info = table.info();
  const std::uint64_t checksum = check::file_checksum(info.path);
  const fs::path listed_in = check::checksum_listing(info.path, checksum);
  if (o.tiers) return run_info_tiers(o, table, checksum, listed_in);
  print_result(
      o.json, [&] { return describe(info, checksum, listed_in); },
      [&] { print_text(info, checksum, listed_in); });
  check_stdout();  // the header is out before a damaged block is reported
  // Block by block, keeping none: a table far larger than memory is checked too.
  const std::vector<BlockDamage> damage = check::check_blocks(table, o.threads);
  report_damage(info, damage);
  if (!damage.empty()) return kRuntimeFailure;
  if (!o.json) std::printf("blocks checked:    every block's checksum is right\n");
  return kOk;
}

void info_options(po::options_description& desc, InfoArgs& o) {
  desc.add_options()("json", po::bool_switch(&o.json), "the header and counts as one JSON object")(
      "tiers", po::bool_switch(&o.tiers),
      "instead, a checksum of each tier's values (tab-separated; with --json, a \"tiers\" array)");
  add_threads_option(desc, o.threads);
}

std::string validate_info(const po::variables_map& given, const std::vector<std::string>& operands,
                          InfoArgs& o) {
  if (std::string problem = check_threads(o.threads); !problem.empty()) return problem;
  return validate_table_operand(given, operands, o);
}

constexpr char kInfoDetails[] =
    "Shows the header, geometry, counts, sizes and checksums, then checks every\n"
    "block's checksum. A damaged block is reported after the header (exit 1).\n"
    "The file checksum is said to be listed when a checksums.txt next to the table\n"
    "or in a directory of the search path has it for the table's file name.\n"
    "\n"
    "With --json, one object on one line, keys in this order: file, format_version,\n"
    "geometry ({\"rows\", \"cols\", \"max_pawns\"}), entries, placements, white_wins,\n"
    "longest_game_plies, longest_game_example, file_size, blocks, block_entries,\n"
    "header_checksum, index_checksum, rules_fingerprint, file_checksum (16 hex\n"
    "digits each), file_checksum_listed_in (the checksums.txt, or null).\n"
    "\n"
    "With --tiers, every block is decoded and each tier (the positions with the same\n"
    "pawns and advancement, FORMAT.md 6.3) gets the XXH3-64 of its values, one line\n"
    "per tier: tier, white_pawns, black_pawns, white_advance, black_advance,\n"
    "first_entry, entries, xxh3_64. Two tables with the same lines hold the same\n"
    "values.";

}  // namespace

extern const Command kInfo = command_entry<InfoArgs, info_options, validate_info, run_info>(
    "info", "show a table's header, counts, sizes and checksums",
    "pawntb info [--table FILE | FILE] [--json] [--tiers] [--threads N]", kInfoDetails,
    DefaultTable::four_by_four);

}  // namespace pawntb::cli
