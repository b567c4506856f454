// The certificate checker. Its moves and its rule are written here square by
// square, from the game's description (README.md, "The game"), on purpose
// apart from pawntb::search's bitboard code, so that a fault of one is not
// a fault of both.
#include <algorithm>
#include <fstream>
#include <iterator>
#include <optional>
#include <span>
#include <utility>

#include "pawntb/format/layout.hpp"
#include "pawntb/notation.hpp"
#include "pawntb/check.hpp"
#include "pawntb/probe.hpp"
#include "pawntb/proof.hpp"

namespace pawntb::proof {

namespace {

constexpr char kMagic[8] = {'P', 'A', 'W', 'N', 'P', 'R', 'F', '1'};
constexpr std::size_t kHeaderBytes = 56, kEntryBytes = 18, kTrailerBytes = 8;

std::uint64_t get(const std::vector<std::uint8_t>& b, std::size_t at, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= std::uint64_t{b[at + i]} << (8 * i);
  return v;
}

// A position as the checker keeps it.
struct State {
  std::uint64_t white = 0, black = 0;
  bool white_to_move = true;
  bool operator==(const State&) const = default;
};
struct Step {
  int from, to;
};

class Rules {
 public:
  explicit Rules(Geometry g) : g_(g) {}

  bool has(std::uint64_t b, int row, int col) const { return (b >> (row * g_.cols + col)) & 1; }

  // The moves of the side to move: a pawn steps forward onto an empty square
  // or diagonally forward onto an enemy pawn. White moves toward row 0.
  std::vector<Step> moves(const State& s) const {
    std::vector<Step> out;
    const std::uint64_t own = s.white_to_move ? s.white : s.black;
    const std::uint64_t enemy = s.white_to_move ? s.black : s.white;
    const int forward = s.white_to_move ? -1 : 1;
    for (int row = 0; row < g_.rows; ++row) {
      for (int col = 0; col < g_.cols; ++col) {
        if (!has(own, row, col)) continue;
        const int to_row = row + forward;
        if (to_row < 0 || to_row >= g_.rows) continue;
        if (!has(own | enemy, to_row, col))
          out.push_back({row * g_.cols + col, to_row * g_.cols + col});
        for (const int to_col : {col - 1, col + 1}) {
          if (to_col >= 0 && to_col < g_.cols && has(enemy, to_row, to_col)) {
            out.push_back({row * g_.cols + col, to_row * g_.cols + to_col});
          }
        }
      }
    }
    return out;
  }

  // Whether the other side has a pawn on its far row: then the game is over
  // and the side to move has lost it.
  bool other_arrived(const State& s) const {
    const std::uint64_t other = s.white_to_move ? s.black : s.white;
    const int goal_row = s.white_to_move ? g_.rows - 1 : 0;
    for (int col = 0; col < g_.cols; ++col) {
      if (has(other, goal_row, col)) return true;
    }
    return false;
  }

  // Whether the move takes a pawn of the side to move onto its far row,
  // which wins.
  bool reaches_goal(const State& s, Step m) const {
    return m.to / g_.cols == (s.white_to_move ? 0 : g_.rows - 1);
  }

  State play(const State& s, Step m) const {
    State n = s;
    std::uint64_t& own = s.white_to_move ? n.white : n.black;
    std::uint64_t& enemy = s.white_to_move ? n.black : n.white;
    own = (own & ~(1ULL << m.from)) | (1ULL << m.to);
    enemy &= ~(1ULL << m.to);
    n.white_to_move = !s.white_to_move;
    return n;
  }

 private:
  Geometry g_;
};

ProofReport refuse(ProofReport r, std::string why) {
  r.ok = false;
  r.error = std::move(why);
  return r;
}

std::optional<std::vector<std::uint8_t>> read_all(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary | std::ios::ate);
  if (!in) return std::nullopt;
  const std::streamoff size = in.tellg();
  if (size < 0) {  // not seekable (a pipe): read it as it comes
    in.clear();
    std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                    std::istreambuf_iterator<char>());
    if (in.bad()) return std::nullopt;
    return bytes;
  }
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size));
  in.seekg(0);
  if (!in.read(reinterpret_cast<char*>(bytes.data()), size)) return std::nullopt;
  return bytes;
}

}  // namespace

