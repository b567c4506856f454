// Walks of the index in index order, for whole ranges of entries, where an
// unrank per entry would cost too much: LaneWalk goes lane by lane (the
// entries of a slice sharing W), Cursor entry by entry. Both keep the
// position as row subsets, an odometer over the digits of POSITION RANK
// (index.hpp): black's rows innermost, from row R-2 up, then white's from
// row R-1 up, each row's subset moving on in colex order (subset.hpp). They
// read the index through its public accessors (slices(), slice_of(),
// geometry()) only.
#pragma once

#include <array>
#include <cstdint>

#include "pawntb/format/index.hpp"
#include "pawntb/format/subset.hpp"
#include "pawntb/game/bitboard.hpp"

namespace pawntb::format {

// Walks the lanes (POSITION RANK in index.hpp) in index order, a step
// costing a few operations on white's rows: for walks that need B only now
// and then (stored.hpp). A lane is C(C, black_on_row_0()) runs of
// run_size() entries, one per black row 0 in colex order.
class LaneWalk {
 public:
  // At the lane that holds `index`; requires index < owner.size().
  LaneWalk(const Index& owner, std::uint64_t index);
  std::uint64_t first() const { return first_; }  // its first entry
  std::uint64_t size() const { return slice().lane_size; }
  std::uint64_t run_size() const { return slice().run_size; }
  std::uint64_t white() const { return white_; }
  int black_on_row_0() const { return slice().black[0]; }
  int black_off_row_0() const { return black_off_row_0_; }
  // Black's pawns on row r of every entry of the lane.
  int black_on_row(int r) const { return slice().black[static_cast<std::size_t>(r)]; }

  // Moves to the next lane; requires one. With Fixed valid (it must be the
  // index's geometry), every shift is a constant.
  template <Geometry Fixed = Geometry{0, 0}>
  [[gnu::always_inline]] void next() {
    constexpr bool fixed = Fixed.valid();
    const int rows = fixed ? Fixed.rows : owner_->geometry().rows;
    const int cols = fixed ? Fixed.cols : owner_->geometry().cols;
    first_ += slice().lane_size;
    // White's odometer, row R-1 least significant (POSITION RANK).
    for (int r = rows - 1; r >= 1; --r) {
      const auto ur = static_cast<std::size_t>(r);
      const std::uint64_t was = white_rows_[ur];
      const bool carry = advance_row_subset(white_rows_[ur], cols);
      white_ ^= (was ^ white_rows_[ur]) << (r * cols);
      if (!carry) return;
    }
    enter_slice(slice_ + 1);
  }

  // The end of the last lane with this one's W_1 (white's row 1, its most
  // significant digit, so those lanes are consecutive): with d_r the digits
  // of rows 2..R-1 and c_r their radices, the lanes after this one are the
  // mixed-radix value of the digits c_r - 1 - d_r. Same template argument as
  // next().
  template <Geometry Fixed = Geometry{0, 0}>
  [[gnu::always_inline]] std::uint64_t row_1_group_end() const {
    constexpr bool fixed = Fixed.valid();
    const int rows = fixed ? Fixed.rows : owner_->geometry().rows;
    const int cols = fixed ? Fixed.cols : owner_->geometry().cols;
    std::uint64_t after = 0;
    for (int r = 2; r < rows; ++r) {
      const auto ur = static_cast<std::size_t>(r);
      const std::uint64_t radix = binomial(cols, slice().white[ur]);
      after = after * radix + (radix - 1 - row_subset_rank(white_rows_[ur]));
    }
    return first_ + (after + 1) * slice().lane_size;
  }

  // Moves to the first lane after row_1_group_end(); requires one.
  template <Geometry Fixed = Geometry{0, 0}>
  [[gnu::always_inline]] void next_row_1() {
    constexpr bool fixed = Fixed.valid();
    const int rows = fixed ? Fixed.rows : owner_->geometry().rows;
    const int cols = fixed ? Fixed.cols : owner_->geometry().cols;
    first_ = row_1_group_end<Fixed>();
    for (int r = 2; r < rows; ++r) {
      const auto ur = static_cast<std::size_t>(r);
      const std::uint64_t was = white_rows_[ur];
      white_rows_[ur] = low_bits(slice().white[ur]);
      white_ ^= (was ^ white_rows_[ur]) << (r * cols);
    }
    const std::uint64_t was = white_rows_[1];
    const bool carry = advance_row_subset(white_rows_[1], cols);
    white_ ^= (was ^ white_rows_[1]) << cols;
    if (carry) enter_slice(slice_ + 1);
  }

