#include "line_reader.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace pawntb::cli {

namespace {

// The first '\n' in [text, text + size), or nullptr. Most lines here are a
// few bytes long, where a plain loop beats memchr's setup; longer lines go to
// memchr.
const char* find_newline(const char* text, std::size_t size) {
  const std::size_t head = size < 16 ? size : 16;
  for (std::size_t i = 0; i < head; ++i) {
    if (text[i] == '\n') return text + i;
  }
  if (size == head) return nullptr;
  return static_cast<const char*>(std::memchr(text + head, '\n', size - head));
}

}  // namespace

LineReader::LineReader(std::FILE* in, std::function<void()> before_read)
    : in_(in), buffer_(kBufferSize + kPadding) {
  struct stat st {};
  const int fd = ::fileno(in);
  const bool regular_file = fd >= 0 && ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  if (!regular_file) before_read_ = std::move(before_read);
}

bool LineReader::fill() {
  if (eof_) return false;
  if (begin_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (before_read_) before_read_();
  char* into = buffer_.data() + end_;
  const std::size_t room = kBufferSize - end_;
  std::size_t n = 0;
  if (const int fd = ::fileno(in_); fd >= 0) {
    ssize_t got;
    do {
      got = ::read(fd, into, room);
    } while (got < 0 && errno == EINTR);
    error_ = got < 0;
    n = got > 0 ? static_cast<std::size_t>(got) : 0;
  } else {
    n = std::fread(into, 1, room, in_);
    error_ = std::ferror(in_) != 0;
  }
  end_ += n;
  eof_ = n == 0;
  return n > 0;
}

bool LineReader::next(Line& line) {
  bool too_long = false;
  for (;;) {
    const char* start = buffer_.data() + begin_;
    const char* newline = find_newline(start, end_ - begin_);
    if (newline || (eof_ && end_ > begin_)) {
      std::size_t length = newline ? static_cast<std::size_t>(newline - start) : end_ - begin_;
      begin_ += length + (newline ? 1 : 0);
      if (length > 0 && start[length - 1] == '\r') --length;
      line.number = ++number_;
      line.too_long = too_long || length > kMaxLine;
      line.text = line.too_long ? std::string_view() : std::string_view(start, length);
      if (line.number == 1 && line.text.starts_with("\xEF\xBB\xBF")) line.text.remove_prefix(3);
      return true;
    }
    if (eof_) {
      if (!too_long) return false;
      line.number = ++number_;  // an over-long last line without a newline
      line.too_long = true;
      line.text = {};
      return true;
    }
    if (end_ - begin_ > kMaxLine + 1) {
      too_long = true;  // drop what we have of this line and keep scanning
      begin_ = end_;
    }
    fill();
  }
}

}  // namespace pawntb::cli
