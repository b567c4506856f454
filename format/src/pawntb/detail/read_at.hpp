// Reading a file at an offset, for the table reader and the generator's work
// directory.
#pragma once

#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>

namespace pawntb::detail {

// Reads exactly size bytes at offset; false on error or end of file.
inline bool read_at(int fd, std::uint8_t* out, std::size_t size, std::uint64_t offset) noexcept {
  while (size > 0) {
    const ssize_t n = ::pread(fd, out, size, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    out += n;
    size -= static_cast<std::size_t>(n);
    offset += static_cast<std::uint64_t>(n);
  }
  return true;
}

}  // namespace pawntb::detail
