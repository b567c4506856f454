#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>
#include <optional>
#include <utility>
#include <variant>

#include "pawntb/detail/stored.hpp"
#include "pawntb/detail/values.hpp"
#include "pawntb/notation.hpp"
#include "pawntb/util/threads.hpp"
#include "table_impl.hpp"

namespace pawntb {

namespace {

constexpr std::uint64_t kLoadAllLimit = 64ULL << 20;  // entries decoded at open, at most

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what) {
  throw TableError(path.string() + ": " + what);
}

using util::read_at;

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

// Checks a block's frame, decompresses its stored values and puts them at
// their entries in out (block.entries bytes, from index `first`); entries a
// rule decides get their value (win in one 1, no move 0), mirror images 0.
// The values are decompressed into the end of out and moved down span by
// span: the k-th stored entry and everything before it sit at or before
// position k + (filler entries before it), where its value was read from.
// Returns a static message, or nullptr on success; allocates nothing.
const char* decode_block(ZSTD_DCtx* zstd, const detail::Index& index,
                         const detail::BoardSymmetry& symmetry, std::uint64_t first,
                         const detail::Block& block, std::span<const std::uint8_t> frame,
                         std::uint8_t* out) noexcept {
  if (detail::checksum64(frame) != block.checksum) return "checksum mismatch";
  if (ZSTD_findFrameCompressedSize(frame.data(), frame.size()) != frame.size()) {
    return "not exactly one zstd frame";
  }
  std::uint8_t* values = out + (block.entries - block.stored);
  const std::size_t n = ZSTD_decompressDCtx(zstd, values, block.stored, frame.data(), frame.size());
  if (ZSTD_isError(n)) return ZSTD_getErrorName(n);
  if (n != block.stored) return "decompressed size is wrong";
  std::uint64_t taken = 0;  // stored values placed
  bool overrun = false;
  detail::for_each_span(index, symmetry, first, first + block.entries,
                        [&](std::uint64_t begin, std::uint64_t count, detail::EntryKind kind) {
                          std::uint8_t* at = out + (begin - first);
                          if (kind != detail::EntryKind::stored) {
                            fill_bytes(at, kind == detail::EntryKind::win_in_one, count);
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

// A block that decode_blocks could not use: its number and what went wrong
// (decode_block's message, "out of memory"), or nullptr if it could not be
// read.
struct BlockFailure {
  std::uint32_t block;
  const char* error;
};

// Decodes the blocks block_of(0), ..., block_of(count - 1) of t, in
// increasing order, on `threads` threads (util::parallel_for, "probe decode";
// each thread with its own zstd context), into where(b, scratch): where block
// b's entries go, which may be `scratch`, a buffer of the thread's own (where
// may resize it). Returns the failures in block order. Does not touch t.zstd,
// so that it may run beside probes.
template <class Where, class BlockOf>
std::vector<BlockFailure> decode_block_list(const detail::TableData& t, unsigned threads,
                                            Where where, std::uint32_t count, BlockOf block_of) {
  std::vector<std::optional<BlockFailure>> failures(count);
  struct alignas(util::kCacheLineBytes) Worker {
    util::ZstdDecompressor zstd;
    std::vector<std::uint8_t> frame, scratch;
  };
  std::vector<Worker> workers(util::workers_for(threads, count));
  util::parallel_for("probe decode", threads, count, [&](std::uint64_t i, unsigned w) {
    const std::uint32_t b = block_of(i);
    const detail::Block& block = t.blocks[b];
    Worker& worker = workers[w];
    std::uint8_t* out = nullptr;
    try {
      if (!worker.zstd) worker.zstd.reset(ZSTD_createDCtx());
      if (!worker.zstd) throw std::bad_alloc();
      worker.frame.resize(block.compressed_size);
      out = where(b, worker.scratch);
    } catch (const std::bad_alloc&) {
      failures[i] = BlockFailure{b, "out of memory"};
      return;
    }
    if (!read_at(t.file.get(), worker.frame, block.offset)) {
      failures[i] = BlockFailure{b, nullptr};
      return;
    }
    const std::uint64_t first_entry = std::uint64_t{b} * t.header.block_entries;
    if (const char* error = decode_block(worker.zstd.get(), t.index, t.symmetry, first_entry, block,
                                         worker.frame, out)) {
      failures[i] = BlockFailure{b, error};
    }
  });
  std::vector<BlockFailure> out;
  for (const auto& failure : failures) {
    if (failure) out.push_back(*failure);
  }
  return out;
}

// The blocks [first, end) of t, as decode_block_list.
template <class Where>
std::vector<BlockFailure> decode_blocks(const detail::TableData& t, unsigned threads, Where where,
                                        std::uint32_t first, std::uint32_t end) {
  return decode_block_list(t, threads, where, end - first,
                           [&](std::uint64_t i) { return first + static_cast<std::uint32_t>(i); });
}

}  // namespace

const char* describe(ProbeStatus s) {
  switch (s) {
    case ProbeStatus::ok:
      return "ok";
    case ProbeStatus::invalid_position:
      return "invalid position: overlapping pawns, or the side to move is on its goal row";
    case ProbeStatus::geometry_mismatch:
      return "the board size does not match the table";
    case ProbeStatus::too_many_pawns:
      return "more pawns than the table covers";
    case ProbeStatus::damaged_table:
      return "the table is damaged: a block failed its check";
  }
  return "unknown status";
}

Table::Table(std::shared_ptr<const detail::TableData> data) : impl_(std::move(data)) {}

namespace {

// Opens path read-only: a regular file, else TableError.
util::FileDescriptor open_file(const std::filesystem::path& path) {
  // O_NONBLOCK so that a FIFO cannot block the open; it is refused below.
  util::FileDescriptor file(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (file.get() < 0) fail(path, std::string("cannot open: ") + std::strerror(errno));
  return file;
}

std::uint64_t regular_file_size(const std::filesystem::path& path, int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) fail(path, "not a regular file");
  return static_cast<std::uint64_t>(st.st_size);
}

// The header, read and checked (section 9 of FORMAT.md).
detail::Header read_header(const std::filesystem::path& path, int fd, std::uint64_t file_size) {
  std::array<std::uint8_t, detail::kHeaderSize> bytes{};
  const std::size_t size =
      static_cast<std::size_t>(std::min<std::uint64_t>(file_size, detail::kHeaderSize));
  if (!read_at(fd, std::span(bytes).first(size), 0)) fail(path, "cannot read the header");
  auto decoded = detail::decode_header(std::span(bytes).first(size), file_size);
  if (auto* e = std::get_if<detail::LayoutError>(&decoded)) fail(path, e->message);
  return std::get<detail::Header>(decoded);
}

// The block index, read and checked against the header.
std::vector<detail::Block> read_block_index(const std::filesystem::path& path, int fd,
                                            const detail::Header& h) {
  std::vector<std::uint8_t> bytes(std::size_t{h.block_count} * sizeof(detail::DiskBlock));
  if (!read_at(fd, bytes, detail::kHeaderSize)) {
    fail(path, "cannot read the block index: file truncated");
  }
  auto blocks = detail::decode_block_index(bytes, h);
  if (auto* e = std::get_if<detail::LayoutError>(&blocks)) fail(path, e->message);
  return std::move(std::get<std::vector<detail::Block>>(blocks));
}

// Decodes every block into t.entries and closes the file; TableError names
// the lowest damaged block.
void load_all(const std::filesystem::path& path, detail::TableData& t, unsigned threads) {
  t.entries.resize(t.header.entry_count);
  const auto failures = decode_blocks(
      t, util::thread_count(threads),
      [&](std::uint32_t b, auto&) {
        return t.entries.data() + std::uint64_t{b} * t.header.block_entries;
      },
      0, t.header.block_count);
  if (!failures.empty()) {
    const BlockFailure& failed = failures.front();
    const std::string b = std::to_string(failed.block);
    fail(path, failed.error ? "block " + b + ": " + failed.error : "cannot read block " + b);
  }
  t.file.reset();
  t.loaded_entries = t.entries.data();
}

// The cache's way of decoding a block of the table (BlockCache::Decode).
detail::BlockCache::Failure decode_for_cache(const void* context, std::uint32_t b,
                                             std::uint8_t* out) noexcept {
  const auto& t = *static_cast<const detail::TableData*>(context);
  const detail::Block& block = t.blocks[b];
  try {
    t.frame.resize(block.compressed_size);
  } catch (const std::bad_alloc&) {
    return {"out of memory", false};
  }
  if (!read_at(t.file.get(), t.frame, block.offset)) {
    return {"cannot read the block", false};
  }
  if (const char* why = decode_block(t.zstd.get(), t.index, t.symmetry,
                                     std::uint64_t{b} << t.block_shift, block, t.frame, out)) {
    return {why, true};  // the bytes were read and are wrong: no retry will mend them
  }
  return {};
}

TableInfo table_info(const std::filesystem::path& path, const detail::TableData& t) {
  const detail::Header& h = t.header;
  TableInfo info;
  info.path = path;
  info.geometry = h.geometry;
  info.max_pawns = h.max_pawns;
  info.format_version = detail::kFormatVersion;
  info.entries = h.entry_count;
  info.placements = h.placement_count;
  info.white_wins = h.win_count;
  info.max_plies = h.max_plies;
  const auto longest = t.index.unrank(h.longest_index);
  info.longest_example =
      format_position(Position{h.geometry, longest.white, longest.black, Side::white});
  info.blocks = h.block_count;
  info.block_entries = h.block_entries;
  info.file_size = h.file_size;
  info.header_checksum = h.header_checksum;
  info.index_checksum = h.index_checksum;
  info.rules_fingerprint = detail::rules_fingerprint();
  info.fully_loaded = t.loaded_entries != nullptr;
  info.cache_bytes = info.fully_loaded ? 0 : t.cache.capacity_bytes();
  return info;
}

}  // namespace

// A function-try-block: running out of memory anywhere in here is reported as
// a TableError too.
Table Table::open(const std::filesystem::path& path, Load load, unsigned threads,
                  std::uint64_t cache_bytes) try {
  util::FileDescriptor file = open_file(path);
  const detail::Header h = read_header(path, file.get(), regular_file_size(path, file.get()));
  auto data = std::make_shared<detail::TableData>(h.geometry, h.max_pawns);
  if (auto e = detail::check_entry_count(h, data->index)) fail(path, e->message);
  data->header = h;
  data->block_shift = static_cast<unsigned>(std::countr_zero(h.block_entries));
  data->blocks = read_block_index(path, file.get(), h);
  data->zstd.reset(ZSTD_createDCtx());
  if (!data->zstd) throw std::bad_alloc();
  data->file = std::move(file);
  if (load == Load::all || (load == Load::automatic && h.entry_count <= kLoadAllLimit)) {
    load_all(path, *data, threads);
  } else {
    data->cache.prepare(h.block_count, h.block_entries, cache_bytes, decode_for_cache, data.get());
  }
  data->info = table_info(path, *data);
  return Table(std::move(data));
} catch (const std::bad_alloc&) {
  throw TableError(path.string() + ": out of memory while loading the table");
}

Table Table::open_default(Load load) {
  return open(default_path(), load);
}

namespace {

// What locate() finds: the index of the entry that holds the answer, or,
// with kAnswerTag set, the answer itself, packed as in packed_result().
constexpr std::uint64_t kAnswerTag = std::uint64_t{1} << 63;  // indices are < 2^62

// A result as one word, byte 0 the status, byte 1 the winner, byte 2 the
// plies: built and passed in registers, then unpacked once.
constexpr std::uint32_t packed_result(ProbeStatus s, Side winner, std::uint8_t plies) {
  return static_cast<std::uint32_t>(s) | static_cast<std::uint32_t>(winner) << 8 |
         std::uint32_t{plies} << 16;
}
constexpr std::uint32_t packed_status(ProbeStatus s) {
  return packed_result(s, Side::white, ProbeResult::kNoPlies);
}
// The side to move's result when the entry (or the game) says `plies`.
constexpr std::uint32_t packed_value(Side mover, std::uint8_t plies) {
  // The winner without a branch: the mover (white 0, black 1) when plies is
  // odd (detail::mover_wins), else the other side.
  const std::uint32_t winner = static_cast<std::uint32_t>(mover) ^ ((plies & 1u) ^ 1u);
  return static_cast<std::uint32_t>(ProbeStatus::ok) | winner << 8 | std::uint32_t{plies} << 16;
}
// packed_value for every mover and byte: one load instead of the bit work.
struct PackedValues {
  std::uint32_t of[2][256]{};
  constexpr PackedValues() {
    for (int plies = 0; plies < 256; ++plies) {
      of[0][plies] = packed_value(Side::white, static_cast<std::uint8_t>(plies));
      of[1][plies] = packed_value(Side::black, static_cast<std::uint8_t>(plies));
    }
  }
};
constexpr PackedValues kPackedValues{};
static_assert(packed_value(Side::white, 7) == packed_result(ProbeStatus::ok, Side::white, 7) &&
              packed_value(Side::white, 6) == packed_result(ProbeStatus::ok, Side::black, 6) &&
              packed_value(Side::black, 7) == packed_result(ProbeStatus::ok, Side::black, 7) &&
              packed_value(Side::black, 0) == packed_result(ProbeStatus::ok, Side::white, 0));
// On a little-endian machine the packed word is the result's bytes in
// order: one 4-byte store.
constexpr ProbeResult unpack(std::uint32_t packed) {
  if constexpr (std::endian::native == std::endian::little) {
    return std::bit_cast<ProbeResult>(packed);  // byte 3 is padding
  } else {
    return std::bit_cast<ProbeResult>(std::array<std::uint8_t, 4>{
        static_cast<std::uint8_t>(packed), static_cast<std::uint8_t>(packed >> 8),
        static_cast<std::uint8_t>(packed >> 16), 0});
  }
}
static_assert(unpack(packed_value(Side::black, 7)).winner == Side::black &&
              unpack(packed_value(Side::black, 7)).plies == 7 &&
              unpack(packed_status(ProbeStatus::too_many_pawns)).status ==
                  ProbeStatus::too_many_pawns &&
              unpack(packed_status(ProbeStatus::too_many_pawns)).plies == ProbeResult::kNoPlies);

// Where probe() finds the value of `p` in a table of geometry G::value
// (G = FixedGeometry<rows, cols>: one copy per geometry, with every mask and
// the rank inline): the index of its entry, or kAnswerTag | the packed answer.
template <class G>
[[gnu::always_inline]] inline std::uint64_t locate(const detail::TableData& t,
                                                   const Position& p) noexcept {
  constexpr Geometry g = G::value;
  constexpr int bytes = detail::board_bytes(g);
  // (Each check one branch: the geometry compared as one word, the
  // conditions that share a status or-ed.)
  static_assert(sizeof(Geometry) == 8);
  if (std::bit_cast<std::uint64_t>(p.geometry) != std::bit_cast<std::uint64_t>(g)) {
    return kAnswerTag | packed_status(ProbeStatus::geometry_mismatch);
  }
  if ((p.white & p.black) | ((p.white | p.black) & ~detail::board_mask(g))) {
    return kAnswerTag | packed_status(ProbeStatus::invalid_position);
  }
  if (std::max(std::popcount(p.white), std::popcount(p.black)) > t.header.max_pawns) {
    return kAnswerTag | packed_status(ProbeStatus::too_many_pawns);
  }
  // The white-to-move view (colour flip for black to move).
  std::uint64_t white = p.white, black = p.black;
  if (p.to_move == Side::black) {
    white = t.symmetry.flip<bytes>(p.black);
    black = t.symmetry.flip<bytes>(p.white);
  }
  if (white & detail::white_goal(g))
    return kAnswerTag | packed_status(ProbeStatus::invalid_position);
  if ((black & detail::black_goal(g)) || !white) return kAnswerTag | packed_value(p.to_move, 0);
  // Rule entries (win in one, no move) hold their values since decoding.
  // The slice comes from the row profiles, which the mirror keeps: its
  // lookup need not wait for the choice of the canonical image.
  const auto& slice = t.index.slice_with<g>(white, black);
  const detail::Pawns c = detail::canonical(
      detail::Pawns{white, black},
      detail::Pawns{t.symmetry.mirror<bytes>(white), t.symmetry.mirror<bytes>(black)});
  return t.index.rank_with<g>(slice, c.white, c.black);
}

// The answer for `mover` to move from what locate() found.
[[gnu::always_inline]] inline ProbeResult look_up(const detail::TableData& t, std::uint64_t found,
                                                  Side mover) noexcept {
  std::uint32_t packed = static_cast<std::uint32_t>(found);
  if (!(found & kAnswerTag)) [[likely]] {
    const int stored = t.entry(found);
    packed = stored >= 0 ? kPackedValues.of[static_cast<int>(mover)][stored]
                         : packed_status(ProbeStatus::damaged_table);
  }
  return unpack(packed);
}

template <class G>
ProbeResult probe_with(const detail::TableData& t, const Position& p) noexcept {
  return look_up(t, locate<G>(t, p), p.to_move);
}

// Positions a group at a time: all their indices first, then all lookups,
// which do not wait for one another.
template <class G>
void probe_many_with(const detail::TableData& t, const Position* positions, std::size_t size,
                     ProbeResult* results) noexcept {
  constexpr std::size_t kGroup = 64;
  std::uint64_t found[kGroup];
  for (std::size_t first = 0; first < size; first += kGroup) {
    const std::size_t count = std::min(kGroup, size - first);
    for (std::size_t i = 0; i < count; ++i) {
      found[i] = locate<G>(t, positions[first + i]);
    }
    for (std::size_t i = 0; i < count; ++i) {
      results[first + i] = look_up(t, found[i], positions[first + i].to_move);
    }
  }
}

// probe_with and probe_many_with for each geometry, by geometry_number.
constexpr auto kProbeWith = detail::per_geometry([](auto g) { return &probe_with<decltype(g)>; });
constexpr auto kProbeManyWith =
    detail::per_geometry([](auto g) { return &probe_many_with<decltype(g)>; });

}  // namespace

namespace {

std::vector<BlockDamage> damage_of(const std::vector<BlockFailure>& failures) {
  std::vector<BlockDamage> damage;
  for (const BlockFailure& failure : failures) {
    damage.push_back(
        BlockDamage{failure.block, failure.error ? failure.error : "cannot read the block"});
  }
  return damage;
}

}  // namespace

std::vector<BlockDamage> detail::decode_blocks_at(const TableData& t, unsigned threads,
                                                  std::span<const std::uint32_t> blocks,
                                                  std::uint8_t* image) {
  return damage_of(decode_block_list(
      t, util::thread_count(threads),
      [&](std::uint32_t b, auto&) { return image + (std::uint64_t{b} << t.block_shift); },
      static_cast<std::uint32_t>(blocks.size()), [&](std::uint64_t i) { return blocks[i]; }));
}

namespace {

// Feeds entries, in index order, to one checksum per tier.
class TierChecksummer {
 public:
  explicit TierChecksummer(const detail::Index& index) : tiers_(index.tiers()) {
    finish_ended_tiers();  // tiers without entries at the start
  }

  void add(std::span<const std::uint8_t> entries) {
    while (!entries.empty()) {
      const detail::Index::Tier& tier = tiers_[out_.size()];
      const std::uint64_t take =
          std::min<std::uint64_t>(entries.size(), tier.first + tier.size - at_);
      stream_.update(entries.first(static_cast<std::size_t>(take)));
      entries = entries.subspan(static_cast<std::size_t>(take));
      at_ += take;
      finish_ended_tiers();
    }
  }
  std::vector<TierChecksum> take() { return std::move(out_); }

 private:
  // Closes every tier whose entries have all been added.
  void finish_ended_tiers() {
    while (out_.size() < tiers_.size() &&
           at_ == tiers_[out_.size()].first + tiers_[out_.size()].size) {
      const detail::Index::Tier& tier = tiers_[out_.size()];
      out_.push_back(TierChecksum{static_cast<std::uint32_t>(out_.size()), tier.w, tier.b, tier.sw,
                                  tier.sb, tier.first, tier.size, stream_.value()});
      stream_.reset();
    }
  }

  std::span<const detail::Index::Tier> tiers_;
  std::vector<TierChecksum> out_;
  std::uint64_t at_ = 0;  // entries added
  detail::Checksum64Stream stream_;
};

constexpr std::uint32_t kBlocksAtOnce = 32;  // decoded together, then checksummed in order

}  // namespace

std::vector<BlockDamage> Table::check_blocks(unsigned threads) const {
  const detail::TableData& t = *impl_;
  if (t.loaded_entries) return {};
  return damage_of(decode_blocks(
      t, util::thread_count(threads),
      [&](std::uint32_t b, std::vector<std::uint8_t>& scratch) {
        scratch.resize(t.blocks[b].entries);
        return scratch.data();
      },
      0, t.header.block_count));
}

TierChecksums Table::tier_checksums(unsigned threads) const {
  const detail::TableData& t = *impl_;
  TierChecksummer checksummer(t.index);
  if (t.loaded_entries) {
    checksummer.add(std::span(t.loaded_entries, t.header.entry_count));
    return {checksummer.take(), {}};
  }
  const std::uint64_t block_entries = t.header.block_entries;
  std::vector<std::uint8_t> decoded(kBlocksAtOnce * block_entries);
  TierChecksums out;
  for (std::uint32_t first = 0; first < t.header.block_count; first += kBlocksAtOnce) {
    const std::uint32_t end = std::min(t.header.block_count, first + kBlocksAtOnce);
    const auto failures = decode_blocks(
        t, util::thread_count(threads),
        [&](std::uint32_t b, auto&) { return decoded.data() + (b - first) * block_entries; }, first,
        end);
    if (!failures.empty()) {
      auto damage = damage_of(failures);
      out.damaged_blocks.insert(out.damaged_blocks.end(), damage.begin(), damage.end());
    }
    if (!out.damaged_blocks.empty()) continue;  // no checksums, only the damage
    const std::uint64_t entries = std::min<std::uint64_t>(
        std::uint64_t{end - first} * block_entries, t.header.entry_count - first * block_entries);
    checksummer.add(std::span(decoded.data(), static_cast<std::size_t>(entries)));
  }
  if (out.damaged_blocks.empty()) out.tiers = checksummer.take();
  return out;
}

ProbeResult Table::probe(const Position& p) const noexcept {
  return kProbeWith[detail::geometry_number(impl_->header.geometry)](*impl_, p);
}

void Table::probe_many(const Position* positions, std::size_t count,
                       ProbeResult* results) const noexcept {
  kProbeManyWith[detail::geometry_number(impl_->header.geometry)](*impl_, positions, count,
                                                                  results);
}

namespace {

// Whether a is a better move than b for the side to move: a win beats a loss,
// a faster win a slower one, a longer loss a shorter one.
bool better(Side mover, const MoveValue& a, const MoveValue& b) {
  const bool a_wins = a.winner == mover, b_wins = b.winner == mover;
  if (a_wins != b_wins) return a_wins;
  return a_wins ? a.plies < b.plies : a.plies > b.plies;
}

// The best move of a playable position: the first of the best in move order,
// as the stable sort in probe_root puts first. Fails with the first non-ok
// probe, which only a damaged block can cause.
std::variant<MoveValue, ProbeResult> best_move(const Table& t, const Position& p) {
  std::optional<MoveValue> best;
  for (const Move m : legal_moves(p)) {
    const ProbeResult after = t.probe(play(p, m));
    if (!after.ok()) return after;
    const MoveValue candidate{m, after.winner, after.plies};
    if (!best || better(p.to_move, candidate, *best)) best = candidate;
  }
  return *best;  // p is playable: it has a legal move
}

}  // namespace

RootResult Table::probe_root(const Position& p) const {
  RootResult root;
  root.value = probe(p);
  if (!root.value.ok()) return root;
  const MoveList moves = legal_moves(p);  // none when the game is over
  root.moves.reserve(static_cast<std::size_t>(moves.size));
  for (const Move m : moves) {
    const ProbeResult after = probe(play(p, m));
    if (!after.ok()) return RootResult{after, {}, {}};
    root.moves.push_back(MoveValue{m, after.winner, after.plies});
  }
  std::stable_sort(root.moves.begin(), root.moves.end(),
                   [&](const MoveValue& a, const MoveValue& b) { return better(p.to_move, a, b); });
  // Follow the best move to the end of the game.
  Position line = p;
  root.principal_variation.reserve(root.value.plies);
  while (root.principal_variation.size() < root.value.plies && classify(line) == Status::playable) {
    const auto best = best_move(*this, line);
    if (const auto* failure = std::get_if<ProbeResult>(&best)) return RootResult{*failure, {}, {}};
    const Move m = std::get<MoveValue>(best).move;
    root.principal_variation.push_back(m);
    line = play(line, m);
  }
  return root;
}

Position Table::start_position() const noexcept {
  return pawntb::start_position(impl_->info.geometry, impl_->info.max_pawns);
}

const TableInfo& Table::info() const noexcept {
  return impl_->info;
}

}  // namespace pawntb
