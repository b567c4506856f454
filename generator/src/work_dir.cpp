#include "work_dir.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "pawntb/generator.hpp"
#include "pawntb/util/file.hpp"
#include "pawntb/util/zstd.hpp"
#include "table_writer.hpp"
#include "tier_buffer.hpp"

namespace pawntb::generator_detail {

using codec::checksum64;
using codec::Index;
using codec::Plies;
using codec::rules_fingerprint;

namespace {

namespace fs = std::filesystem;

// Tier files are written fast: they are read back a few times and then
// recompressed into the table (docs/benchmarks.md).
constexpr int kTierCompressionLevel = 1;
constexpr std::size_t kIoChunk = std::size_t{4} << 20;  // bytes per read or write

constexpr char kManifestName[] = "pawntb-work.txt";

std::string manifest_text(const Index& index) {
  std::ostringstream out;
  out << "pawntb work directory 1\n"
      << "geometry " << to_string(index.geometry()) << "\n"
      << "pawns " << index.max_pawns() << "\n"
      << "entries " << index.size() << "\n"
      << "tiers " << index.tiers().size() << "\n"
      << "rules " << std::hex << rules_fingerprint() << "\n";
  return out.str();
}

using util::read_at;

// The tier's values from an open tier file, checked against its header;
// a reason, or empty when all is well.
std::string decode_tier_file(int fd, std::uint64_t file_size, const Index& index, std::size_t tier,
                             std::span<Plies> out, TierSummary& summary) {
  DiskTierHeader h{};
  if (file_size < sizeof h ||
      !read_at(fd, std::span(reinterpret_cast<std::uint8_t*>(&h), sizeof h), 0)) {
    return "shorter than its header";
  }
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(&h);
  if (h.magic != kTierMagic) return "not a pawntb tier file";
  if (checksum64(std::span(bytes, offsetof(DiskTierHeader, header_checksum))) !=
      h.header_checksum.get()) {
    return "header checksum mismatch";
  }
  const Index::Tier& t = index.tiers()[tier];
  if (h.version.get() != kTierFileVersion || h.rows != index.geometry().rows ||
      h.cols != index.geometry().cols || h.max_pawns != index.max_pawns() || h.tier.get() != tier ||
      h.first.get() != t.first || h.size.get() != t.size ||
      h.rules_fingerprint.get() != rules_fingerprint() || out.size() != t.size) {
    return "made for another tier, table or version";
  }
  if (sizeof h + h.frame_size.get() != file_size) return "truncated or too long";
  const util::ZstdDecompressor zstd(ZSTD_createDCtx());
  if (!zstd) return "out of memory";
  std::vector<std::uint8_t> chunk(kIoChunk);
  ZSTD_outBuffer output{out.data(), out.size(), 0};
  std::uint64_t offset = sizeof h;
  std::size_t last = 1;  // ZSTD_decompressStream's hint: 0 once the frame is complete
  while (offset < file_size) {
    const auto n =
        static_cast<std::size_t>(std::min<std::uint64_t>(chunk.size(), file_size - offset));
    if (!read_at(fd, std::span(chunk).first(n), offset)) return "cannot be read";
    offset += n;
    ZSTD_inBuffer input{chunk.data(), n, 0};
    while (input.pos < input.size) {
      last = ZSTD_decompressStream(zstd.get(), &output, &input);
      if (ZSTD_isError(last)) return std::string("zstd: ") + ZSTD_getErrorName(last);
      if (last == 0 && input.pos < input.size) return "data after the frame";
    }
  }
  if (last != 0 || output.pos != out.size()) return "the frame does not hold the tier's values";
  if (checksum64(out) != h.values_checksum.get()) return "values checksum mismatch";
  summary.win_count = h.win_count.get();
  summary.longest_index = h.longest_index.get();
  summary.max_plies = h.max_plies;
  return {};
}

}  // namespace

WorkDir::WorkDir(fs::path dir, const Index& index, Leftovers leftovers)
    : dir_(std::move(dir)), index_(index) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (!fs::is_directory(dir_)) {
    throw GenerateError("cannot make the work directory " + dir_.string() +
                        (ec ? ": " + ec.message() : ""));
  }
  const fs::path manifest = dir_ / kManifestName;
  const std::string expected = manifest_text(index);
  if (fs::exists(manifest)) {
    std::ifstream in(manifest);
    std::stringstream text;
    text << in.rdbuf();
    if (text.str() != expected) {
      throw GenerateError("the work directory " + dir_.string() +
                          " holds the work of another table (" + manifest.string() +
                          "); use another --work-dir, or remove it");
    }
  } else {
    write_file(manifest, [&](ByteSink& sink) {
      sink.write_at(
          0, std::span(reinterpret_cast<const std::uint8_t*>(expected.data()), expected.size()));
      return std::uint64_t{expected.size()};
    });
  }
  // A run killed while writing leaves ".name.XXXXXX" temporary files.
  if (leftovers == Leftovers::keep) return;
  // (increment(ec), not ++, which would throw filesystem_error)
  for (fs::directory_iterator it(dir_, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind(".tier-", 0) == 0 || name.rfind(".pawntb-work", 0) == 0) {
      std::error_code remove_ec;
      fs::remove(it->path(), remove_ec);
    }
  }
}

