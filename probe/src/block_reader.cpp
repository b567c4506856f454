// BlockReader: block_decoder.hpp's decode_block behind the public door.
#include "pawntb/block_reader.hpp"

#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "block_decoder.hpp"
#include "table_impl.hpp"

namespace pawntb {

struct BlockReader::State {
  std::shared_ptr<const probe_detail::TableData> table;
  util::ZstdDecompressor zstd;
  std::vector<std::uint8_t> frame;
};

BlockReader::BlockReader(const Table& table) : state_(std::make_unique<State>()) {
  state_->table = probe_detail::TableAccess::shared(table);
}
BlockReader::~BlockReader() = default;
BlockReader::BlockReader(BlockReader&&) noexcept = default;
BlockReader& BlockReader::operator=(BlockReader&&) noexcept = default;

std::uint32_t BlockReader::blocks() const noexcept {
  return state_->table->header.block_count;
}

BlockRange BlockReader::range(std::uint32_t b) const {
  const probe_detail::TableData& t = *state_->table;
  if (b >= t.header.block_count) {
    throw std::out_of_range("block " + std::to_string(b) + " of a table with " +
                            std::to_string(t.header.block_count));
  }
  return BlockRange{std::uint64_t{b} << t.block_shift, t.blocks[b].entries};
}

const char* BlockReader::read(std::uint32_t b, std::uint8_t* out) {
  const probe_detail::TableData& t = *state_->table;
  const BlockRange r = range(b);
  if (t.loaded_entries) {
    std::memcpy(out, t.loaded_entries + r.first, r.count);
    return nullptr;
  }
  const format::Block& block = t.blocks[b];
  if (!state_->zstd) state_->zstd.reset(ZSTD_createDCtx());
  if (!state_->zstd) throw std::bad_alloc();
  state_->frame.resize(block.compressed_size);
  if (!util::read_at(t.file.get(), state_->frame, block.offset)) return "cannot read the block";
  return probe_detail::decode_block(state_->zstd.get(), t.index, t.symmetry, r.first, block,
                                    state_->frame, out);
}

const std::uint8_t* BlockReader::loaded_entries() const noexcept {
  return state_->table->loaded_entries;
}

}  // namespace pawntb
