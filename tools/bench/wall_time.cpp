// Whole-process wall time, without a shell in the way: starts COMMAND with
// posix_spawn, stdin from INPUT and stdout to OUTPUT, waits for it, and repeats.
//
//   wall_time RUNS INPUT OUTPUT COMMAND [ARG...]
//
// Prints "<median> <best>" in microseconds on stdout. Exits 1 when a run fails
// (nonzero exit or a signal), 2 on bad arguments.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

extern char** environ;

namespace {

// One run of argv; returns its wall time in microseconds, or -1 on failure.
// The previous run's output is removed first, outside the timing: truncating
// it in the run would time the file system freeing its blocks.
double run_once(char** argv, const char* input, const char* output) {
  if (::unlink(output) != 0 && errno != ENOENT) {
    std::fprintf(stderr, "wall_time: cannot remove %s: %s\n", output, std::strerror(errno));
    return -1;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  const auto start = std::chrono::steady_clock::now();
  pid_t pid = 0;
  const int error = posix_spawnp(&pid, argv[0], &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) {
    std::fprintf(stderr, "wall_time: cannot start %s: %s\n", argv[0], std::strerror(error));
    return -1;
  }
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return -1;
  const auto stop = std::chrono::steady_clock::now();
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "wall_time: %s failed (status %d)\n", argv[0], status);
    return -1;
  }
  return std::chrono::duration<double, std::micro>(stop - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: wall_time RUNS INPUT OUTPUT COMMAND [ARG...]\n");
    return 2;
  }
  const int runs = std::atoi(argv[1]);
  if (runs < 1) {
    std::fprintf(stderr, "wall_time: RUNS must be a positive number, not '%s'\n", argv[1]);
    return 2;
  }
  std::vector<double> times;
  for (int i = 0; i < runs; ++i) {
    const double us = run_once(argv + 4, argv[2], argv[3]);
    if (us < 0) return 1;
    times.push_back(us);
  }
  std::sort(times.begin(), times.end());
  std::printf("%.0f %.0f\n", times[times.size() / 2], times.front());
  return 0;
}
