#include "common/exit_status.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <string>

namespace pawntb::common {

void check_stdout() {
  std::cout.flush();
  if (!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout)) {
    throw std::runtime_error(std::string("stdout: write error: ") + std::strerror(errno));
  }
}

}  // namespace pawntb::common
