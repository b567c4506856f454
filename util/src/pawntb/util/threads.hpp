// Where pawntb starts threads (but for the web server's connection pool,
// tools/serve/server.cpp, which cpp-httplib's task queue makes its own).
//
// The one thread pool: parallel_for hands items to the calling thread and
// helper threads. Every parallel stage of pawntb runs on it (probe decode,
// check decode, verify, tier solve, table write, stats, the web API's
// batches), so that all follow the same two rules:
//
// - A helper thread that cannot start (std::thread throws, for whatever
//   reason) is left out, and so are the helpers after it: the work runs on
//   the threads that did start, the caller's always among them. It is never
//   an error, and the results are the same.
// - An exception thrown by the work on any thread is caught there; no item is
//   handed out after it, every thread finishes the item it holds, and once all
//   have stopped the first exception caught is rethrown to the caller. Never
//   std::terminate.
//
// And BackgroundTask, one task on a thread of its own beside the caller's
// work (a unit file written while the next unit is solved, a signal waited
// for).
//
// Header-only, so that pawntb::probe, which is installed, needs nothing of
// pawntb_util at link time.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <thread>
#include <utility>
#include <vector>

namespace pawntb::util {

// `requested` threads, or one per hardware thread for 0 (at least 1): the one
// meaning of a `threads` parameter in the public API.
inline unsigned thread_count(unsigned requested) {
  if (requested > 0) return requested;
  return std::max(1u, std::thread::hardware_concurrency());
}

// The most workers parallel_for(threads, items) runs: one per thread, but not
// more than there are items, and at least one. Per-worker state is sized by it.
constexpr unsigned workers_for(unsigned threads, std::uint64_t items) {
  return static_cast<unsigned>(
      std::clamp<std::uint64_t>(threads, 1, std::max<std::uint64_t>(items, 1)));
}

// Per-worker state that its worker writes often (a tally, a vector it fills)
// is aligned to this, so that no two workers' state share a cache line: a
// worker's writes would slow the others' reads and writes down (false
// sharing). The cache line of x86-64 and of most ARM cores.
inline constexpr std::size_t kCacheLineBytes = 64;

// Fault injection, for tests only: a hook that every parallel_for calls at two
// points, where throwing acts as the failure it stands for. Set it while no
// pool runs; it applies to the whole process. Empty (null) in production.
struct FaultPoint {
  enum class Event : std::uint8_t {
    // Before helper `worker` starts: throwing acts as a thread that cannot
    // start.
    thread_start,
    // After worker `worker` finished an item, before it takes the next:
    // throwing acts as the work throwing.
    item_done,
  };
  const char* pool;  // parallel_for's name, e.g. "verify"
  Event event;
  unsigned worker;   // 0: the calling thread; 1..: the helpers, in start order
  unsigned workers;  // item_done: the workers running; final in the caller's calls
};
using FaultHook = void (*)(const FaultPoint&);
inline std::atomic<FaultHook> fault_hook{nullptr};

// Calls body(item, worker) once for every item in [0, items), on up to
// workers_for(threads, items) workers: the calling thread, worker 0, and
// helper threads 1, 2, ..., each taking the next item not yet taken (in
// increasing order) until none is left. `worker` indexes per-worker state;
// worker 0 is the calling thread, so that only it may call back into the
// caller (progress). Returns the number of workers that ran, after all have
// stopped. `name` says which stage this is, for the fault hook. Failures: see
// the top of this file. Thread-safe as far as body is.
template <class Body>
unsigned parallel_for(const char* name, unsigned threads, std::uint64_t items, Body&& body) {
  const FaultHook hook = fault_hook.load(std::memory_order_acquire);
  const unsigned wanted = workers_for(threads, items);
  std::atomic<std::uint64_t> next{0};
  std::atomic<bool> failed{false};
  std::atomic<unsigned> running{1};
  std::exception_ptr failure;  // written by the first thread that fails, read after the joins
  const auto work = [&](unsigned worker) noexcept {
    try {
      while (!failed.load(std::memory_order_relaxed)) {
        const std::uint64_t item = next.fetch_add(1, std::memory_order_relaxed);
        if (item >= items) break;
        body(item, worker);
        if (hook) {
          hook(FaultPoint{name, FaultPoint::Event::item_done, worker,
                          running.load(std::memory_order_relaxed)});
        }
      }
    } catch (...) {
      if (!failed.exchange(true, std::memory_order_relaxed)) failure = std::current_exception();
    }
  };
  std::vector<std::thread> helpers;
  try {
    helpers.reserve(wanted - 1);  // so that adding a started thread cannot throw
    for (unsigned worker = 1; worker < wanted; ++worker) {
      if (hook) hook(FaultPoint{name, FaultPoint::Event::thread_start, worker, worker});
      helpers.emplace_back(work, worker);
      running.store(worker + 1, std::memory_order_relaxed);
    }
  } catch (...) {
    // The helpers started so far, and the caller, do the work.
  }
  work(0);
  for (std::thread& helper : helpers) helper.join();
  if (failure) std::rethrow_exception(failure);
  return static_cast<unsigned>(helpers.size()) + 1;
}

// One task on a thread of its own, which join() waits for. Starting throws
// std::system_error when no thread can be had, as std::thread does: the
// caller decides what then (do the work itself, or fail). What the task
// throws is caught on its thread and rethrown by join(). The destructor
// joins too, and drops such a failure: it runs when another error is on its
// way. Not movable (the thread refers to it); keep it in a std::optional to
// start one after another. Not thread-safe: its owner starts and joins it.
class BackgroundTask {
 public:
  template <class Task>
  explicit BackgroundTask(Task&& task)
      : thread_([this, task = std::forward<Task>(task)]() mutable noexcept {
          try {
            task();
          } catch (...) {
            failure_ = std::current_exception();
          }
        }) {}
  BackgroundTask(const BackgroundTask&) = delete;
  BackgroundTask& operator=(const BackgroundTask&) = delete;
  ~BackgroundTask() {
    if (thread_.joinable()) thread_.join();
  }

  // Waits for the task to end (at once if join() did before); rethrows what
  // it threw, once.
  void join() {
    if (thread_.joinable()) thread_.join();
    if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
  }

  // The thread, for a signal that wakes the task (pthread_kill); valid until
  // join().
  std::thread::native_handle_type native_handle() { return thread_.native_handle(); }

 private:
  std::exception_ptr failure_;  // written by the task's thread, read after the join
  std::thread thread_;          // last: started once failure_ exists
};

}  // namespace pawntb::util
