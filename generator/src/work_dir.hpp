// The work directory of a generation by units: one file per finished unit
// (units.hpp), so that a run stopped at any moment resumes at the first
// unfinished unit, and so that ranks on other machines (MPI, a shared file
// system) read the slices they need; then the table being assembled and its
// checkpoint. format/FORMAT.md, "Appendix: the work directory", has the bytes.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pawntb/format/index.hpp"
#include "pawntb/format/layout.hpp"
#include "pawntb/format/stored.hpp"
#include "pawntb/format/values.hpp"
#include "pawntb/util/file.hpp"
#include "pawntb/util/zstd.hpp"
#include "table_writer.hpp"
#include "tier_solver.hpp"
#include "units.hpp"

namespace pawntb::generator_detail {

using format::Index;
using format::Le16;
using format::Le32;
using format::Le64;
using format::Plies;
using format::rules_fingerprint;

// The header of a unit file; then one DiskUnitSlice per slice of the unit,
// in index order; then each slice's stored values (the entries that are not
// filler, FORMAT.md section 7, as in the table's blocks) as one zstd frame.
// The reader puts the filler back (win in one 1, the rest 0), which gives
// the values as solve_ranges leaves them.
struct DiskUnitHeader {
  std::array<std::uint8_t, 8> magic;  // kUnitMagic
  Le16 version;                       // kUnitFileVersion
  std::uint8_t rows, cols, max_pawns;
  std::uint8_t max_plies;                 // TierSummary
  std::array<std::uint8_t, 2> reserved1;  // zero
  Le32 unit;                              // its number
  Le32 tier;                              // its first tier's number
  Le32 slice_count;
  Le32 reserved2;  // zero
  Le64 entries;    // its entries, the sum of its slices' sizes
  Le64 win_count;  // TierSummary
  Le64 longest_index;
  Le64 rules_fingerprint;  // rules_fingerprint()
  Le64 slices_checksum;    // XXH3-64 of the slice records
  Le64 file_size;          // bytes of the whole file
  Le64 reserved3;          // zero
  Le64 header_checksum;    // XXH3-64 of bytes 0..87
};
static_assert(sizeof(DiskUnitHeader) == 96 && alignof(DiskUnitHeader) == 1);
static_assert(offsetof(DiskUnitHeader, unit) == 16 && offsetof(DiskUnitHeader, entries) == 32);
static_assert(offsetof(DiskUnitHeader, slices_checksum) == 64);
static_assert(offsetof(DiskUnitHeader, header_checksum) == 88);

struct DiskUnitSlice {
  Le64 first, size;      // the slice's entries [first, first + size)
  Le64 stored;           // of them, stored: the frame's decompressed bytes
  Le64 frame_offset;     // where its frame starts in the file
  Le64 frame_size;       // bytes of the frame
  Le64 stored_checksum;  // XXH3-64 of the stored values (decompressed)
};
static_assert(sizeof(DiskUnitSlice) == 48 && alignof(DiskUnitSlice) == 1);

inline constexpr std::array<std::uint8_t, 8> kUnitMagic = {'P', 'A', 'W', 'N', 'U', 'N', 'I', 'T'};
inline constexpr std::uint16_t kUnitFileVersion = 2;

// Where assembling the table has got to (FORMAT.md, the work directory's
// appendix): blocks [0, blocks) are in table.partial, durably, their frames
// ending at `offset`, and the unit files whose slices all lie below entry
// blocks * block_entries may be gone.
struct AssemblyCheckpoint {
  std::uint64_t blocks = 0, offset = 0;
  std::uint64_t index_checksum = 0;  // XXH3-64 of the first `blocks` block index entries
  TableTotals totals;                // of the whole table, from every unit
};

class WorkDir {
 public:
  // Whether opening the directory removes the temporary files that a killed
  // run left behind: only one process of a run may (MPI rank 0, before it
  // hands out units), or it would remove another rank's file being written.
  enum class Leftovers : std::uint8_t { remove, keep };

  // Opens `dir` for the table of `index` cut into `units`, creating it and
  // its manifest if needed. Throws GenerateError if it holds the work of
  // other parameters or cannot be made.
  WorkDir(std::filesystem::path dir, const Index& index, const UnitPlan& units,
          Leftovers leftovers);

  const std::filesystem::path& path() const { return dir_; }
  std::filesystem::path unit_path(std::size_t unit) const { return unit_path(dir_, unit); }
  // The one spelling of a unit file's name, "unit-0000042.zst"
  // (FORMAT.md, "Appendix: the work directory"), and whether `name` is one.
  static std::filesystem::path unit_path(const std::filesystem::path& dir, std::size_t unit);
  static bool is_unit_file(std::string_view name);
  std::filesystem::path partial_path() const { return dir_ / "table.partial"; }
  std::filesystem::path checkpoint_path() const { return dir_ / "assembly.txt"; }

