// The decoded blocks of a table loaded on demand, at most a fixed number at
// once: a table far larger than memory can be probed.
//
// Probes read without a lock. Each block's slot is a seqlock: `version` is odd
// while the slot changes, and a reader reads the version, the slot's frame
// and the entry's word, then the version again, retrying if it moved. A frame
// taken from one block for another is therefore never read as the old block.
// The frames are read and written as relaxed atomic words, so that such a
// racing read is not undefined behaviour (it is an ordinary load on x86).
//
// Loading a block takes one mutex: it reads and decodes the block, and when
// every frame is in use evicts a block by the clock rule (second chance: a
// block probed since the hand last passed it keeps its frame once more).
#pragma once

#include <atomic>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace pawntb::probe_detail {

class BlockCache {
 public:
  // Why a block could not be decoded: a static message, and whether the
  // block's bytes are wrong (never retried) or the failure may pass (a read
  // error, memory running out).
  struct Failure {
    const char* error = nullptr;  // nullptr: decoded
    bool lasting = false;
  };
  // Decodes block b into out[0 .. block entries); called under the cache's
  // mutex, so it may use state of `context` that nothing else touches.
  using Decode = Failure (*)(const void* context, std::uint32_t b, std::uint8_t* out) noexcept;

  BlockCache() = default;
  BlockCache(const BlockCache&) = delete;
  BlockCache& operator=(const BlockCache&) = delete;

  // Makes room for block_count blocks of block_entries entries (a power of
  // two), keeping at most max(1, capacity_bytes / block_entries) of them
  // decoded; the frames are reserved, not touched. Throws std::bad_alloc.
  void prepare(std::uint32_t block_count, std::uint32_t block_entries, std::uint64_t capacity_bytes,
               Decode decode, const void* context);

  // Bytes of decoded entries kept at most.
  std::uint64_t capacity_bytes() const noexcept {
    return std::uint64_t{frame_count_} * block_entries_;
  }

  // Entry i's byte, loading its block if needed; -1 if the block cannot be
  // loaded, with the reason in *error when error is not null. Thread-safe.
  int value(std::uint64_t i, const char** error = nullptr) const noexcept {
    const auto b = static_cast<std::uint32_t>(i >> block_shift_);
    const std::uint64_t offset = i & (block_entries_ - 1);
    Slot& slot = slots_[b];
    for (;;) {
      const std::uint32_t version = slot.version.load(std::memory_order_acquire);
      const std::uint32_t frame = slot.frame.load(std::memory_order_relaxed);
      if (frame != kNoFrame && version % 2 == 0) {
        const std::uint64_t word = word_at(frame, offset / 8).load(std::memory_order_relaxed);
        std::atomic_thread_fence(std::memory_order_acquire);
        if (slot.version.load(std::memory_order_relaxed) == version) {
          if (!slot.referenced.load(std::memory_order_relaxed)) {
            slot.referenced.store(true, std::memory_order_relaxed);
          }
          return byte_of(word, static_cast<unsigned>(offset % 8));
        }
        continue;  // the slot changed under the read: read again
      }
      if (!load(b, error)) return -1;
    }
  }

 private:
  static constexpr std::uint32_t kNoFrame = UINT32_MAX;

  struct Slot {
    std::atomic<std::uint32_t> version{0};  // odd while the slot changes
    std::atomic<std::uint32_t> frame{kNoFrame};
    std::atomic<bool> referenced{false};  // probed since the clock hand passed
  };

  std::atomic_ref<std::uint64_t> word_at(std::uint32_t frame, std::uint64_t word) const noexcept {
    return std::atomic_ref<std::uint64_t>(frames_[frame * words_per_frame_ + word]);
  }
  // Byte k of a word that was filled by memcpy from 8 bytes in order.
  static int byte_of(std::uint64_t word, unsigned k) noexcept {
    unsigned char bytes[8];
    std::memcpy(bytes, &word, 8);
    return bytes[k];
  }

  bool load(std::uint32_t b, const char** error) const noexcept;
  std::uint32_t take_frame() const noexcept;  // under mutex_
  static void set_frame(Slot& slot, std::uint32_t frame) noexcept;

  unsigned block_shift_ = 0;
  std::uint32_t block_entries_ = 1;
  std::uint64_t words_per_frame_ = 1;
  std::uint32_t frame_count_ = 0;
  Decode decode_ = nullptr;
  const void* context_ = nullptr;

  std::unique_ptr<Slot[]> slots_;              // one per block
  std::unique_ptr<std::uint64_t[]> frames_;    // frame_count_ frames, uninitialised
  std::unique_ptr<std::uint32_t[]> owner_;     // the block in each frame (under mutex_)
  mutable std::vector<std::uint8_t> decoded_;  // one block, decoded (under mutex_)
  mutable std::unordered_map<std::uint32_t, const char*> damaged_;  // lasting failures
  mutable std::uint32_t frames_used_ = 0;                           // under mutex_
  mutable std::uint32_t hand_ = 0;                                  // the clock hand
  mutable std::mutex mutex_;
};

}  // namespace pawntb::probe_detail
