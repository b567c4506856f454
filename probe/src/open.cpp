// Table::open: the file, its header and block index checked, then every
// entry decoded or the block cache prepared; and the table's facts.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cstring>
#include <new>
#include <utility>
#include <variant>

#include "block_decoder.hpp"
#include "pawntb/format/values.hpp"
#include "pawntb/notation.hpp"
#include "pawntb/util/threads.hpp"
#include "table_impl.hpp"

namespace pawntb {

namespace {

constexpr std::uint64_t kLoadAllLimit = 64ULL << 20;  // entries decoded at open, at most

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what) {
  throw TableError(path.string() + ": " + what);
}

using probe_detail::BlockFailure;
using probe_detail::decode_blocks;
using probe_detail::decode_for_cache;
using util::read_at;

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

SideValue value_for(Side side, Side winner, int plies) noexcept {
  return side == winner ? SideValue{plies, "win"} : SideValue{-plies, "loss"};
}

std::string invalid_position_problem(const Position& p) {
  return "invalid position: " + invalid_reason(p);
}

std::string probe_problem(const Table& table, const Position& p, ProbeResult r) {
  const TableInfo& info = table.info();
  switch (r.status) {
    case ProbeStatus::ok:
      return {};
    case ProbeStatus::invalid_position:
      return invalid_position_problem(p);
    case ProbeStatus::geometry_mismatch:
      return "board is " + to_string(p.geometry) + ", the table " + info.path.string() + " is " +
             to_string(info.geometry);
    case ProbeStatus::too_many_pawns:
      return "more than " + std::to_string(info.max_pawns) + " pawns a side, the table's limit";
    case ProbeStatus::damaged_table:
      return info.path.string() + ": " + describe(r.status);
  }
  return describe(r.status);
}

Table::Table(std::shared_ptr<const probe_detail::TableData> data) : impl_(std::move(data)) {}

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
format::Header read_header(const std::filesystem::path& path, int fd, std::uint64_t file_size) {
  std::array<std::uint8_t, format::kHeaderSize> bytes{};
  const std::size_t size =
      static_cast<std::size_t>(std::min<std::uint64_t>(file_size, format::kHeaderSize));
  if (!read_at(fd, std::span(bytes).first(size), 0)) fail(path, "cannot read the header");
  auto decoded = format::decode_header(std::span(bytes).first(size), file_size);
  if (auto* e = std::get_if<format::LayoutError>(&decoded)) fail(path, e->message);
  return std::get<format::Header>(decoded);
}

// The block index, read and checked against the header.
std::vector<format::Block> read_block_index(const std::filesystem::path& path, int fd,
                                           const format::Header& h) {
  std::vector<std::uint8_t> bytes(std::size_t{h.block_count} * sizeof(format::DiskBlock));
  if (!read_at(fd, bytes, format::kHeaderSize)) {
    fail(path, "cannot read the block index: file truncated");
  }
  auto blocks = format::decode_block_index(bytes, h);
  if (auto* e = std::get_if<format::LayoutError>(&blocks)) fail(path, e->message);
  return std::move(std::get<std::vector<format::Block>>(blocks));
}

// Decodes every block into t.entries and closes the file; TableError names
// the lowest damaged block.
void load_all(const std::filesystem::path& path, probe_detail::TableData& t, unsigned threads) {
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

TableInfo table_info(const std::filesystem::path& path, const probe_detail::TableData& t) {
  const format::Header& h = t.header;
  TableInfo info;
  info.path = path;
  info.geometry = h.geometry;
  info.max_pawns = h.max_pawns;
  info.format_version = format::kFormatVersion;
  info.entries = h.entry_count;
  info.placements = h.placement_count;
  info.white_wins = h.win_count;
  info.longest_game_plies = h.max_plies;
  const auto longest = t.index.unrank(h.longest_index);
  info.longest_game_example =
      format_position(Position{h.geometry, longest.white, longest.black, Side::white});
  info.blocks = h.block_count;
  info.block_entries = h.block_entries;
  info.file_size = h.file_size;
  info.header_checksum = h.header_checksum;
  info.index_checksum = h.index_checksum;
  info.rules_fingerprint = format::rules_fingerprint();
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
  const format::Header h = read_header(path, file.get(), regular_file_size(path, file.get()));
  auto data = std::make_shared<probe_detail::TableData>(h.geometry, h.max_pawns);
  if (auto e = format::check_entry_count(h, data->index)) fail(path, e->message);
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

Position Table::start_position() const noexcept {
  return pawntb::start_position(impl_->info.geometry, impl_->info.max_pawns);
}

const TableInfo& Table::info() const noexcept {
  return impl_->info;
}

}  // namespace pawntb
