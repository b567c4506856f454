// Tests of pawntb::util, the plumbing every library uses: the thread pool's
// rules, the atomic file writer, the progress line and the file descriptor.
// (That every parallel stage passes a worker's exception on is
// parallel_stages_test.cpp.)
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <vector>

#include "pawntb/util/atomic_file.hpp"
#include "pawntb/util/file.hpp"
#include "pawntb/util/progress_line.hpp"
#include "pawntb/util/text.hpp"
#include "pawntb/util/threads.hpp"
#include "support/test_support.hpp"

namespace pawntb::util {
namespace {

using namespace pawntb_test;

// Installs a fault hook for the life of the object.
class HookScope {
 public:
  explicit HookScope(FaultHook hook) { fault_hook.store(hook); }
  ~HookScope() { fault_hook.store(nullptr); }
  HookScope(const HookScope&) = delete;
  HookScope& operator=(const HookScope&) = delete;
};

TEST(ThreadPool, ThreadsAndWorkers) {
  EXPECT_EQ(thread_count(3), 3u);
  EXPECT_GE(thread_count(0), 1u);  // one per hardware thread
  EXPECT_EQ(workers_for(4, 2), 2u);
  EXPECT_EQ(workers_for(4, 100), 4u);
  EXPECT_EQ(workers_for(0, 5), 1u);
  EXPECT_EQ(workers_for(3, 0), 1u);
}

// Every item runs once and only once, whatever the threads and items, and
// only workers below workers_for() run; worker 0 is the calling thread.
TEST(ThreadPool, EveryItemRunsExactlyOnce) {
  for (const unsigned threads : {1u, 2u, 3u, 8u}) {
    for (const std::uint64_t items : {0u, 1u, 2u, 7u, 1000u}) {
      std::vector<std::atomic<int>> runs(items);
      std::vector<std::atomic<int>> by_worker(workers_for(threads, items));
      std::atomic<bool> worker0_elsewhere{false};
      const auto caller = std::this_thread::get_id();
      const unsigned ran =
          parallel_for("test", threads, items, [&](std::uint64_t item, unsigned worker) {
            ++runs[item];
            ++by_worker.at(worker);
            if (worker == 0 && std::this_thread::get_id() != caller) worker0_elsewhere = true;
          });
      EXPECT_GE(ran, 1u);
      EXPECT_LE(ran, workers_for(threads, items));
      for (std::uint64_t i = 0; i < items; ++i) {
        EXPECT_EQ(runs[i], 1) << "item " << i << " of " << items << ", " << threads << " threads";
      }
      EXPECT_FALSE(worker0_elsewhere) << "worker 0 ran on another thread";
    }
  }
}

// A helper's exception reaches the caller, and only once every worker has
// stopped; the helper that threw takes no more items. (That no item is handed
// out after a failure is NoItemAfterAFailure: with threads, when the others
// see it is a race.)
TEST(ThreadPool, AHelpersExceptionReachesTheCallerOnceAllStopped) {
  std::atomic<bool> helper_threw{false};
  std::atomic<int> running{0}, helper_items{0};
  try {
    parallel_for("test", 2, 1000, [&](std::uint64_t, unsigned worker) {
      ++running;
      if (worker == 1) {
        ++helper_items;
        helper_threw = true;
        helper_threw.notify_all();
        --running;
        throw std::runtime_error("helper failed");
      }
      helper_threw.wait(false);  // the caller's first item outlasts the helper's
      --running;
    });
    FAIL() << "no exception reached the caller";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "helper failed");
  }
  EXPECT_EQ(running, 0) << "a worker still ran when the exception reached the caller";
  EXPECT_EQ(helper_items, 1) << "the helper took items after it threw";
}

// The caller's own exception waits for the helpers too.
TEST(ThreadPool, TheCallersExceptionWaitsForTheHelpers) {
  std::atomic<bool> helper_busy{false}, caller_threw{false}, helper_done{false};
  EXPECT_THROW(parallel_for("test", 2, 2,
                            [&](std::uint64_t, unsigned worker) {
                              if (worker == 1) {
                                helper_busy = true;
                                helper_busy.notify_all();
                                caller_threw.wait(false);
                                helper_done = true;
                                return;
                              }
                              helper_busy.wait(false);
                              caller_threw = true;
                              caller_threw.notify_all();
                              throw std::logic_error("caller failed");
                            }),
               std::logic_error);
  EXPECT_TRUE(helper_done) << "the exception reached the caller before the helper had stopped";
}

// After an exception no item is handed out: on one thread, the items after
// the failing one never run.
TEST(ThreadPool, NoItemAfterAFailure) {
  std::vector<std::uint64_t> ran;
  EXPECT_THROW(parallel_for("test", 1, 10,
                            [&](std::uint64_t item, unsigned) {
                              ran.push_back(item);
                              if (item == 3) throw std::runtime_error("item 3");
                            }),
               std::runtime_error);
  EXPECT_EQ(ran, (std::vector<std::uint64_t>{0, 1, 2, 3}));
}

// Fails the start of helper kFailFrom and after, as a system out of threads.
constexpr unsigned kFailFrom = 2;
void refuse_threads(const FaultPoint& p) {
  if (p.event == FaultPoint::Event::thread_start && p.worker >= kFailFrom) {
    throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again));
  }
}
void refuse_threads_without_memory(const FaultPoint& p) {
  if (p.event == FaultPoint::Event::thread_start) throw std::bad_alloc();
}

