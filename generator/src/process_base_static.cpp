// The process base (memory.hpp) of a statically linked `pawntb`
// (PAWNTB_STATIC_CLI, the default build): `pawntb generate --rows 3 --cols 3
// --threads 1` peaked at 3,972 KiB, less the writer's 1.5 MiB (2026-12-03,
// a Release build without MPI, `/usr/bin/time -f %M`).
#include <cstdint>

#include "memory.hpp"

namespace pawntb::generator_detail {

std::uint64_t process_base_bytes() {
  return std::uint64_t{5} << 19;  // 2.5 MiB
}

}  // namespace pawntb::generator_detail
