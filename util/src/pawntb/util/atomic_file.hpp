// Writing files atomically: the one writer for tables, tier files, the work
// directory's manifest and the CLI's files (verify's state, stats' plots).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <string_view>
#include <vector>

namespace pawntb::util {

// Where a file's bytes go: at given offsets, in any order.
class ByteSink {
 public:
  virtual ~ByteSink() = default;
  // Throws on failure (a file: std::system_error naming it).
  virtual void write_at(std::uint64_t offset, std::span<const std::uint8_t> bytes) = 0;
};

// Into a vector, grown as needed.
class MemorySink final : public ByteSink {
 public:
  void write_at(std::uint64_t offset, std::span<const std::uint8_t> bytes) override;
  std::vector<std::uint8_t> bytes;
};

// Writes `path` atomically: fill(sink) writes the bytes into a new temporary
// file `.NAME.XXXXXX` in the same directory (a unique name, so that writers
// of the same file do not meet), which is then made readable by all (0644),
// flushed to disk (fsync), closed and renamed over `path`, and the directory
// is flushed so that the rename lasts too. A reader, or a run killed at any
// moment, sees the old file or the whole new one. Returns fill's result (the
// file size, as fill counts it).
//
// On any failure the temporary file is removed and `path` is left as it was:
// the writer's own failures throw std::system_error, whose what() is "cannot
// ... PATH: reason"; an exception from fill is passed on as it is. (That the
// directory could not be flushed is not reported: the new file is in place by
// then.) A `path` that is a directory is refused; one that exists and is not
// a regular file (a device, a pipe: /dev/stdout) is written in place, as no
// rename can replace it.
//
// `on_temp_file`, if given, is called with the temporary file's path once it
// exists and with nullptr once it is gone (renamed or removed), so that a
// signal handler can remove it. Thread-safe for distinct paths.
//
// Flush::none leaves out both flushes: a kill still sees the old file or the
// whole new one, but after a power loss the new name may hold a torn file.
// Only for files that are checked whenever they are read, and flushed
// together before anything depends on them lasting: the generator's unit
// files, thousands of them, where a flush each cost more than the work.
enum class Flush : std::uint8_t { file_and_directory, none };
std::uint64_t write_file_atomically(const std::filesystem::path& path,
                                    const std::function<std::uint64_t(ByteSink&)>& fill,
                                    void (*on_temp_file)(const char* path) = nullptr,
                                    Flush flush = Flush::file_and_directory);

// The same with `text` as the file's bytes.
void write_file_atomically(const std::filesystem::path& path, std::string_view text);

}  // namespace pawntb::util
