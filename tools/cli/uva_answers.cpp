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

std::span<UvaBoard> UvaAnswers::room() {
  Slot& slot = current();
  if (!slot.boards) {
    slot.boards.reset(new UvaBoard[kBatchBoards]);
    slot.text.reset(new char[kBatchBoards / kChunkBoards * kChunkText]);
  }
  return std::span(slot.boards.get(), kBatchBoards).subspan(slot.size);
}

void UvaAnswers::added(std::size_t boards) {
  Slot& slot = current();
  slot.size += boards;
  if (slot.size < kBatchBoards) return;
  publish();
  if (published() - written_ == kSlots) write_batch();  // frees the next slot
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
  while (written_ < published()) write_batch();
  out_.flush();
}

void UvaAnswers::publish() {
  published_.fetch_add(1);
  published_.notify_all();
}

// Probes boards of batch `batch`, a chunk at a time, until none is left to
// claim, and puts each chunk's lines in place.
void UvaAnswers::probe_batch(std::uint64_t batch) {
  Slot& slot = slots_[batch % kSlots];
  const Table& table = *table_;
  for (std::size_t first; (first = slot.next.fetch_add(kChunkBoards)) < slot.size;) {
    const std::size_t last = std::min(first + kChunkBoards, slot.size);
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
      table.probe_many(std::span(positions).first(count), results);
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
  }
}

// The helper: opens the table, then probes each batch as it is published.
void UvaAnswers::help(const std::filesystem::path& path) {
  try {
    table_.emplace(Table::open(path, Table::Load::automatic, 2));
  } catch (...) {
    open_error_ = std::current_exception();
  }
  ready_.store(true);
  ready_.notify_all();
  if (open_error_) return;
  for (std::uint64_t batch = 0;; ++batch) {
    helper_batch_.store(batch);
    helper_batch_.notify_all();
    for (std::uint64_t seen; (seen = published_.load()) <= batch;)
      wait_for_change(published_, seen);
    if (stop_.load()) return;
    probe_batch(batch);
  }
}

// Probes what is left of the oldest unwritten batch, waits for the helper to
// finish it, writes its lines and errors, and frees its slot.
void UvaAnswers::write_batch() {
  ready_.wait(false);
  if (open_error_) std::rethrow_exception(open_error_);
  const std::uint64_t batch = written_;
  Slot& slot = slots_[batch % kSlots];
  probe_batch(batch);
  for (std::size_t seen; (seen = slot.done.load()) < slot.size;) wait_for_change(slot.done, seen);
  // The helper leaves the batch before the slot is reused.
  for (std::uint64_t at; (at = helper_batch_.load()) <= batch;) wait_for_change(helper_batch_, at);
  auto error = std::as_const(slot.errors).begin();
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
  slot.size = 0;
  slot.errors.clear();
  slot.next.store(0);
  slot.done.store(0);
  ++written_;
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
