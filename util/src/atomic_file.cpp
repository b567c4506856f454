#include "pawntb/util/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string>
#include <system_error>

#include "pawntb/util/file.hpp"

namespace pawntb::util {

namespace {

namespace fs = std::filesystem;

// "WHAT PATH: strerror(error)" as a std::system_error.
[[noreturn]] void fail(int error, const char* what, const fs::path& path) {
  throw std::system_error(error, std::generic_category(), std::string(what) + " " + path.string());
}

// Into an open file with pwrite; names `path` in errors.
class FileSink final : public ByteSink {
 public:
  FileSink(int fd, const fs::path& path) : fd_(fd), path_(path) {}
  void write_at(std::uint64_t offset, std::span<const std::uint8_t> bytes) override {
    if (!util::write_at(fd_, bytes, offset)) fail(errno, "cannot write", path_);
  }

 private:
  int fd_;
  const fs::path& path_;
};

// A device or a pipe: the bytes are gathered in memory and written to it.
std::uint64_t write_in_place(const fs::path& path,
                             const std::function<std::uint64_t(ByteSink&)>& fill) {
  MemorySink memory;
  const std::uint64_t size = fill(memory);
  FileDescriptor file(::open(path.c_str(), O_WRONLY | O_CLOEXEC));
  if (!file.valid()) fail(errno, "cannot open", path);
  if (!write_all(file.get(), memory.bytes) || file.reset() != 0) fail(errno, "cannot write", path);
  return size;
}

}  // namespace

void MemorySink::write_at(std::uint64_t offset, std::span<const std::uint8_t> data) {
  if (bytes.size() < offset + data.size()) bytes.resize(offset + data.size());
  std::copy(data.begin(), data.end(), bytes.begin() + static_cast<std::ptrdiff_t>(offset));
}

std::uint64_t write_file_atomically(const fs::path& path,
                                    const std::function<std::uint64_t(ByteSink&)>& fill,
                                    void (*on_temp_file)(const char* path), Flush flush) {
  const bool flushed = flush == Flush::file_and_directory;
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (fs::is_directory(status)) fail(EISDIR, "cannot write", path);
  if (fs::exists(status) && !fs::is_regular_file(status)) return write_in_place(path, fill);

  const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
  std::string temp = (dir / ("." + path.filename().string() + ".XXXXXX")).string();
  FileDescriptor file(::mkstemp(temp.data()));
  if (!file.valid()) fail(errno, "cannot create a temporary file in", dir);
  const auto announce = [&](const char* name) {
    if (on_temp_file) on_temp_file(name);
  };
  announce(temp.c_str());
  // From here on, a failure removes the temporary file first.
  const auto discard = [&] {
    file.reset();
    ::unlink(temp.c_str());
    announce(nullptr);
  };
  std::uint64_t size = 0;
  try {
    FileSink sink(file.get(), path);
    size = fill(sink);
  } catch (...) {
    discard();
    throw;
  }
  // mkstemp makes the file 0600: what pawntb writes is for everyone to read.
  if (::fchmod(file.get(), 0644) != 0 || (flushed && ::fsync(file.get()) != 0) ||
      file.reset() != 0) {
    const int error = errno;
    discard();
    fail(error, "cannot write", path);
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    const int error = errno;
    discard();
    fail(error, "cannot rename the finished file to", path);
  }
  announce(nullptr);
  if (!flushed) return size;
  if (const FileDescriptor directory(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
      directory.valid()) {
    ::fsync(directory.get());
  }
  return size;
}

void write_file_atomically(const fs::path& path, std::string_view text) {
  write_file_atomically(path, [&](ByteSink& sink) {
    sink.write_at(0, std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
    return std::uint64_t{text.size()};
  });
}

}  // namespace pawntb::util
