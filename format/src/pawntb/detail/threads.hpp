// The one meaning of a `threads` parameter in the public API.
#pragma once

#include <algorithm>
#include <thread>

namespace pawntb::detail {

// `requested` threads, or one per hardware thread for 0 (at least 1).
inline unsigned thread_count(unsigned requested) {
  if (requested > 0) return requested;
  return std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace pawntb::detail
