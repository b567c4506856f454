#include "table_view.hpp"

#include <bit>
#include <variant>

#include "pawntb/notation.hpp"

namespace pawntb::check {

namespace {

TableFacts facts_of(const TableInfo& info, const format::Index& index) {
  TableFacts f;
  f.geometry = info.geometry;
  f.entry_count = info.entries;
  f.block_count = info.blocks;
  f.block_entries = info.block_entries;
  f.header_checksum = info.header_checksum;
  f.win_count = info.white_wins;
  f.max_plies = info.longest_game_plies;
  // The header's longest example is an entry, white to move (Table::open
  // wrote it from the header's entry number).
  const auto longest = std::get<Position>(parse_position(info.longest_game_example));
  f.longest_index = index.rank(longest.white, longest.black);
  return f;
}

}  // namespace

TableView::TableView(const Table& t)
    : table(t),
      info(t.info()),
      index(info.geometry, info.max_pawns),
      symmetry(info.geometry),
      header(facts_of(info, index)),
      block_shift(static_cast<unsigned>(std::countr_zero(info.block_entries))),
      reader_(t) {
  loaded_entries = reader_.loaded_entries();
}

}  // namespace pawntb::check
