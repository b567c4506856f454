#include "block_cache.hpp"

#include <algorithm>
#include <new>

namespace pawntb::probe_detail {

void BlockCache::prepare(std::uint32_t block_count, std::uint32_t block_entries,
                         std::uint64_t capacity_bytes, Decode decode, const void* context) {
  block_shift_ = static_cast<unsigned>(std::countr_zero(block_entries));
  block_entries_ = block_entries;
  words_per_frame_ = (std::uint64_t{block_entries} + 7) / 8;
  frame_count_ = static_cast<std::uint32_t>(
      std::clamp<std::uint64_t>(capacity_bytes / block_entries, 1, block_count));
  decode_ = decode;
  context_ = context;
  slots_ = std::make_unique<Slot[]>(block_count);
  // Not value-initialised: the pages are only mapped once a block uses them.
  frames_.reset(new std::uint64_t[std::uint64_t{frame_count_} * words_per_frame_]);
  owner_.reset(new std::uint32_t[frame_count_]);
}

// The writer's half of the seqlock (see the header): the version turns odd
// before the frame changes and even again after.
void BlockCache::set_frame(Slot& slot, std::uint32_t frame) noexcept {
  const std::uint32_t version = slot.version.load(std::memory_order_relaxed);
  slot.version.store(version + 1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  slot.frame.store(frame, std::memory_order_relaxed);
  slot.version.store(version + 2, std::memory_order_release);
}

// A frame never used yet, else the frame of the first block the clock hand
// finds not probed since it last passed, which is evicted. After two turns
// of the hand it takes the frame it is at.
std::uint32_t BlockCache::take_frame() const noexcept {
  if (frames_used_ < frame_count_) return frames_used_++;
  for (std::uint64_t step = 0;; ++step) {
    const std::uint32_t frame = hand_;
    hand_ = hand_ + 1 == frame_count_ ? 0 : hand_ + 1;
    Slot& owner = slots_[owner_[frame]];
    if (owner.referenced.exchange(false, std::memory_order_relaxed) &&
        step < 2 * std::uint64_t{frame_count_}) {
      continue;
    }
    set_frame(owner, kNoFrame);
    return frame;
  }
}

bool BlockCache::load(std::uint32_t b, const char** error) const noexcept {
  std::lock_guard lock(mutex_);
  Slot& slot = slots_[b];
  if (slot.frame.load(std::memory_order_relaxed) != kNoFrame) return true;  // loaded meanwhile
  const auto failed = [&](const char* why) {
    if (error) *error = why;
    return false;
  };
  if (const auto found = damaged_.find(b); found != damaged_.end()) return failed(found->second);
  try {
    decoded_.resize(words_per_frame_ * 8);
  } catch (const std::bad_alloc&) {
    return failed("out of memory");
  }
  const Failure failure = decode_(context_, b, decoded_.data());
  if (failure.error) {
    if (failure.lasting) {
      try {
        damaged_.emplace(b, failure.error);
      } catch (const std::bad_alloc&) {
        // Not remembered: the block is decoded, and refused, again next time.
      }
    }
    return failed(failure.error);
  }
  const std::uint32_t frame = take_frame();
  for (std::uint64_t w = 0; w < words_per_frame_; ++w) {
    std::uint64_t word;
    std::memcpy(&word, decoded_.data() + 8 * w, 8);
    word_at(frame, w).store(word, std::memory_order_relaxed);
  }
  owner_[frame] = b;
  slot.referenced.store(true, std::memory_order_relaxed);
  set_frame(slot, frame);
  return true;
}

}  // namespace pawntb::probe_detail
