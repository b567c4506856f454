// solve(): a boolean depth-first search with a shared transposition table,
// the rules of knowledge of board.hpp and tables as leaves; threads split
// the root's moves (docs/search.md says why).
#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <random>
#include <stdexcept>
#include <vector>

#include "board.hpp"
#include "certificate.hpp"
#include "distance.hpp"
#include "pawntb/check.hpp"
#include "pawntb/notation.hpp"
#include "pawntb/probe.hpp"
#include "pawntb/search.hpp"
#include "pawntb/util/memory.hpp"
#include "pawntb/util/threads.hpp"
#include "proof_numbers.hpp"
#include "state.hpp"
#include "tt.hpp"

namespace pawntb::search {

using search_detail::Board;
using search_detail::hash_node;
using search_detail::NodeHash;
using search_detail::Node;
using search_detail::ProofNumberSearch;
using search_detail::SearchMove;
using search_detail::SearchMoves;
using search_detail::TranspositionTable;

namespace {

constexpr std::uint64_t kDefaultMemory = std::uint64_t{64} << 20;
// The distance's table of bounds: --memory, at most this.
constexpr std::uint64_t kDistanceMemory = std::uint64_t{1} << 30;

// A root move's state, shared by the workers.
struct RootMove {
  SearchMove move{};
  std::atomic<int> state{0};  // 0 open, 1 refuted (the reply wins), 2 proven (the reply loses)
  std::atomic<int> helpers{0};
};

// What the workers of one solve() share.
struct Shared {
  Shared(Geometry g, const SolveOptions& o, std::uint64_t tt_bytes)
      : board(g), tt(tt_bytes, g.cols), knowledge(o.knowledge) {}
  Board board;
  TranspositionTable tt;
  Knowledge knowledge;
  std::optional<Table> owned_table;  // opened here from SolveOptions::tables
  const Table* table = nullptr;      // the leaves' table: owned_table or a borrowed one
  int table_pawns = 0;
  std::atomic<std::uint64_t> nodes{0}, probes{0};
  std::atomic<bool> stop{false};
  // Workers stop at this time too (the distance's --time).
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  std::vector<RootMove> root_moves;
  // Called by a worker every 1,024 nodes when set: the certificate's walk
  // saves itself from there while it searches again (one thread).
  std::function<void()> checkpoint;
};

class Worker {
 public:
  explicit Worker(Shared& s) : s_(s), board_(s.board), k_(s.knowledge) {}

  ~Worker() { flush(); }

  // Whether the side to move wins `n`; its winning move in `best` when it
  // has one to play (not for a table's answer). False also when aborted():
  // then nothing is stored.
  bool wins(const Node& n, SearchMove* best, int ply) { return wins(n, hash(n), best, ply); }

  bool wins(const Node& n, const NodeHash& h, SearchMove* best, int ply) {
    if ((++nodes_ & 1023) == 0) poll();
    if (aborted_) return false;
    if (const std::optional<bool> known = settle(n, h, best)) return *known;
    return expand(n, h, best, ply);
  }

  // wins() for a node that settle() has just left open (the lookahead).
  bool wins_unsettled(const Node& n, const NodeHash& h, int ply) {
    if ((++nodes_ & 1023) == 0) poll();
    if (aborted_) return false;
    return expand(n, h, nullptr, ply);
  }

  // wins() with at most about `budget` nodes (poll()'s 1,024 more): nullopt
  // when they were not enough. What it proved on the way stays stored.
  std::optional<bool> wins_within(const Node& n, SearchMove* best, std::uint64_t budget) {
    limit_ = nodes_ + budget;
    aborted_ = false;
    const bool wins_it = wins(n, best, 0);
    const bool cut = aborted_;
    limit_ = kNoLimit;
    aborted_ = false;
    if (cut) return std::nullopt;
    return wins_it;
  }

  // What the rules say about `n` without a search: the game is over, a win
  // in one, a table's answer, a race, or a stored result; nullopt when none
  // applies.
  std::optional<bool> settle(const Node& n, SearchMove* best) {
    return settle(n, hash(n), best);
  }

