// The walks of the index (pawntb/format/walk.hpp).
#include "pawntb/format/walk.hpp"

namespace pawntb::format {

using game::low_bits;
using game::Pawns;

LaneWalk::LaneWalk(const Index& owner, std::uint64_t index)
    : owner_(&owner), slice_(&owner.slices()[owner.slice_of(index)]) {
  const Index::Slice& s = slice();
  const Geometry g = owner.geometry();
  const std::uint64_t lane = (index - s.first) / s.lane_size;
  first_ = s.first + lane * s.lane_size;
  RowSubsets black_rows{};
  unrank_in_slice(g, s, lane * s.lane_size, white_rows_, black_rows);
  white_ = boards_of(g, white_rows_, black_rows).white;
  black_off_row_0_ = 0;
  for (int r = 1; r < g.rows - 1; ++r) black_off_row_0_ += s.black[static_cast<std::size_t>(r)];
}

void LaneWalk::enter_slice(const Index::Slice* slice) {
  slice_ = slice;
  const Index::Slice& s = *slice;
  const int cols = owner_->geometry().cols;
  white_ = 0;
  black_off_row_0_ = 0;
  for (int r = 0; r < owner_->geometry().rows; ++r) {
    const auto ur = static_cast<std::size_t>(r);
    white_rows_[ur] = low_bits(s.white[ur]);
    white_ |= white_rows_[ur] << (r * cols);
    if (r > 0) black_off_row_0_ += s.black[ur];
  }
}

Cursor::Cursor(const Index& owner, std::uint64_t index)
    : owner_(&owner), index_(index), slice_(owner.slice_of(index)) {
  const Index::Slice& s = slice();
  const Geometry g = owner.geometry();
  unrank_in_slice(g, s, index - s.first, white_rows_, black_rows_);
  const int rows = g.rows, cols = g.cols;
  black_off_row_0_ = 0;
  for (int r = 1; r < rows - 1; ++r) {
    const auto ur = static_cast<std::size_t>(r);
    black_off_row_0_ += s.black[ur];
    run_done_ =
        run_done_ * binomial(cols - s.white[ur], s.black[ur]) + row_subset_rank(black_rows_[ur]);
  }
  const Pawns p = boards_of(g, white_rows_, black_rows_);
  white_ = p.white;
  black_ = p.black;
}

void Cursor::enter_slice(std::size_t slice) {
  slice_ = slice;
  const Index::Slice& s = this->slice();
  black_off_row_0_ = 0;
  for (int r = 0; r < owner_->geometry().rows; ++r) {
    const auto ur = static_cast<std::size_t>(r);
    white_rows_[ur] = low_bits(s.white[ur]);
    black_rows_[ur] = low_bits(s.black[ur]);
    if (r > 0) black_off_row_0_ += s.black[ur];
  }
  run_done_ = 0;
  const Pawns p = boards_of(owner_->geometry(), white_rows_, black_rows_);
  white_ = p.white;
  black_ = p.black;
}

void Cursor::set_white_row(int r) {
  const int cols = owner_->geometry().cols;
  const std::uint64_t row = low_bits(cols);
  white_ = (white_ & ~(row << (r * cols))) | white_rows_[static_cast<std::size_t>(r)] << (r * cols);
  set_black_row(r);  // the squares white leaves free have changed
}

void Cursor::carry_white() {
  const Index::Slice& s = slice();
  const int rows = owner_->geometry().rows, cols = owner_->geometry().cols;
  run_done_ = 0;
  for (int r = rows - 1; r >= 1; --r) {
    const auto ur = static_cast<std::size_t>(r);
    if (advance_subset(white_rows_[ur], cols)) {
      set_white_row(r);
      return;
    }
    white_rows_[ur] = low_bits(s.white[ur]);
    set_white_row(r);
  }
  enter_slice(slice_ + 1);
}

std::uint64_t Cursor::run_remaining() const {
  return slice().run_size - run_done_;
}

void Cursor::next_run() {
  const Index::Slice& s = slice();
  const int rows = owner_->geometry().rows;
  index_ += run_remaining();
  if (s.run_size > 1) {  // else the run is this one entry: nothing to reset
    for (int r = 1; r < rows - 1; ++r) {
      const auto ur = static_cast<std::size_t>(r);
      if (s.black[ur] == 0) continue;  // the empty set, never moved
      black_rows_[ur] = low_bits(s.black[ur]);
      set_black_row(r);
    }
  }
  carry(0);
}

std::uint64_t Cursor::lane_remaining() const {
  const Index::Slice& s = slice();
  return s.lane_size - row_subset_rank(black_rows_[0]) * s.run_size - run_done_;
}

void Cursor::next_lane() {
  const Index::Slice& s = slice();
  const int rows = owner_->geometry().rows;
  index_ += lane_remaining();
  for (int r = 0; r < rows - 1; ++r) {
    const auto ur = static_cast<std::size_t>(r);
    black_rows_[ur] = low_bits(s.black[ur]);
    set_black_row(r);
  }
  carry_white();
}

}  // namespace pawntb::format
