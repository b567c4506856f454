#include "commands.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace pawntb::cli {

int run(const Options& o) {
  int status = kOk;
  if (o.command == "generate") {
    status = run_generate(o);
  } else if (o.command == "info") {
    status = run_info(o);
  } else if (o.command == "verify") {
    status = run_verify(o);
  } else if (o.command == "uva") {
    status = run_uva(o);
  } else {
    status = run_probe(o);
  }
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    throw std::runtime_error(std::string("stdout: write error: ") + std::strerror(errno));
  }
  return status;
}

}  // namespace pawntb::cli
