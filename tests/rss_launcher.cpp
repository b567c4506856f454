// Test helper: runs PROGRAM [ARG...] as its own child, writes the child's
// peak resident set size (ru_maxrss, KiB) to RSS_FILE, and ends as the child
// did: the same exit status, or the same signal.
//
//   rss_launcher RSS_FILE PROGRAM [ARG...]
//
// Why: a process's ru_maxrss includes the pages it held before exec, and a
// child forked straight from a large test process (a sanitizer build holds
// hundreds of MiB) holds that process's pages until then. Forked from this
// small program instead, the child's figure is its own.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>

#include "support/hang_guard.hpp"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: rss_launcher RSS_FILE PROGRAM [ARG...]\n");
    return 125;
  }
  const pid_t pid = ::fork();
  if (pid < 0) return 125;
  if (pid == 0) {
    ::alarm(pawntb_test::kHangGuardSeconds);  // a hung program dies of SIGALRM
    ::execv(argv[2], argv + 2);
    ::_exit(127);
  }
  int status = 0;
  struct rusage usage {};
  while (::wait4(pid, &status, 0, &usage) < 0) {
    if (errno != EINTR) return 125;
  }
  std::FILE* rss = std::fopen(argv[1], "w");
  if (!rss || std::fprintf(rss, "%ld\n", usage.ru_maxrss) < 0 || std::fclose(rss) != 0) return 125;
  if (WIFSIGNALED(status)) {
    std::signal(WTERMSIG(status), SIG_DFL);
    std::raise(WTERMSIG(status));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 125;
}