  std::optional<bool> settle(const Node& n, const NodeHash& h, SearchMove* best) {
    const bool white = n.white_to_move;
    const std::uint64_t me = n.mover(), them = n.other();
    if (board_.opponent_arrived(n)) return false;
    if (k_.win_in_one) {
      if (const std::uint64_t w = board_.winning_pawns(me, them, white)) {
        if (best) *best = winning_move(n, std::countr_zero(w));
        return true;
      }
    }
    if (covered(n)) {
      ++probes_;
      const ProbeResult r = s_.table->probe(
          Position{board_.geometry(), n.white, n.black, white ? Side::white : Side::black});
      if (!r.ok()) throw TableError(search_detail::unanswered(*s_.table, n));
      return r.winner == (white ? Side::white : Side::black);
    }
    if (k_.unstoppable) {
      int d = 0, square = 0;
      // The runner's other pawns stand still while it runs.
      if (board_.runner_wins(me, them, white, true, d, square)) {
        if (best)
          *best = {static_cast<std::uint8_t>(square),
                   static_cast<std::uint8_t>(board_.ahead(square, white))};
        return true;
      }
      if (board_.runner_wins(them, me, !white, false, d, square)) {
        return false;
      }
    }
    const auto hit = s_.tt.probe(h);
    if (hit.found) {
      if (hit.wins && best) *best = h.mirrored ? board_.mirror(hit.move) : hit.move;
      return hit.wins;
    }
    return std::nullopt;
  }

  // Whether a move that led to `child` loses at once to a win in one, so
  // that it need not be searched (unless the move itself reached the goal).
  bool hopeless(const Node& child) const {
    return k_.threats && !board_.opponent_arrived(child) &&
           board_.winning_pawns(child.mover(), child.other(), child.white_to_move);
  }

 private:
  bool expand(const Node& n, const NodeHash& h, SearchMove* best, int ply) {
    SearchMoves list;
    board_.moves(n, k_.ordering, list);
    auto& history = history_[n.white_to_move ? 0 : 1];
    if (k_.ordering) {  // captures stay first; within each kind, the moves that won most work
      std::array<std::uint64_t, kMaxMoves> score;
      for (int i = 0; i < list.size; ++i) {
        const SearchMove m = list.moves[i];
        const bool capture = ((n.other() >> m.to) & 1) != 0;
        score[i] = (capture ? kCaptureBonus : 0) + history[m.from][m.to];
      }
      // Insertion sort, stable: lists are short (at most 3 a pawn).
      for (int i = 1; i < list.size; ++i) {
        const SearchMove m = list.moves[i];
        const std::uint64_t v = score[i];
        int j = i;
        for (; j > 0 && score[j - 1] < v; --j) {
          list.moves[j] = list.moves[j - 1];
          score[j] = score[j - 1];
        }
        list.moves[j] = m;
        score[j] = v;
      }
    }
    if (perturb_ && ply < 4 && list.size > 1) {
      std::rotate(list.moves.begin(), list.moves.begin() + (perturb_ + ply) % list.size,
                  list.moves.begin() + list.size);
    }
    const std::uint64_t start = nodes_;
    const auto won = [&](int i) {
      const SearchMove m = list.moves[i];
      const SearchMove stored = h.mirrored ? board_.mirror(m) : m;  // the table's frame
      s_.tt.store(h, true, &stored, nodes_ - start);
      if (k_.ordering) history[m.from][m.to] += nodes_ - start + 1;
      if (best) *best = m;
      return true;
    };
    // Each reply and its hash, worked out once; the skipped ones are settled.
    std::array<Node, kMaxMoves> child;
    std::array<NodeHash, kMaxMoves> child_hash;
    std::array<bool, kMaxMoves> skip;
    for (int i = 0; i < list.size; ++i) {
      child[i] = board_.play(n, list.moves[i]);
      child_hash[i] = hash(child[i]);
      skip[i] = false;
      if (k_.lookahead) s_.tt.prefetch(child_hash[i]);  // loads while the rules run
    }
    for (int i = 0; i < list.size; ++i) {
      if (hopeless(child[i])) {
        skip[i] = true;
      } else if (k_.lookahead) {  // a reply the rules or the table settle: no search
        if (const std::optional<bool> known = settle(child[i], child_hash[i], nullptr)) {
          if (!*known) return won(i);
          skip[i] = true;
        }
      }
    }
    for (int i = 0; i < list.size; ++i) {
      if (skip[i]) continue;
      // A reply the lookahead settled not: straight to its expansion.
      if (!(k_.lookahead ? wins_unsettled(child[i], child_hash[i], ply + 1)
                         : wins(child[i], child_hash[i], nullptr, ply + 1))) {
        if (aborted_) return false;
        return won(i);
      }
      if (aborted_) return false;
    }
    s_.tt.store(h, false, nullptr, nodes_ - start);
    return false;
  }

