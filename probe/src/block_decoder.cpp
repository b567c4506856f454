#include "block_decoder.hpp"

#include <cstring>

#include "pawntb/format/stored.hpp"

namespace pawntb::probe_detail {

using format::Block;
using format::checksum64;
using format::EntryKind;
using format::for_each_span;
using format::Index;
using game::BoardSymmetry;

namespace {

// Sets count bytes at `at` to v: short spans, the most common, with a few
// overlapping stores instead of a call.
void fill_bytes(std::uint8_t* at, std::uint8_t v, std::uint64_t count) noexcept {
  const std::uint64_t pattern = 0x0101010101010101ULL * v;
  if (count >= 16) {
    std::memset(at, v, count);
  } else if (count >= 8) {
    std::memcpy(at, &pattern, 8);
    std::memcpy(at + count - 8, &pattern, 8);
  } else if (count >= 4) {
    const auto half = static_cast<std::uint32_t>(pattern);
    std::memcpy(at, &half, 4);
    std::memcpy(at + count - 4, &half, 4);
  } else if (count >= 1) {
    at[0] = at[count / 2] = at[count - 1] = v;
  }
}

}  // namespace

const char* decode_block(ZSTD_DCtx* zstd, const Index& index, const BoardSymmetry& symmetry,
                         std::uint64_t first, const Block& block,
                         std::span<const std::uint8_t> frame, std::uint8_t* out) noexcept {
  if (checksum64(frame) != block.checksum) return "checksum mismatch";
  if (ZSTD_findFrameCompressedSize(frame.data(), frame.size()) != frame.size()) {
    return "not exactly one zstd frame";
  }
  std::uint8_t* values = out + (block.entries - block.stored);
  const std::size_t n = ZSTD_decompressDCtx(zstd, values, block.stored, frame.data(), frame.size());
  if (ZSTD_isError(n)) return ZSTD_getErrorName(n);
  if (n != block.stored) return "decompressed size is wrong";
  std::uint64_t taken = 0;  // stored values placed
  bool overrun = false;
  for_each_span(index, symmetry, first, first + block.entries,
                [&](std::uint64_t begin, std::uint64_t count, EntryKind kind) {
                  std::uint8_t* at = out + (begin - first);
                  if (kind != EntryKind::stored) {
                    fill_bytes(at, kind == EntryKind::win_in_one, count);
                  } else if (!overrun && taken + count <= block.stored) {
                    std::memmove(at, values + taken, count);
                    taken += count;
                  } else {
                    overrun = true;
                  }
                });
  if (overrun || taken != block.stored) return "stored count does not match the index";
  return nullptr;
}

// The cache's way of decoding a block of the table (BlockCache::Decode).
BlockCache::Failure decode_for_cache(const void* context, std::uint32_t b,
                                     std::uint8_t* out) noexcept {
  const auto& t = *static_cast<const TableData*>(context);
  const Block& block = t.blocks[b];
  try {
    t.frame.resize(block.compressed_size);
  } catch (const std::bad_alloc&) {
    return {"out of memory", false};
  }
  if (!util::read_at(t.file.get(), t.frame, block.offset)) {
    return {"cannot read the block", false};
  }
  if (const char* why = decode_block(t.zstd.get(), t.index, t.symmetry,
                                     std::uint64_t{b} << t.block_shift, block, t.frame, out)) {
    return {why, true};  // the bytes were read and are wrong: no retry will mend them
  }
  return {};
}

}  // namespace pawntb::probe_detail
