/* The C API (pawntb.h) from C, compiled as C: each call as its comment in the
 * header promises it, values checked against the CLI's documented answers.
 *
 *   c_api_test DATA_DIR EMPTY_DIR
 *
 * DATA_DIR holds 4x4-k4.pawntb and 3x3-k3.pawntb (the source tree's data/);
 * EMPTY_DIR is a directory with no tables. Exit status 0 when every check
 * passes; each failure is printed. */
#include <stdio.h>
#include <string.h>

#include "pawntb/pawntb.h"

static int failures = 0;

#define CHECK(cond)                                                \
  do {                                                             \
    if (!(cond)) {                                                 \
      fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                  \
    }                                                              \
  } while (0)

/* The message contains `part`. */
static int says(const char* message, const char* part) {
  if (strstr(message, part)) return 1;
  fprintf(stderr, "message '%s' does not say '%s'\n", message, part);
  return 0;
}

static void null_arguments_are_named(const pawntb_table* t) {
  char err[256];
  pawntb_result r;
  size_t count = 7;
  pawntb_info info;
  CHECK(pawntb_probe(t, ".ppp/4/.PPP/4 w", NULL, err, sizeof err) == PAWNTB_ERROR_ARGUMENT);
  CHECK(says(err, "out is NULL"));
  CHECK(pawntb_probe(t, NULL, &r, err, sizeof err) == PAWNTB_ERROR_ARGUMENT);
  CHECK(says(err, "position is NULL"));
  CHECK(r.status == PAWNTB_ERROR_ARGUMENT && r.winner == PAWNTB_NONE && r.plies == -1);
  CHECK(pawntb_probe(NULL, ".ppp/4/.PPP/4 w", &r, err, sizeof err) == PAWNTB_ERROR_ARGUMENT);
  CHECK(says(err, "table is NULL"));
  CHECK(pawntb_best_moves(t, ".ppp/4/.PPP/4 w", NULL, 0, NULL, err, sizeof err) ==
        PAWNTB_ERROR_ARGUMENT);
  CHECK(says(err, "count is NULL"));
  CHECK(pawntb_best_moves(t, ".ppp/4/.PPP/4 w", NULL, 3, &count, err, sizeof err) ==
        PAWNTB_ERROR_ARGUMENT);
  CHECK(says(err, "moves"));
  CHECK(count == 0);
  CHECK(pawntb_table_info(t, NULL, err, sizeof err) == PAWNTB_ERROR_ARGUMENT);
  CHECK(says(err, "out is NULL"));
  CHECK(pawntb_table_info(NULL, &info, err, sizeof err) == PAWNTB_ERROR_ARGUMENT);
  CHECK(says(err, "table is NULL"));
  CHECK(pawntb_open(NULL, NULL, err, sizeof err) == PAWNTB_ERROR_ARGUMENT);
  CHECK(says(err, "out is NULL"));
}

/* A position of another board size: both sizes, as the CLI gives them. */
static void mismatch_names_both_sizes(const pawntb_table* t) {
  char err[256];
  pawntb_result r;
  CHECK(pawntb_probe(t, "ppp/3/PPP w", &r, err, sizeof err) == PAWNTB_ERROR_POSITION);
  CHECK(says(err, "3x3") && says(err, "4x4"));
  CHECK(r.status == PAWNTB_ERROR_POSITION && r.dtm == 0 && r.reason == PAWNTB_END_NONE);
  CHECK(pawntb_probe(t, "pppp/p3/4/PPPP w", &r, err, sizeof err) == PAWNTB_ERROR_POSITION);
  CHECK(says(err, "more than 4 pawns"));
}

