// The work directory of a tiered generation: one file per finished tier, so
// that a run stopped at any moment resumes at the first unfinished tier, and
// so that ranks on other machines (MPI, a shared file system) read the tiers
// they need. format/FORMAT.md, "Appendix: the work directory", has the bytes.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "pawntb/codec/index.hpp"
#include "pawntb/codec/layout.hpp"
#include "pawntb/codec/values.hpp"
#include "tier_solver.hpp"

namespace pawntb::generator_detail {

using codec::Index;
using codec::Le16;
using codec::Le32;
using codec::Le64;
using codec::Plies;
using codec::rules_fingerprint;

// The header of a tier file, then one zstd frame of the tier's values (one
// byte per entry, as solve_tier leaves them).
struct DiskTierHeader {
  std::array<std::uint8_t, 8> magic;  // kTierMagic
  Le16 version;                       // kTierFileVersion
  std::uint8_t rows, cols, max_pawns;
  std::array<std::uint8_t, 3> reserved1;  // zero
  Le32 tier;                              // its number in index order
  Le32 reserved2;                         // zero
  Le64 first, size;                       // its entries [first, first + size)
  Le64 win_count;                         // TierSummary
  Le64 longest_index;
  std::uint8_t max_plies;
  std::array<std::uint8_t, 7> reserved3;  // zero
  Le64 values_checksum;                   // XXH3-64 of the size value bytes
  Le64 frame_size;                        // bytes of the zstd frame that follows
  Le64 rules_fingerprint;                 // rules_fingerprint()
  Le64 header_checksum;                   // XXH3-64 of bytes 0..87
};
static_assert(sizeof(DiskTierHeader) == 96 && alignof(DiskTierHeader) == 1);
static_assert(offsetof(DiskTierHeader, tier) == 16 && offsetof(DiskTierHeader, first) == 24);
static_assert(offsetof(DiskTierHeader, values_checksum) == 64);
static_assert(offsetof(DiskTierHeader, header_checksum) == 88);
inline constexpr std::array<std::uint8_t, 8> kTierMagic = {'P', 'A', 'W', 'N', 'T', 'I', 'E', 'R'};
inline constexpr std::uint16_t kTierFileVersion = 1;

class WorkDir {
 public:
  // Whether opening the directory removes the temporary files that a killed
  // run left behind: only one process of a run may (MPI rank 0, before it
  // hands out tiers), or it would remove another rank's file being written.
  enum class Leftovers : std::uint8_t { remove, keep };

  // Opens `dir` for the table of `index`, creating it and its manifest if
  // needed. Throws GenerateError if it holds the work of other parameters or
  // cannot be made.
  WorkDir(std::filesystem::path dir, const Index& index, Leftovers leftovers);

  const std::filesystem::path& path() const { return dir_; }
  std::filesystem::path tier_path(std::size_t tier) const;

  // The summary of a finished tier whose file is whole (its header, its frame
  // and the values' checksum all check), or nullopt with the reason in
  // *why. Reads and decodes the file.
  std::optional<TierSummary> check_tier(std::size_t tier, std::string* why) const;

  // Writes a finished tier's file atomically. Throws GenerateError.
  void write_tier(std::size_t tier, std::span<const Plies> values,
                  const TierSummary& summary) const;

  // Reads a finished tier's values into out (its size). Throws GenerateError
  // naming the file if it is missing or damaged.
  TierSummary read_tier(std::size_t tier, std::span<Plies> out) const;

  // Bytes of the tier files now in the directory.
  std::uint64_t bytes_used() const;

 private:
  std::filesystem::path dir_;
  const Index& index_;
};

}  // namespace pawntb::generator_detail
