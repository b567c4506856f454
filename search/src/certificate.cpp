#include "certificate.hpp"

#include <algorithm>
#include <cstring>

#include "pawntb/format/layout.hpp"
#include "pawntb/util/atomic_file.hpp"

namespace pawntb::search_detail {

namespace {

constexpr char kMagic[8] = {'P', 'A', 'W', 'N', 'P', 'R', 'F', '1'};
// 2: positions the winner wins in one move are not listed (1 listed them).
constexpr std::uint32_t kVersion = 2;

void put(std::vector<std::uint8_t>& out, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

// The file goes out in pieces of about this size, each added to the
// checksum: a proof of a billion positions needs no second copy in memory.
constexpr std::size_t kPieceBytes = std::size_t{1} << 20;

}  // namespace

std::uint64_t write_certificate(const std::filesystem::path& path, const CertificateHeader& header,
                                std::vector<ProofMove>& moves) {
  std::sort(moves.begin(), moves.end(), [](const ProofMove& a, const ProofMove& b) {
    return a.white != b.white ? a.white < b.white : a.black < b.black;
  });
  std::vector<std::uint8_t> out(kMagic, kMagic + 8);
  put(out, kVersion, 4);
  put(out, static_cast<std::uint64_t>(header.root.geometry.rows), 1);
  put(out, static_cast<std::uint64_t>(header.root.geometry.cols), 1);
  put(out, header.root.to_move == Side::white ? 0 : 1, 1);
  put(out, header.winner == Side::white ? 0 : 1, 1);
  put(out, header.root.white, 8);
  put(out, header.root.black, 8);
  put(out, static_cast<std::uint64_t>(header.table_pawns), 8);
  put(out, header.table_checksum, 8);
  put(out, moves.size(), 8);
  return util::write_file_atomically(path, [&](util::ByteSink& sink) {
    format::Checksum64Stream checksum;
    std::uint64_t at = 0;
    const auto flush = [&] {
      checksum.update(out);
      sink.write_at(at, out);
      at += out.size();
      out.clear();
    };
    for (const ProofMove& m : moves) {
      put(out, m.white, 8);
      put(out, m.black, 8);
      put(out, m.from, 1);
      put(out, m.to, 1);
      if (out.size() >= kPieceBytes) flush();
    }
    flush();
    put(out, checksum.value(), 8);
    sink.write_at(at, out);
    return at + out.size();
  });
}

}  // namespace pawntb::search_detail
