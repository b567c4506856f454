#include "work_dir.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "pawntb/generator.hpp"
#include "pawntb/util/file.hpp"
#include "pawntb/util/threads.hpp"
#include "pawntb/util/zstd.hpp"
#include "table_writer.hpp"
#include "tier_buffer.hpp"

namespace pawntb::generator_detail {

using format::checksum64;
using format::EntryKind;
using format::for_each_span;
using format::Index;
using format::Plies;
using format::rules_fingerprint;

namespace {

namespace fs = std::filesystem;

// Unit files are written fast: each is read back a few times (by the units
// that read its slices, and to assemble the table), then recompressed into
// the table's blocks. Only the stored values are kept, as in the table: at
// level 1 the work directory is then about 1.2 times the table (FORMAT.md,
// the scheduling appendix), where all values took 1.6 times on 5x5.
constexpr int kUnitCompressionLevel = 1;
constexpr std::size_t kIoChunk = std::size_t{4} << 20;  // bytes per read
// zstd 1.5's estimates: ZSTD_estimateCStreamSize(1), and
// ZSTD_estimateDStreamSize for level 1's window (2^19).
constexpr std::uint64_t kCompressStreamBytes = 1'369'505;
constexpr std::uint64_t kDecompressStreamBytes = 1'013'560;

constexpr char kManifestName[] = "pawntb-work.txt";
// A unit file's name: the prefix, the unit's number in 7 digits, the suffix.
constexpr std::string_view kUnitPrefix = "unit-", kUnitSuffix = ".zst";

std::string manifest_text(const Index& index, const UnitPlan& units) {
  std::ostringstream out;
  out << "pawntb work directory 3\n"
      << "geometry " << to_string(index.geometry()) << "\n"
      << "pawns " << index.max_pawns() << "\n"
      << "entries " << index.size() << "\n"
      << "tiers " << index.tiers().size() << "\n"
      << "units " << units.size() << " of at most " << units.unit_entries() << " entries\n"
      << "rules " << std::hex << rules_fingerprint() << "\n";
  return out.str();
}

using util::read_at;

// An open unit file's header and slice records, checked; a reason, or empty
// when all is well.
struct UnitFile {
  DiskUnitHeader header{};
  std::vector<DiskUnitSlice> slices;
};

std::string read_unit_file(int fd, std::uint64_t file_size, const Index& index,
                           const UnitPlan& units, std::size_t unit, UnitFile& f) {
  DiskUnitHeader& h = f.header;
  if (file_size < sizeof h ||
      !read_at(fd, std::span(reinterpret_cast<std::uint8_t*>(&h), sizeof h), 0)) {
    return "shorter than its header";
  }
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(&h);
  if (h.magic != kUnitMagic) return "not a pawntb unit file";
  if (checksum64(std::span(bytes, offsetof(DiskUnitHeader, header_checksum))) !=
      h.header_checksum.get()) {
    return "header checksum mismatch";
  }
  const Unit& u = units.unit(unit);
  if (h.version.get() != kUnitFileVersion || h.rows != index.geometry().rows ||
      h.cols != index.geometry().cols || h.max_pawns != index.max_pawns() || h.unit.get() != unit ||
      h.tier.get() != u.tier || h.slice_count.get() != u.slice_count ||
      h.entries.get() != u.entries || h.rules_fingerprint.get() != rules_fingerprint()) {
    return "made for another unit, table or version";
  }
  if (h.file_size.get() != file_size) return "truncated or too long";
  f.slices.resize(u.slice_count);
  const auto records = std::span(reinterpret_cast<std::uint8_t*>(f.slices.data()),
                                 f.slices.size() * sizeof(DiskUnitSlice));
  if (!read_at(fd, records, sizeof h)) return "cannot be read";
  if (checksum64(records) != h.slices_checksum.get()) return "slice records checksum mismatch";
  std::uint64_t offset = sizeof h + records.size();
  const auto plan = units.slices(unit);
  for (std::size_t i = 0; i < f.slices.size(); ++i) {
    const DiskUnitSlice& r = f.slices[i];
    const Index::Slice& s = index.slices()[plan[i]];
    if (r.first.get() != s.first || r.size.get() != s.size || r.stored.get() > s.size ||
        r.frame_offset.get() != offset) {
      return "slice records do not match the unit";
    }
    offset += r.frame_size.get();
  }
  if (offset != file_size) return "slice frames do not fill the file";
  return {};
}

// Decodes the frame of record r, the slice's stored values, into out (its
// size r.stored; empty: only checks it).
std::string decode_frame(ZSTD_DCtx* zstd, int fd, const DiskUnitSlice& r, std::span<Plies> out) {
  ZSTD_DCtx_reset(zstd, ZSTD_reset_session_only);
  std::vector<std::uint8_t> chunk(
      static_cast<std::size_t>(std::min<std::uint64_t>(kIoChunk, r.frame_size.get())));
  // Checking only: decode into a small buffer, checksumming as it goes.
  std::vector<Plies> scratch(out.empty() ? std::min<std::uint64_t>(kIoChunk, r.stored.get()) + 1
                                         : 0);
  Checksum64Stream checksum;
  std::uint64_t decoded = 0;
  std::uint64_t offset = r.frame_offset.get();
  const std::uint64_t end = offset + r.frame_size.get();
  std::size_t last = 1;  // ZSTD_decompressStream's hint: 0 once the frame is complete
  while (offset < end) {
    const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(chunk.size(), end - offset));
    if (!read_at(fd, std::span(chunk).first(n), offset)) return "cannot be read";
    offset += n;
    ZSTD_inBuffer input{chunk.data(), n, 0};
    while (input.pos < input.size) {
      ZSTD_outBuffer output = out.empty()
                                  ? ZSTD_outBuffer{scratch.data(), scratch.size(), 0}
                                  : ZSTD_outBuffer{out.data() + decoded, out.size() - decoded, 0};
      const std::size_t before = input.pos;
      last = ZSTD_decompressStream(zstd, &output, &input);
      if (ZSTD_isError(last)) return std::string("zstd: ") + ZSTD_getErrorName(last);
      checksum.update(std::span(static_cast<const std::uint8_t*>(output.dst), output.pos));
      decoded += output.pos;
      if (decoded > r.stored.get()) return "a frame holds more than its slice";
      if (last == 0 && input.pos < input.size) return "data after a frame";
      if (output.pos == 0 && input.pos == before) return "a frame holds more than its slice";
    }
  }
  if (last != 0 || decoded != r.stored.get()) return "a frame does not hold its slice's values";
  if (checksum.value() != r.stored_checksum.get()) return "values checksum mismatch";
  return {};
}

// Puts the filler of the slice [first, first + out.size()) back around its
// stored values, which fill the end of out: out then holds the values as the
// solver left them. Filler before a stored span is written below the stored
// values not yet moved (there is never more filler before them than the
// filler in all), so no value is overwritten before it is moved.
void put_back_filler(const Index& index, const BoardSymmetry& symmetry, std::uint64_t first,
                     std::uint64_t stored, std::span<Plies> out) {
  std::uint64_t from = out.size() - stored;
  for_each_span(index, symmetry, first, first + out.size(),
                [&](std::uint64_t at, std::uint64_t n, EntryKind kind) {
                  Plies* to = out.data() + (at - first);
                  if (kind == EntryKind::stored) {
                    std::memmove(to, out.data() + from, n);
                    from += n;
                  } else {
                    std::fill_n(to, n, static_cast<Plies>(kind == EntryKind::win_in_one ? 1 : 0));
                  }
                });
}

}  // namespace

