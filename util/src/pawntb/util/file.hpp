// File descriptors: the one owner, and reading and writing at an offset.
// Header-only (see threads.hpp).
#pragma once

#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>

namespace pawntb::util {

// Owns a file descriptor (or none: -1) and closes it when destroyed or reset.
// Movable, not copyable. Not thread-safe; the descriptor it holds may be
// used from any thread.
class FileDescriptor {
 public:
  FileDescriptor() = default;
  explicit FileDescriptor(int fd) noexcept : fd_(fd) {}
  FileDescriptor(FileDescriptor&& other) noexcept : fd_(other.release()) {}
  FileDescriptor& operator=(FileDescriptor&& other) noexcept {
    if (this != &other) reset(other.release());
    return *this;
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  ~FileDescriptor() { reset(); }

  int get() const noexcept { return fd_; }
  bool valid() const noexcept { return fd_ >= 0; }
  // Gives the descriptor up without closing it.
  int release() noexcept { return std::exchange(fd_, -1); }
  // Closes the descriptor held, if any, and holds `fd`. Returns close's
  // result (0 when nothing was held): a writer must check it.
  int reset(int fd = -1) noexcept {
    const int closed = fd_ >= 0 ? ::close(fd_) : 0;
    fd_ = fd;
    return closed;
  }

 private:
  int fd_ = -1;
};

// Calls step(done), a read or write of the bytes from `done` on that returns
// how many it moved, until all `size` bytes are moved; retries on EINTR.
// False on an error, or when nothing moves (the end of a file: errno EIO).
template <class Step>
bool move_all(std::size_t size, Step step) noexcept {
  for (std::size_t done = 0; done < size;) {
    const ssize_t n = step(done);
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) errno = EIO;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

// Reads exactly out.size() bytes at offset; false on an error or the end of
// the file.
inline bool read_at(int fd, std::span<std::uint8_t> out, std::uint64_t offset) noexcept {
  return move_all(out.size(), [&](std::size_t done) {
    return ::pread(fd, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
  });
}

// Writes all of bytes at offset; false on an error (errno set).
inline bool write_at(int fd, std::span<const std::uint8_t> bytes, std::uint64_t offset) noexcept {
  return move_all(bytes.size(), [&](std::size_t done) {
    return ::pwrite(fd, bytes.data() + done, bytes.size() - done,
                    static_cast<off_t>(offset + done));
  });
}

// Writes all of bytes at the descriptor's position (for a pipe or a device,
// which have no offsets); false on an error (errno set).
inline bool write_all(int fd, std::span<const std::uint8_t> bytes) noexcept {
  return move_all(bytes.size(), [&](std::size_t done) {
    return ::write(fd, bytes.data() + done, bytes.size() - done);
  });
}

}  // namespace pawntb::util