// A helper that cannot start is left out, with the helpers after it: the
// work runs on the threads that started, every item once, and no error.
TEST(ThreadPool, AThreadThatCannotStartLeavesItsWorkToTheOthers) {
  {
    const HookScope hook(refuse_threads);
    std::vector<std::atomic<int>> runs(100);
    std::mutex mutex;
    std::set<unsigned> workers;
    std::set<std::thread::id> threads;
    const unsigned ran = parallel_for("test", 4, runs.size(), [&](std::uint64_t i, unsigned w) {
      ++runs[i];
      const std::lock_guard lock(mutex);
      workers.insert(w);
      threads.insert(std::this_thread::get_id());
    });
    EXPECT_EQ(ran, kFailFrom);
    for (const auto& r : runs) EXPECT_EQ(r, 1);
    EXPECT_LE(*workers.rbegin(), kFailFrom - 1);
    EXPECT_LE(threads.size(), kFailFrom);
  }
  {
    const HookScope hook(refuse_threads_without_memory);
    std::vector<int> runs(50);  // one thread: no atomics needed
    const auto caller = std::this_thread::get_id();
    const unsigned ran = parallel_for("test", 3, runs.size(), [&](std::uint64_t i, unsigned w) {
      ++runs[i];
      EXPECT_EQ(w, 0u);
      EXPECT_EQ(std::this_thread::get_id(), caller);
    });
    EXPECT_EQ(ran, 1u);
    for (const int r : runs) EXPECT_EQ(r, 1);
  }
}

// The hook's item_done point acts as the work throwing.
void fail_after_first_item(const FaultPoint& p) {
  if (p.event == FaultPoint::Event::item_done && std::string_view(p.pool) == "hooked") {
    throw std::runtime_error(std::string(p.pool) + " item done");
  }
}

TEST(ThreadPool, FaultHookActsAsTheWorkThrowing) {
  const HookScope hook(fail_after_first_item);
  std::atomic<int> runs{0};
  EXPECT_NO_THROW(parallel_for("other", 2, 10, [&](std::uint64_t, unsigned) { ++runs; }));
  EXPECT_EQ(runs, 10);
  runs = 0;
  try {
    parallel_for("hooked", 1, 10, [&](std::uint64_t, unsigned) { ++runs; });
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "hooked item done");
  }
  EXPECT_EQ(runs, 1);
}

std::string text_of(const fs::path& path) {
  return read_file(path);
}

std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// The temporary file's path, for on_temp_file (a plain function pointer).
std::vector<std::string> announced;
void note_temp_file(const char* path) {
  announced.push_back(path ? path : "(gone)");
}

// A background task runs on a thread other than its owner's, join() waits
// for it, and what it throws reaches join() once.
TEST(BackgroundTask, RunsApartAndJoinRethrowsItsFailure) {
  const std::thread::id owner = std::this_thread::get_id();
  std::thread::id ran_on;
  BackgroundTask task([&] { ran_on = std::this_thread::get_id(); });
  task.join();
  EXPECT_NE(ran_on, std::thread::id());
  EXPECT_NE(ran_on, owner);
  task.join();  // again: nothing left to wait for

  BackgroundTask failing([] { throw std::runtime_error("disk full"); });
  try {
    failing.join();
    ADD_FAILURE() << "join() did not rethrow";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "disk full");
  }
  EXPECT_NO_THROW(failing.join());  // reported once

  // The destructor waits too, and drops a failure nobody asked for.
  std::atomic<bool> done{false};
  {
    const BackgroundTask unjoined([&] {
      done = true;
      throw std::runtime_error("dropped");
    });
  }
  EXPECT_TRUE(done);
}