void WorkDir::check_manifest(const fs::path& dir, const Index& index, const UnitPlan& units) {
  const fs::path manifest = dir / kManifestName;
  std::error_code ec;
  if (!fs::exists(manifest, ec)) return;
  std::ifstream in(manifest);
  std::stringstream text;
  text << in.rdbuf();
  if (!in.good() && !in.eof()) throw GenerateError("cannot read " + manifest.string());
  if (text.str() != manifest_text(index, units)) {
    throw GenerateError("the work directory " + dir.string() +
                        " holds the work of another table (" + manifest.string() +
                        "); use another --work-dir, or remove it");
  }
}

WorkDir::WorkDir(fs::path dir, const Index& index, const UnitPlan& units, Leftovers leftovers)
    : dir_(std::move(dir)),
      index_(index),
      units_(units),
      symmetry_(std::make_unique<const BoardSymmetry>(index.geometry())),
      compress_(ZSTD_createCCtx()),
      records_(units.size()) {
  if (!compress_) throw std::bad_alloc();
  set_readers(1);
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (!fs::is_directory(dir_)) {
    throw GenerateError("cannot make the work directory " + dir_.string() +
                        (ec ? ": " + ec.message() : ""));
  }
  const fs::path manifest = dir_ / kManifestName;
  const std::string expected = manifest_text(index, units);
  if (fs::exists(manifest)) {
    check_manifest(dir_, index, units);
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
    const bool unit_file_written =
        name.starts_with('.') && std::string_view(name).substr(1).starts_with(kUnitPrefix);
    if (unit_file_written || name.rfind(".pawntb-work", 0) == 0 ||
        name.rfind(".assembly", 0) == 0) {
      std::error_code remove_ec;
      fs::remove(it->path(), remove_ec);
    }
  }
}

