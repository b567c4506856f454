#include "write_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "pawntb/generator.hpp"

namespace pawntb::detail {

std::string system_error(const std::filesystem::path& path, const char* what) {
  return std::string(what) + " " + path.string() + ": " + std::strerror(errno);
}

bool write_all_at(int fd, std::span<const std::uint8_t> bytes, std::uint64_t offset) {
  const std::uint8_t* data = bytes.data();
  std::size_t size = bytes.size();
  while (size > 0) {
    const ssize_t n = ::pwrite(fd, data, size, static_cast<off_t>(offset));
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += n;
    size -= static_cast<std::size_t>(n);
    offset += static_cast<std::uint64_t>(n);
  }
  return true;
}

namespace {

// Writes all bytes to fd at its position; false on error (errno set).
bool write_all(int fd, std::span<const std::uint8_t> bytes) {
  const std::uint8_t* data = bytes.data();
  std::size_t size = bytes.size();
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

std::uint64_t write_file_atomically(const std::filesystem::path& path,
                                    void (*on_temp_file)(const char* path),
                                    const std::function<std::uint64_t(ByteSink&)>& fill) {
  auto announce = [&](const char* temp) {
    if (on_temp_file) on_temp_file(temp);
  };
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (std::filesystem::is_directory(status)) {
    throw GenerateError("cannot write " + path.string() + ": it is a directory");
  }
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) {
    // A device or pipe (/dev/stdout, /dev/full): no rename is possible, so
    // write straight to it and report any failure.
    MemorySink memory;
    const std::uint64_t size = fill(memory);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) throw GenerateError(system_error(path, "cannot open"));
    const bool ok = write_all(fd, memory.bytes);
    const int saved = errno;
    ::close(fd);
    errno = saved;
    if (!ok) throw GenerateError(system_error(path, "cannot write"));
    return size;
  }
  const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : ".";
  std::string temp = (dir / ("." + path.filename().string() + ".XXXXXX")).string();
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) throw GenerateError(system_error(dir, "cannot create a temporary file in"));
  announce(temp.c_str());
  const auto discard = [&] {
    ::close(fd);
    ::unlink(temp.c_str());
    announce(nullptr);
  };
  std::uint64_t size = 0;
  try {
    FileSink sink(fd, path);
    size = fill(sink);
  } catch (...) {
    discard();
    throw;
  }
  // mkstemp makes the file 0600; a table is for everyone to read.
  const bool ok = ::fchmod(fd, 0644) == 0 && ::fsync(fd) == 0;
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
    throw GenerateError(system_error(path, "cannot rename the finished file to"));
  }
  announce(nullptr);
  // Make the rename itself durable.
  if (const int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dir_fd >= 0) {
    ::fsync(dir_fd);
    ::close(dir_fd);
  }
  return size;
}

}  // namespace pawntb::detail