/* dtm is signed for the side to move; reason says why a game is over. */
static void dtm_and_reason(const pawntb_table* t) {
  char err[256];
  pawntb_result r;
  pawntb_move moves[10], line[32];
  size_t count = 0, i;
  CHECK(pawntb_probe(t, ".ppp/4/.PPP/4 w", &r, err, sizeof err) == PAWNTB_OK);
  CHECK(r.winner == PAWNTB_WHITE && r.plies == 7 && r.dtm == 7);
  CHECK(r.reason == PAWNTB_END_NONE && r.status == PAWNTB_OK);
  CHECK(pawntb_probe(t, ".ppp/4/.PPP/4 b", &r, err, sizeof err) == PAWNTB_OK);
  CHECK(r.dtm == (r.winner == PAWNTB_BLACK ? r.plies : -r.plies) && r.plies > 0);
  CHECK(pawntb_probe(t, "P3/4/4/4 b", &r, err, sizeof err) == PAWNTB_OK);
  CHECK(r.plies == 0 && r.dtm == 0 && r.reason == PAWNTB_END_GOAL && r.winner == PAWNTB_WHITE);
  CHECK(pawntb_probe(t, "4/4/4/PPPP b", &r, err, sizeof err) == PAWNTB_OK);
  CHECK(r.plies == 0 && r.reason == PAWNTB_END_NO_PAWNS);
  CHECK(pawntb_probe(t, "4/p3/P3/4 w", &r, err, sizeof err) == PAWNTB_OK);
  CHECK(r.plies == 0 && r.reason == PAWNTB_END_NO_MOVES && r.winner == PAWNTB_BLACK);

  /* After white's best move black is to move and loses: dtm -6. */
  CHECK(pawntb_best_moves(t, ".ppp/4/.PPP/4 w", moves, 10, &count, err, sizeof err) == PAWNTB_OK);
  CHECK(count > 0 && moves[0].plies == 6 && moves[0].dtm == -6);
  /* Along the line the side to move alternates: the dtm's sign too. */
  CHECK(pawntb_principal_variation(t, ".ppp/4/.PPP/4 w", line, 32, &count, err, sizeof err) ==
        PAWNTB_OK);
  CHECK(count == 7);
  for (i = 0; i < count && i < 32; ++i) {
    const int mover_after_wins = (i % 2 == 1); /* white moved at even i, black is to move */
    CHECK(line[i].dtm == (mover_after_wins ? line[i].plies : -line[i].plies));
  }
}

static void probe_many(const pawntb_table* t) {
  const char* positions[] = {".ppp/4/.PPP/4 w", "xyz w", "ppp/3/PPP w", NULL, "P3/4/4/4 b"};
  pawntb_result results[5];
  char err[256];
  CHECK(pawntb_probe_many(t, positions, 5, results, err, sizeof err) == PAWNTB_ERROR_POSITION);
  CHECK(says(err, "position 1:"));
  CHECK(results[0].status == PAWNTB_OK && results[0].plies == 7 && results[0].dtm == 7);
  CHECK(results[1].status == PAWNTB_ERROR_POSITION && results[1].winner == PAWNTB_NONE);
  CHECK(results[2].status == PAWNTB_ERROR_POSITION && results[2].plies == -1);
  CHECK(results[3].status == PAWNTB_ERROR_ARGUMENT);
  CHECK(results[4].status == PAWNTB_OK && results[4].reason == PAWNTB_END_GOAL);
  CHECK(pawntb_probe_many(t, positions, 1, results, err, sizeof err) == PAWNTB_OK);
  CHECK(pawntb_probe_many(t, NULL, 0, NULL, err, sizeof err) == PAWNTB_OK);
  CHECK(pawntb_probe_many(t, NULL, 2, results, err, sizeof err) == PAWNTB_ERROR_ARGUMENT);
  CHECK(says(err, "positions is NULL"));
}