TEST(AtomicFile, WritesTheFileReadableByAllAndNothingElse) {
  const TempDir dir;
  write_file_atomically(dir / "a.txt", "first\n");
  write_file_atomically(dir / "a.txt", "second\n");
  EXPECT_EQ(text_of(dir / "a.txt"), "second\n");
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"a.txt"});
  struct stat st {};
  ASSERT_EQ(::stat((dir / "a.txt").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u);
}

// The bytes go to a temporary file beside the target, with a unique name:
// two writers of the same file at once do not meet.
TEST(AtomicFile, TemporaryFileIsBesideTheTargetWithAUniqueName) {
  const TempDir dir;
  const fs::path path = dir / "t.bin";
  announced.clear();
  std::string outer_temp, inner_temp;
  const std::uint64_t size = write_file_atomically(
      path,
      [&](ByteSink& sink) {
        outer_temp = announced.back();
        EXPECT_TRUE(fs::exists(outer_temp));
        // Another writer of the same file, while this one writes.
        write_file_atomically(
            path,
            [&](ByteSink& inner) {
              inner_temp = announced.back();
              const std::uint8_t byte = 'i';
              inner.write_at(0, std::span(&byte, 1));
              return std::uint64_t{1};
            },
            note_temp_file);
        const std::uint8_t bytes[] = {'o', 'u', 't'};
        sink.write_at(1, std::span(bytes + 1, 2));  // any order, at offsets
        sink.write_at(0, std::span(bytes, 1));
        return std::uint64_t{3};
      },
      note_temp_file);
  EXPECT_EQ(size, 3u);
  EXPECT_EQ(text_of(path), "out");
  EXPECT_NE(outer_temp, inner_temp);
  for (const std::string& temp : {outer_temp, inner_temp}) {
    EXPECT_EQ(fs::path(temp).parent_path(), dir.path());
    EXPECT_EQ(fs::path(temp).filename().string().rfind(".t.bin.", 0), 0u) << temp;
  }
  EXPECT_EQ(announced, (std::vector<std::string>{outer_temp, inner_temp, "(gone)", "(gone)"}));
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"t.bin"});
}

// An exception from fill passes as it is; the old file stays as it was and
// the temporary file is gone.
TEST(AtomicFile, FailureLeavesTheOldFileAndNoTemporaryFile) {
  const TempDir dir;
  const fs::path path = dir / "keep.txt";
  write_file(path, std::string_view("old"));
  announced.clear();
  try {
    write_file_atomically(
        path,
        [&](ByteSink& sink) -> std::uint64_t {
          const std::uint8_t bytes[] = {'n', 'e', 'w'};
          sink.write_at(0, bytes);
          throw std::domain_error("fill failed");
        },
        note_temp_file);
    FAIL() << "no exception";
  } catch (const std::domain_error& e) {
    EXPECT_STREQ(e.what(), "fill failed");
  }
  EXPECT_EQ(text_of(path), "old");
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"keep.txt"});
  ASSERT_EQ(announced.size(), 2u);
  EXPECT_EQ(announced[1], "(gone)");
  EXPECT_FALSE(fs::exists(announced[0]));
}

// The writer's own failures: std::system_error naming the file, nothing left.
TEST(AtomicFile, OwnFailuresNameTheFile) {
  const TempDir dir;
  const auto expect_failure = [](const fs::path& path, const std::string& named) {
    try {
      write_file_atomically(path, "x");
      ADD_FAILURE() << "no exception for " << path;
    } catch (const std::system_error& e) {
      EXPECT_NE(std::string(e.what()).find(named), std::string::npos) << e.what();
    }
  };
  expect_failure(dir / "missing" / "f", (dir / "missing").string());
  EXPECT_FALSE(fs::exists(dir / "missing"));
  fs::create_directory(dir / "in-the-way");
  expect_failure(dir / "in-the-way", (dir / "in-the-way").string());
  EXPECT_TRUE(fs::is_directory(dir / "in-the-way"));
  EXPECT_TRUE(fs::is_empty(dir / "in-the-way"));
  // A device is written in place, and its failure reported.
  expect_failure("/dev/full", "/dev/full");
  EXPECT_NO_THROW(write_file_atomically("/dev/null", "x"));
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"in-the-way"});
}

