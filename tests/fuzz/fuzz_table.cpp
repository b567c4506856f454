// Fuzz target: the table loader (header, block index, blocks). The first input
// byte chooses whether the checksums are re-sealed before opening, so that
// mutations also reach the checks behind them.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "pawntb/format/layout.hpp"
#include "pawntb/probe.hpp"

namespace {

// Recomputes every block checksum, the index checksum and the header checksum
// in place, as far as the header's fields allow.
void reseal(std::vector<std::uint8_t>& file) {
  using namespace pawntb::format;
  if (file.size() < kHeaderSize) return;
  DiskHeader h;
  std::memcpy(&h, file.data(), kHeaderSize);
  const std::uint64_t count = h.block_count.get();
  if (blocks_offset(static_cast<std::uint32_t>(count)) <= file.size() && count < (1u << 20)) {
    for (std::uint64_t i = 0; i < count; ++i) {
      DiskBlock b;
      std::uint8_t* at = file.data() + kHeaderSize + i * sizeof(DiskBlock);
      std::memcpy(&b, at, sizeof b);
      const std::uint64_t offset = b.offset.get(), length = b.compressed_size.get();
      if (offset <= file.size() && length <= file.size() - offset) {
        b.checksum.set(checksum64({file.data() + offset, length}));
        std::memcpy(at, &b, sizeof b);
      }
    }
    h.index_checksum.set(checksum64({file.data() + kHeaderSize, count * sizeof(DiskBlock)}));
  }
  std::memcpy(file.data(), &h, kHeaderSize);
  h.header_checksum.set(checksum64({file.data(), offsetof(DiskHeader, header_checksum)}));
  std::memcpy(file.data(), &h, kHeaderSize);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::vector<std::uint8_t> file(data + 1, data + size);
  if (data[0] & 1) reseal(file);
  const int fd = memfd_create("pawntb-fuzz", 0);
  if (fd < 0) return 0;
  if (write(fd, file.data(), file.size()) != static_cast<ssize_t>(file.size())) {
    close(fd);
    return 0;
  }
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  try {
    const pawntb::Table table = pawntb::Table::open(path);
    // An accepted table answers without crashing, whatever its values.
    const pawntb::Geometry g = table.info().geometry;
    (void)table.probe(pawntb::Position{g, 1ULL << (g.squares() - 1), 1, pawntb::Side::white});
  } catch (const pawntb::TableError&) {
  }
  close(fd);
  return 0;
}
