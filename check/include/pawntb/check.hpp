// pawntb check: whole-table checks of a pawntb::Table, apart from probing:
// verify (every value re-derived from its successors), its plan, the block
// checks, the tier checksums, reading entries in bulk and the table file's
// checksum. For `pawntb verify`, `pawntb info`, `pawntb tables` and the
// statistics (pawntb::analysis); a program that only probes links none of
// it. It sees a table through probe.hpp and block_reader.hpp alone
// (tests/check/links.cmake).
//
// THREADS. Every function may run on the same Table at once, and beside its
// probes. A `threads` parameter counts the caller's thread; 0 means one per
// hardware thread (as in probe.hpp). Nothing here prints, exits or aborts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "pawntb/probe.hpp"
#include "pawntb/progress.hpp"

namespace pawntb::check {

struct BlockDamage {
  std::uint32_t block = 0;
  std::string error;  // e.g. "checksum mismatch", "cannot read the block"
};

struct VerifyReport {
  std::uint64_t checked = 0;     // positions re-checked against their successors
  std::uint64_t mismatches = 0;  // positions whose value disagrees
  std::string first_mismatch;    // the first disagreeing position and both values
  // Every block that cannot be loaded, in block order. Positions in them, or
  // with a successor in them, are not checked, nor are the header's counts.
  std::vector<BlockDamage> damaged_blocks;
  bool ok() const { return mismatches == 0 && damaged_blocks.empty(); }
};

// A tier of the table (FORMAT.md 6.3): the positions with the same pawns and
// the same advancement sums, a range of entries. Its checksum lets a table
// made elsewhere, or a generator's work directory, be compared tier by tier.
struct TierChecksum {
  std::uint32_t tier = 0;  // its number in index order
  int white_pawns = 0, black_pawns = 0;
  int white_advance = 0, black_advance = 0;  // rows advanced, summed over the side's pawns
  std::uint64_t first_entry = 0, entries = 0;
  // XXH3-64 of the tier's entries as a decoded block holds them (FORMAT.md
  // section 7): a tier file's values_checksum.
  std::uint64_t checksum = 0;
};

struct TierChecksums {
  std::vector<TierChecksum> tiers;          // every tier, in order; none if a block is damaged
  std::vector<BlockDamage> damaged_blocks;  // in block order
};

// How far a verify() has come: the entries [0, entries_done) are checked, and
// `report` says what was found so far. verify() hands one to its checkpoint
// callback every so often; passing it back to verify() carries on from there,
// so that the check of a large table can be stopped and resumed (`pawntb
// verify --resume FILE` keeps it in a file).
struct VerifyState {
  std::uint64_t header_checksum = 0;  // TableInfo::header_checksum of its table; 0: not begun
  bool blocks_checked = false;        // every block's checksum is checked (report.damaged_blocks)
  std::uint64_t entries_done = 0;
  std::uint64_t white_wins = 0;  // among the checked entries
  int max_plies = 0;             // among the checked entries
  bool longest_ok = true;        // false if the header's longest example was checked and is not
  VerifyReport report;
};
using VerifyCheckpoint = std::function<void(const VerifyState&)>;

// What verify() will hold in memory, from the index alone: the decoded bytes
// of the tier that reads the most (its entries and those of the tiers its
// moves lead to, in whole image pages), and the tiers that need more than
// the memory budget and so are checked in pieces, more slowly. A table
// loaded at open is its own image: nothing is checked in pieces.
struct VerifyPlan {
  std::uint64_t largest_tier_bytes = 0;  // the most decoded bytes one tier needs held
  std::uint64_t memory_bytes = 0;        // the budget verify() keeps to (0: loaded at open)
  std::uint64_t tiers = 0;
  std::uint64_t tiers_in_pieces = 0;
  std::uint64_t entries = 0;
  std::uint64_t entries_in_pieces = 0;  // the entries of those tiers
};

// Re-checks every indexed position of `table` against its one-ply
// successors (code independent of the generator), every block's checksum
// and the header's statistics, on `threads` threads; reports stage "verify"
// from the calling thread. Goes tier by tier, decoding each tier and the
// tiers its moves lead to in bulk; a table not loaded at open has at most
// `memory_bytes` of decoded values held (whole blocks, at least one), and a
// tier that does not fit with those it reads is checked in pieces (slower).
// Starts where `from` ended (VerifyState{}: at the beginning) and calls
// on_checkpoint, if given, from the calling thread after every 64th of the
// entries or so (at most 2^26) and at the end. Throws std::invalid_argument
// if `from` is of another table (another header checksum) or past its end,
// std::bad_alloc, and whatever on_checkpoint throws.
VerifyReport verify(const Table& table, std::uint64_t memory_bytes,
                    const ProgressCallback& on_progress = {}, unsigned threads = 1,
                    const VerifyState& from = {}, const VerifyCheckpoint& on_checkpoint = {});

// What verify() of `table` with `memory_bytes` will hold (VerifyPlan),
// worked out from the index without reading a block; for `pawntb verify
// --plan`, and to say how much memory checks every tier whole. Throws only
// std::bad_alloc.
VerifyPlan verify_plan(const Table& table, std::uint64_t memory_bytes);

// Reads, decodes and checksums every block once, keeping none (memory: a
// block per thread, so that tables far larger than memory can be checked),
// on `threads` threads. Returns the damaged blocks in block order; none for a
// table loaded at open, whose blocks were checked then. For `pawntb info`.
std::vector<BlockDamage> check_blocks(const Table& table, unsigned threads = 1);

// The entries [first, first + count), into out[0 .. count), as a decoded
// block holds them (FORMAT.md 7): each the plies of its position, white to
// move, except a mirror image that does not win in one by rule, which holds
// 0 (its value is its mirror's). Reads and decodes the blocks that hold them
// on the calling thread, keeping none (a table loaded at open: a copy). For
// walks of a whole table in index order (`pawntb stats`). Throws TableError
// naming the file and the block if one is damaged or cannot be read,
// std::out_of_range if the range passes the last entry, std::bad_alloc.
void read_entries(const Table& table, std::uint64_t first, std::uint64_t count, std::uint8_t* out);

// Every tier's checksum, reading and checking every block as check_blocks()
// does (memory: 32 decoded blocks), on `threads` threads. If a block is
// damaged, returns the damage and no tiers. For `pawntb info --tiers`.
// Throws only std::bad_alloc.
TierChecksums tier_checksums(const Table& table, unsigned threads = 1);

// The memory budget of the walks over a whole table when the caller gives
// none: verify(), the statistics (pawntb::analysis) and the web explorer's
// statistics. Three quarters of the memory available now, at least 48 MiB,
// as `pawntb generate` takes by default. Reads /proc; thread-safe.
std::uint64_t default_memory_bytes();

// XXH3-64 of the whole file at `path` (data/checksums.txt lists those of the
// committed tables), read in pieces. Throws TableError naming the file if it
// cannot be read. Thread-safe. For `pawntb info`, `pawntb tables`, the web
// explorer and the Python package.
std::uint64_t file_checksum(const std::filesystem::path& path);

// The checksums.txt that lists the table file `table` with `checksum`, in a
// line "<16 hex digits>  <file name>" as data/checksums.txt: the one next to
// the table, else the first in a directory of Table::search_path(). Empty if
// none does. Thread-safe as Table::search_path().
std::filesystem::path checksum_listing(const std::filesystem::path& table, std::uint64_t checksum);

}  // namespace pawntb::check