  // The summary of a finished unit whose file is whole (its header, its
  // slice records and every frame check), or nullopt with the reason in
  // *why. Reads and decodes the file.
  std::optional<TierSummary> check_unit(std::size_t unit, std::string* why) const;

  // Writes a finished unit's file atomically: `values` holds its slices'
  // values one after another. Throws GenerateError.
  void write_unit(std::size_t unit, std::span<const Plies> values,
                  const TierSummary& summary) const;

  // write_unit in two steps, so that the file can be written on another
  // thread while this one reads other units: forget_unit on the reading
  // thread first, then write_unit_file, which uses nothing that read_slice
  // and check_unit use. One write at a time.
  void forget_unit(std::size_t unit) const { forget(unit); }
  void write_unit_file(std::size_t unit, std::span<const Plies> values,
                       const TierSummary& summary) const;

  // Reads the values of slice s (Index::slices()) from its unit's file into
  // out (its size). Throws GenerateError naming the file if it is missing or
  // damaged. `reader` (below readers(), which set_readers sets while no
  // read runs) picks the zstd context and open files: reads with distinct
  // readers may run at once, on several threads.
  void read_slice(std::size_t s, std::span<Plies> out, unsigned reader = 0) const;
  void set_readers(unsigned count) const;
  unsigned readers() const { return static_cast<unsigned>(readers_.size()); }

  // read_slice of each, on `threads` threads (util::parallel_for), a
  // slice's frame each: reading was main-thread-only work of the solve and
  // of the assembly.
  struct SliceRead {
    std::size_t slice;
    std::span<Plies> values;
  };
  void read_slices(std::span<const SliceRead> reads, unsigned threads) const;

  // Throws GenerateError when `dir` has a manifest that is not the one of
  // `index` and `units`: the work of another table, or of another version
  // of pawntb, whose unit files must not be counted or read. Nothing when it
  // has none.
  static void check_manifest(const std::filesystem::path& dir, const Index& index,
                             const UnitPlan& units);

  // The most bytes of buffers and zstd state that reading and checking unit
  // files of at most `unit_entries` entries holds, and that writing one
  // holds besides, for the memory plan (memory.hpp); and the most that the
  // checked headers and slice records of the files read hold, for `slices`
  // slices in `units` units.
  static std::uint64_t read_bytes(std::uint64_t unit_entries);
  static std::uint64_t write_bytes();
  static std::uint64_t records_bytes(std::uint64_t slices, std::uint64_t units);

  // Bytes of the unit files and the table being assembled now in the
  // directory; files_bytes(dir) for a directory not opened (0 if none).
  std::uint64_t bytes_used() const { return files_bytes(dir_); }
  static std::uint64_t files_bytes(const std::filesystem::path& dir);

  std::optional<AssemblyCheckpoint> read_checkpoint() const;
  void write_checkpoint(const AssemblyCheckpoint& checkpoint) const;

  // Flushes every unit file, and the directory, to disk: unit files are
  // written without a flush each (util::Flush::none), so the assembly calls
  // this before it deletes any.
  void flush_units() const;

 private:
  std::filesystem::path dir_;
  const Index& index_;
  const UnitPlan& units_;
  // zstd's contexts, made once: a unit reads hundreds of slices.
  std::unique_ptr<const BoardSymmetry> symmetry_;  // 32 KiB: for the filler
  mutable util::ZstdCompressor compress_;
  // The unit files read_slice read last, kept open, and the checked header
  // and slice records of every unit file read: a group reads a slice of
  // each of several units one after another (the slices of a tier are
  // ordered by white profile, and units by black profile), and the assembly
  // goes through the units of a tier once per white profile; each read
  // would otherwise open the file and check all its records again. A unit
  // file does not change once whole; write_unit forgets it.
  struct OpenFile {
    std::size_t unit = SIZE_MAX;
    util::FileDescriptor file;
    std::uint64_t last_use = 0;
  };
  struct Records {
    DiskUnitHeader header{};
    std::vector<DiskUnitSlice> slices;  // empty: not read
  };
  static constexpr std::size_t kOpenFiles = 16;
  // What one reader of unit files holds: its zstd context and open files.
  struct Reader {
    util::ZstdDecompressor decompress;
    std::array<OpenFile, kOpenFiles> open;
    std::uint64_t clock = 0;
  };
  // The open file of `unit` among the reader's, its records in
  // records_[unit] (read under records_mutex_); throws GenerateError naming
  // the file.
  int open_unit(std::size_t unit, Reader& reader) const;
  // Drops what is known of a unit's file; no read may run.
  void forget(std::size_t unit) const;
  mutable std::vector<std::unique_ptr<Reader>> readers_;  // at least one
  mutable std::mutex records_mutex_;
  mutable std::vector<Records> records_;
};

}  // namespace pawntb::generator_detail
