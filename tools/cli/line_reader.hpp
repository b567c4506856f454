// Reads text lines with bounded memory: a line longer than kMaxLine bytes is
// reported as too long (and skipped to its end) instead of being stored.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace pawntb::cli {

class LineReader {
 public:
  static constexpr std::size_t kMaxLine = 4096;  // bytes, without the line ending

  explicit LineReader(std::FILE* in) : in_(in), buffer_(1 << 16) {}

  struct Line {
    std::string_view text;     // without "\n" or "\r\n"; valid until the next call
    std::uint64_t number = 0;  // 1-based line number
    bool too_long = false;     // text is empty and the line exceeded kMaxLine
  };

  // The next line, or false at end of input. A final line without a newline
  // counts as a line.
  bool next(Line& line);

  bool read_error() const { return error_; }

 private:
  bool fill();

  std::FILE* in_;
  std::vector<char> buffer_;
  std::size_t begin_ = 0, end_ = 0;
  bool eof_ = false, error_ = false;
  std::uint64_t number_ = 0;
  std::string long_line_;
};

}  // namespace pawntb::cli