bool certificate_geometry(const std::filesystem::path& file, Geometry& g) {
  std::ifstream in(file, std::ios::binary);
  char head[14];
  if (!in.read(head, sizeof head) || !std::equal(kMagic, kMagic + 8, head)) return false;
  g = Geometry{static_cast<std::uint8_t>(head[12]), static_cast<std::uint8_t>(head[13])};
  return g.valid();
}

ProofReport check_proof(const std::filesystem::path& file,
                        const std::vector<std::filesystem::path>& tables) {
  ProofReport r;
  const auto read = read_all(file);
  if (!read) return refuse(r, "cannot read the file");
  const std::vector<std::uint8_t>& b = *read;
  if (b.size() < kHeaderBytes + kTrailerBytes || !std::equal(kMagic, kMagic + 8, b.begin())) {
    return refuse(r, "not a pawntb certificate (no PAWNPRF1 header)");
  }
  const std::size_t body = b.size() - kTrailerBytes;
  if (format::checksum64(std::span(b.data(), body)) != get(b, body, 8)) {
    return refuse(r, "checksum mismatch: the file is damaged");
  }
  // Version 1 also listed the winner's wins in one, which are checked by
  // the rules either way.
  if (get(b, 8, 4) != 1 && get(b, 8, 4) != 2)
    return refuse(r, "certificate version " + std::to_string(get(b, 8, 4)) + ", not 1 or 2");
  const Geometry g{b[12], b[13]};
  if (!g.valid() || b[14] > 1 || b[15] > 1) return refuse(r, "bad header (board, side or winner)");
  r.root = Position{g, get(b, 16, 8), get(b, 24, 8), b[14] ? Side::black : Side::white};
  r.winner = b[15] ? Side::black : Side::white;
  const int table_pawns = static_cast<int>(get(b, 32, 8));
  const std::uint64_t table_checksum = get(b, 40, 8);
  r.entries = get(b, 48, 8);
  if (r.entries > (body - kHeaderBytes) / kEntryBytes ||
      kHeaderBytes + r.entries * kEntryBytes != body) {
    return refuse(r, "the file's size does not match its number of positions");
  }
  if (classify(r.root) == Status::invalid) {
    return refuse(r, "the root position is invalid: " + invalid_reason(r.root));
  }
  // The entries stay in the file's bytes, sorted by (white, black): a
  // lookup is a binary search, and one bit per entry marks it replayed.
  // (A hash map of 7x7's 55.6 M entries took more than 11 GiB.)
  const std::uint8_t* const entry_bytes = b.data() + kHeaderBytes;
  const auto entry_white = [&](std::uint64_t i) { return get(b, kHeaderBytes + i * kEntryBytes, 8); };
  const auto entry_black = [&](std::uint64_t i) {
    return get(b, kHeaderBytes + i * kEntryBytes + 8, 8);
  };
  const std::uint64_t squares = static_cast<std::uint64_t>(g.squares());
  const std::uint64_t board = squares == 64 ? ~0ULL : (1ULL << squares) - 1;
  for (std::uint64_t i = 0; i < r.entries; ++i) {
    const std::uint64_t white = entry_white(i), black = entry_black(i);
    const std::uint8_t* const move = entry_bytes + i * kEntryBytes + 16;
    if (i > 0 && std::pair(white, black) <= std::pair(entry_white(i - 1), entry_black(i - 1))) {
      return refuse(r, "position " + std::to_string(i) + " is out of order");
    }
    if ((white | black) & ~board || move[0] >= squares || move[1] >= squares) {
      return refuse(r, "position " + std::to_string(i) + " lies off the board");
    }
  }
  constexpr std::uint64_t kNotListed = ~std::uint64_t{0};
  const auto find_entry = [&](const State& s) {
    std::uint64_t lo = 0, hi = r.entries;  // the entry, if any, is in [lo, hi)
    while (lo < hi) {
      const std::uint64_t mid = lo + (hi - lo) / 2;
      if (std::pair(entry_white(mid), entry_black(mid)) < std::pair(s.white, s.black)) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    const bool found = lo < r.entries && entry_white(lo) == s.white && entry_black(lo) == s.black;
    return found ? lo : kNotListed;
  };
  // The table the leaves need.
  std::optional<Table> table;
  if (table_pawns > 0) {
    for (const auto& f : tables) {
      if (check::file_checksum(f) != table_checksum) continue;
      table = Table::open(f);
      r.table = f;
      break;
    }
    if (!table || table->info().geometry != g || table->info().max_pawns != table_pawns) {
      char hex[17];
      std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(table_checksum));
      return refuse(r, "the proof's leaves need the table " + to_string(g) + "-k" +
                           std::to_string(table_pawns) + ".pawntb with file checksum " + hex +
                           ", which was not found (give its directory with --tables)");
    }
  }
  const auto pawns = [](std::uint64_t x) { return std::popcount(x); };
  const Rules rules(g);
  const bool white_wins = r.winner == Side::white;
  const auto fail = [&](const State& s, const std::string& why) {
    r.position =
        format_position(Position{g, s.white, s.black, s.white_to_move ? Side::white : Side::black});
    return refuse(r, "position " + r.position + ": " + why);
  };
  // Each listed position is replayed once, and keeps the plies of the
  // longest line from it (16 bits: a line is at most a pawn step a ply, and
  // no board has 64 pawns of 8 steps; 0 while not replayed). The loser's positions are not remembered: one is
  // reached at most once per listed position whose move leads to it, so the
  // work stays within the entries times the moves. Lines are at most a game
  // long, so the replay recurses no deeper than that.
  //
  // The longest line of the proof bounds the root's distance from above:
  // the winner, playing the stored moves, ends every line within it.
  std::vector<std::uint16_t> longest(r.entries, 0);
  std::optional<ProofReport> refused;
  const auto replay = [&](const auto& self, const State& s) -> int {
    const bool winner_to_move = s.white_to_move == white_wins;
    std::uint64_t entry = kNotListed;
    if (winner_to_move) {
      entry = find_entry(s);
      if (entry != kNotListed && longest[entry] != 0) return longest[entry];
    }
    ++r.positions_checked;
    // The game is over when the other side has arrived or this one has no move.
    const std::vector<Step> legal = rules.other_arrived(s) ? std::vector<Step>{} : rules.moves(s);
    if (legal.empty()) {
      if (winner_to_move) {
        refused = fail(s, "the game is over and the winner has lost it");
        return -1;
      }
      ++r.game_ends;
      return 0;
    }
    if (winner_to_move &&
        std::any_of(legal.begin(), legal.end(), [&](Step m) { return rules.reaches_goal(s, m); })) {
      ++r.wins_in_one;
      return 1;
    }
    if (entry == kNotListed && table && pawns(s.white) <= table_pawns && pawns(s.black) <= table_pawns) {
      const ProbeResult v =
          table->probe(Position{g, s.white, s.black, s.white_to_move ? Side::white : Side::black});
      if (!v.ok() || v.winner != r.winner) {
        refused = fail(s, "the table says the winner loses here");
        return -1;
      }
      ++r.table_leaves;
      return v.plies;
    }
    if (winner_to_move) {
      if (entry == kNotListed) {
        refused = fail(s, "no move is stored for the winner");
        return -1;
      }
      const std::uint8_t* const move = entry_bytes + entry * kEntryBytes + 16;
      const Step m{move[0], move[1]};
      if (std::none_of(legal.begin(), legal.end(),
                       [&](Step l) { return l.from == m.from && l.to == m.to; })) {
        refused = fail(s, "the stored move " +
                              move_name(g, Move{static_cast<std::uint8_t>(m.from),
                                                static_cast<std::uint8_t>(m.to)}) +
                              " is not legal");
        return -1;
      }
      const int after = self(self, rules.play(s, m));
      if (after < 0) return -1;
      longest[entry] = static_cast<std::uint16_t>(1 + after);
      return 1 + after;
    }
    int most = 0;
    for (const Step m : legal) {
      const int after = self(self, rules.play(s, m));
      if (after < 0) return -1;
      most = std::max(most, 1 + after);
    }
    return most;
  };
  const int plies = replay(replay, State{r.root.white, r.root.black, r.root.to_move == Side::white});
  if (plies < 0) return *refused;
  r.longest_line = plies;
  r.ok = true;
  return r;
}

}  // namespace pawntb::proof
