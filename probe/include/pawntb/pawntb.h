/* pawntb C API: open a table, probe positions given as text, read best moves,
 * the principal variation and the table's facts. For C programs and other
 * languages' bindings.
 *
 *   pawntb_table* t = NULL;
 *   char err[256];
 *   if (pawntb_open(NULL, &t, err, sizeof err) != PAWNTB_OK) { puts(err); return 1; }
 *   pawntb_result r;
 *   if (pawntb_probe(t, ".ppp/4/.PPP/4 w", &r, err, sizeof err) == PAWNTB_OK)
 *     printf("%s in %d (dtm %d)\n", r.winner == PAWNTB_WHITE ? "white" : "black", r.plies, r.dtm);
 *   pawntb_close(t);
 *
 * THREADS: a pawntb_table may be probed from many threads at once; open and
 * close are not concurrent with other calls on the same table. The calls that
 * take no table are thread-safe.
 * ERRORS: every call returns a pawntb_status; on failure it writes a message
 * (truncated, always NUL-terminated) into err when err is not NULL. Nothing
 * prints, exits or aborts. */
#ifndef PAWNTB_PAWNTB_H
#define PAWNTB_PAWNTB_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pawntb_table pawntb_table;

typedef enum pawntb_status {
  PAWNTB_OK = 0,
  PAWNTB_ERROR_TABLE = 1,    /* the table cannot be opened or is damaged */
  PAWNTB_ERROR_POSITION = 2, /* bad notation, or a position the table does not cover */
  PAWNTB_ERROR_ARGUMENT = 3, /* a NULL pointer where one is not allowed (the message names
                                it), a buffer too small, a board size outside 3..8 */
  PAWNTB_ERROR_MEMORY = 4
} pawntb_status;

enum { PAWNTB_NONE = -1, PAWNTB_WHITE = 0, PAWNTB_BLACK = 1 };

/* Why a game is over (pawntb_result.reason), as the JSON's "reason" says it. */
typedef enum pawntb_end {
  PAWNTB_END_NONE = 0,     /* the game goes on (plies > 0), or the call failed */
  PAWNTB_END_GOAL = 1,     /* "goal": the opponent has a pawn on its goal row */
  PAWNTB_END_NO_PAWNS = 2, /* "no_pawns": the side to move has no pawns left */
  PAWNTB_END_NO_MOVES = 3  /* "no_moves": it has pawns, but none can move */
} pawntb_end;

typedef struct pawntb_result {
  int winner; /* PAWNTB_WHITE or PAWNTB_BLACK; PAWNTB_NONE when the call failed */
  int plies;  /* 0..2*K*(rows-1): plies to the end with best play; 0 = the game is over;
                 -1 when the call failed */
  int dtm;    /* signed, as the lichess API's dtm: plies when the side to move wins,
                 -plies when it loses; 0 when the game is over or the call failed */
  int reason; /* a pawntb_end: why the game is over when plies is 0, else PAWNTB_END_NONE */
  pawntb_status status; /* PAWNTB_OK, or why this position has no value */
} pawntb_result;

typedef struct pawntb_move {
  char uci[8]; /* e.g. "b2c3", NUL-terminated */
  int winner;  /* winner after the move */
  int plies;   /* plies left after the move */
  int dtm;     /* signed, for the side to move after the move (the opponent) */
} pawntb_move;

/* Bytes a position's text needs at most, with its NUL: 8 rows of 8, 7 '/',
 * a space, the side to move and the NUL (74), rounded up. */
#define PAWNTB_POSITION_MAX 80

/* The facts of an open table (its header). */
typedef struct pawntb_info {
  int rows, cols; /* geometry, 3..8 each */
  int max_pawns;  /* K, pawns a side */
  int format_version;
  int longest_game_plies;                         /* the longest game in the table */
  char longest_game_example[PAWNTB_POSITION_MAX]; /* a position with that value */
  uint64_t entries;                               /* indexed white-to-move positions */
  uint64_t placements;                            /* placements of 0..K pawns a side */
  uint64_t white_wins;                            /* entries won by white, to move */
  uint64_t file_size;                             /* bytes */
  uint64_t header_checksum;                       /* XXH3-64 of the header */
  uint64_t index_checksum;                        /* XXH3-64 of the block index */
} pawntb_info;

/* The library's version, e.g. "0.1.0" (a static string). Thread-safe. */
const char* pawntb_version(void);

