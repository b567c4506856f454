#include "certificate.hpp"


namespace pawntb::search_detail {

namespace {

constexpr char kMagic[8] = {'P', 'A', 'W', 'N', 'P', 'R', 'F', '1'};
// 2: positions the winner wins in one move are not listed (1 listed them).
constexpr std::uint32_t kVersion = 2;

}  // namespace

std::uint64_t write_certificate(const std::filesystem::path& path, const CertificateHeader& header,
                                ProofList& list) {
  return util::write_file_atomically(path, [&](util::ByteSink& sink) {
    ChecksummedWriter out(sink);
    out.put_bytes(kMagic, 8);
    out.put(kVersion, 4);
    out.put(static_cast<std::uint64_t>(header.root.geometry.rows), 1);
    out.put(static_cast<std::uint64_t>(header.root.geometry.cols), 1);
    out.put(header.root.to_move == Side::white ? 0 : 1, 1);
    out.put(header.winner == Side::white ? 0 : 1, 1);
    out.put(header.root.white, 8);
    out.put(header.root.black, 8);
    out.put(static_cast<std::uint64_t>(header.table_pawns), 8);
    out.put(header.table_checksum, 8);
    out.put(list.size(), 8);
    list.drain_sorted([&](const ProofMove& m) { put(out, m); });
    return out.finish();
  });
}

}  // namespace pawntb::search_detail
