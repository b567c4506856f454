// Writing a certificate (docs/certificate.md): the winner's move in every
// position of the proof where the winner is to move.
#pragma once

#include <cstdint>
#include <filesystem>

#include "pawntb/position.hpp"
#include "checksummed_stream.hpp"
#include "proof_list.hpp"

namespace pawntb::search_detail {

struct CertificateHeader {
  Position root;
  Side winner;
  int table_pawns;               // K of the table answering leaves; 0: none
  std::uint64_t table_checksum;  // its file's XXH3-64 (check::file_checksum); 0: none
};

// An entry of the certificate, and of a saved walk's list: 18 bytes, u64
// white, u64 black, u8 from, u8 to.
inline constexpr std::size_t kProofMoveBytes = 18;
inline void put(ChecksummedWriter& out, const ProofMove& m) {
  out.put(m.white, 8);
  out.put(m.black, 8);
  out.put(m.from, 1);
  out.put(m.to, 1);
}

// Writes the certificate of `list` atomically, which drains the list
// (ProofList::drain_sorted); returns its size in bytes. Throws
// std::system_error naming the file when it cannot be written.
std::uint64_t write_certificate(const std::filesystem::path& path, const CertificateHeader& header,
                                ProofList& list);

}  // namespace pawntb::search_detail
