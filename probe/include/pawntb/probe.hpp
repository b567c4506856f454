// pawntb probe: exact values of pawn-chess positions from a table file. For
// applications, the `pawntb` CLI and the C API (pawntb.h).
//
//   pawntb::Table table = pawntb::Table::open_default();
//   auto p = std::get<pawntb::Position>(pawntb::parse_position(".ppp/4/.PPP/4 w"));
//   pawntb::ProbeResult r = table.probe(p);   // r.winner == Side::white, r.plies == 7
//
// THREADS. A Table is immutable after open(): any number of threads may call
// its const members on the same Table at once. Copies share the
// data. A `threads` parameter counts the caller's thread; 0 means one per
// hardware thread. A thread that cannot start is left out (the work runs on
// those that did, never an error), and whatever a call's work throws on any
// of its threads reaches the caller once all have stopped.
// ERRORS. open() throws TableError. Probing never throws for any position and
// never reads outside the table: it returns a status instead. Nothing here
// prints, exits or aborts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "pawntb/position.hpp"

namespace pawntb {

namespace probe_detail {
struct TableData;    // the opened table (probe/src/table_impl.hpp)
struct TableAccess;  // its door for BlockReader (pawntb/block_reader.hpp)
}

// A table that cannot be used: missing, unreadable, not a pawntb table,
// damaged (a checksum fails) or made for other rules or another format
// version. what() names the file and the check that failed.
class TableError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class ProbeStatus : std::uint8_t {
  ok,
  invalid_position,   // off-board or overlapping pawns, or the side to move is on its goal row
  geometry_mismatch,  // the position's board size differs from the table's
  too_many_pawns,     // a side has more pawns than the table's K
  damaged_table,      // a lazily loaded block failed its checksum or could not be read
};
// A short English phrase for a status (a static string). Thread-safe.
const char* describe(ProbeStatus s);

// One 32-bit word (alignas), returned in a register. Check ok() first: a
// failed probe has winner white and plies kNoPlies, which no game has.
struct alignas(4) ProbeResult {
  static constexpr std::uint8_t kNoPlies = 255;
  ProbeStatus status = ProbeStatus::ok;
  Side winner = Side::white;  // meaningful when status == ok
  std::uint8_t plies = 0;     // 0..2*K*(rows-1), plies to the end with best play; 0 = game over
  bool ok() const { return status == ProbeStatus::ok; }
};
static_assert(sizeof(ProbeResult) == 4);

// A value as one side sees it, as the lichess API gives it: dtm, the plies
// signed (positive when `side` wins, negative when it loses, 0 when the game
// is over), and the category, "win" or "loss" (a static string).
struct SideValue {
  int dtm = 0;
  const char* category = "loss";
};
// The value of a game that `winner` wins in `plies`, for `side`: the one
// wording of dtm and category for the CLI, the C API, Python and the server.
// Thread-safe.
SideValue value_for(Side side, Side winner, int plies) noexcept;

struct MoveValue {
  Move move;
  Side winner = Side::white;  // winner after the move
  std::uint8_t plies = 0;     // plies left after the move, 0..2*K*(rows-1)
};

struct RootResult {
  ProbeResult value;                      // the position itself
  std::vector<MoveValue> moves;           // every legal move, best first (see probe_root)
  std::vector<Move> principal_variation;  // best play to the end, value.plies moves long
};

struct TableInfo {
  std::filesystem::path path;
  Geometry geometry;
  int max_pawns = 0;  // K
  int format_version = 0;
  std::uint64_t entries = 0;          // indexed white-to-move positions
  std::uint64_t placements = 0;       // placements of 0..K pawns a side
  std::uint64_t white_wins = 0;       // entries won by the side to move (white)
  int longest_game_plies = 0;         // the longest game in the table (a win or a loss)
  std::string longest_game_example;   // a position with that value, in position notation
  std::uint32_t blocks = 0;           // zstd blocks in the file, >= 1
  std::uint32_t block_entries = 0;    // entries per block, a power of two <= 2^24
  std::uint64_t file_size = 0;        // bytes
  std::uint64_t header_checksum = 0;  // XXH3-64
  std::uint64_t index_checksum = 0;   // XXH3-64
  std::uint64_t rules_fingerprint = 0;
  bool fully_loaded = false;      // all blocks decoded and checked at open
  std::uint64_t cache_bytes = 0;  // decoded bytes kept at most when not fully loaded, else 0
};

class Table {
 public:
  enum class Load : std::uint8_t {
    automatic,  // all at open up to 64 MiB of entries, on demand above
    all,        // decode every block at open: every checksum is checked here
    on_demand,  // check the header and block index here, each block when first probed
  };

  // Decoded bytes a table loaded on demand keeps at most, by default.
  static constexpr std::uint64_t kDefaultCacheBytes = std::uint64_t{1} << 30;

  // Opens a table file. Throws TableError naming the file and the check that
  // failed. Thread-safe. A table loaded at open has its blocks decoded by
  // `threads` threads (0: one per hardware thread), which have finished when
  // open() returns. A table loaded on demand keeps at most `cache_bytes` of
  // decoded blocks (at least one block), and decodes a block again once the
  // blocks probed more recently have pushed it out.
  static Table open(const std::filesystem::path& path, Load load = Load::automatic,
                    unsigned threads = 1, std::uint64_t cache_bytes = kDefaultCacheBytes);

  // Opens default_path(). Thread-safe.
  static Table open_default(Load load = Load::automatic);

  // Where tables are looked for, in order: $PAWNTB_TABLE when set (a table
  // file, or a directory to search), the current directory ".", "data", and
  // the installed data directory, found relative to the installed library or
  // executable (<prefix>/share/pawntb; <build>/share/pawntb in a build tree).
  // Reads the environment: thread-safe while nothing changes it.
  static std::vector<std::filesystem::path> search_path();