fs::path WorkDir::tier_path(std::size_t tier) const {
  char name[32];
  std::snprintf(name, sizeof name, "tier-%06zu.zst", tier);
  return dir_ / name;
}

std::optional<TierSummary> WorkDir::check_tier(std::size_t tier, std::string* why) const {
  const fs::path path = tier_path(tier);
  const util::FileDescriptor file(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  struct stat st {};
  if (!file.valid() || ::fstat(file.get(), &st) != 0) {
    if (why) *why = "missing";
    return std::nullopt;
  }
  TierBuffer values(index_.tiers()[tier].size);
  TierSummary summary;
  const std::string reason = decode_tier_file(file.get(), static_cast<std::uint64_t>(st.st_size),
                                              index_, tier, values.span(), summary);
  if (!reason.empty()) {
    if (why) *why = reason;
    return std::nullopt;
  }
  return summary;
}

TierSummary WorkDir::read_tier(std::size_t tier, std::span<Plies> out) const {
  const fs::path path = tier_path(tier);
  const util::FileDescriptor file(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  struct stat st {};
  if (!file.valid() || ::fstat(file.get(), &st) != 0) {
    throw GenerateError("cannot open the tier file " + path.string() + ": " + std::strerror(errno));
  }
  TierSummary summary;
  const std::string reason = decode_tier_file(file.get(), static_cast<std::uint64_t>(st.st_size),
                                              index_, tier, out, summary);
  if (!reason.empty()) {
    throw GenerateError(path.string() + ": " + reason +
                        "; run the same command again to solve the tier again");
  }
  return summary;
}

void WorkDir::write_tier(std::size_t tier, std::span<const Plies> values,
                         const TierSummary& summary) const {
  const Index::Tier& t = index_.tiers()[tier];
  DiskTierHeader h{};
  h.magic = kTierMagic;
  h.version.set(kTierFileVersion);
  h.rows = static_cast<std::uint8_t>(index_.geometry().rows);
  h.cols = static_cast<std::uint8_t>(index_.geometry().cols);
  h.max_pawns = static_cast<std::uint8_t>(index_.max_pawns());
  h.tier.set(static_cast<std::uint32_t>(tier));
  h.first.set(t.first);
  h.size.set(t.size);
  h.win_count.set(summary.win_count);
  h.longest_index.set(summary.longest_index);
  h.max_plies = static_cast<std::uint8_t>(summary.max_plies);
  h.values_checksum.set(checksum64(values));
  h.rules_fingerprint.set(rules_fingerprint());
  write_file(tier_path(tier), [&](ByteSink& sink) {
    const util::ZstdCompressor zstd(ZSTD_createCCtx());
    if (!zstd) throw GenerateError("out of memory");
    ZSTD_CCtx_setParameter(zstd.get(), ZSTD_c_compressionLevel, kTierCompressionLevel);
    ZSTD_CCtx_setPledgedSrcSize(zstd.get(), values.size());
    std::vector<std::uint8_t> chunk(ZSTD_CStreamOutSize());
    std::uint64_t offset = sizeof h;
    ZSTD_inBuffer input{values.data(), values.size(), 0};
    for (bool finished = false; !finished;) {
      ZSTD_outBuffer output{chunk.data(), chunk.size(), 0};
      const std::size_t left = ZSTD_compressStream2(zstd.get(), &output, &input, ZSTD_e_end);
      if (ZSTD_isError(left)) {
        throw GenerateError(std::string("zstd compression failed: ") + ZSTD_getErrorName(left));
      }
      sink.write_at(offset, std::span(chunk.data(), output.pos));
      offset += output.pos;
      finished = left == 0;
    }
    h.frame_size.set(offset - sizeof h);
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(&h);
    h.header_checksum.set(checksum64(std::span(bytes, offsetof(DiskTierHeader, header_checksum))));
    sink.write_at(0, std::span(bytes, sizeof h));
    return offset;
  });
}

std::uint64_t WorkDir::bytes_used() const {
  // Counts the tier files only (not the manifest, nor another rank's file
  // being written), and skips a file that vanished or cannot be read: its
  // file_size error value, 2^64 - 1, would wrap the total.
  std::uint64_t total = 0;
  std::error_code ec;
  for (fs::directory_iterator it(dir_, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind("tier-", 0) != 0 || !name.ends_with(".zst")) continue;
    std::error_code size_ec;
    const std::uintmax_t size = it->file_size(size_ec);
    if (!size_ec) total += size;
  }
  return total;
}

}  // namespace pawntb::generator_detail
