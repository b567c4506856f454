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
  for (const ProofMove& m : moves) {
    put(out, m.white, 8);
    put(out, m.black, 8);
    put(out, m.from, 1);
    put(out, m.to, 1);
  }
  put(out, format::checksum64(out), 8);
  util::write_file_atomically(
      path, std::string_view(reinterpret_cast<const char*>(out.data()), out.size()));
  return out.size();
}

}  // namespace pawntb::search_detail