 public:
  // Takes root moves until all are decided or one wins.
  void run_root(const Node& root) {
    for (;;) {
      RootMove* pick = nullptr;
      int least = 0;
      for (RootMove& m : s_.root_moves) {
        if (m.state.load() != 0) continue;
        const int h = m.helpers.load();
        if (!pick || h < least) {
          pick = &m;
          least = h;
        }
      }
      if (!pick || s_.stop.load()) break;
      perturb_ = pick->helpers.fetch_add(1);
      current_ = pick;
      aborted_ = false;
      const bool reply_wins = wins(board_.play(root, pick->move), nullptr, 1);
      if (!aborted_) {
        int open = 0;
        pick->state.compare_exchange_strong(open, reply_wins ? 1 : 2);
        if (!reply_wins) s_.stop.store(true);
      }
      pick->helpers.fetch_sub(1);
      current_ = nullptr;
    }
    flush();
  }

  // The node's transposition-table hash: of it or its mirror image.
  search_detail::NodeHash hash(const Node& n) const {
    return search_detail::canonical_hash(n, k_.symmetry);
  }

  bool covered(const Node& n) const {
    return s_.table_pawns > 0 && std::popcount(n.white) <= s_.table_pawns &&
           std::popcount(n.black) <= s_.table_pawns;
  }

  void flush() {
    s_.nodes.fetch_add(nodes_ - flushed_nodes_, std::memory_order_relaxed);
    s_.probes.fetch_add(probes_ - flushed_probes_, std::memory_order_relaxed);
    flushed_nodes_ = nodes_;
    flushed_probes_ = probes_;
  }

 private:
  void poll() {
    flush();
    if (s_.checkpoint) s_.checkpoint();
    if (s_.stop.load(std::memory_order_relaxed) ||
        (current_ && current_->state.load(std::memory_order_relaxed) != 0) || nodes_ >= limit_ ||
        (s_.deadline != std::chrono::steady_clock::time_point::max() &&
         std::chrono::steady_clock::now() >= s_.deadline)) {
      aborted_ = true;
    }
  }

  // The move of the pawn on `square`, one step from its goal, onto the goal:
  // straight when it can, else a capture.
  SearchMove winning_move(const Node& n, int square) const {
    SearchMoves list;
    board_.moves(n, false, list);
    for (int i = 0; i < list.size; ++i) {
      if (list.moves[i].from == square) return list.moves[i];
    }
    return list.moves[0];  // unreachable: winning_pawns() found a move
  }

  Shared& s_;
  const Board& board_;
  const Knowledge k_;
  static constexpr std::uint64_t kCaptureBonus = std::uint64_t{1} << 62;
  // Work won by each move (side, from, to): the history heuristic.
  std::array<std::array<std::array<std::uint64_t, kMaxSquares>, kMaxSquares>, 2> history_{};
  RootMove* current_ = nullptr;
  int perturb_ = 0;
  bool aborted_ = false;
  static constexpr std::uint64_t kNoLimit = ~std::uint64_t{0};
  std::uint64_t limit_ = kNoLimit;  // wins_within()'s
  std::uint64_t nodes_ = 0, probes_ = 0, flushed_nodes_ = 0, flushed_probes_ = 0;
};

Node node_of(const Board& board, const Position& p) {
  return board.node(p.white, p.black, p.to_move == Side::white);
}

// The table of `g` with the largest K among `files` and `open`.
void open_tables(Shared& s, Geometry g, const std::vector<std::filesystem::path>& files,
                 const std::vector<const Table*>& open, SolveResult& result) {
  const auto consider = [&](const Table& t) {
    if (t.info().geometry != g || t.info().max_pawns <= s.table_pawns) return false;
    s.table_pawns = t.info().max_pawns;
    result.table = t.info().path;
    result.table_pawns = s.table_pawns;
    s.table = &t;
    return true;
  };
  for (const Table* t : open) consider(*t);
  for (const auto& f : files) {
    Table t = Table::open(f);
    if (t.info().geometry != g || t.info().max_pawns <= s.table_pawns) continue;
    s.owned_table = std::move(t);
    consider(*s.owned_table);
  }
}

// Walks the proof from `root`: every position of the winner to move gets the
// move that wins (but a win in one, which the checker sees), every reply of the loser is followed, down to the ends of
// the game and the table's leaves. Only the winner's positions are
// remembered (each is listed once); a loser's position is reached at most
// once per listed move that leads to it, so it needs no memory.
class ProofWalk {
 public:
  using TooLarge = search_detail::ProofList::TooLarge;