TEST(FileDescriptor, ClosesWhatItOwns) {
  const TempDir dir;
  write_file(dir / "f", std::string_view("abcdef"));
  int fd = -1;
  {
    FileDescriptor file(::open((dir / "f").c_str(), O_RDONLY | O_CLOEXEC));
    ASSERT_TRUE(file.valid());
    fd = file.get();
    std::uint8_t bytes[3];
    ASSERT_TRUE(read_at(fd, bytes, 2));
    EXPECT_EQ(std::string(bytes, bytes + 3), "cde");
    EXPECT_FALSE(read_at(fd, bytes, 4)) << "read past the end";
    FileDescriptor moved = std::move(file);
    EXPECT_FALSE(file.valid());  // NOLINT(bugprone-use-after-move): moved-from is empty
    EXPECT_EQ(moved.get(), fd);
  }
  EXPECT_EQ(::fcntl(fd, F_GETFD), -1) << "the descriptor was not closed";
  FileDescriptor kept(::open((dir / "f").c_str(), O_RDONLY | O_CLOEXEC));
  const int raw = kept.release();
  EXPECT_FALSE(kept.valid());
  EXPECT_EQ(::close(raw), 0) << "release() closed the descriptor";
}

TEST(Text, NumbersAndDurations) {
  EXPECT_EQ(with_commas(0), "0");
  EXPECT_EQ(with_commas(999), "999");
  EXPECT_EQ(with_commas(1234567), "1,234,567");
  EXPECT_EQ(duration_text(12.4), "12 s");
  EXPECT_EQ(duration_text(245), "4 min 5 s");
  EXPECT_EQ(duration_text(3 * 3600 + 12 * 60 + 7), "3 h 12 min");
}

// The time left of a long stage is at the rate of this run: a verify
// resumed at 84% that checked 1% more in a minute has 15 min left, not the
// seconds that 85% done in a minute would give.
TEST(ProgressLine, TimeLeftIsAtThisRunsRate) {
  EXPECT_NEAR(seconds_left(60, 0.84, 0.85).value(), 900, 1e-6);
  EXPECT_DOUBLE_EQ(seconds_left(60, 0, 0.25).value(), 180);  // not resumed
  EXPECT_FALSE(seconds_left(60, 0.84, 0.842));  // under 2% of the 16% left: no guess yet
  EXPECT_FALSE(seconds_left(0.1, 0, 0.5));      // too soon
  EXPECT_FALSE(seconds_left(60, 0.5, 1));       // done
}

// A ProgressLine that writes to a string, on a clock of the test's own.
class LineOnAString {
 public:
  LineOnAString(const char* command, bool terminal)
      : line_(std::in_place, command, out_, terminal) {}
  // A report `ms` milliseconds after the first.
  void at(int ms, const char* stage, double done, ProgressCount tiers = {},
          ProgressCount positions = {}) {
    line_->update(stage, done, tiers, positions, start_ + std::chrono::milliseconds(ms));
  }
  // The process continued after a stop, `ms` milliseconds after the first report.
  void continued_at(int ms) { note_continued(start_ + std::chrono::milliseconds(ms)); }
  void destroy() { line_.reset(); }
  std::string text() const { return out_.str(); }

 private:
  std::ostringstream out_;
  std::optional<ProgressLine> line_;
  ProgressLine::Clock::time_point start_ = ProgressLine::Clock::now();
};

