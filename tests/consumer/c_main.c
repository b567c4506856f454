/* Uses the installed C API: opens the table given as argv[1], or without one
 * the default table (pawntb_open(NULL): the installed package's 4x4 table,
 * wherever the program runs), probes the
 * starting position of UVa 10838's first sample, reads its best moves and
 * principal variation, the table's facts and the version, and checks that bad
 * text is refused with a message and failure values. */
#include <stdio.h>
#include <string.h>

#include "pawntb/pawntb.h"

static const char* side(int winner) {
  return winner == PAWNTB_WHITE ? "white" : winner == PAWNTB_BLACK ? "black" : "?";
}

int main(int argc, char** argv) {
  pawntb_table* table = NULL;
  char err[256];
  pawntb_result r, bad;
  pawntb_move moves[10], line[32];
  pawntb_info info;
  size_t count = 0, line_count = 0;
  pawntb_status s;
  int failed = 0;

  if (argc > 2) {
    fprintf(stderr, "usage: c_consumer [TABLE]\n");
    return 2;
  }
  s = pawntb_open(argc == 2 ? argv[1] : NULL, &table, err, sizeof err);
  if (s != PAWNTB_OK) {
    fprintf(stderr, "pawntb_open: status %d: %s\n", (int)s, err);
    return 1;
  }

  s = pawntb_probe(table, ".ppp/4/.PPP/4 w", &r, err, sizeof err);
  if (s != PAWNTB_OK) {
    fprintf(stderr, "pawntb_probe: status %d: %s\n", (int)s, err);
    failed = 1;
  } else if (r.winner != PAWNTB_WHITE || r.plies != 7) {
    fprintf(stderr, "pawntb_probe: expected white in 7, got %s in %d\n", side(r.winner), r.plies);
    failed = 1;
  }

  s = pawntb_best_moves(table, ".ppp/4/.PPP/4 w", moves, sizeof moves / sizeof moves[0], &count,
                        err, sizeof err);
  if (s != PAWNTB_OK) {
    fprintf(stderr, "pawntb_best_moves: status %d: %s\n", (int)s, err);
    failed = 1;
  } else if (count == 0) {
    fprintf(stderr, "pawntb_best_moves: no moves\n");
    failed = 1;
  } else if (moves[0].winner != PAWNTB_WHITE || moves[0].plies != 6) {
    fprintf(stderr, "pawntb_best_moves: best %s gives %s in %d, expected white in 6\n",
            moves[0].uci, side(moves[0].winner), moves[0].plies);
    failed = 1;
  }

  err[0] = '\0';
  s = pawntb_probe(table, "xyz w", &bad, err, sizeof err);
  if (s != PAWNTB_ERROR_POSITION) {
    fprintf(stderr, "pawntb_probe(\"xyz w\"): expected PAWNTB_ERROR_POSITION, got %d\n", (int)s);
    failed = 1;
  } else if (strlen(err) == 0) {
    fprintf(stderr, "pawntb_probe(\"xyz w\"): empty error message\n");
    failed = 1;
  } else if (bad.winner != PAWNTB_NONE || bad.plies != -1) {
    fprintf(stderr, "pawntb_probe(\"xyz w\"): failure gave winner %d, plies %d\n", bad.winner,
            bad.plies);
    failed = 1;
  }

  s = pawntb_principal_variation(table, ".ppp/4/.PPP/4 w", line, sizeof line / sizeof line[0],
                                 &line_count, err, sizeof err);
  if (s != PAWNTB_OK) {
    fprintf(stderr, "pawntb_principal_variation: status %d: %s\n", (int)s, err);
    failed = 1;
  } else if (line_count != 7 || line[6].plies != 0 || line[0].winner != PAWNTB_WHITE) {
    fprintf(stderr, "pawntb_principal_variation: %zu moves, expected 7 ending the game\n",
            line_count);
    failed = 1;
  }

  s = pawntb_table_info(table, &info, err, sizeof err);
  if (s != PAWNTB_OK) {
    fprintf(stderr, "pawntb_table_info: status %d: %s\n", (int)s, err);
    failed = 1;
  } else if (info.rows != 4 || info.cols != 4 || info.max_pawns != 4 || info.entries == 0 ||
             info.header_checksum == 0) {
    fprintf(stderr, "pawntb_table_info: %dx%d K=%d, expected 4x4 K=4\n", info.rows, info.cols,
            info.max_pawns);
    failed = 1;
  }
  if (strlen(pawntb_version()) == 0) {
    fprintf(stderr, "pawntb_version: empty\n");
    failed = 1;
  }

  pawntb_close(table);
  if (!failed) {
    printf("c_consumer: pawntb %s, white wins in %d plies, best move %s (%zu moves)\n",
           pawntb_version(), r.plies, moves[0].uci, count);
  }
  return failed;
}
