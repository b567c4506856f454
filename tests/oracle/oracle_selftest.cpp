// Standalone self-test for tests/oracle/brute_force.hpp (not part of the build).
//   g++ -std=c++20 -O2 -o /tmp/oracle_selftest tests/oracle/oracle_selftest.cpp && /tmp/oracle_selftest
#include "brute_force.hpp"

#include <chrono>
#include <cstdio>
#include <string>

using pawntb_oracle::Result;
using pawntb_oracle::Solver;

static int failures = 0;

static void check(bool ok, const char* what) {
  std::printf("[%s] %s\n", ok ? "PASS" : "FAIL", what);
  if (!ok) ++failures;
}

static long long binom(int n, int k) {
  if (k < 0 || k > n) return 0;
  long long r = 1;
  for (int i = 1; i <= k; ++i) r = r * (n - k + i) / i;
  return r;
}

static long long expected_placements(int n, int k) {
  long long s = 0;
  for (int w = 0; w <= k; ++w)
    for (int b = 0; b <= k; ++b) s += binom(n, w) * binom(n - w, b);
  return s;
}

// Independent legal-move test for white (moves toward row 0).
static bool white_has_move(const std::string& s, int R, int C) {
  for (int r = 1; r < R; ++r)
    for (int c = 0; c < C; ++c) {
      if (s[r * C + c] != 'P') continue;
      if (s[(r - 1) * C + c] == '.') return true;
      if (c > 0 && s[(r - 1) * C + c - 1] == 'p') return true;
      if (c + 1 < C && s[(r - 1) * C + c + 1] == 'p') return true;
    }
  return false;
}

static void expect(Solver& s, const std::string& board, bool wtm, bool valid, bool white_wins,
                   int plies, const char* what) {
  Result r = s.solve(board, wtm);
  bool ok = r.valid == valid && (!valid || (r.white_wins == white_wins && (plies < 0 || r.plies == plies)));
  std::printf("       %s -> valid=%d white_wins=%d plies=%d\n", board.c_str(), r.valid, r.white_wins, r.plies);
  check(ok, what);
}

