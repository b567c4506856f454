#include "uva_answers.hpp"

#include <algorithm>
#include <cstring>
#include <string>

namespace pawntb::cli {

namespace {

// Waits until `value` is no longer `old`. Spins a little first: the other
// thread usually gets there within microseconds, and waking a sleeping one
// takes longer.
template <class T>
void wait_for_change(const std::atomic<T>& value, T old) {
  for (int spin = 0; spin < 4096; ++spin) {
    if (value.load() != old) return;
  }
  value.wait(old);
}

}  // namespace

UvaAnswers::UvaAnswers(std::filesystem::path table_path)
    : lines_(judge_lines()), helper_([this, path = std::move(table_path)] { help(path); }) {}

UvaAnswers::~UvaAnswers() {
  stop_.store(true);
  published_.fetch_add(1);  // wakes the helper, which sees stop_
  published_.notify_all();
  helper_.join();
}

// The judge's line for each winner and ply count, e.g. "white (7)\n".
UvaAnswers::Lines UvaAnswers::judge_lines() {
  Lines lines;
  for (const Side side : {Side::white, Side::black}) {
    for (int plies = 0; plies < 256; ++plies) {
      const std::string text = std::string(side_name(side)) + " (" + std::to_string(plies) + ")\n";
      ShortLine& line = lines[static_cast<int>(side)][plies];
      line.size = static_cast<std::uint8_t>(text.copy(line.bytes, sizeof line.bytes));
    }
  }
  return lines;
}

UvaAnswers::Slot& UvaAnswers::current() {
  Slot& slot = slots_[published() % kSlots];
  if (slot.batch != published()) {
    // Its last batch is written (added() and finish() see to it): the helper
    // is done with it.
    slot.batch = published();
    slot.size = 0;
    slot.errors.clear();
    slot.next.store(0);
    slot.done.store(0);
  }
  if (!slot.boards) {
    slot.boards.reset(new UvaBoard[kBatchBoards]);
    slot.text.reset(new char[kBatchBoards / kChunkBoards * kChunkText]);
  }
  return slot;
}

std::span<UvaBoard> UvaAnswers::room() {
  Slot& slot = current();
  return std::span(slot.boards.get(), kBatchBoards).subspan(slot.size);
}

void UvaAnswers::added(std::size_t boards) {
  Slot& slot = current();
  slot.size += boards;
  if (slot.size < kBatchBoards) return;
  // This thread's share of the answering, which keeps the two threads about
  // equally busy: parsing a batch costs about half as much as answering it
  // and writing it out. Not before the table is open, so that reading goes
  // on meanwhile.
  if (ready_.load() && !failed_.load()) probe_chunk(published());
  publish();
  // Every slot holds an unwritten batch: free the oldest's.
  if (published() - written_.load() == kSlots) help_until_written(published() - kSlots + 1);
}

void UvaAnswers::add_board(const UvaBoard& board) {
  room().front() = board;
  added(1);
}

void UvaAnswers::add_error(const UvaError& error) {
  Slot& slot = current();
  slot.errors.emplace_back(slot.size, error);
}

void UvaAnswers::finish() {
  if (current().size > 0 || !current().errors.empty()) publish();
  help_until_written(published());
  if (failed_.load()) std::rethrow_exception(error_);
  out_.flush();  // the helper waits for the next batch: out_ is this thread's now
}

void UvaAnswers::publish() {
  published_.fetch_add(1);
  published_.notify_all();
}

// Probes the boards of one chunk of batch `batch` and puts its lines in place.
bool UvaAnswers::probe_chunk(std::uint64_t batch) {
  Slot& slot = slots_[batch % kSlots];
  const std::size_t first = slot.next.fetch_add(kChunkBoards);
  if (first >= slot.size) return false;
  const std::size_t last = std::min(first + kChunkBoards, slot.size);
  const Table& table = *table_;
  char* const text = slot.text.get() + first / kChunkBoards * kChunkText;
  char* at = text;
  bool answered = true;
  constexpr std::size_t kGroup = 64;  // positions probed together
  std::array<Position, kGroup> positions;
  std::array<ProbeResult, kGroup> results;
  positions.fill(Position{geometry_, 0, 0, Side::white});
  for (std::size_t group = first; group < last; group += kGroup) {
    const std::size_t count = std::min(kGroup, last - group);
    for (std::size_t i = 0; i < count; ++i) {
      positions[i].white = slot.boards[group + i].white;
      positions[i].black = slot.boards[group + i].black;
    }
    table.probe_many(positions.data(), count, results.data());
    for (std::size_t i = 0; i < count; ++i) {
      const ProbeResult& r = results[i];
      answered &= r.ok();
      // A line is at most 15 bytes: the 16 copied stay inside the chunk's text.
      const ShortLine& line = lines_[static_cast<int>(r.winner)][r.plies];
      std::memcpy(at, &line, sizeof line);
      at += line.size;
    }
  }
  slot.text_size[first / kChunkBoards] =
      answered ? static_cast<std::uint32_t>(at - text) : kUnanswered;
  slot.done.fetch_add(last - first);
  slot.done.notify_all();
  return true;
}

void UvaAnswers::help_until_written(std::uint64_t batches) {
  for (std::uint64_t written; (written = written_.load()) < batches;) {
    ready_.wait(false);
    if (failed_.load()) std::rethrow_exception(error_);
    bool helped = false;
    for (std::uint64_t batch = published(); batch > written && !helped;) {
      helped = probe_chunk(--batch);
    }
    if (!helped) wait_for_change(written_, written);
  }
}

// The helper: opens the table, then answers and writes each batch as it is
// published. Its failure goes to the caller through error_.
void UvaAnswers::help(const std::filesystem::path& path) {
  try {
    table_.emplace(Table::open(path, Table::Load::automatic, 2));
  } catch (...) {
    error_ = std::current_exception();
    failed_.store(true);
  }
  ready_.store(true);
  ready_.notify_all();
  if (failed_.load()) return;
  for (std::uint64_t batch = 0;; ++batch) {
    for (std::uint64_t seen; (seen = published_.load()) <= batch && !stop_.load();)
      wait_for_change(published_, seen);
    if (stop_.load()) return;
    Slot& slot = slots_[batch % kSlots];
    while (probe_chunk(batch)) {
    }
    for (std::size_t seen; (seen = slot.done.load()) < slot.size;) wait_for_change(slot.done, seen);
    try {
      write_batch(batch);
    } catch (...) {
      error_ = std::current_exception();
      failed_.store(true);
    }
    written_.fetch_add(1);  // after a failure too: wakes the caller, which sees failed_
    written_.notify_all();
    if (failed_.load()) return;
  }
}

// Writes the lines and errors of batch `batch`, all its chunks probed.
void UvaAnswers::write_batch(std::uint64_t batch) {
  const Slot& slot = slots_[batch % kSlots];
  auto error = slot.errors.begin();
  for (std::size_t first = 0; first < slot.size; first += kChunkBoards) {
    const std::size_t last = std::min(first + kChunkBoards, slot.size);
    const std::uint32_t size = slot.text_size[first / kChunkBoards];
    const bool errors_here = error != slot.errors.end() && error->first < last;
    if (size != kUnanswered && !errors_here) {
      out_.write(std::string_view(slot.text.get() + first / kChunkBoards * kChunkText, size));
    } else {
      write_slowly(slot, first, last, error);
    }
  }
  for (; error != slot.errors.end(); ++error) {
    errors_.report(stdin_line(error->second.line), error->second.message);
  }
}

// Boards first..last-1 of `slot` one by one, with the errors before each,
// asking the table again for the status of those it could not answer.
void UvaAnswers::write_slowly(
    const Slot& slot, std::size_t first, std::size_t last,
    std::vector<std::pair<std::size_t, UvaError>>::const_iterator& error) {
  for (std::size_t i = first; i < last; ++i) {
    for (; error != slot.errors.end() && error->first == i; ++error) {
      errors_.report(stdin_line(error->second.line), error->second.message);
    }
    const UvaBoard& board = slot.boards[i];
    const ProbeResult r = table_->probe(Position{geometry_, board.white, board.black, Side::white});
    if (r.ok()) {
      out_.write(lines_[static_cast<int>(r.winner)][r.plies]);
    } else {
      check_table(*table_, r);
      errors_.report(stdin_line(board.line), describe(r.status));
    }
  }
}

}  // namespace pawntb::cli