/* Opens the table at path, or the default table when path is NULL: the file
 * $PAWNTB_TABLE names, else the 4x4 table found along the search path, which
 * pawntb_search_path() gives (pawntb::Table::search_path() in probe.hpp is
 * the one description of it: $PAWNTB_TABLE, ".", "data", then the installed
 * data directory <prefix>/share/pawntb). */
pawntb_status pawntb_open(const char* path, pawntb_table** out, char* err, size_t err_size);

/* Opens the table for boards of rows x cols (3..8 each): in each directory of
 * search_path in turn, the file RxC-kK.pawntb with the largest K
 * ("3x3-k3.pawntb"). search_path lists directories separated by ':', as
 * $PATH or Syzygy's SyzygyPath ("/opt/pawntb:tables"); NULL means the default
 * search path (pawntb_search_path()). PAWNTB_ERROR_TABLE names the
 * directories when none has a table; PAWNTB_ERROR_ARGUMENT for a size
 * outside 3..8. */
pawntb_status pawntb_open_for(int rows, int cols, const char* search_path, pawntb_table** out,
                              char* err, size_t err_size);

/* The default search path, its directories separated by ':', into out
 * (NUL-terminated). PAWNTB_ERROR_ARGUMENT, with out_size needed in err, when
 * it does not fit. */
pawntb_status pawntb_search_path(char* out, size_t out_size, char* err, size_t err_size);

/* Frees the table. NULL is allowed. */
void pawntb_close(pawntb_table* table);

/* The value of a position in pawntb notation, e.g. ".ppp/4/.PPP/4 w". On
 * failure *out (when out is not NULL) is {PAWNTB_NONE, -1, 0, PAWNTB_END_NONE,
 * status}. A position of another board size than the table's, or with more
 * pawns than its K, is PAWNTB_ERROR_POSITION with both in the message. */
pawntb_status pawntb_probe(const pawntb_table* table, const char* position, pawntb_result* out,
                           char* err, size_t err_size);

/* pawntb_probe() of each of positions[0..count) into results[0..count),
 * faster than one call each (the table lookups overlap). Every result is
 * written, with its own status. Returns PAWNTB_OK when every position has a
 * value, else the status of the first that has none, with a message
 * "position I: ..." (I counted from 0). count 0 is allowed (then positions
 * and results may be NULL). */
pawntb_status pawntb_probe_many(const pawntb_table* table, const char* const* positions,
                                size_t count, pawntb_result* results, char* err,
                                size_t err_size);

/* Every legal move with its value, best first. Writes min(count, capacity)
 * moves to moves (which may be NULL when capacity is 0) and the number of
 * legal moves to *count: at most 10 with the 4x4 table (4 pawns, the edge
 * ones with one capture each). On failure *count is 0. */
pawntb_status pawntb_best_moves(const pawntb_table* table, const char* position, pawntb_move* moves,
                                size_t capacity, size_t* count, char* err, size_t err_size);

/* The principal variation: best play to the end of the game, value.plies
 * moves. Writes min(count, capacity) moves to moves (which may be NULL when
 * capacity is 0), each with the value after it, and the length to *count
 * (at most 2*K*(rows-1)). On failure *count is 0. */
pawntb_status pawntb_principal_variation(const pawntb_table* table, const char* position,
                                         pawntb_move* moves, size_t capacity, size_t* count,
                                         char* err, size_t err_size);

/* The start of a game on the table's board with its K pawns a side, white to
 * move ("pppp/4/4/PPPP w" for the 4x4 table), into out (NUL-terminated;
 * PAWNTB_POSITION_MAX bytes always suffice). */
pawntb_status pawntb_start_position(const pawntb_table* table, char* out, size_t out_size,
                                    char* err, size_t err_size);

/* The position reached by playing moves, UCI separated by commas and/or
 * spaces ("c2c3,b4c3"; "" plays none), from position, into out. Needs no
 * table. PAWNTB_ERROR_POSITION when the position is bad or a move is not
 * legal, the message naming the move ("move 2: b4b2: ..."). */
pawntb_status pawntb_play(const char* position, const char* moves, char* out, size_t out_size,
                          char* err, size_t err_size);

/* The table's facts into *out. */
pawntb_status pawntb_table_info(const pawntb_table* table, pawntb_info* out, char* err,
                                size_t err_size);

#ifdef __cplusplus
}
#endif

#endif /* PAWNTB_PAWNTB_H */
