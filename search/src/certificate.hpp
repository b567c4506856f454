// Writing a certificate (docs/certificate.md): the winner's move in every
// position of the proof where the winner is to move.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

#include "pawntb/position.hpp"

namespace pawntb::search_detail {

struct ProofMove {
  std::uint64_t white, black;  // a position with the winner to move
  std::uint8_t from, to;       // the move that wins it
};

struct CertificateHeader {
  Position root;
  Side winner;
  int table_pawns;               // K of the table answering leaves; 0: none
  std::uint64_t table_checksum;  // its file's XXH3-64 (check::file_checksum); 0: none
};

// Sorts `moves` and writes the certificate atomically; returns its size in
// bytes. Throws std::system_error naming the file when it cannot be written.
std::uint64_t write_certificate(const std::filesystem::path& path, const CertificateHeader& header,
                                std::vector<ProofMove>& moves);

}  // namespace pawntb::search_detail