  // The first table for boards of geometry g along search_path(): in each
  // directory the files named RxC-kK.pawntb ("3x3-k3.pawntb"), largest K
  // first; $PAWNTB_TABLE itself when it names a file, unless its header says
  // another geometry (a file that cannot be read is returned, so that opening
  // it says why). Thread-safe as search_path().
  static std::optional<std::filesystem::path> find(Geometry g);

  // The table for boards of geometry g in `directory` alone: the file named
  // RxC-kK.pawntb there with the largest K, as find() looks in each directory
  // of the search path. For callers given a directory of tables (the Python
  // package's open_table). Thread-safe.
  static std::optional<std::filesystem::path> find_in(const std::filesystem::path& directory,
                                                      Geometry g);

  // Every table file along search_path(), in its order: $PAWNTB_TABLE itself
  // when it names a file, then in each directory the files named
  // RxC-kK.pawntb, by board size and, for each, largest K first (the order in
  // which find() takes them). Files that cannot be opened are listed too:
  // opening one says why. Thread-safe as search_path().
  static std::vector<std::filesystem::path> find_all();

  // Opens find(g). Throws TableError in no_table_for()'s words, naming
  // search_path() ("(looked in: ., data, ...)"), if there is none, else as
  // open(). Thread-safe as search_path().
  static Table open_for(Geometry g, Load load = Load::automatic, unsigned threads = 1,
                        std::uint64_t cache_bytes = kDefaultCacheBytes);

  // Opens the table for g along `directories` instead of search_path(): in
  // the first that has one, the file find_in() names. Throws TableError as
  // open_for(g) does, naming `directories` (empty paths among them are
  // skipped). For callers with a search path of their own (the C API's
  // pawntb_open_for). Thread-safe.
  static Table open_for(Geometry g, const std::vector<std::filesystem::path>& directories,
                        Load load = Load::automatic);

  // The default table, which open_default() opens: $PAWNTB_TABLE when it
  // names a file (whatever its geometry), else find() of 4x4; throws
  // TableError as open_for() if there is none. Thread-safe as search_path().
  static std::filesystem::path default_path();

  // The value of any position (either side to move). O(1): a rank and one
  // lookup. Thread-safe, never throws.
  ProbeResult probe(const Position& p) const noexcept;

  // probe() of each of positions[0..count), into results[0..count). The
  // same answers, faster for many positions: the table lookups of a group of
  // positions overlap in memory. Thread-safe, never throws.
  void probe_many(const Position* positions, std::size_t count,
                  ProbeResult* results) const noexcept;

  // The value, every legal move with the value it leads to, best first (the
  // fastest wins, then the longest losses; ties in move order), and the
  // principal variation. Thread-safe; throws only std::bad_alloc.
  RootResult probe_root(const Position& p) const;

  // start_position(info().geometry, info().max_pawns) (position.hpp): the
  // start of a game this table covers. Thread-safe.
  Position start_position() const noexcept;

  // The header's facts about the table. Thread-safe; valid while a copy of
  // the Table lives.
  const TableInfo& info() const noexcept;

 private:
  friend struct probe_detail::TableAccess;
  explicit Table(std::shared_ptr<const probe_detail::TableData> data);
  std::shared_ptr<const probe_detail::TableData> impl_;
};

// The words of every pawntb interface for a board size without a table,
// which end with `where` (" (looked in: ., data)", " (loaded: 4x4-k4)",
// " in DIR ..."); the one place that words it (probe/src/find_tables.cpp).
// Thread-safe.
std::string no_table_for(Geometry g, std::string_view where);

// Why `table` cannot answer `p`, given r = table.probe(p) (or
// probe_root(p).value), in the words of every pawntb interface: "invalid
// position: " and invalid_reason(p); "board is 4x4, the table PATH is 3x3";
// "more than 4 pawns a side, the table's limit"; of a damaged table, the one
// wording of it: "PATH: " and describe() (`p` is not read then). Empty when
// r.ok(). Thread-safe; throws only std::bad_alloc.
std::string probe_problem(const Table& table, const Position& p, ProbeResult r);

// Why the rules refuse `p` (classify(p) == Status::invalid), as
// probe_problem() words ProbeStatus::invalid_position, for the interfaces
// that apply the rules without a table (play, legal moves, solve).
// Thread-safe; throws only std::bad_alloc.
std::string invalid_position_problem(const Position& p);

// An object of numbers, its keys in order: the geometry {"rows", "cols",
// "max_pawns"}, as every JSON answer of pawntb gives it.
using InfoObject = std::vector<std::pair<std::string, std::uint64_t>>;

// One fact about a table file, as `pawntb info --json` and the Python
// package's Table.info() give it: a key and its value.
struct InfoField {
  const char* key;  // a static string
  std::variant<std::nullptr_t, std::uint64_t, std::string, InfoObject> value;
};

// The facts of `pawntb info`, in its order: file, format_version, geometry
// ({"rows", "cols", "max_pawns"}), entries, placements, white_wins, longest_game_plies,
// longest_game_example, file_size, blocks, block_entries, header_checksum,
// index_checksum, rules_fingerprint, file_checksum (16 hex digits each) and
// file_checksum_listed_in (null when `listed_in` is empty). `file_checksum`
// and `listed_in` are the XXH3-64 of the table's file and the checksums.txt
// that lists it (check::file_checksum and check::checksum_listing, for
// `pawntb info`). Thread-safe.
std::vector<InfoField> info_fields(const TableInfo& info, std::uint64_t file_checksum,
                                   const std::filesystem::path& listed_in);

}  // namespace pawntb