 private:
  const Index::Slice& slice() const { return *slice_; }
  void enter_slice(const Index::Slice* slice);
  const Index* owner_;
  const Index::Slice* slice_ = nullptr;  // into owner_->slices()
  std::uint64_t first_ = 0, white_ = 0;
  RowSubsets white_rows_{};
  int black_off_row_0_ = 0;
};

// Walks the positions in index order, one step costing a few bit operations
// instead of an unrank.
class Cursor {
 public:
  // Starts at `index`; requires index < owner.size().
  Cursor(const Index& owner, std::uint64_t index);
  std::uint64_t index() const { return index_; }
  std::uint64_t white() const { return white_; }
  std::uint64_t black() const { return black_; }
  // The number of black pawns off row 0, the same for the whole run.
  int black_off_row_0() const { return black_off_row_0_; }

  // Moves to index() + 1; requires index() + 1 < size(). With Fixed valid
  // (it must be the index's geometry), every shift is a constant: the step
  // is inlined into the generator's loop, which takes one per entry.
  template <Geometry Fixed = Geometry{0, 0}>
  [[gnu::always_inline]] void next() {
    ++index_;
    carry<Fixed>((Fixed.valid() ? Fixed.rows : owner_->geometry().rows) - 2);
  }

  // Entries from here to the end of the run (the entries sharing W and
  // B_0; POSITION RANK in index.hpp), this one included.
  std::uint64_t run_remaining() const;

  // Moves to the first entry after this run; requires that one to exist.
  void next_run();

  // Entries from here to the end of the lane (the entries sharing the slice
  // and W), this one included: black's digits count the entries of the lane
  // before this one, row 0's digit counting whole runs.
  std::uint64_t lane_remaining() const;

  // Moves to the first entry of the next lane; requires one.
  void next_lane();

 private:
  const Index::Slice& slice() const { return owner_->slices()[slice_]; }
  void enter_slice(std::size_t slice);  // at the slice's first entry
  // Moves the odometer on from black's row `row` (rows below it are at
  // their first subsets already, or are to be reset): black's rows
  // innermost, from row R-2 up (POSITION RANK), then white's (carry_white).
  template <Geometry Fixed = Geometry{0, 0}>
  [[gnu::always_inline]] void carry(int row) {
    constexpr bool fixed = Fixed.valid();
    const int cols = fixed ? Fixed.cols : owner_->geometry().cols;
    const Index::Slice& s = slice();
    for (int r = row; r >= 0; --r) {
      const auto ur = static_cast<std::size_t>(r);
      // (On a carry the row goes back to its first subset.)
      const bool carried = advance_row_subset(black_rows_[ur], cols - s.white[ur]);
      set_black_row<Fixed>(r);
      if (!carried) {
        run_done_ = r > 0 ? run_done_ + 1 : 0;  // row 0 starts a new run
        return;
      }
    }
    carry_white();
  }
  // The odometer's carry out of black's rows.
  void carry_white();
  // Puts row r's subsets into the boards: black's only, or both.
  template <Geometry Fixed = Geometry{0, 0}>
  [[gnu::always_inline]] void set_black_row(int r) {
    const int cols = Fixed.valid() ? Fixed.cols : owner_->geometry().cols;
    const auto ur = static_cast<std::size_t>(r);
    const std::uint64_t row = low_bits(cols);
    const std::uint64_t bits =
        game::kByteGatherScatter.scatter[~white_rows_[ur] & row][black_rows_[ur]];
    black_ = (black_ & ~(row << (r * cols))) | bits << (r * cols);
  }
  void set_white_row(int r);

  const Index* owner_;
  std::uint64_t index_ = 0;
  std::size_t slice_ = 0;
  // Per row: white's subset, black's squeezed subset (row-local bits).
  RowSubsets white_rows_{}, black_rows_{};
  int black_off_row_0_ = 0;
  std::uint64_t run_done_ = 0;  // entries of this run before this one
  std::uint64_t white_ = 0, black_ = 0;
};

}  // namespace pawntb::format
