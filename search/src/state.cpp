#include "state.hpp"

#include <zstd.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "pawntb/format/layout.hpp"
#include "pawntb/util/atomic_file.hpp"
#include "pawntb/util/zstd.hpp"
#include "certificate.hpp"
#include "checksummed_stream.hpp"

namespace pawntb::search_detail {

// The file (little-endian), docs/search.md "Resume":
//   offset 0   "PAWNSTA1"
//          8   u32 version (2: tt.hpp's one-word entries; 1 had two words)
//         12   u8 rows, u8 cols, u8 side to move of the root (0 white), u8 0
//         16   u64 the root's white pawns, u64 its black pawns
//         32   u64 nodes searched, u64 the wall seconds (an IEEE double's bits)
//         48   u64 the table's bytes, a whole number of 64-byte buckets
//         56   u64 XXH3-64 of bytes 0..55
//         64   the table in chunks of kChunkWords words (the last may be
//              shorter): each a u32 length and a zstd frame with its content
//              checksum.
namespace {

constexpr char kMagic[8] = {'P', 'A', 'W', 'N', 'S', 'T', 'A', '1'};
constexpr std::uint32_t kVersion = 2;
constexpr std::size_t kHeaderBytes = 64;
constexpr std::uint64_t kChunkWords = std::uint64_t{1} << 19;  // 4 MiB
// Level 1: a 16 GiB table is saved in well under a minute, and its empty
// parts, most of it early on, shrink to almost nothing.
constexpr int kLevel = 1;

void put(std::uint8_t* at, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) at[i] = static_cast<std::uint8_t>(v >> (8 * i));
}

// Whether `in` is open on `path`: false when there is no such file (nothing
// saved yet). Throws std::invalid_argument when it exists but cannot be read.
bool opened(const std::ifstream& in, const std::filesystem::path& path) {
  if (in) return true;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return false;
  throw std::invalid_argument("cannot read " + path.string());
}

[[noreturn]] void damaged(const std::filesystem::path& path, const std::string& what) {
  throw std::invalid_argument(path.string() + ": not a pawntb search state, or damaged: " + what);
}

}  // namespace

std::uint64_t save_state(const std::filesystem::path& path, const SearchStateHeader& header,
                         const TranspositionTable& tt) {
  return util::write_file_atomically(path, [&](util::ByteSink& sink) {
    std::uint8_t h[kHeaderBytes] = {};
    std::memcpy(h, kMagic, 8);
    put(h + 8, kVersion, 4);
    put(h + 12, static_cast<std::uint64_t>(header.root.geometry.rows), 1);
    put(h + 13, static_cast<std::uint64_t>(header.root.geometry.cols), 1);
    put(h + 14, header.root.to_move == Side::white ? 0 : 1, 1);
    put(h + 16, header.root.white, 8);
    put(h + 24, header.root.black, 8);
    put(h + 32, header.nodes, 8);
    put(h + 40, std::bit_cast<std::uint64_t>(header.seconds), 8);
    put(h + 48, tt.words() * 8, 8);
    put(h + 56, format::checksum64({h, 56}), 8);
    sink.write_at(0, {h, kHeaderBytes});
    std::uint64_t offset = kHeaderBytes;
    const util::ZstdCompressor cctx(ZSTD_createCCtx());
    if (!cctx) throw std::bad_alloc();
    ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_compressionLevel, kLevel);
    ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_checksumFlag, 1);
    std::vector<std::uint64_t> words(kChunkWords);
    std::vector<std::uint8_t> frame(4 + ZSTD_compressBound(kChunkWords * 8));
    for (std::uint64_t first = 0; first < tt.words(); first += kChunkWords) {
      const std::uint64_t count = std::min(kChunkWords, tt.words() - first);
      tt.copy_out(first, words.data(), count);
      const std::size_t n = ZSTD_compress2(cctx.get(), frame.data() + 4, frame.size() - 4,
                                           words.data(), count * 8);
      if (ZSTD_isError(n)) throw std::runtime_error(std::string("zstd: ") + ZSTD_getErrorName(n));
      put(frame.data(), n, 4);
      sink.write_at(offset, {frame.data(), n + 4});
      offset += n + 4;
    }
    return offset;
  });
}

namespace {

SearchStateHeader parse_header(const std::filesystem::path& path, std::ifstream& in) {
  std::uint8_t h[kHeaderBytes];
  if (!in.read(reinterpret_cast<char*>(h), kHeaderBytes)) damaged(path, "shorter than its header");
  if (std::memcmp(h, kMagic, 8) != 0) damaged(path, "no PAWNSTA1 at its start");
  if (read_le(h + 8, 4) != kVersion) damaged(path, "version " + std::to_string(read_le(h + 8, 4)));
  if (read_le(h + 56, 8) != format::checksum64({h, 56})) damaged(path, "its header's checksum");
  SearchStateHeader r;
  r.root.geometry = Geometry{static_cast<int>(h[12]), static_cast<int>(h[13])};
  r.root.to_move = h[14] == 0 ? Side::white : Side::black;
  r.root.white = read_le(h + 16, 8);
  r.root.black = read_le(h + 24, 8);
  r.nodes = read_le(h + 32, 8);
  r.seconds = std::bit_cast<double>(read_le(h + 40, 8));
  r.tt_bytes = read_le(h + 48, 8);
  if (classify(r.root) == Status::invalid) damaged(path, "its root position is not valid");
  if (r.tt_bytes < 64 || r.tt_bytes % 64 != 0) damaged(path, "its table's size");
  return r;
}

}  // namespace

