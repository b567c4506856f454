// The process base (memory.hpp) of a dynamically linked `pawntb` (MPI,
// shared libraries, the sanitizers): its shared libraries (MPI's among them)
// are resident besides: `pawntb generate --rows 3 --cols 3 --threads 1`
// peaked at 8,020 KiB, less the writer's 1.5 MiB (2026-11-27, commit
// 98acac1, a Release build with MPI; 8,080 KiB on 2026-12-03).
#include <cstdint>

#include "memory.hpp"

namespace pawntb::generator_detail {

std::uint64_t process_base_bytes() {
  return std::uint64_t{13} << 19;  // 6.5 MiB
}

}  // namespace pawntb::generator_detail
