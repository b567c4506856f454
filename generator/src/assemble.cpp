#include "assemble.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <numeric>
#include <span>
#include <system_error>
#include <vector>

#include "pawntb/generator.hpp"
#include "pawntb/util/atomic_file.hpp"
#include "pawntb/util/file.hpp"
#include "tier_buffer.hpp"

namespace pawntb::generator_detail {

using format::checksum64;
using format::DiskBlock;
using format::kHeaderSize;

namespace {

namespace fs = std::filesystem;

GenerateError io_error(const fs::path& path, const char* what) {
  return GenerateError("cannot " + std::string(what) + " " + path.string() + ": " +
                       std::strerror(errno));
}

// table.partial as a ByteSink.
class PartialFile final : public ByteSink {
 public:
  PartialFile(fs::path path, bool fresh)
      : path_(std::move(path)),
        fd_(::open(path_.c_str(), O_RDWR | O_CLOEXEC | (fresh ? O_CREAT | O_TRUNC : 0), 0644)) {
    if (!fd_.valid()) throw io_error(path_, fresh ? "create" : "open");
  }
  void write_at(std::uint64_t offset, std::span<const std::uint8_t> bytes) override {
    if (!util::write_at(fd_.get(), bytes, offset)) throw io_error(path_, "write");
  }
  void read_at(std::uint64_t offset, std::span<std::uint8_t> out) const {
    if (!util::read_at(fd_.get(), out, offset)) throw io_error(path_, "read");
  }
  void sync() const {
    if (::fdatasync(fd_.get()) != 0) throw io_error(path_, "flush");
  }
  void truncate(std::uint64_t size) const {
    if (::ftruncate(fd_.get(), static_cast<off_t>(size)) != 0) throw io_error(path_, "truncate");
  }
  // Bytes the file takes on disk (its allocated blocks: the block index is
  // written as the batches are, so its end is a hole until then).
  std::uint64_t disk_bytes() const {
    struct stat st {};
    return ::fstat(fd_.get(), &st) == 0 ? static_cast<std::uint64_t>(st.st_blocks) * 512 : 0;
  }
  void close() {
    if (fd_.reset() != 0) throw io_error(path_, "close");
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
  util::FileDescriptor fd_;
};

void sync_directory(const fs::path& dir) {
  const util::FileDescriptor fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (fd.valid()) ::fsync(fd.get());
}

// Copies the first `size` bytes of `from` to `to` with util::write_file_atomically.
void copy_atomically(const fs::path& from, std::uint64_t size, const fs::path& to) {
  const PartialFile source(from, false);
  util::write_file_atomically(to, [&](ByteSink& sink) {
    std::vector<std::uint8_t> chunk(std::min<std::uint64_t>(size, std::uint64_t{1} << 24));
    for (std::uint64_t at = 0; at < size; at += chunk.size()) {
      const auto part = std::span(chunk).first(std::min<std::uint64_t>(chunk.size(), size - at));
      source.read_at(at, part);
      sink.write_at(at, part);
    }
    return size;
  });
}

std::uint64_t file_bytes(const fs::path& path) {
  std::error_code ec;
  const std::uintmax_t size = fs::file_size(path, ec);
  return ec ? 0 : size;
}

// The unit files in the order they can go: by the end of their last slice.
class UnitDeleter {
 public:
  // With `keep`, deletes nothing.
  UnitDeleter(const Index& index, const UnitPlan& units, const WorkDir& work, bool keep)
      : work_(work), order_(keep ? 0 : units.size()), ends_(units.size()), bytes_(units.size()) {
    for (std::size_t u = 0; u < units.size(); ++u) {
      const Index::Slice& last = index.slices()[units.slices(u).back()];
      ends_[u] = last.first + last.size;
      bytes_[u] = file_bytes(work.unit_path(u));
      held_ += bytes_[u];
    }
    std::iota(order_.begin(), order_.end(), std::size_t{0});  // empty when kept
    std::stable_sort(order_.begin(), order_.end(),
                     [&](std::size_t a, std::size_t b) { return ends_[a] < ends_[b]; });
  }
  // Bytes of the unit files that the table holds once it holds the entries
  // below `entry`, and that are not deleted yet.
  std::uint64_t deletable(std::uint64_t entry) const {
    std::uint64_t total = 0;
    for (std::size_t i = next_; i < order_.size() && ends_[order_[i]] <= entry; ++i) {
      total += bytes_[order_[i]];
    }
    return total;
  }
  // Deletes them.
  void delete_below(std::uint64_t entry) {
    for (; next_ < order_.size() && ends_[order_[next_]] <= entry; ++next_) {
      std::error_code ec;
      fs::remove(work_.unit_path(order_[next_]), ec);
      held_ -= bytes_[order_[next_]];
    }
  }
  std::uint64_t held() const { return held_; }

