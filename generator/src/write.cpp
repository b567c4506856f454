// Table file writer: stored values, block compression, atomic write.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <thread>

#include "pawntb/detail/index.hpp"
#include "pawntb/detail/layout.hpp"
#include "pawntb/detail/stored.hpp"
#include "pawntb/detail/threads.hpp"
#include "pawntb/generator.hpp"

namespace pawntb {

namespace {

// Index entries per block, the unit of parallel compression and of lazy
// loading: small enough that the 4x4 table's 5 blocks keep several threads
// busy and that a lazy block loads quickly (docs/benchmarks.md).
constexpr std::uint32_t kBlockEntries = 1 << 16;

// The cheapest zstd level close in size to the slowest ones (docs/benchmarks.md).
constexpr int kCompressionLevel = 13;

// The stored values of the entries [first, first + count): the values of
// the entries that are not filler, in index order (FORMAT.md, section 7).
std::vector<std::uint8_t> stored_values(const detail::Index& index,
                                        const detail::BoardSymmetry& symmetry,
                                        const SolvedTable& table, std::uint64_t first,
                                        std::uint64_t count) {
  std::vector<std::uint8_t> out;
  detail::for_each_span(index, symmetry, first, first + count,
                        [&](std::uint64_t begin, std::uint64_t n, detail::EntryKind kind) {
                          if (kind != detail::EntryKind::stored) return;
                          const auto at = table.values.begin() + static_cast<std::ptrdiff_t>(begin);
                          out.insert(out.end(), at, at + static_cast<std::ptrdiff_t>(n));
                        });
  return out;
}

std::uint32_t block_count_of(const SolvedTable& table) {
  const std::uint64_t blocks = detail::block_count_for(table.values.size(), kBlockEntries);
  if (blocks > UINT32_MAX) throw GenerateError("table too large: more than 2^32 blocks");
  return static_cast<std::uint32_t>(blocks);
}

std::vector<std::uint8_t> compress(std::span<const std::uint8_t> raw, int level) {
  std::vector<std::uint8_t> frame(ZSTD_compressBound(raw.size()));
  const std::size_t size = ZSTD_compress(frame.data(), frame.size(), raw.data(), raw.size(), level);
  if (ZSTD_isError(size)) {
    throw GenerateError(std::string("zstd compression failed: ") + ZSTD_getErrorName(size));
  }
  frame.resize(size);
  return frame;
}

std::string system_error(const std::filesystem::path& path, const char* what) {
  return std::string(what) + " " + path.string() + ": " + std::strerror(errno);
}

// Writes all bytes to fd; false on error (errno set).
bool write_all(int fd, const std::uint8_t* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

std::vector<std::uint8_t> encode_table(const SolvedTable& table, unsigned threads,
                                       const ProgressCallback& on_progress) {
  const detail::Index index(table.geometry, table.max_pawns);
  const auto symmetry = std::make_unique<detail::BoardSymmetry>(table.geometry);  // 32 KiB
  const std::uint64_t n = table.values.size();
  const std::uint32_t block_count = block_count_of(table);

  std::vector<std::vector<std::uint8_t>> frames(block_count);
  std::vector<std::uint32_t> stored(block_count);
  std::atomic<std::uint32_t> next{0};
  std::exception_ptr failure;
  std::atomic<bool> failed{false};
  std::atomic<std::uint32_t> done{0};
  const std::thread::id caller = std::this_thread::get_id();
  auto worker = [&] {
    for (std::uint32_t b; (b = next.fetch_add(1)) < block_count && !failed;) {
      const std::uint64_t first = std::uint64_t{b} * kBlockEntries;
      const std::size_t count = std::min<std::uint64_t>(kBlockEntries, n - first);
      try {
        const std::vector<std::uint8_t> values =
            stored_values(index, *symmetry, table, first, count);
        stored[b] = static_cast<std::uint32_t>(values.size());
        frames[b] = compress(values, kCompressionLevel);
      } catch (...) {
        if (!failed.exchange(true)) failure = std::current_exception();
        return;
      }
      // Only the calling thread reports; the last report (1) follows the join.
      const std::uint32_t finished = done.fetch_add(1) + 1;
      if (on_progress && finished < block_count && std::this_thread::get_id() == caller) {
        on_progress(Progress{"compress", static_cast<double>(finished) / block_count});
      }
    }
  };
  {
    std::vector<std::jthread> pool;
    for (unsigned i = 1; i < std::min(detail::thread_count(threads), block_count); ++i) {
      pool.emplace_back(worker);
    }
    worker();
  }
  if (failure) std::rethrow_exception(failure);
  if (on_progress) on_progress(Progress{"compress", 1.0});

  std::vector<detail::Block> blocks(block_count);
  std::uint64_t offset = detail::blocks_offset(block_count);
  for (std::uint32_t b = 0; b < block_count; ++b) {
    blocks[b].offset = offset;
    blocks[b].compressed_size = static_cast<std::uint32_t>(frames[b].size());
    blocks[b].stored = stored[b];
    blocks[b].checksum = detail::checksum64(frames[b]);
    offset += frames[b].size();
  }
  const std::vector<std::uint8_t> block_index = detail::encode_block_index(blocks);

  detail::Header h;
  h.geometry = table.geometry;
  h.max_pawns = table.max_pawns;
  h.entry_count = n;
  h.placement_count = detail::placement_count(table.geometry, table.max_pawns);
  h.block_entries = kBlockEntries;
  h.block_count = block_count;
  h.file_size = offset;
  h.max_plies = table.max_plies;
  h.index_checksum = detail::checksum64(block_index);
  h.win_count = table.win_count;
  h.longest_index = table.longest_index;
  const auto header = detail::encode_header(h);

  std::vector<std::uint8_t> file(h.file_size);
  std::uint8_t* out = std::copy(header.begin(), header.end(), file.data());
  out = std::copy(block_index.begin(), block_index.end(), out);
  for (const auto& frame : frames) out = std::copy(frame.begin(), frame.end(), out);
  return file;
}

WriteSummary write_table(const SolvedTable& table, const std::filesystem::path& path,
                         unsigned threads, void (*on_temp_file)(const char* path),
                         const ProgressCallback& on_progress) {
  auto announce = [&](const char* temp) {
    if (on_temp_file) on_temp_file(temp);
  };
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (std::filesystem::is_directory(status)) {
    throw GenerateError("cannot write " + path.string() + ": it is a directory");
  }
  const std::vector<std::uint8_t> file = encode_table(table, threads, on_progress);
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) {
    // A device or pipe (/dev/stdout, /dev/full): no rename is possible, so
    // write straight to it and report any failure.
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) throw GenerateError(system_error(path, "cannot open"));
    const bool ok = write_all(fd, file.data(), file.size());
    const int saved = errno;
    ::close(fd);
    errno = saved;
    if (!ok) throw GenerateError(system_error(path, "cannot write"));
    return WriteSummary{file.size(), block_count_of(table)};
  }
  const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : ".";
  std::string temp = (dir / ("." + path.filename().string() + ".XXXXXX")).string();
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) throw GenerateError(system_error(dir, "cannot create a temporary file in"));
  announce(temp.c_str());
  // mkstemp makes the file 0600; a table is for everyone to read.
  const bool ok =
      ::fchmod(fd, 0644) == 0 && write_all(fd, file.data(), file.size()) && ::fsync(fd) == 0;
  const int saved = errno;
  const bool closed = ::close(fd) == 0;
  if (!ok || !closed) {
    ::unlink(temp.c_str());
    announce(nullptr);
    errno = ok ? errno : saved;
    throw GenerateError(system_error(path, "cannot write"));
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    const int rename_errno = errno;
    ::unlink(temp.c_str());
    announce(nullptr);
    errno = rename_errno;
    throw GenerateError(system_error(path, "cannot rename the finished table to"));
  }
  announce(nullptr);
  // Make the rename itself durable.
  if (const int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dir_fd >= 0) {
    ::fsync(dir_fd);
    ::close(dir_fd);
  }
  return WriteSummary{file.size(), block_count_of(table)};
}

}  // namespace pawntb
