// zstd contexts owned by std::unique_ptr: the one set of deleters. For
// targets that link zstd; header-only (see threads.hpp).
#pragma once

#include <zstd.h>

#include <memory>

namespace pawntb::util {

struct FreeZstd {
  void operator()(ZSTD_CCtx* c) const noexcept { ZSTD_freeCCtx(c); }
  void operator()(ZSTD_DCtx* c) const noexcept { ZSTD_freeDCtx(c); }
};

// A compression or decompression context, or null when ZSTD_create*Ctx ran
// out of memory.
using ZstdCompressor = std::unique_ptr<ZSTD_CCtx, FreeZstd>;
using ZstdDecompressor = std::unique_ptr<ZSTD_DCtx, FreeZstd>;

}  // namespace pawntb::util
