// pawntb block reader: a table's values a whole block at a time, for the
// walks over every entry of a table (pawntb::check's verify and scans,
// pawntb::analysis's statistics) that decode blocks themselves instead of
// probing. The only door to a table's blocks besides probing: those walks
// see nothing else of an opened table than this and probe.hpp.
//
// THREADS. A BlockReader owns one decompression context and one frame
// buffer: one thread at a time may use it, so give each thread its own. Any
// number of readers may read the same Table at once, beside its probes; a
// reader keeps the table's data alive. Nothing here prints, exits or aborts.
#pragma once

#include <cstdint>
#include <memory>

#include "pawntb/probe.hpp"

namespace pawntb {

// The entries [first, first + count) of the table that one block holds, in
// index order (TableInfo::block_entries of them, fewer in the last block).
struct BlockRange {
  std::uint64_t first = 0;
  std::uint64_t count = 0;
};

class BlockReader {
 public:
  // A reader of table's blocks. Throws std::bad_alloc.
  explicit BlockReader(const Table& table);
  ~BlockReader();
  BlockReader(BlockReader&&) noexcept;
  BlockReader& operator=(BlockReader&&) noexcept;

  // The table's blocks: TableInfo::blocks.
  std::uint32_t blocks() const noexcept;

  // The entries block b holds. Throws std::out_of_range if b >= blocks().
  BlockRange range(std::uint32_t b) const;

  // Reads block b, checks its checksum and decodes its values into
  // out[0 .. range(b).count), as FORMAT.md section 7 says a decoded block
  // holds them: each the plies of its position, white to move, except a
  // mirror image that does not win in one by rule, which holds 0 (its value
  // is its mirror's). Returns nullptr, or what went wrong, a static English
  // phrase: "cannot read the block", "checksum mismatch", or another of the
  // decoder's. A table loaded at open is copied from memory (its blocks
  // were checked then). Throws std::out_of_range if b >= blocks(),
  // std::bad_alloc.
  const char* read(std::uint32_t b, std::uint8_t* out);

  // Every entry of a table loaded at open (TableInfo::fully_loaded), as
  // read() would give them, TableInfo::entries bytes; nullptr otherwise.
  // Valid while the reader lives.
  const std::uint8_t* loaded_entries() const noexcept;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace pawntb
