// What the CLI's commands share for writing: buffered answers on stdout and
// input errors on stderr.
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "pawntb/probe.hpp"

namespace pawntb::cli {

// A line of at most 15 bytes, copied whole (16 bytes, one move) into the
// output, of which `size` count.
struct ShortLine {
  char bytes[15] = {};
  std::uint8_t size = 0;
};
static_assert(sizeof(ShortLine) == 16);

// Buffered stdout for answers; flushed when large and at the end.
class Output {
 public:
  static constexpr std::size_t kFlushAt = 1 << 16;  // bytes
  Output() : buffer_(kFlushAt + sizeof(ShortLine)) {}
  ~Output() {
    if (size_ > 0) std::fwrite(buffer_.data(), 1, size_, stdout);  // best effort
  }
  void write(std::string_view s) {
    if (s.size() > buffer_.size() - size_) {
      flush();
      if (s.size() > buffer_.size()) {
        write_out(s);
        return;
      }
    }
    std::memcpy(buffer_.data() + size_, s.data(), s.size());
    size_ += s.size();
    if (size_ > kFlushAt) flush();
  }
  // Room for the whole ShortLine: size_ <= kFlushAt between calls.
  void write(const ShortLine& line) {
    std::memcpy(buffer_.data() + size_, &line, sizeof line);
    size_ += line.size;
    if (size_ > kFlushAt) flush();
  }
  // Writes what is buffered.
  void flush() {
    const std::size_t size = size_;
    size_ = 0;
    write_out({buffer_.data(), size});
  }

 private:
  // A failed write (a full disk, a closed pipe) is a runtime failure, not
  // silently lost answers.
  static void write_out(std::string_view s) {
    const bool ok =
        std::fwrite(s.data(), 1, s.size(), stdout) == s.size() && std::fflush(stdout) == 0;
    if (!ok) throw std::runtime_error(std::string("stdout: write error: ") + std::strerror(errno));
  }

  std::vector<char> buffer_;
  std::size_t size_ = 0;  // bytes of buffer_ in use, at most kFlushAt between calls
};

// Input errors on stderr, one line each as "WHERE: WHAT". After the first
// `shown`, the rest are only counted, and one line at the end says how many.
// `probe` shows every one: its input gets one answer or one error a line.
class ErrorLog {
 public:
  static constexpr std::uint64_t kShown = 100;
  static constexpr std::uint64_t kAll = ~std::uint64_t{0};
  explicit ErrorLog(std::uint64_t shown = kShown) : shown_(shown) {}
  ErrorLog(const ErrorLog&) = delete;
  ErrorLog& operator=(const ErrorLog&) = delete;
  ~ErrorLog() {
    if (count_ > shown_) {
      const std::uint64_t hidden = count_ - shown_;
      std::fprintf(stderr, "pawntb: %llu more error%s not shown\n",
                   static_cast<unsigned long long>(hidden), hidden == 1 ? "" : "s");
    }
  }
  void report(const std::string& where, const std::string& what) {
    if (++count_ <= shown_) std::fprintf(stderr, "%s: %s\n", where.c_str(), what.c_str());
  }
  // A remark that is not an error, always shown: "WHERE: note: WHAT".
  void note(const std::string& where, const std::string& what) {
    std::fprintf(stderr, "%s: note: %s\n", where.c_str(), what.c_str());
  }
  std::uint64_t count() const { return count_; }

 private:
  std::uint64_t shown_;
  std::uint64_t count_ = 0;
};

inline std::string stdin_line(std::uint64_t line) {
  return "stdin:" + std::to_string(line);
}

// A damaged block found while answering is the table's fault, not the
// input's: stop with a runtime failure rather than skip the case.
inline void check_table(const Table& table, const Position& p, const ProbeResult& r) {
  if (r.status == ProbeStatus::damaged_table) throw TableError(probe_problem(table, p, r));
}

}  // namespace pawntb::cli
