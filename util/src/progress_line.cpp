#include "pawntb/util/progress_line.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <iostream>
#include <sstream>

#include "pawntb/util/text.hpp"

namespace pawntb::util {

// Work units differ in size by orders of magnitude, and only finished ones
// count: over the first seconds of solving the few that finished are no
// sample of the rest (a resumed 5x7 run showed 166 positions/s, "about
// 12501 h left", then 14 million a second). So no rate, nor a time left from
// it, before this much solving.
constexpr double kRateAfterSeconds = 10;

namespace {

// The last note_continued(): its time (steady_clock ticks), then a count, so
// that a ProgressLine sees each continuation once, and none from before it
// was made. Lock-free atomics: written from a signal handler.
std::atomic<ProgressLine::Clock::rep> last_continue_ticks{0};
std::atomic<std::uint64_t> continues{0};
static_assert(std::atomic<ProgressLine::Clock::rep>::is_always_lock_free);
static_assert(std::atomic<std::uint64_t>::is_always_lock_free);

}  // namespace

void note_continued(ProgressLine::Clock::time_point at) noexcept {
  last_continue_ticks.store(at.time_since_epoch().count(), std::memory_order_relaxed);
  continues.fetch_add(1, std::memory_order_release);
}

// steady_clock::now() is clock_gettime(CLOCK_MONOTONIC), async-signal-safe.
void note_continued() noexcept { note_continued(ProgressLine::Clock::now()); }

std::optional<double> seconds_left(double elapsed, double done_at_start, double done) {
  const double done_now = done - done_at_start;
  if (done >= 1 || elapsed <= 0.5 || done_now <= 0.02 * (1 - done_at_start)) return std::nullopt;
  return elapsed * (1 - done) / done_now;
}

ProgressLine::ProgressLine(const char* command)
    : ProgressLine(command, std::cerr, ::isatty(STDERR_FILENO) == 1) {}

ProgressLine::ProgressLine(const char* command, std::ostream& out, bool terminal)
    : command_(command),
      out_(out),
      terminal_(terminal),
      continues_seen_(continues.load(std::memory_order_acquire)) {}

ProgressLine::~ProgressLine() {
  if (shown_) out_ << "\r" << std::string(width_, ' ') << "\r" << std::flush;
}

void ProgressLine::update(const char* stage, double fraction_done, ProgressCount units,
                          ProgressCount positions, Clock::time_point now) {
  using std::chrono::milliseconds, std::chrono::seconds, std::chrono::minutes;
  // Continued after a stop since the last report: the stop is not work.
  if (const std::uint64_t seen = continues.load(std::memory_order_acquire);
      seen != continues_seen_) {
    continues_seen_ = seen;
    const Clock::time_point at{Clock::duration{last_continue_ticks.load(std::memory_order_relaxed)}};
    if (!stage_.empty() && at > last_report_) {
      stage_start_ += at - last_report_;
      rate_start_ += at - last_report_;
    }
  }
  last_report_ = now;
  if (stage != stage_) {
    stage_ = stage;
    stage_start_ = last_ = rate_start_ = now;
    done_at_start_ = fraction_done;  // a resumed stage starts part done
    units_shown_ = 0;
  }
  // The rate counts from the last report before this run solved anything,
  // so the time spent finding a resumed run's finished units is not in it.
  if (positions.done == 0) rate_start_ = now;
  const bool units_finished = units.done > units_shown_;
  const bool last_unit = units_finished && units.total && units.done == units.total;
  const auto since = now - last_;
  const bool due =
      terminal_ ? since >= milliseconds(200) || last_unit
                : (units_finished && (since >= seconds(1) || last_unit)) || since >= minutes(1);
  if (!due) return;
  last_ = now;
  units_shown_ = units.done;
  const double elapsed = std::chrono::duration<double>(now - stage_start_).count();
  const double solving = std::chrono::duration<double>(now - rate_start_).count();
  const std::string line = text(fraction_done, units, positions, elapsed, solving);
  if (!terminal_) {
    out_ << "pawntb " << command_ << ": " << line << "\n" << std::flush;
    return;
  }
  shown_ = true;
  width_ = std::max(width_, line.size());
  out_ << "\r" << line << std::string(width_ - line.size(), ' ') << std::flush;
}

std::string ProgressLine::text(double fraction_done, ProgressCount units, ProgressCount positions,
                               double elapsed, double solving) const {
  std::ostringstream line;
  line << stage_;
  if (units.total) line << " unit " << with_commas(units.done) << "/" << with_commas(units.total);
  line << " " << static_cast<int>(fraction_done * 100) << "%";
  std::optional<double> left;
  if (positions.total && positions.done > 0 && solving >= kRateAfterSeconds) {
    const double rate = static_cast<double>(positions.done) / solving;
    line << ", " << with_commas(static_cast<std::uint64_t>(rate)) << " positions/s";
    if (positions.done < positions.total) {
      left = static_cast<double>(positions.total - positions.done) / rate;
    }
  } else if (!positions.total) {
    left = seconds_left(elapsed, done_at_start_, fraction_done);
  }
  if (left) line << ", about " << duration_text(*left) << " left";
  return line.str();
}

}  // namespace pawntb::util
