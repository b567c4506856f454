// xxHash is compiled into this file (XXH_INLINE_ALL), so neither pawntb's
// libraries nor their consumers link against libxxhash.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "pawntb/format/layout.hpp"

namespace pawntb::format {

std::uint64_t checksum64(std::span<const std::uint8_t> bytes) {
  return XXH3_64bits(bytes.data(), bytes.size());
}

struct Checksum64Stream::State : XXH3_state_t {};

Checksum64Stream::Checksum64Stream() : state_(new State) {
  reset();
}

Checksum64Stream::~Checksum64Stream() {
  delete state_;
}

void Checksum64Stream::update(std::span<const std::uint8_t> bytes) noexcept {
  XXH3_64bits_update(state_, bytes.data(), bytes.size());
}

std::uint64_t Checksum64Stream::value() const noexcept {
  return XXH3_64bits_digest(state_);
}

void Checksum64Stream::reset() noexcept {
  XXH3_64bits_reset(state_);
}

}  // namespace pawntb::format