static void start_and_play(const pawntb_table* t) {
  char err[256], text[PAWNTB_POSITION_MAX], tiny[4];
  CHECK(pawntb_start_position(t, text, sizeof text, err, sizeof err) == PAWNTB_OK);
  CHECK(strcmp(text, "pppp/4/4/PPPP w") == 0);
  CHECK(pawntb_start_position(t, tiny, sizeof tiny, err, sizeof err) == PAWNTB_ERROR_ARGUMENT);
  CHECK(says(err, "16 bytes needed"));
  CHECK(pawntb_play("pppp/4/4/PPPP w", "a1a2,a4a3", text, sizeof text, err, sizeof err) ==
        PAWNTB_OK);
  CHECK(strcmp(text, "1ppp/p3/P3/1PPP w") == 0);
  CHECK(pawntb_play("pppp/4/4/PPPP w", "", text, sizeof text, err, sizeof err) == PAWNTB_OK);
  CHECK(strcmp(text, "pppp/4/4/PPPP w") == 0);
  CHECK(pawntb_play("pppp/4/4/PPPP w", "a1a2 a1a3", text, sizeof text, err, sizeof err) ==
        PAWNTB_ERROR_POSITION);
  CHECK(says(err, "move 2: a1a3"));
  CHECK(pawntb_play("pppp/4/4/PPPP w", NULL, text, sizeof text, err, sizeof err) ==
        PAWNTB_ERROR_ARGUMENT);
  CHECK(says(err, "moves is NULL"));
}

static void info(const pawntb_table* t) {
  char err[256];
  pawntb_info i;
  pawntb_result r;
  CHECK(pawntb_table_info(t, &i, err, sizeof err) == PAWNTB_OK);
  CHECK(i.rows == 4 && i.cols == 4 && i.max_pawns == 4 && i.longest_game_plies == 13);
  CHECK(pawntb_probe(t, i.longest_game_example, &r, err, sizeof err) == PAWNTB_OK);
  CHECK(r.plies == i.longest_game_plies);
}

/* pawntb_open_for along a given search path of several directories. */
static void open_for(const char* data, const char* empty) {
  char path[4096], err[512];
  pawntb_table* t = NULL;
  pawntb_info i;
  snprintf(path, sizeof path, "%s::%s", empty, data);
  CHECK(pawntb_open_for(3, 3, path, &t, err, sizeof err) == PAWNTB_OK);
  if (t) {
    CHECK(pawntb_table_info(t, &i, err, sizeof err) == PAWNTB_OK);
    CHECK(i.rows == 3 && i.cols == 3 && i.max_pawns == 3);
    pawntb_close(t);
    t = NULL;
  }
  CHECK(pawntb_open_for(3, 3, empty, &t, err, sizeof err) == PAWNTB_ERROR_TABLE);
  CHECK(t == NULL && says(err, "no table for 3x3") && says(err, empty));
  CHECK(pawntb_open_for(9, 3, NULL, &t, err, sizeof err) == PAWNTB_ERROR_ARGUMENT);
  CHECK(says(err, "9x3"));
  CHECK(pawntb_open_for(4, 4, NULL, &t, err, sizeof err) == PAWNTB_OK);
  pawntb_close(t);
  CHECK(pawntb_search_path(path, sizeof path, err, sizeof err) == PAWNTB_OK);
  CHECK(says(path, "data"));
}

int main(int argc, char** argv) {
  char path[4096], err[512];
  pawntb_table* t = NULL;
  if (argc != 3) {
    fprintf(stderr, "usage: c_api_test DATA_DIR EMPTY_DIR\n");
    return 2;
  }
  snprintf(path, sizeof path, "%s/4x4-k4.pawntb", argv[1]);
  if (pawntb_open(path, &t, err, sizeof err) != PAWNTB_OK) {
    fprintf(stderr, "pawntb_open(%s): %s\n", path, err);
    return 1;
  }
  null_arguments_are_named(t);
  mismatch_names_both_sizes(t);
  dtm_and_reason(t);
  probe_many(t);
  start_and_play(t);
  info(t);
  pawntb_close(t);
  open_for(argv[1], argv[2]);
  if (failures) fprintf(stderr, "c_api_test: %d checks failed\n", failures);
  return failures ? 1 : 0;
}
