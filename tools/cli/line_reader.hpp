// Reads text lines with bounded memory: a line longer than kMaxLine bytes is
// reported as too long (and skipped to its end) instead of being stored.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace pawntb::cli {

class LineReader {
 public:
  static constexpr std::size_t kMaxLine = 4096;        // bytes, without the line ending
  static constexpr std::size_t kBufferSize = 1 << 16;  // bytes asked of each read
  static constexpr std::size_t kPadding = 8;           // readable bytes after buffered()

  // Reads `in` with read(2) when it has a file descriptor (so lines are
  // returned as soon as they arrive), else with fread. `before_read`, if set,
  // runs before every read that may block, that is unless `in` is a regular
  // file: the CLI writes its answers there, so that an interactive caller
  // sees each answer before sending more.
  explicit LineReader(std::FILE* in, std::function<void()> before_read = {});

  struct Line {
    std::string_view text;     // without "\n" or "\r\n"; valid until the next call
    std::uint64_t number = 0;  // 1-based line number
    bool too_long = false;     // text is empty and the line exceeded kMaxLine
  };

  // The next line, or false at end of input. A final line without a newline
  // counts as a line; a UTF-8 byte order mark before the first is dropped.
  bool next(Line& line);

  bool read_error() const { return error_; }

  // The message for a line with too_long set.
  static std::string too_long_message() {
    return "line longer than " + std::to_string(kMaxLine) + " bytes";
  }

  // For parsers that recognise whole lines in place: the bytes read but not
  // yet returned, valid until next() or consume(). The kPadding bytes after
  // them can be read too; their values are unspecified.
  std::string_view buffered() const { return {buffer_.data() + begin_, end_ - begin_}; }

  // Skips the first `bytes` of buffered(): `lines` whole lines, each ending
  // in "\n", none of them the first line of the input.
  void consume(std::size_t bytes, std::uint64_t lines) {
    begin_ += bytes;
    number_ += lines;
  }

  // The number of lines returned or consumed so far.
  std::uint64_t line_count() const { return number_; }

 private:
  bool fill();

  std::FILE* in_;
  std::function<void()> before_read_;
  std::vector<char> buffer_;
  std::size_t begin_ = 0, end_ = 0;
  bool eof_ = false, error_ = false;
  std::uint64_t number_ = 0;
};

// `text` without the spaces and tabs around it: what the readers of positions
// and boards allow.
inline std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

}  // namespace pawntb::cli
