#include "uva_answers.hpp"

#include <string>


namespace pawntb::cli {

UvaAnswers::UvaAnswers(const Table& table) : table_(table) {
  for (const Side side : {Side::white, Side::black}) {
    for (int plies = 0; plies < 256; ++plies) {
      const std::string text = std::string(side_name(side)) + " (" + std::to_string(plies) + ")\n";
      ShortLine& line = lines_[static_cast<int>(side)][plies];
      line.size = static_cast<std::uint8_t>(text.copy(line.bytes, sizeof line.bytes));
    }
  }
  positions_.fill(Position{table.info().geometry, 0, 0, Side::white});
}

void UvaAnswers::added(std::size_t boards) {
  size_ += boards;
  if (size_ == kGroup) answer();
}

void UvaAnswers::add_board(const UvaBoard& board) {
  boards_[size_] = board;
  added(1);
}

void UvaAnswers::add_error(const UvaError& error) {
  answer();
  if (error.case_number) cases_done_ = error.case_number;
  if (error.note) {
    errors_.note("pawntb uva: " + stdin_line(error.line), error.message);
  } else {
    errors_.report("pawntb uva: " + stdin_line(error.line), error.message);
  }
}

void UvaAnswers::finish() {
  answer();
  out_.flush();
}

void UvaAnswers::answer() {
  for (std::size_t i = 0; i < size_; ++i) {
    positions_[i].white = boards_[i].white;
    positions_[i].black = boards_[i].black;
  }
  table_.probe_many(positions_.data(), size_, results_.data());
  for (std::size_t i = 0; i < size_; ++i) {
    const ProbeResult& r = results_[i];
    if (r.ok()) {
      out_.write(lines_[static_cast<int>(r.winner)][r.plies]);
    } else {
      check_table(table_, positions_[i], r);
      // In probe's words, which name the square (one text for both).
      errors_.report("pawntb uva: " + stdin_line(boards_[i].line),
                     "case " + std::to_string(cases_done_ + i + 1) + ": " +
                         probe_problem(table_, positions_[i], r));
    }
  }
  cases_done_ += size_;
  size_ = 0;
}

}  // namespace pawntb::cli