std::optional<SearchStateHeader> read_state_header(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!opened(in, path)) return std::nullopt;
  return parse_header(path, in);
}

void load_state(const std::filesystem::path& path, TranspositionTable& tt) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument("cannot read " + path.string());
  const SearchStateHeader header = parse_header(path, in);
  if (header.tt_bytes != tt.words() * 8) damaged(path, "its table's size changed");
  const util::ZstdDecompressor dctx(ZSTD_createDCtx());
  if (!dctx) throw std::bad_alloc();
  std::vector<std::uint64_t> words(kChunkWords);
  std::vector<std::uint8_t> frame;
  for (std::uint64_t first = 0; first < tt.words(); first += kChunkWords) {
    const std::uint64_t count = std::min(kChunkWords, tt.words() - first);
    std::uint8_t len[4];
    if (!in.read(reinterpret_cast<char*>(len), 4)) damaged(path, "cut short");
    frame.resize(read_le(len, 4));
    if (frame.size() > ZSTD_compressBound(kChunkWords * 8)) damaged(path, "a chunk's length");
    if (!in.read(reinterpret_cast<char*>(frame.data()), static_cast<std::streamsize>(frame.size())))
      damaged(path, "cut short");
    const std::size_t n =
        ZSTD_decompressDCtx(dctx.get(), words.data(), count * 8, frame.data(), frame.size());
    if (ZSTD_isError(n) || n != count * 8) damaged(path, "a chunk of the table");
    tt.copy_in(first, words.data(), count);
  }
  if (in.peek() != std::ifstream::traits_type::eof()) damaged(path, "bytes after the table");
}

// The walk's file (little-endian), beside the state (FILE.walk):
//   offset 0   "PAWNWLK1"
//          8   u8 rows, u8 cols, u8 side to move of the root (0 white), 5 bytes 0
//         16   u64 the root's white pawns, u64 its black pawns
//         32   u64 L, the positions listed; u64 V, the positions to visit
//         48   L entries of 18 bytes: u64 white, u64 black, u8 from, u8 to
//              V entries of 17 bytes: u64 white, u64 black, u8 side to move
//              (0 white)
//        end   u64 XXH3-64 of every byte before it
namespace {

constexpr char kWalkMagic[8] = {'P', 'A', 'W', 'N', 'W', 'L', 'K', '1'};
constexpr std::size_t kWalkHeader = 48, kToVisitBytes = 17;

// The root that the walk's and the distance's files begin with (offsets 0 to 31).
void put_root(ChecksummedWriter& out, const char (&magic)[8], const Position& root) {
  out.put_bytes(magic, 8);
  out.put(static_cast<std::uint64_t>(root.geometry.rows), 1);
  out.put(static_cast<std::uint64_t>(root.geometry.cols), 1);
  out.put(root.to_move == Side::white ? 0 : 1, 1);
  out.put(0, 5);
  out.put(root.white, 8);
  out.put(root.black, 8);
}

bool same_root(const std::uint8_t* h, const Position& root) {
  return h[8] == root.geometry.rows && h[9] == root.geometry.cols &&
         h[10] == (root.to_move == Side::white ? 0 : 1) && read_le(h + 16, 8) == root.white &&
         read_le(h + 24, 8) == root.black;
}

}  // namespace

std::uint64_t save_walk(const std::filesystem::path& path, const Position& root,
                        const ProofList& listed, const std::vector<Node>& to_visit) {
  return util::write_file_atomically(path, [&](util::ByteSink& sink) {
    ChecksummedWriter out(sink);
    put_root(out, kWalkMagic, root);
    out.put(listed.size(), 8);
    out.put(to_visit.size(), 8);
    listed.for_each([&](const ProofMove& m) { put(out, m); });
    for (const Node& n : to_visit) {
      out.put(n.white, 8);
      out.put(n.black, 8);
      out.put(n.white_to_move ? 0 : 1, 1);
    }
    return out.finish();
  });
}

