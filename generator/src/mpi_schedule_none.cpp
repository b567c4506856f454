// A build without MPI (PAWNTB_MPI=OFF): every run is one rank, and
// generate() never schedules over ranks (mpi_schedule.cpp is the MPI build).
#include <stdexcept>

#include "mpi_schedule.hpp"
#include "pawntb/generator.hpp"

namespace pawntb {

MpiSession::MpiSession() = default;
MpiSession::~MpiSession() = default;
int MpiSession::rank() const {
  return 0;
}
int MpiSession::ranks() const {
  return 1;
}

namespace generator_detail {

int this_rank() {
  return 0;
}
int rank_count() {
  return 1;
}

std::uint64_t manage_units(const ScheduledRun&) {
  throw std::logic_error("manage_units: pawntb was built without MPI");
}

void serve_units(const std::function<void()>&, const std::function<TierSummary(std::size_t)>&) {
  throw std::logic_error("serve_units: pawntb was built without MPI");
}

}  // namespace generator_detail
}  // namespace pawntb