fs::path WorkDir::unit_path(const fs::path& dir, std::size_t unit) {
  char number[24];
  std::snprintf(number, sizeof number, "%07zu", unit);
  return dir / (std::string(kUnitPrefix) + number + std::string(kUnitSuffix));
}

bool WorkDir::is_unit_file(std::string_view name) {
  return name.starts_with(kUnitPrefix) && name.ends_with(kUnitSuffix);
}

std::optional<TierSummary> WorkDir::check_unit(std::size_t unit, std::string* why) const {
  const fs::path path = unit_path(unit);
  const util::FileDescriptor file(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  struct stat st {};
  if (!file.valid() || ::fstat(file.get(), &st) != 0) {
    if (why) *why = "missing";
    return std::nullopt;
  }
  UnitFile f;
  std::string reason =
      read_unit_file(file.get(), static_cast<std::uint64_t>(st.st_size), index_, units_, unit, f);
  for (std::size_t i = 0; reason.empty() && i < f.slices.size(); ++i) {
    reason = decode_frame(readers_[0]->decompress.get(), file.get(), f.slices[i], {});
  }
  if (!reason.empty()) {
    if (why) *why = reason;
    return std::nullopt;
  }
  return TierSummary{f.header.win_count.get(), f.header.max_plies, f.header.longest_index.get()};
}

void WorkDir::set_readers(unsigned count) const {
  while (readers_.size() < std::max(count, 1u)) {
    auto reader = std::make_unique<Reader>();
    reader->decompress.reset(ZSTD_createDCtx());
    if (!reader->decompress) throw std::bad_alloc();
    readers_.push_back(std::move(reader));
  }
}

int WorkDir::open_unit(std::size_t unit, Reader& reader) const {
  for (OpenFile& f : reader.open) {
    if (f.unit == unit) {
      f.last_use = ++reader.clock;
      return f.file.get();
    }
  }
  OpenFile& slot =
      *std::min_element(reader.open.begin(), reader.open.end(),
                        [](const auto& a, const auto& b) { return a.last_use < b.last_use; });
  slot.unit = SIZE_MAX;
  const fs::path path = unit_path(unit);
  util::FileDescriptor file(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  struct stat st {};
  if (!file.valid() || ::fstat(file.get(), &st) != 0) {
    throw GenerateError("cannot open the unit file " + path.string() + ": " + std::strerror(errno));
  }
  const std::lock_guard lock(records_mutex_);
  Records& r = records_[unit];
  // Records read before stand while the header is the same bytes (its
  // checksum covers the records' checksum).
  DiskUnitHeader h{};
  if (r.slices.empty() ||
      !read_at(file.get(), std::span(reinterpret_cast<std::uint8_t*>(&h), sizeof h), 0) ||
      std::memcmp(&h, &r.header, sizeof h) != 0 ||
      static_cast<std::uint64_t>(st.st_size) != h.file_size.get()) {
    r = Records{};
    UnitFile f;
    const std::string reason =
        read_unit_file(file.get(), static_cast<std::uint64_t>(st.st_size), index_, units_, unit, f);
    if (!reason.empty()) {
      throw GenerateError(path.string() + ": " + reason +
                          "; run the same command again to solve the unit again");
    }
    r.header = f.header;
    r.slices = std::move(f.slices);
  }
  slot.unit = unit;
  slot.file = std::move(file);
  slot.last_use = ++reader.clock;
  return slot.file.get();
}

void WorkDir::forget(std::size_t unit) const {
  for (const auto& reader : readers_) {
    for (OpenFile& f : reader->open) {
      if (f.unit == unit) f = OpenFile{};
    }
  }
  records_[unit] = Records{};
}

void WorkDir::read_slices(std::span<const SliceRead> reads, unsigned threads) const {
  set_readers(threads);
  util::parallel_for("unit reads", threads, reads.size(), [&](std::uint64_t r, unsigned worker) {
    read_slice(reads[r].slice, reads[r].values, worker);
  });
}

void WorkDir::read_slice(std::size_t s, std::span<Plies> out, unsigned reader) const {
  Reader& from = *readers_.at(reader);
  const std::size_t unit = units_.unit_of_slice(s);
  const int file = open_unit(unit, from);
  DiskUnitSlice r{};
  {
    const std::lock_guard lock(records_mutex_);
    r = records_[unit].slices[units_.place_of_slice(s)];
  }
  std::string reason;
  if (r.stored.get() > out.size() || r.size.get() != out.size()) {
    reason = "slice records do not match the unit";
  } else {
    reason = decode_frame(from.decompress.get(), file, r, out.subspan(out.size() - r.stored.get()));
  }
  if (!reason.empty()) {
    {  // this reader's copy; the file is solved again by the next run
      const std::lock_guard lock(records_mutex_);
      records_[unit] = Records{};
    }
    for (OpenFile& f : from.open) {
      if (f.unit == unit) f = OpenFile{};
    }
    throw GenerateError(unit_path(unit).string() + ": " + reason +
                        "; run the same command again to solve the unit again");
  }
  put_back_filler(index_, *symmetry_, r.first.get(), r.stored.get(), out);
}

void WorkDir::write_unit(std::size_t unit, std::span<const Plies> values,
                         const TierSummary& summary) const {
  forget(unit);
  write_unit_file(unit, values, summary);
}

void WorkDir::write_unit_file(std::size_t unit, std::span<const Plies> values,
                              const TierSummary& summary) const {
  const Unit& u = units_.unit(unit);
  DiskUnitHeader h{};
  h.magic = kUnitMagic;
  h.version.set(kUnitFileVersion);
  h.rows = static_cast<std::uint8_t>(index_.geometry().rows);
  h.cols = static_cast<std::uint8_t>(index_.geometry().cols);
  h.max_pawns = static_cast<std::uint8_t>(index_.max_pawns());
  h.max_plies = static_cast<std::uint8_t>(summary.max_plies);
  h.unit.set(static_cast<std::uint32_t>(unit));
  h.tier.set(static_cast<std::uint32_t>(u.tier));
  h.slice_count.set(u.slice_count);
  h.entries.set(u.entries);
  h.win_count.set(summary.win_count);
  h.longest_index.set(summary.longest_index);
  h.rules_fingerprint.set(rules_fingerprint());
  std::vector<DiskUnitSlice> records(u.slice_count);
  ZSTD_CCtx* const zstd = compress_.get();
  const auto fill = [&](ByteSink& sink) {
    std::vector<std::uint8_t> chunk(ZSTD_CStreamOutSize()), staging(kIoChunk / 4);
    std::uint64_t offset = sizeof h + records.size() * sizeof(DiskUnitSlice);
    std::uint64_t at = 0;  // into values
    const auto plan = units_.slices(unit);
    for (std::size_t i = 0; i < records.size(); ++i) {
      const Index::Slice& s = index_.slices()[plan[i]];
      const auto slice = values.subspan(at, s.size);
      at += s.size;
      DiskUnitSlice& r = records[i];
      r.first.set(s.first);
      r.size.set(s.size);
      r.frame_offset.set(offset);
      // The frame's size told up front lets zstd size its tables by it: a
      // small slice then costs no clearing of tables made for megabytes.
      std::uint64_t to_store = 0;
      for_each_span(index_, *symmetry_, s.first, s.first + s.size,
                    [&](std::uint64_t, std::uint64_t n, EntryKind kind) {
                      if (kind == EntryKind::stored) to_store += n;
                    });
      ZSTD_CCtx_reset(zstd, ZSTD_reset_session_only);
      ZSTD_CCtx_setParameter(zstd, ZSTD_c_compressionLevel, kUnitCompressionLevel);
      ZSTD_CCtx_setPledgedSrcSize(zstd, to_store);
      // The stored values, gathered a staging buffer at a time.
      Checksum64Stream checksum;
      std::uint64_t stored = 0;
      std::size_t staged = 0;
      const auto compress = [&](ZSTD_EndDirective end) {
        ZSTD_inBuffer input{staging.data(), staged, 0};
        for (bool finished = false; !finished;) {
          ZSTD_outBuffer output{chunk.data(), chunk.size(), 0};
          const std::size_t left = ZSTD_compressStream2(zstd, &output, &input, end);
          if (ZSTD_isError(left)) {
            throw GenerateError(std::string("zstd compression failed: ") + ZSTD_getErrorName(left));
          }
          sink.write_at(offset, std::span(chunk.data(), output.pos));
          offset += output.pos;
          finished = end == ZSTD_e_end ? left == 0 : input.pos == input.size;
        }
        staged = 0;
      };
      for_each_span(index_, *symmetry_, s.first, s.first + s.size,
                    [&](std::uint64_t from, std::uint64_t n, EntryKind kind) {
                      if (kind != EntryKind::stored) return;
                      const auto part = slice.subspan(from - s.first, n);
                      checksum.update(part);
                      stored += n;
                      for (std::size_t done = 0; done < part.size();) {
                        const std::size_t take =
                            std::min(part.size() - done, staging.size() - staged);
                        std::memcpy(staging.data() + staged, part.data() + done, take);
                        staged += take;
                        done += take;
                        if (staged == staging.size()) compress(ZSTD_e_continue);
                      }
                    });
      compress(ZSTD_e_end);
      r.stored.set(stored);
      r.stored_checksum.set(checksum.value());
      r.frame_size.set(offset - r.frame_offset.get());
    }
    const auto record_bytes = std::span(reinterpret_cast<const std::uint8_t*>(records.data()),
                                        records.size() * sizeof(DiskUnitSlice));
    sink.write_at(sizeof h, record_bytes);
    h.slices_checksum.set(checksum64(record_bytes));
    h.file_size.set(offset);
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(&h);
    h.header_checksum.set(checksum64(std::span(bytes, offsetof(DiskUnitHeader, header_checksum))));
    sink.write_at(0, std::span(bytes, sizeof h));
    return offset;
  };
  // No flush: a unit file is checked whenever it is read, and flush_units()
  // makes them all durable before the assembly deletes any.
  write_file(unit_path(unit), fill, nullptr, util::Flush::none);
}

void WorkDir::flush_units() const {
  // Each file and then the directory, rather than syncfs, which would flush
  // every other writer's data on the file system too. Most unit files were
  // written back long ago, and their fsync finds nothing to do.
  for (std::size_t u = 0; u < units_.size(); ++u) {
    const fs::path path = unit_path(u);
    const util::FileDescriptor file(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!file.valid() && errno == ENOENT) continue;  // already in the table
    if (!file.valid() || ::fsync(file.get()) != 0) {
      throw GenerateError("cannot flush " + path.string() + " to disk: " + std::strerror(errno));
    }
  }
  const util::FileDescriptor dir(::open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!dir.valid() || ::fsync(dir.get()) != 0) {
    throw GenerateError("cannot flush " + dir_.string() + " to disk: " + std::strerror(errno));
  }
}

std::uint64_t WorkDir::files_bytes(const fs::path& dir) {
  // Counts the unit files and the table being assembled (not the manifest,
  // nor another rank's file being written), and skips a file that vanished
  // or cannot be read: its file_size error value, 2^64 - 1, would wrap the
  // total.
  std::uint64_t total = 0;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!is_unit_file(name) && name != "table.partial") {
      continue;
    }
    std::error_code size_ec;
    const std::uintmax_t size = it->file_size(size_ec);
    if (!size_ec) total += size;
  }
  return total;
}