std::optional<WalkState> load_walk(const std::filesystem::path& path, const Position& root,
                                   const Board& board, ProofList& into) {
  std::ifstream in(path, std::ios::binary);
  if (!opened(in, path)) return std::nullopt;
  const auto bad = [&](const std::string& what) {
    throw std::invalid_argument(path.string() + ": not a saved walk of pawntb solve, or damaged: " +
                                what);
  };
  ChecksummedReader read(in, bad);
  const std::uint8_t* h = read.take(kWalkHeader);
  if (std::memcmp(h, kWalkMagic, 8) != 0) bad("no PAWNWLK1 at its start");
  if (!same_root(h, root)) {
    throw std::invalid_argument(path.string() + " is the walk of another search");
  }
  const std::uint64_t listed = read_le(h + 32, 8), to_visit = read_le(h + 40, 8);
  WalkState w;
  try {
    into.reserve(listed);
  } catch (const ProofList::TooLarge&) {  // sound, but more than memory holds: nothing read
    w.too_large = true;
    w.listed_in_file = listed;
    return w;
  }
  if (to_visit > (std::uint64_t{1} << 32)) bad("its count of positions to visit");
  for (std::uint64_t i = 0; i < listed; ++i) {
    const std::uint8_t* e = read.take(kProofMoveBytes);
    const ProofMove m{read_le(e, 8), read_le(e + 8, 8), e[16], e[17]};
    if (!into.holds(m)) bad("a listed position or move that no walk of this root has");
    if (into.contains(m.white, m.black)) bad("a position listed twice");
    into.add(m);
  }
  w.to_visit.reserve(to_visit);
  for (std::uint64_t i = 0; i < to_visit; ++i) {
    const std::uint8_t* e = read.take(kToVisitBytes);
    w.to_visit.push_back(board.node(read_le(e, 8), read_le(e + 8, 8), e[16] == 0));
  }
  read.expect_checksum_and_end();
  return w;
}

// The distance's file (little-endian), beside the state (FILE.distance):
//   offset 0   "PAWNDST2"
//          8   u8 rows, u8 cols, u8 side to move of the root (0 white), 5 bytes 0
//         16   u64 the root's white pawns, u64 its black pawns
//         32   u8 the winner (0 white), u8 1 when an upper bound was found,
//              u16 the lower bound, u16 the upper bound, 2 bytes 0
//         40   u64 the distance's nodes so far
//         48   u64 the distance's seconds so far
//         56   u64 XXH3-64 of every byte before it
// A "PAWNDST1" file, as written before, has no seconds: its checksum is at 48.
namespace {

constexpr char kDistanceMagic[8] = {'P', 'A', 'W', 'N', 'D', 'S', 'T', '2'};
constexpr char kDistanceMagicWithoutSeconds[8] = {'P', 'A', 'W', 'N', 'D', 'S', 'T', '1'};
constexpr std::size_t kDistanceBodyWithoutSeconds = 48;

}  // namespace

std::uint64_t save_distance(const std::filesystem::path& path, const Position& root,
                            const DistanceState& state) {
  return util::write_file_atomically(path, [&](util::ByteSink& sink) {
    ChecksummedWriter out(sink);
    put_root(out, kDistanceMagic, root);
    out.put(state.winner == Side::white ? 0 : 1, 1);
    out.put(state.bounds.upper_found ? 1 : 0, 1);
    out.put(static_cast<std::uint64_t>(state.bounds.lower), 2);
    out.put(static_cast<std::uint64_t>(state.bounds.upper), 2);
    out.put(0, 2);
    out.put(state.nodes, 8);
    out.put(state.seconds, 8);
    return out.finish();
  });
}

std::optional<DistanceState> load_distance(const std::filesystem::path& path,
                                           const Position& root) {
  std::ifstream in(path, std::ios::binary);
  if (!opened(in, path)) return std::nullopt;
  const auto bad = [&](const std::string& what) {
    throw std::invalid_argument(path.string() +
                                ": not the saved distance of pawntb solve, or damaged: " + what);
  };
  ChecksummedReader read(in, bad);
  const std::uint8_t* h = read.take(kDistanceBodyWithoutSeconds);
  const bool with_seconds = std::memcmp(h, kDistanceMagic, 8) == 0;
  if (!with_seconds && std::memcmp(h, kDistanceMagicWithoutSeconds, 8) != 0) {
    bad("no PAWNDST2 at its start");
  }
  DistanceState d;
  const bool other_root = !same_root(h, root);
  if (h[32] > 1 || h[33] > 1) bad("its winner or its flag");
  d.winner = h[32] == 0 ? Side::white : Side::black;
  d.bounds.upper_found = h[33] == 1;
  d.bounds.lower = static_cast<int>(read_le(h + 34, 2));
  d.bounds.upper = static_cast<int>(read_le(h + 36, 2));
  d.nodes = read_le(h + 40, 8);
  if (with_seconds) d.seconds = read_le(read.take(8), 8);
  read.expect_checksum_and_end();
  if (other_root) throw std::invalid_argument(path.string() + " is the distance of another search");
  if (d.bounds.lower > d.bounds.upper || (d.bounds.upper - d.bounds.lower) % 2 != 0) {
    bad("bounds " + std::to_string(d.bounds.lower) + " and " + std::to_string(d.bounds.upper));
  }
  return d;
}

}  // namespace pawntb::search_detail