// In a log: nothing in a stage's first minute, then a line a minute.
TEST(ProgressLine, LogGetsALineAMinute) {
  LineOnAString log("verify", false);
  log.at(0, "verify", 0.0);
  log.at(30'000, "verify", 0.25);
  EXPECT_EQ(log.text(), "");
  log.at(60'000, "verify", 0.5);
  const std::string line = "pawntb verify: verify 50%, about 1 min 0 s left\n";
  EXPECT_EQ(log.text(), line);
  log.at(90'000, "verify", 0.6);
  EXPECT_EQ(log.text(), line);
  log.destroy();
  EXPECT_EQ(log.text(), line) << "a log is not cleared";
}

// In a log, a tiered stage also gets a line when tiers have finished, at
// most one a second, and always for the last tier; with the positions' rate
// once it has solved 10 s.
TEST(ProgressLine, LogShowsFinishedTiers) {
  LineOnAString log("generate", false);
  log.at(0, "solve", 0.0, {0, 5}, {0, 500});
  log.at(500, "solve", 0.2, {1, 5}, {1, 500});      // too soon
  log.at(2000, "solve", 0.4, {2, 5}, {2, 500});     // no rate yet: 2 s
  log.at(20000, "solve", 0.6, {3, 5}, {200, 500});
  log.at(40000, "solve", 0.6, {3, 5}, {250, 500});  // no tier finished
  log.at(41000, "solve", 1.0, {5, 5}, {500, 500});  // the last
  EXPECT_EQ(log.text(),
            "pawntb generate: solve unit 2/5 40%\n"
            "pawntb generate: solve unit 3/5 60%, 10 positions/s, about 30 s left\n"
            "pawntb generate: solve unit 5/5 100%, 12 positions/s\n");
}

// A resumed run first finds its finished units (no positions solved by this
// run): no rate then, and the rate afterwards counts from the last such
// report, not from the stage's start.
TEST(ProgressLine, RateLeavesOutTheFinishedUnitsFound) {
  LineOnAString log("generate", false);
  log.at(0, "solve", 0.0, {0, 10}, {0, 1000});
  log.at(5000, "solve", 0.5, {5, 10}, {0, 1000});    // finished units found
  log.at(10000, "solve", 0.5, {5, 10}, {0, 1000});   // the last of them
  log.at(30000, "solve", 0.6, {6, 10}, {100, 1000});
  EXPECT_EQ(log.text(),
            "pawntb generate: solve unit 5/10 50%\n"
            "pawntb generate: solve unit 6/10 60%, 5 positions/s, about 3 min 0 s left\n");
}

// A stop (Ctrl-Z, then fg) is not work: the time from the last report before
// it to the continuation is left out of the time left, in verify's way
// (seconds_left) and in generate's (the positions' rate). A line made after
// a continuation, or one that has reported since, is not changed by it.
TEST(ProgressLine, AStopIsNotWork) {
  LineOnAString verify("verify", false);
  LineOnAString generate("generate", false);
  verify.at(0, "verify", 0.0);
  generate.at(0, "solve", 0.0, {0, 4}, {0, 400});
  verify.at(30'000, "verify", 0.25);
  generate.at(30'000, "solve", 0.25, {1, 4}, {100, 400});
  verify.continued_at(3'630'000);  // stopped for an hour after the last reports
  verify.at(3'660'000, "verify", 0.5);
  generate.at(3'660'000, "solve", 0.5, {2, 4}, {200, 400});
  EXPECT_EQ(verify.text(), "pawntb verify: verify 50%, about 1 min 0 s left\n");
  EXPECT_EQ(generate.text(),
            "pawntb generate: solve unit 1/4 25%, 3 positions/s, about 1 min 30 s left\n"
            "pawntb generate: solve unit 2/4 50%, 3 positions/s, about 1 min 0 s left\n");

  LineOnAString later("verify", false);
  later.at(0, "verify", 0.0);
  later.at(30'000, "verify", 0.1);
  later.continued_at(20'000);  // before its last report: no stop since
  later.at(60'000, "verify", 0.2);
  EXPECT_EQ(later.text(), "pawntb verify: verify 20%, about 4 min 0 s left\n");
}

// On a terminal: one line redrawn at most every 200 ms, cleared at the end.
TEST(ProgressLine, TerminalRedrawsOneLine) {
  LineOnAString terminal("stats", true);
  terminal.at(0, "stats", 0.0);
  terminal.at(100, "stats", 0.1);
  EXPECT_EQ(terminal.text(), "");
  terminal.at(1000, "stats", 0.5);
  terminal.at(1500, "stats", 0.6);
  const std::string drawn = "\rstats 50%, about 1 s left\rstats 60%, about 1 s left";
  EXPECT_EQ(terminal.text(), drawn);
  terminal.destroy();
  EXPECT_EQ(terminal.text(), drawn + "\r" + std::string(25, ' ') + "\r");
}

}  // namespace
}  // namespace pawntb::util