  // Throws std::invalid_argument when the root's positions cannot be keyed
  // (search_detail::ProofList).
  ProofWalk(Shared& s, Worker& w, const Position& root, bool white_wins,
            std::uint64_t memory_bytes)
      : s_(s), w_(w), white_wins_(white_wins), list_(s.board, root, memory_bytes) {}

  // Goes on from a saved walk (state.hpp), whose positions load_walk put in
  // list(), instead of the root.
  void restore(std::vector<Node>&& to_visit) {
    stack_ = std::move(to_visit);
    restored_ = true;
  }

  // `checkpoint` is called before each position visited (and reports the
  // positions listed). There, and during the searches the walk asks for
  // (Shared::checkpoint), list() and to_visit() are a walk that can go on.
  void walk(const Node& n, const std::function<void()>& checkpoint) {
    if (!restored_) stack_ = {n};
    while (!stack_.empty()) {
      checkpoint();
      const Node x = stack_.back();
      stack_.pop_back();
      if (s_.board.opponent_arrived(x) || w_.covered(x)) continue;
      if (x.white_to_move == white_wins_) {
        // A win in one needs no entry: the checker sees it by the rules.
        if (s_.board.winning_pawns(x.mover(), x.other(), x.white_to_move)) continue;
        if (list_.contains(x.white, x.black)) continue;
        SearchMove best{};
        searching_ = x;  // to visit still, should the walk be saved during its search
        if (!w_.wins(x, &best, 0)) throw std::logic_error("the proof lost a winning position");
        searching_.reset();
        list_.add({x.white, x.black, best.from, best.to});
        stack_.push_back(s_.board.play(x, best));
      } else {
        SearchMoves list;
        s_.board.moves(x, false, list);
        for (int i = 0; i < list.size; ++i) stack_.push_back(s_.board.play(x, list.moves[i]));
      }
    }
  }

  search_detail::ProofList& list() { return list_; }
  std::vector<Node> to_visit() const {
    std::vector<Node> out = stack_;
    if (searching_) out.push_back(*searching_);
    return out;
  }

