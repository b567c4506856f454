// pawntb search: proving who wins a pawn-chess position by search, for boards
// whose tables are too large to build (docs/search.md), with tables of fewer
// pawns as leaves and certificates that `pawntb check-proof` replays.
//
//   pawntb::search::SolveOptions o;
//   o.threads = 2;
//   auto r = pawntb::search::solve(pawntb::start_position({6, 6}, 6), o);
//   // r.winner == Side::black
//
// THREADS. solve() may be called from any thread; it runs `threads` workers (df-pn: one)
// of its own (by default one per hardware thread, as generate() and
// `pawntb solve --threads` count them) and returns when they have stopped.
// Distinct calls share nothing. ERRORS. solve() throws std::invalid_argument
// for a position that is invalid, and naming the file for a state that is
// damaged or belongs to another search; pawntb::TableError for a table that
// cannot be opened or cannot answer a position it covers (a damaged block), std::bad_alloc when the transposition table cannot be
// allocated, and std::system_error when the certificate or the state cannot
// be written. Nothing here prints, exits or aborts.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "pawntb/position.hpp"

namespace pawntb {
class Table;
}

namespace pawntb::search {

// The game knowledge the search uses, each piece switchable so that the
// benchmark can measure what it buys (docs/search.md derives each rule).
struct Knowledge {
  bool win_in_one = true;   // a pawn one step from its goal that can move: a win
  bool threats = true;      // a reply that leaves the opponent a win in one loses: not searched
  bool unstoppable = true;  // a pawn no enemy can block or capture, and faster than any enemy
  bool ordering = true;     // captures first, then the moves that won most work (history)
  bool lookahead = true;    // before searching any reply, settle each by the rules and the TT
  bool symmetry = true;     // a position and its mirror image share a TT entry
  static Knowledge none() { return {false, false, false, false, false, false}; }
};

// How solve() searches (docs/search.md): both prove the same facts into
// the same table of proven results, so a certificate, the distance and a
// saved state work alike with either, and a state saved by one resumes
// with the other.
enum class Algorithm {
  depth_first,    // boolean depth-first search; `threads` workers split the root's moves
  proof_numbers,  // df-pn, on one thread, guided by proof and disproof numbers
};

struct SolveOptions {
  // Table files whose positions are answered by a probe (leaves): those of
  // the position's board size are used, the one with the largest K when
  // several are given. Empty: no tables.
  std::vector<std::filesystem::path> tables;
  // Tables already open, used as `tables` are: for many solve() calls that
  // share them (opening a table reads it). Borrowed: each must outlive the
  // call; probing an open Table from several threads is safe.
  std::vector<const Table*> open_tables;
  // Bytes the transposition table holds at most (whole 64-byte buckets, a
  // power of two of them, at least one); 0: 64 MiB. Full, it replaces the
  // entry of least work in a bucket; it never grows.
  std::uint64_t memory_bytes = 0;
  unsigned threads = 0;  // workers; 0 (the default): one per hardware thread
  Algorithm algorithm = Algorithm::depth_first;
  // With Algorithm::depth_first: 0 takes the root's moves in the usual
  // order (captures, then the pawns nearest their goal); another value
  // shuffles them by this seed, so that a second run searches the tree in
  // another order and proves the answer a second way.
  std::uint64_t root_seed = 0;
  // With Algorithm::depth_first: these root moves first, in this order,
  // before the others (after the shuffle of root_seed): a guess of the
  // winning move, which spares the search the refutation of the moves it
  // would try before it. Each must be a legal move of the root, given once
  // (checked also when the rules settle the root, which then leave it unused).
  std::vector<Move> root_first;
  // With Algorithm::proof_numbers: bytes of its table of proof numbers,
  // beside the transposition table; 0: half of memory_bytes.
  std::uint64_t numbers_memory_bytes = 0;
  Knowledge knowledge;
  // How often the progress callback is called.
  std::chrono::milliseconds progress_every{1000};
  // Where to write the certificate (docs/certificate.md); empty: none.
  std::filesystem::path certificate;
  // What the walk that writes the certificate may hold beside the
  // transposition table (40 bytes a listed position); 0: three quarters of
  // the memory available when it starts. A proof that needs more is not
  // written (SolveResult::certificate_error); the answer stands.
  std::uint64_t certificate_memory_bytes = 0;
  // Where the search saves its state (the transposition table and the work
  // done) every `save_every`, atomically; empty: nowhere. When the file
  // exists, the search goes on from it: its root must be this one, and its
  // table size is kept (memory_bytes, when not 0, must equal it). A search
  // killed at any moment thus loses at most the last interval
  // (docs/search.md, "Resume").
  std::filesystem::path state;
  std::chrono::seconds save_every{300};
  // Also prove the start's distance (docs/search.md, "Distance"): the
  // plies to the end when the winner hurries and the loser holds out, or
  // what bounds of it `distance_time` allowed (0: no limit; with `state`,
  // the seconds of the parts before a stop count too). Its table of
  // bounds takes memory_bytes again, at most 1 GiB.
  bool distance = false;
  std::chrono::seconds distance_time{0};
};

// A progress report of a running solve().
struct SearchProgress {
  std::uint64_t nodes = 0;
  double seconds = 0;
  double nodes_per_second = 0;
  double table_fill = 0;       // used share of the transposition table's entries, 0..1
  int root_moves = 0;          // legal moves of the root position
  int root_moves_proven = 0;   // root moves proven to win for the side to move
  int root_moves_refuted = 0;  // root moves proven to lose for the side to move
  std::vector<Move> root_moves_searching;  // the open root moves workers are on
  // After the search (decided), while the certificate is written and the
  // distance searched: the search's answer.
  bool decided = false;
  Side winner = Side::white;
  // After the search, while the distance is searched (distance_searched):
  // the bounds proven so far, plies_upper only when plies_upper_found, and
  // the nodes of the distance's searches so far.
  bool distance_searched = false;
  int plies_lower = 0, plies_upper = 0;
  bool plies_upper_found = false;
  std::uint64_t distance_nodes = 0;
  // After the search, while the certificate is written (writing_certificate):
  // the winner-to-move positions listed so far (the search's fields keep
  // their final values); 0 while searching.
  bool writing_certificate = false;
  std::uint64_t certificate_positions = 0;
};
// Called from the thread that called solve(), never concurrently; must not throw.
using SearchProgressCallback = std::function<void(const SearchProgress&)>;

struct SolveResult {
  Side winner = Side::white;
  bool has_best_move = false;      // the side to move wins and had a move to play
  Move best_move;                  // a winning move of the side to move
  std::uint64_t nodes = 0;         // positions searched (every thread, every part)
  std::uint64_t table_probes = 0;  // positions answered by a table
  double seconds = 0;                       // wall time of every part
  bool resumed = false;                     // went on from a saved state
  std::uint64_t states_saved = 0;           // times the state was saved in this part
  std::uint64_t tt_bytes = 0;               // the transposition table's size
  std::uint64_t tt_entries = 0;             // its entries
  std::uint64_t tt_used = 0;                // entries holding a position at the end
  unsigned threads = 0;                     // workers that searched (df-pn: 1; 0: none needed)
  std::uint64_t numbers_bytes = 0;          // df-pn's table of proof numbers; 0 without
  std::filesystem::path table;              // the table used as leaves; empty: none
  int table_pawns = 0;                      // its K
  // With SolveOptions::distance: plies_lower <= the root's value, and
  // when plies_upper_found (a line within it was found before the time ran
  // out) the value <= plies_upper; exact when they meet. 0 without.
  int plies_lower = 0, plies_upper = 0;
  bool plies_upper_found = false;
  std::uint64_t distance_nodes = 0;
  std::uint64_t certificate_positions = 0;  // winner-to-move positions in the certificate
  std::uint64_t certificate_bytes = 0;
  // Why the certificate asked for was not written (it needs more memory
  // than certificate_memory_bytes; certificate_positions is then what was
  // listed before the walk stopped); empty when written or not asked for.
  std::string certificate_error;
};

// Proves who wins `root` (any valid position, either side to move; a game
// already over is lost by the side to move). See the top of this file for
// threads and errors (root_first_problem(), below, is an
// std::invalid_argument).
SolveResult solve(const Position& root, const SolveOptions& options,
                  const SearchProgressCallback& progress = {});

// Why `root_first` cannot be SolveOptions::root_first for `root` ("a1a2
// given twice", "b1c2 is not a move of the root"); empty when it can. For a
// caller that checks its input before a solve(), which throws
// std::invalid_argument with the same words. Any thread.
std::string root_first_problem(const Position& root, const std::vector<Move>& root_first);

}  // namespace pawntb::search