namespace {

// The checkpoint's text without its last line, which is its checksum.
std::string checkpoint_text(const AssemblyCheckpoint& c) {
  std::ostringstream out;
  out << "pawntb assembly 1\n"
      << "blocks " << c.blocks << "\n"
      << "offset " << c.offset << "\n"
      << "index_checksum " << c.index_checksum << "\n"
      << "win_count " << c.totals.win_count << "\n"
      << "max_plies " << c.totals.max_plies << "\n"
      << "longest_index " << c.totals.longest_index << "\n";
  return out.str();
}

}  // namespace

std::optional<AssemblyCheckpoint> WorkDir::read_checkpoint() const {
  std::ifstream in(checkpoint_path());
  if (!in) return std::nullopt;
  std::string magic, version, key;
  AssemblyCheckpoint c;
  std::uint64_t sum = 0;
  in >> magic >> key >> version;
  in >> key >> c.blocks >> key >> c.offset >> key >> c.index_checksum >> key >>
      c.totals.win_count >> key >> c.totals.max_plies >> key >> c.totals.longest_index >> key >>
      sum;
  const std::string text = checkpoint_text(c);
  if (!in || key != "checksum" ||
      checksum64(std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size())) !=
          sum) {
    throw GenerateError(checkpoint_path().string() +
                        ": damaged; remove the work directory to start the run again");
  }
  return c;
}

void WorkDir::write_checkpoint(const AssemblyCheckpoint& c) const {
  std::string text = checkpoint_text(c);
  const std::uint64_t sum =
      checksum64(std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
  text += "checksum " + std::to_string(sum) + "\n";
  write_file(checkpoint_path(), [&](ByteSink& sink) {
    sink.write_at(0, std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
    return std::uint64_t{text.size()};
  });
}

// Reading: a read chunk (a frame is smaller than its values, plus a
// header), to check a file a scratch buffer as large, the context.
std::uint64_t WorkDir::read_bytes(std::uint64_t unit_entries) {
  return 2 * std::min<std::uint64_t>(kIoChunk, unit_entries + 64) + kDecompressStreamBytes;
}

// Every unit's header and its vector, and every slice's record.
std::uint64_t WorkDir::records_bytes(std::uint64_t slices, std::uint64_t units) {
  return units * sizeof(Records) + slices * sizeof(DiskUnitSlice);
}

// Writing: the staging buffer, an output chunk, the context.
std::uint64_t WorkDir::write_bytes() {
  return kIoChunk / 4 + ZSTD_CStreamOutSize() + kCompressStreamBytes;
}

}  // namespace pawntb::generator_detail
