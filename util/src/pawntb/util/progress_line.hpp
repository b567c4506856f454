// The one progress renderer: the line a long command (generate, verify,
// stats) shows on stderr while the library reports progress.
#pragma once

#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

namespace pawntb::util {

// Seconds left of a stage that was `done_at_start` done (a fraction; more
// than 0 when resumed) and is `done` done after `elapsed` seconds: at this
// run's rate, not counting the work it found done. Nullopt until 2% of what
// was left at the start is done, and once it is all done.
std::optional<double> seconds_left(double elapsed, double done_at_start, double done);

// How many of something (work units, positions) are done.
struct ProgressCount {
  std::uint64_t done = 0, total = 0;  // total 0: not counted
};

// The progress of one command, shown as the text
//   STAGE [unit D/T] P%[, R positions/s][, about 3 min left]
// (the units and the rate where they are counted, the rate after 10 s of
// solving; the time left from the positions' rate where they are counted,
// else from seconds_left()).
//
// On a terminal it is one line, redrawn at most every 200 ms (and when the
// last unit finishes), and cleared when the ProgressLine is destroyed. In a
// log (not a terminal) it is a plain line "pawntb COMMAND: TEXT": whenever
// units have finished, at most one a second and always for the last; and
// once a stage has run a minute, at most one a minute. So a log of an
// hour-long run shows it moving, and a short run prints nothing.
//
// Writes only to the stream it is given. Not thread-safe: call from the
// thread that receives the progress reports.
class ProgressLine {
 public:
  using Clock = std::chrono::steady_clock;

  // On stderr, as a terminal if it is one.
  explicit ProgressLine(const char* command);
  ProgressLine(const char* command, std::ostream& out, bool terminal);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // A report: `stage` (a new stage when it differs from the last one's) is
  // `fraction_done` done.
  void update(const char* stage, double fraction_done, ProgressCount units = {},
              ProgressCount positions = {}, Clock::time_point now = Clock::now());

 private:
  std::string text(double fraction_done, ProgressCount units, ProgressCount positions,
                   double elapsed, double solving) const;

  std::string command_;
  std::ostream& out_;
  bool terminal_;
  bool shown_ = false;     // a terminal line is drawn
  std::size_t width_ = 0;  // of the longest terminal line drawn
  std::string stage_;
  double done_at_start_ = 0;
  std::uint64_t units_shown_ = 0;
  std::uint64_t continues_seen_;  // note_continued() calls counted so far
  Clock::time_point stage_start_{}, last_{}, rate_start_{}, last_report_{};
};

// Records that the process has just been continued after a stop (SIGCONT,
// as after Ctrl-Z and `fg`, or `kill -STOP` and `-CONT`). Each ProgressLine
// then leaves the time from its last report to now out of its rate and time
// left, so that a pause does not slow them for the rest of the run (what it
// leaves out is at most the time between two reports more than the pause).
// Async-signal-safe: for the CLI's SIGCONT handler.
void note_continued() noexcept;
// The same, continued at `at` (tests).
void note_continued(ProgressLine::Clock::time_point at) noexcept;

}  // namespace pawntb::util
