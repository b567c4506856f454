// Writing files atomically: into a temporary file in the same directory,
// flushed, then renamed into place, so that a reader, or a run killed at any
// moment, sees the old file or the whole new one.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <string>

#include "table_writer.hpp"

namespace pawntb::detail {

// "what path: strerror(errno)".
std::string system_error(const std::filesystem::path& path, const char* what);

// pwrite of all bytes at offset; false on error (errno set).
bool write_all_at(int fd, std::span<const std::uint8_t> bytes, std::uint64_t offset);

// Calls fill(sink) to write the file's bytes into a temporary file next to
// `path`, then flushes and renames it over `path`; returns fill's result (the
// file size). On any failure, or an exception from fill, the temporary file
// is removed, `path` is untouched, and GenerateError names the file.
// `on_temp_file`, if given, is called with the temporary file's path once it
// exists and with nullptr once it is gone (renamed or removed). A `path` that
// exists and is not a regular file (a device, a pipe) is written in place.
std::uint64_t write_file_atomically(const std::filesystem::path& path,
                                    void (*on_temp_file)(const char* path),
                                    const std::function<std::uint64_t(ByteSink&)>& fill);

}  // namespace pawntb::detail
