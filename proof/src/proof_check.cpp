// The certificate checker. Its moves and its rule are written here square by
// square, from the game's description (README.md, "The game"), on purpose
// apart from pawntb::search's bitboard code, so that a fault of one is not
// a fault of both.
#include <algorithm>
#include <fstream>
#include <iterator>
#include <optional>
#include <span>
#include <unordered_map>
#include <unordered_set>

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
struct StateHash {
  std::size_t operator()(const State& s) const {
    std::uint64_t h = s.white * 0x9e3779b97f4a7c15ULL ^ (s.black + (s.white_to_move ? 1 : 2));
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ULL;
    return h ^ (h >> 32);
  }
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

  // The game is over for the side to move (it has lost) when the other side
  // has a pawn on its far row, or when it has no move.
  bool over(const State& s) const {
    const std::uint64_t other = s.white_to_move ? s.black : s.white;
    const int goal_row = s.white_to_move ? g_.rows - 1 : 0;
    for (int col = 0; col < g_.cols; ++col) {
      if (has(other, goal_row, col)) return true;
    }
    return moves(s).empty();
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
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                  std::istreambuf_iterator<char>());
  if (in.bad()) return std::nullopt;
  return bytes;
}

}  // namespace

bool certificate_geometry(const std::filesystem::path& file, Geometry& g) {
  const auto bytes = read_all(file);
  if (!bytes || bytes->size() < kHeaderBytes || !std::equal(kMagic, kMagic + 8, bytes->begin())) {
    return false;
  }
  g = Geometry{(*bytes)[12], (*bytes)[13]};
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
  if (get(b, 8, 4) != 1)
    return refuse(r, "certificate version " + std::to_string(get(b, 8, 4)) + ", not 1");
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
  // The winner's moves, in increasing order of (white, black).
  std::unordered_map<State, Step, StateHash> stored;
  stored.reserve(r.entries);
  const std::uint64_t squares = static_cast<std::uint64_t>(g.squares());
  const std::uint64_t board = squares == 64 ? ~0ULL : (1ULL << squares) - 1;
  State previous{};
  for (std::uint64_t i = 0; i < r.entries; ++i) {
    const std::size_t at = kHeaderBytes + i * kEntryBytes;
    const State s{get(b, at, 8), get(b, at + 8, 8), r.winner == Side::white};
    const Step m{b[at + 16], b[at + 17]};
    if (i > 0 &&
        (s.white < previous.white || (s.white == previous.white && s.black <= previous.black))) {
      return refuse(r, "position " + std::to_string(i) + " is out of order");
    }
    if ((s.white | s.black) & ~board || m.from >= g.squares() || m.to >= g.squares()) {
      return refuse(r, "position " + std::to_string(i) + " lies off the board");
    }
    stored.emplace(s, m);
    previous = s;
  }
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
  std::unordered_set<State, StateHash> seen;
  std::vector<State> stack{State{r.root.white, r.root.black, r.root.to_move == Side::white}};
  while (!stack.empty()) {
    const State s = stack.back();
    stack.pop_back();
    if (!seen.insert(s).second) continue;
    const bool winner_to_move = s.white_to_move == white_wins;
    if (rules.over(s)) {
      if (winner_to_move) return fail(s, "the game is over and the winner has lost it");
      ++r.game_ends;
      continue;
    }
    const auto entry = winner_to_move ? stored.find(s) : stored.end();
    if (entry == stored.end() && table && pawns(s.white) <= table_pawns &&
        pawns(s.black) <= table_pawns) {
      const ProbeResult v =
          table->probe(Position{g, s.white, s.black, s.white_to_move ? Side::white : Side::black});
      if (!v.ok() || v.winner != r.winner) return fail(s, "the table says the winner loses here");
      ++r.table_leaves;
      continue;
    }
    const std::vector<Step> legal = rules.moves(s);
    if (winner_to_move) {
      if (entry == stored.end()) return fail(s, "no move is stored for the winner");
      const Step m = entry->second;
      if (std::none_of(legal.begin(), legal.end(),
                       [&](Step l) { return l.from == m.from && l.to == m.to; })) {
        return fail(s, "the stored move " +
                           move_name(g, Move{static_cast<std::uint8_t>(m.from),
                                             static_cast<std::uint8_t>(m.to)}) +
                           " is not legal");
      }
      stack.push_back(rules.play(s, m));
    } else {
      for (const Step m : legal) stack.push_back(rules.play(s, m));
    }
  }
  r.positions_checked = seen.size();
  r.ok = true;
  return r;
}

}  // namespace pawntb::proof