 private:
  const WorkDir& work_;
  std::vector<std::size_t> order_;
  std::vector<std::uint64_t> ends_, bytes_;
  std::size_t next_ = 0;
  std::uint64_t held_ = 0;
};

}  // namespace

AssemblyResult assemble_table(const Index& index, const UnitPlan& units, const WorkDir& work,
                              const TableTotals& totals, const fs::path& output, bool keep_units,
                              unsigned threads, const ProgressCallback& on_progress) {
  const std::optional<AssemblyCheckpoint> resumed = work.read_checkpoint();
  if (resumed && !fs::exists(work.partial_path())) {
    throw GenerateError(work.checkpoint_path().string() + " is there but not " +
                        work.partial_path().string() +
                        ": the assembly cannot resume; remove the work directory " +
                        work.path().string() + " to start the run again");
  }
  AssemblyCheckpoint checkpoint = resumed.value_or(AssemblyCheckpoint{0, 0, 0, totals});
  PartialFile partial(work.partial_path(), !resumed);
  const std::uint64_t block_entries = TableWriter::block_entries();
  std::vector<std::uint8_t> prefix(checkpoint.blocks * sizeof(DiskBlock));
  partial.read_at(kHeaderSize, prefix);
  if (resumed && checksum64(prefix) != checkpoint.index_checksum) {
    throw GenerateError(work.partial_path().string() +
                        ": its block index does not match the checkpoint; remove the work "
                        "directory " +
                        work.path().string() + " to start the run again");
  }
  work.flush_units();  // they were written without flushes
  UnitDeleter deleter(index, units, work, keep_units);
  deleter.delete_below(checkpoint.blocks * block_entries);  // a kill may have left some

  AssemblyResult result;
  // A checkpoint (and the deletions after it) once the unit files it frees
  // hold 1/256 of them, or 64 KiB: a few hundred flushes a run.
  const std::uint64_t step = std::max<std::uint64_t>(deleter.held() / 256, 64 << 10);
  const auto measure = [&] {
    result.peak_bytes = std::max(result.peak_bytes, deleter.held() + partial.disk_bytes());
  };
  measure();
  TableWriter writer(index, partial, threads, on_progress,
                     TableWriter::Resume{static_cast<std::uint32_t>(checkpoint.blocks),
                                         checkpoint.offset, prefix});
  prefix = {};
  writer.on_batch = [&](std::uint32_t blocks, std::uint64_t offset) {
    measure();
    const std::uint64_t entry = std::uint64_t{blocks} * block_entries;
    if (deleter.deletable(entry) < step) return;
    // The table durably holds the entries below `entry`; then the
    // checkpoint says so; only then are their units' files deleted.
    partial.sync();
    checkpoint.blocks = blocks;
    checkpoint.offset = offset;
    checkpoint.index_checksum = writer.index_checksum();
    work.write_checkpoint(checkpoint);
    deleter.delete_below(entry);
  };

  const auto slices = index.slices();
  const std::uint64_t start = checkpoint.blocks * block_entries;
  auto s = static_cast<std::size_t>(
      std::upper_bound(slices.begin(), slices.end(), start,
                       [](std::uint64_t i, const Index::Slice& x) { return i < x.first; }) -
      slices.begin());
  std::uint64_t skip = 0;
  if (s > 0 && start < index.size()) {
    --s;
    skip = start - slices[s].first;
  } else {
    s = slices.size();  // nothing left: the checkpoint was at the end
  }
  // The slices are read a batch at a time, each slice's frame on a thread,
  // into a buffer of the largest slice's size (what the plan counts): reading
  // was main-thread-only work between the writer's parallel compressions.
  std::uint64_t largest = 0;
  for (const Index::Slice& slice : slices) largest = std::max(largest, slice.size);
  TierBuffer buffer;
  std::vector<WorkDir::SliceRead> reads;
  while (s < slices.size()) {
    std::uint64_t size = 0;
    std::size_t end = s;
    while (end < slices.size() && (end == s || size + slices[end].size <= largest)) {
      size += slices[end++].size;
    }
    if (buffer.size() < size) {
      buffer = TierBuffer();
      buffer = TierBuffer(size);
    }
    reads.clear();
    std::uint64_t at = 0;
    for (std::size_t slice = s; slice < end; ++slice) {
      reads.push_back({slice, buffer.span().subspan(at, slices[slice].size)});
      at += slices[slice].size;
    }
    work.read_slices(reads, threads);
    writer.append(buffer.span().first(size).subspan(skip));
    skip = 0;
    s = end;
  }
  result.file_size = writer.finish(checkpoint.totals);
  result.block_count = writer.block_count();
  partial.truncate(result.file_size);
  partial.sync();
  measure();
  partial.close();
  std::error_code ec;
  fs::rename(work.partial_path(), output, ec);
  if (ec == std::errc::cross_device_link) {
    // Another file system: copied by the one atomic writer (a temporary file
    // beside `output`, removed on failure), then the partial removed.
    ec.clear();
    try {
      copy_atomically(work.partial_path(), result.file_size, output);
    } catch (const std::system_error& e) {
      throw GenerateError("cannot move " + work.partial_path().string() + " to " +
                          output.string() + ": " + e.what());
    }
    fs::remove(work.partial_path(), ec);
  }
  if (ec) {
    throw GenerateError("cannot move " + work.partial_path().string() + " to " + output.string() +
                        ": " + ec.message());
  }
  sync_directory(output.has_parent_path() ? output.parent_path() : fs::path("."));
  fs::remove(work.checkpoint_path(), ec);
  deleter.delete_below(index.size());
  return result;
}

}  // namespace pawntb::generator_detail