 private:
  Shared& s_;
  Worker& w_;
  bool white_wins_;
  search_detail::ProofList list_;  // the winner's positions, each listed once
  std::vector<Node> stack_;        // the positions still to visit
  std::optional<Node> searching_;  // taken off stack_, its winning move being searched
  bool restored_ = false;
};

// The df-pn search of `root` (one thread), with the rules, the leaves and
// the table of proven results of `s`: every result it proves is kept there,
// where the certificate's walk, the distance and a saved state find it.
void prove_by_numbers(Shared& s, const Node& root, std::uint64_t numbers_bytes) {
  Worker w(s);
  ProofNumberSearch::Host host;
  host.settle = [&](const Node& n, const NodeHash& h) { return w.settle(n, h, nullptr); };
  host.proven = [&](const NodeHash& h, bool wins, const SearchMove* move, std::uint64_t work) {
    SearchMove stored{};
    if (move) stored = h.mirrored ? s.board.mirror(*move) : *move;  // the table's frame
    s.tt.store(h, wins, move ? &stored : nullptr, work);
  };
  host.hash = [&](const Node& n) { return w.hash(n); };
  host.poll = [&](std::uint64_t nodes) {
    s.nodes.fetch_add(nodes, std::memory_order_relaxed);
    w.flush();
    return s.stop.load(std::memory_order_relaxed);
  };
  host.root_move = [&](SearchMove m, bool wins) {
    for (RootMove& rm : s.root_moves) {
      if (rm.move.from == m.from && rm.move.to == m.to) rm.state.store(wins ? 2 : 1);
    }
  };
  ProofNumberSearch search(s.board, s.knowledge.threats, s.knowledge.ordering, numbers_bytes,
                           std::move(host));
  search.prove(root);
  w.flush();
}

}  // namespace

std::string root_first_problem(const Position& root, const std::vector<Move>& root_first) {
  const MoveList legal = legal_moves(root);
  for (auto m = root_first.begin(); m != root_first.end(); ++m) {
    if (std::find(root_first.begin(), m, *m) != m) return move_name(root.geometry, *m) + " given twice";
    if (std::find(legal.begin(), legal.end(), *m) == legal.end()) {
      return move_name(root.geometry, *m) + " is not a move of the root";
    }
  }
  return {};
}

SolveResult solve(const Position& root, const SolveOptions& options,
                  const SearchProgressCallback& progress) {
  const Status status = classify(root);
  if (status == Status::invalid) throw std::invalid_argument("invalid position");
  if (!options.certificate.empty()) search_detail::ProofList::check_keys(root);
  if (std::string problem = root_first_problem(root, options.root_first); !problem.empty()) {
    throw std::invalid_argument("root_first: " + problem);
  }
  const auto start = std::chrono::steady_clock::now();
  const auto seconds = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  // A saved state: its root must be this one, and its table's size is kept.
  std::optional<search_detail::SearchStateHeader> saved;
  if (!options.state.empty()) saved = search_detail::read_state_header(options.state);
  std::uint64_t tt_bytes = options.memory_bytes ? options.memory_bytes : kDefaultMemory;
  if (saved) {
    if (saved->root != root) {
      throw std::invalid_argument(options.state.string() + " is the state of another search (" +
                               format_position(saved->root) + ")");
    }
    if (options.memory_bytes && TranspositionTable::bytes_for(options.memory_bytes) !=
                                    saved->tt_bytes) {
      throw std::invalid_argument(options.state.string() + " holds a table of " +
                               std::to_string(saved->tt_bytes) +
                               " bytes; the memory asked for makes one of " +
                               std::to_string(TranspositionTable::bytes_for(options.memory_bytes)));
    }
    tt_bytes = saved->tt_bytes;
  }
  Shared s(root.geometry, options, tt_bytes);
  SolveResult result;
  const std::uint64_t numbers_bytes =
      options.numbers_memory_bytes ? options.numbers_memory_bytes : tt_bytes / 2;
  if (options.algorithm == Algorithm::proof_numbers) result.numbers_bytes = numbers_bytes;
  if (saved) {
    search_detail::load_state(options.state, s.tt);
    result.resumed = true;
  }
  const std::uint64_t nodes_before = saved ? saved->nodes : 0;
  const double seconds_before = saved ? saved->seconds : 0;
  auto last_save = std::chrono::steady_clock::now();
  const auto save = [&] {
    search_detail::save_state(
        options.state, {root, nodes_before + s.nodes.load(), seconds_before + seconds(), 0}, s.tt);
    ++result.states_saved;
    last_save = std::chrono::steady_clock::now();
  };
  open_tables(s, root.geometry, options.tables, options.open_tables, result);
  const Node r = node_of(s.board, root);
  const Side mover = root.to_move;
  bool mover_wins = false;
  {
    Worker main(s);
    SearchMove best{};
    // The root's own rules first: a game over, a win in one, a table, a race.
    const std::optional<bool> known =
        status == Status::over ? std::optional<bool>(false) : main.settle(r, &best);
    if (known) {
      mover_wins = *known;
      if (mover_wins && !main.covered(r)) {
        result.has_best_move = true;
        result.best_move = {best.from, best.to};
      }
    } else {
      SearchMoves list;
      s.board.moves(r, s.knowledge.ordering, list);
      if (options.root_seed != 0) {  // another order: a second proof of the same answer
        std::mt19937_64 rng(options.root_seed);
        std::shuffle(list.moves.begin(), list.moves.begin() + list.size, rng);
      }
      // The guesses first, in their order; the rest keep theirs.
      for (std::size_t k = 0; k < options.root_first.size(); ++k) {
        const Move want = options.root_first[k];
        const auto end = list.moves.begin() + list.size;
        const auto at = std::find_if(list.moves.begin() + static_cast<std::ptrdiff_t>(k), end,
                                     [&](SearchMove m) { return m.from == want.from && m.to == want.to; });
        if (at == end) throw std::logic_error("a legal root move not generated");
        std::rotate(list.moves.begin() + static_cast<std::ptrdiff_t>(k), at, at + 1);
      }
      s.root_moves = std::vector<RootMove>(static_cast<std::size_t>(list.size));
      for (int i = 0; i < list.size; ++i) {
        s.root_moves[i].move = list.moves[i];
        if (main.hopeless(s.board.play(r, list.moves[i]))) s.root_moves[i].state = 1;
      }
      // The workers split the root's moves (util's pool, on a thread of its
      // own), while this thread reports progress until they are done.
      const unsigned threads = options.algorithm == Algorithm::proof_numbers
                                   ? 1
                                   : util::thread_count(options.threads);
      result.threads = threads;
      std::mutex mutex;
      std::condition_variable done_cv;
      bool done = false;
      std::optional<util::BackgroundTask> search;
      search.emplace([&] {
        try {
          if (options.algorithm == Algorithm::proof_numbers) {
            prove_by_numbers(s, r, numbers_bytes);
          } else {
            util::parallel_for("solve", threads, threads, [&](std::uint64_t, unsigned) {
              try {
                Worker w(s);
                w.run_root(r);
              } catch (...) {
                s.stop.store(true);  // the others stop too; parallel_for rethrows the first
                throw;
              }
            });
          }
        } catch (...) {
          std::lock_guard lock(mutex);
          done = true;
          done_cv.notify_all();
          throw;
        }
        std::lock_guard lock(mutex);
        done = true;
        done_cv.notify_all();
      });
      {
        std::unique_lock lock(mutex);
        const auto wake = options.state.empty()
                              ? options.progress_every
                              : std::min<std::chrono::milliseconds>(options.progress_every,
                                                                    options.save_every);
        auto last_progress = std::chrono::steady_clock::now();
        while (!done_cv.wait_for(lock, wake, [&] { return done; })) {
          const auto now = std::chrono::steady_clock::now();
          if (!options.state.empty() && now - last_save >= options.save_every) {
            lock.unlock();
            try {
              save();
            } catch (...) {  // the workers stop; the error is this call's
              s.stop.store(true);
              search->join();
              throw;
            }
            lock.lock();
          }
          if (!progress || now - last_progress < options.progress_every) continue;
          last_progress = now;
          SearchProgress p;
          p.nodes = nodes_before + s.nodes.load();
          p.seconds = seconds_before + seconds();
          p.nodes_per_second = p.seconds > 0 ? static_cast<double>(p.nodes) / p.seconds : 0;
          p.table_fill = static_cast<double>(s.tt.used()) / static_cast<double>(s.tt.entries());
          p.root_moves = list.size;
          for (const RootMove& m : s.root_moves) {
            p.root_moves_proven += m.state.load() == 2;
            p.root_moves_refuted += m.state.load() == 1;
            if (m.state.load() == 0 && m.helpers.load() > 0) {
              p.root_moves_searching.push_back({m.move.from, m.move.to});
            }
          }
          lock.unlock();
          progress(p);
          lock.lock();
        }
      }
      search->join();
      for (const RootMove& m : s.root_moves) {
        if (m.state.load() == 2) {
          mover_wins = true;
          result.has_best_move = true;
          result.best_move = {m.move.from, m.move.to};
          break;
        }
      }
    }
    main.flush();
  }
  result.winner = mover_wins ? mover : opponent(mover);
  result.nodes = nodes_before + s.nodes.load();
  result.table_probes = s.probes.load();
  result.seconds = seconds_before + seconds();
  result.tt_bytes = s.tt.bytes();
  result.tt_entries = s.tt.entries();
  result.tt_used = s.tt.used();
  // A run stopped in the distance's search or the certificate's walk need
  // not search again.
  if (!options.state.empty() && (options.distance || !options.certificate.empty())) save();
  // The walk first, while the table holds the search's own proof: the
  // distance's questions replace its entries, and a walk after them
  // searches again and lists a larger proof (8x6: 45 M positions against 9.7 M).
  if (!options.certificate.empty()) {
    s.stop.store(false);
    Worker w(s);
    const std::uint64_t available = util::available_memory();  // 0: unknown
    const std::uint64_t walk_memory =
        options.certificate_memory_bytes ? options.certificate_memory_bytes
        : available                      ? available / 4 * 3
                                         : ~std::uint64_t{0};
    ProofWalk walk(s, w, root, result.winner == Side::white, walk_memory);
    SearchProgress p;
    p.decided = true;
    p.winner = result.winner;
    p.writing_certificate = true;
    p.nodes = result.nodes;
    p.table_fill = static_cast<double>(result.tt_used) / static_cast<double>(result.tt_entries);
    p.root_moves = static_cast<int>(s.root_moves.size());
    for (const RootMove& m : s.root_moves) {
      p.root_moves_proven += m.state.load() == 2;
      p.root_moves_refuted += m.state.load() == 1;
    }
    auto last_progress = std::chrono::steady_clock::now();
    const auto listed = [&](std::uint64_t n) {
      const auto now = std::chrono::steady_clock::now();
      if (!progress || now - last_progress < options.progress_every) return;
      last_progress = now;
      p.seconds = seconds_before + seconds();
      p.certificate_positions = n;
      progress(p);
    };
    // With --resume, the walk is saved beside the state (FILE.walk) with
    // the table, whose entries its searches add to, every save_every; a
    // walk that ended is kept too, so that a kill in the distance's search
    // does not walk again.
    const std::filesystem::path walk_file =
        options.state.empty() ? std::filesystem::path()
                              : std::filesystem::path(options.state.string() + ".walk");
    auto last_walk_save = std::chrono::steady_clock::now();
    // Before each position visited and every 1,024 nodes of the searches
    // the walk asks for: progress, even while one search takes minutes, and
    // the walk's save.
    const auto checkpoint = [&] {
      listed(walk.list().size());
      const auto now = std::chrono::steady_clock::now();
      if (walk_file.empty() || now - last_walk_save < options.save_every) return;
      save();
      search_detail::save_walk(walk_file, root, walk.list(), walk.to_visit());
      last_walk_save = now;
    };
    bool listed_all = true;
    std::uint64_t listed_before = 0;  // a saved walk too large to read: what it lists
    try {
      if (!walk_file.empty()) {
        // One too large for walk_memory is a proof too large, as when it
        // grew so; the file stays for a run with more memory.
        if (auto part = search_detail::load_walk(walk_file, root, s.board, walk.list())) {
          if (part->too_large) {
            listed_before = part->listed_in_file;
            throw ProofWalk::TooLarge{};
          }
          walk.restore(std::move(part->to_visit));
        }
      }
      s.checkpoint = checkpoint;
      walk.walk(r, checkpoint);
      s.checkpoint = nullptr;
      if (!walk_file.empty()) search_detail::save_walk(walk_file, root, walk.list(), {});
    } catch (const ProofWalk::TooLarge&) {
      s.checkpoint = nullptr;
      listed_all = false;
      result.certificate_error = "the proof has more than " +
                                 std::to_string(std::max<std::uint64_t>(walk.list().size(),
                                                                        listed_before)) +
                                 " positions of the winner to move, more than " +
                                 std::to_string(walk_memory >> 20) +
                                 " MiB of memory can list (about 20 bytes each)";
    }
    w.flush();
    result.certificate_positions = std::max<std::uint64_t>(walk.list().size(), listed_before);
    if (listed_all) {
      search_detail::CertificateHeader header{root, result.winner, s.table_pawns,
                                              s.table ? check::file_checksum(result.table) : 0};
      result.certificate_bytes =
          search_detail::write_certificate(options.certificate, header, walk.list());
    }
  }
  if (options.distance) {
    s.stop.store(false);  // set when the search's root move won
    Worker w(s);
    search_detail::DistanceSearch distance(
        s.board, result.winner == Side::white, s.table, s.table_pawns, s.knowledge.symmetry,
        std::min(tt_bytes, kDistanceMemory),
        [&](const Node& n, SearchMove* best, std::uint64_t budget) {
          if (const std::optional<bool> k = w.settle(n, best)) return k;
          if (budget == 0) return std::optional<bool>();
          return w.wins_within(n, best, budget);
        });
    // With --resume, the bounds proven so far are saved beside the state
    // (FILE.distance) each time they narrow and every save_every, with the
    // distance's nodes and seconds, and a run goes on from them.
    const std::filesystem::path distance_file =
        options.state.empty() ? std::filesystem::path()
                              : std::filesystem::path(options.state.string() + ".distance");
    std::optional<search_detail::DistanceState> saved_distance;
    if (!distance_file.empty()) saved_distance = search_detail::load_distance(distance_file, root);
    if (saved_distance && saved_distance->winner != result.winner) {
      throw std::invalid_argument(distance_file.string() + " is the distance of a win of " +
                                  side_name(saved_distance->winner) + ", but " +
                                  side_name(result.winner) + " wins");
    }
    const std::uint64_t distance_nodes_before = saved_distance ? saved_distance->nodes : 0;
    const std::uint64_t distance_seconds_before = saved_distance ? saved_distance->seconds : 0;
    const auto distance_start = std::chrono::steady_clock::now();
    const auto distance_seconds = [&] {
      return distance_seconds_before + static_cast<std::uint64_t>(std::chrono::duration_cast<
                                           std::chrono::seconds>(std::chrono::steady_clock::now() -
                                                                 distance_start)
                                           .count());
    };
    // distance_time counts the parts before this one too.
    const std::uint64_t time_limit = static_cast<std::uint64_t>(options.distance_time.count());
    const auto deadline =
        time_limit > 0 ? distance_start + std::chrono::seconds(time_limit -
                                                               std::min(time_limit,
                                                                        distance_seconds_before))
                       : std::chrono::steady_clock::time_point::max();
    std::optional<search_detail::DistanceBounds> before, kept;
    if (saved_distance) before = kept = saved_distance->bounds;
    s.deadline = deadline;  // also the searches the distance asks for
    auto last_distance_save = distance_start;
    // Saves when the bounds narrowed, every save_every, and at the end.
    const auto keep = [&](const search_detail::DistanceBounds& b, bool at_end) {
      const auto now = std::chrono::steady_clock::now();
      if (distance_file.empty() ||
          (kept && b.lower == kept->lower && b.upper == kept->upper &&
           b.upper_found == kept->upper_found && now - last_distance_save < options.save_every &&
           !at_end)) {
        return;
      }
      search_detail::save_distance(
          distance_file, root,
          {result.winner, b, distance_nodes_before + distance.nodes(), distance_seconds()});
      kept = b;
      last_distance_save = now;
    };
    auto last_progress = std::chrono::steady_clock::now();
    search_detail::DistanceBounds b, so_far;
    if (before) so_far = *before;
    const auto report = [&] {
      const auto now = std::chrono::steady_clock::now();
      if (!progress || now - last_progress < options.progress_every) return;
      last_progress = now;
      SearchProgress p;
      p.nodes = result.nodes;
      p.seconds = seconds_before + seconds();
      p.distance_searched = true;
      p.decided = true;
      p.winner = result.winner;
      p.plies_lower = so_far.lower;
      p.plies_upper = so_far.upper;
      p.plies_upper_found = so_far.upper_found;
      p.distance_nodes = distance_nodes_before + distance.nodes();
      progress(p);
    };
    try {
      b = distance.solve(
          r, deadline,
          [&](const search_detail::DistanceBounds& bounds) {
            keep(bounds, false);
            so_far = bounds;
            report();
          },
          before);
    } catch (const std::invalid_argument& e) {  // bounds saved that do not fit the root
      throw std::invalid_argument(distance_file.string() + ": " + e.what());
    }
    keep(b, true);
    s.deadline = std::chrono::steady_clock::time_point::max();
    result.plies_lower = b.lower;
    result.plies_upper = b.upper;
    result.plies_upper_found = b.upper_found;
    result.distance_nodes = distance_nodes_before + distance.nodes();
  }
  return result;
}

}  // namespace pawntb::search