int main() {
  using clk = std::chrono::steady_clock;
  auto secs = [](clk::time_point a, clk::time_point b) {
    return std::chrono::duration<double>(b - a).count();
  };

  // ---- known facts ----
  {
    Solver s4(4, 4);
    expect(s4, ".ppp" "...." ".PPP" "....", true, true, true, 7,
           "4x4 .ppp/..../.PPP/.... wtm: white wins in 7");
    expect(s4, "...p" "...p" "pP.P" "...P", true, true, false, 2,
           "4x4 ...p/...p/pP.P/...P wtm: black wins in 2");
    expect(s4, "pppp" "...." "...." "PPPP", true, true, true, -1, "Octapawn start wtm: white wins");
    // Validity / terminal conventions.
    expect(s4, "P..." "...." "...." "....", true, false, false, 0, "white to move with P on row 0: invalid");
    expect(s4, "P..." "...." "...." "...p", false, false, false, 0, "both on goal: invalid");
    expect(s4, "P..." "...." "...p" "....", false, true, true, 0, "black to move, P on goal: white won (0)");
    expect(s4, "...." "...." "...." "....", true, true, false, 0, "empty board wtm: white loses in 0");
    expect(s4, "...." "...." "P..." "....", true, true, true, 1, "lone P on row 2 wtm, black has no pawns: wins in 1");
    expect(s4, "...p" "...." "P..." "....", true, true, true, 3, "P on row 2 vs p on row 0, wtm: white wins in 3");
    expect(s4, "...." "...." "P..." "....", false, true, true, 0, "lone P, black to move (no pawns): black loses 0");
    Solver s3(3, 3);
    expect(s3, "ppp" "..." "PPP", true, true, false, 6, "Hexapawn start wtm: black wins in 6");
  }

  // ---- placement counts ----
  {
    long long n44 = 0, n33 = 0;
    pawntb_oracle::for_each_placement(4, 4, 4, [&](const std::string&) { ++n44; });
    pawntb_oracle::for_each_placement(3, 3, 3, [&](const std::string&) { ++n33; });
    std::printf("       4x4 k=4 placements: %lld (expected %lld)\n", n44, expected_placements(16, 4));
    std::printf("       3x3 k=3 placements: %lld (expected %lld)\n", n33, expected_placements(9, 3));
    check(n44 == 2267253 && n44 == expected_placements(16, 4), "4x4 k=4 visits 2,267,253");
    check(n33 == expected_placements(9, 3), "3x3 k=3 count");
  }

  // ---- non-terminal white-to-move count ----
  {
    long long cnt = 0;
    pawntb_oracle::for_each_placement(4, 4, 4, [&](const std::string& s) {
      int w = 0, b = 0;
      bool wgoal = false, bgoal = false;
      for (int i = 0; i < 16; ++i) {
        if (s[i] == 'P') { ++w; if (i < 4) wgoal = true; }
        if (s[i] == 'p') { ++b; if (i >= 12) bgoal = true; }
      }
      if (w < 1 || b < 1 || wgoal || bgoal) return;
      if (white_has_move(s, 4, 4)) ++cnt;
    });
    std::printf("       count = %lld\n", cnt);
    check(cnt == 275836, "4x4 k=4, 1..4 per side, wtm, not over, white can move: 275,836");
  }

  // ---- full sweeps (timing) ----
  {
    auto t0 = clk::now();
    Solver s(4, 4);
    long long valid = 0, wwins = 0, maxp = 0, oddmismatch = 0;
    for (int side = 0; side < 2; ++side) {
      bool wtm = side == 0;
      pawntb_oracle::for_each_placement(4, 4, 4, [&](const std::string& b) {
        Result r = s.solve(b, wtm);
        if (!r.valid) return;
        ++valid;
        wwins += r.white_wins;
        if (r.plies > maxp) maxp = r.plies;
        bool mover_wins = (r.white_wins == wtm);
        if (mover_wins != (r.plies % 2 == 1)) ++oddmismatch;
      });
    }
    auto t1 = clk::now();
    std::printf("       4x4 k=4 sweep (both sides): valid=%lld white_wins=%lld max_plies=%lld  %.2fs\n",
                valid, wwins, maxp, secs(t0, t1));
    check(oddmismatch == 0, "4x4 sweep parity consistent");

    auto t2 = clk::now();
    Solver s3(3, 3);
    long long v3 = 0, m3 = 0;
    for (int side = 0; side < 2; ++side) {
      bool wtm = side == 0;
      pawntb_oracle::for_each_placement(3, 3, 3, [&](const std::string& b) {
        Result r = s3.solve(b, wtm);
        if (!r.valid) return;
        ++v3;
        if ((r.white_wins == wtm) != (r.plies % 2 == 1)) ++m3;
      });
    }
    auto t3 = clk::now();
    std::printf("       3x3 k=3 sweep (both sides): valid=%lld  %.3fs\n", v3, secs(t2, t3));
    check(m3 == 0, "3x3 sweep parity consistent");
  }

  // ---- larger board uses the hash-map path ----
  {
    auto t0 = clk::now();
    Solver s(5, 4);  // 20 cells -> unordered_map memo
    // A 4x4 position embedded in 5x4 with an extra empty top row: white needs one more ply
    // per white advance; just sanity-check it runs and parity holds.
    Result r = s.solve("pppp" "...." "...." "...." "PPPP", true);
    auto t1 = clk::now();
    std::printf("       5x4 start wtm: valid=%d white_wins=%d plies=%d  %.2fs\n", r.valid, r.white_wins,
                r.plies, secs(t0, t1));
    check(r.valid && ((r.white_wins == true) == (r.plies % 2 == 1)), "5x4 start parity consistent");
  }

  std::printf("%s (%d failure%s)\n", failures ? "FAILED" : "ALL PASSED", failures, failures == 1 ? "" : "s");
  return failures ? 1 : 0;
}
