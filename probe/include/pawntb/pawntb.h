/* pawntb C API: open a table, probe positions given as text, read best moves,
 * the principal variation and the table's facts. For C programs and other
 * languages' bindings.
 *
 *   pawntb_table* t = NULL;
 *   char err[256];
 *   if (pawntb_open(NULL, &t, err, sizeof err) != PAWNTB_OK) { puts(err); return 1; }
 *   pawntb_result r;
 *   if (pawntb_probe(t, ".ppp/4/.PPP/4 w", &r, err, sizeof err) == PAWNTB_OK)
 *     printf("%s in %d\n", r.winner == PAWNTB_WHITE ? "white" : "black", r.plies);
 *   pawntb_close(t);
 *
 * THREADS: a pawntb_table may be probed from many threads at once; open and
 * close are not concurrent with other calls on the same table.
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
  PAWNTB_ERROR_ARGUMENT = 3, /* a NULL pointer where one is not allowed */
  PAWNTB_ERROR_MEMORY = 4
} pawntb_status;

enum { PAWNTB_NONE = -1, PAWNTB_WHITE = 0, PAWNTB_BLACK = 1 };

typedef struct pawntb_result {
  int winner; /* PAWNTB_WHITE or PAWNTB_BLACK; PAWNTB_NONE when the call failed */
  int plies;  /* 0..2*K*(rows-1): plies to the end with best play; 0 = the game is over;
                 -1 when the call failed */
} pawntb_result;

typedef struct pawntb_move {
  char uci[8]; /* e.g. "b2c3", NUL-terminated */
  int winner;  /* winner after the move */
  int plies;   /* plies left after the move */
} pawntb_move;

/* The facts of an open table (its header). */
typedef struct pawntb_info {
  int rows, cols; /* geometry, 3..8 each */
  int max_pawns;  /* K, pawns a side */
  int format_version;
  int max_plies;            /* the longest game in the table */
  uint64_t entries;         /* indexed white-to-move positions */
  uint64_t placements;      /* placements of 0..K pawns a side */
  uint64_t white_wins;      /* entries won by white, to move */
  uint64_t file_size;       /* bytes */
  uint64_t header_checksum; /* XXH3-64 of the header */
  uint64_t index_checksum;  /* XXH3-64 of the block index */
} pawntb_info;

/* The library's version, e.g. "0.1.0" (a static string). Thread-safe. */
const char* pawntb_version(void);

/* Opens the table at path, or the default table when path is NULL
 * ($PAWNTB_TABLE, then the installed data directory, then the source tree). */
pawntb_status pawntb_open(const char* path, pawntb_table** out, char* err, size_t err_size);

/* Frees the table. NULL is allowed. */
void pawntb_close(pawntb_table* table);

/* The value of a position in pawntb notation, e.g. ".ppp/4/.PPP/4 w". On
 * failure *out (when out is not NULL) is {PAWNTB_NONE, -1}. */
pawntb_status pawntb_probe(const pawntb_table* table, const char* position, pawntb_result* out,
                           char* err, size_t err_size);

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

/* The table's facts into *out. */
pawntb_status pawntb_table_info(const pawntb_table* table, pawntb_info* out, char* err,
                                size_t err_size);

#ifdef __cplusplus
}
#endif

#endif /* PAWNTB_PAWNTB_H */
