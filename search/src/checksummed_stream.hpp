// The search's files (the certificate, the saved walk) are little-endian
// fields followed by the XXH3-64 of every byte before it. These carry the
// bytes in and out in pieces of about 1 MiB, each added to the checksum,
// so that a file of a billion entries needs no second copy in memory and
// no read or write per field.
#pragma once

#include <cstdint>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "pawntb/format/layout.hpp"
#include "pawntb/util/atomic_file.hpp"

namespace pawntb::search_detail {

inline constexpr std::size_t kStreamPieceBytes = std::size_t{1} << 20;

// The little-endian field of `bytes` bytes at `at`.
inline std::uint64_t read_le(const std::uint8_t* at, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= std::uint64_t{at[i]} << (8 * i);
  return v;
}

// Out to a ByteSink (util::write_file_atomically). Not thread-safe.
class ChecksummedWriter {
 public:
  explicit ChecksummedWriter(util::ByteSink& sink) : sink_(sink) {
    buffer_.reserve(kStreamPieceBytes + 64);
  }

  void put(std::uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) buffer_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
    if (buffer_.size() >= kStreamPieceBytes) flush();
  }
  void put_bytes(const char* bytes, std::size_t n) {
    buffer_.insert(buffer_.end(), bytes, bytes + n);
    if (buffer_.size() >= kStreamPieceBytes) flush();
  }

  // Writes what is left and the checksum; returns the file's size.
  std::uint64_t finish() {
    flush();
    put(checksum_.value(), 8);
    sink_.write_at(at_, buffer_);
    return at_ + buffer_.size();
  }

 private:
  void flush() {
    checksum_.update(buffer_);
    sink_.write_at(at_, buffer_);
    at_ += buffer_.size();
    buffer_.clear();
  }

  util::ByteSink& sink_;
  format::Checksum64Stream checksum_;
  std::vector<std::uint8_t> buffer_;
  std::uint64_t at_ = 0;
};

// In from a file. take(n) gives the next n bytes (n at most
// kStreamPieceBytes), valid until the next call; `bad` is called (and must
// throw) when the file ends first. Not thread-safe.
class ChecksummedReader {
 public:
  ChecksummedReader(std::ifstream& in, std::function<void(const std::string&)> bad)
      : in_(in), bad_(std::move(bad)) {}

  const std::uint8_t* take(std::size_t n) {
    const std::uint8_t* p = take_unsummed(n);
    checksum_.update({p, n});
    return p;
  }

  // The checksum of every byte taken so far, the file's own checksum after
  // them, and whether the file ends there.
  void expect_checksum_and_end() {
    const std::uint64_t expected = checksum_.value();
    if (read_le(take_unsummed(8), 8) != expected) bad_("its checksum");
    if (end_ != at_ || in_.peek() != std::ifstream::traits_type::eof()) {
      bad_("bytes after its checksum");
    }
  }

 private:
  const std::uint8_t* take_unsummed(std::size_t n) {
    if (end_ - at_ < n) refill(n);
    const std::uint8_t* p = buffer_.data() + at_;
    at_ += n;
    return p;
  }

  void refill(std::size_t n) {
    // Keep the bytes not taken yet, then read up to a piece more.
    buffer_.erase(buffer_.begin(), buffer_.begin() + static_cast<std::ptrdiff_t>(at_));
    end_ -= at_;
    at_ = 0;
    buffer_.resize(kStreamPieceBytes + n);
    in_.read(reinterpret_cast<char*>(buffer_.data() + end_),
             static_cast<std::streamsize>(buffer_.size() - end_));
    end_ += static_cast<std::size_t>(in_.gcount());
    if (end_ < n) bad_("cut short");
  }

  std::ifstream& in_;
  std::function<void(const std::string&)> bad_;
  format::Checksum64Stream checksum_;
  std::vector<std::uint8_t> buffer_;
  std::size_t at_ = 0, end_ = 0;
};

}  // namespace pawntb::search_detail
