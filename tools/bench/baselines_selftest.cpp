// Hand-compiled self-test for baselines.hpp (not part of the build):
//   g++ -std=c++20 -O2 baselines_selftest.cpp -o selftest && ./selftest [gen N]
// With "gen N [seed] [maxp]" it instead writes N random valid 4x4 UVa cases
// (2..maxp pawns per side, default maxp 4, max 6) to stdout.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

#include "baselines.hpp"

using namespace pawntb_baseline;

// Plain minimax, no pruning, 4x4, white = moves up. Returns plies; side to move
// wins iff odd. Independent reference for cross-checking.
static int naive(unsigned w, unsigned b, bool wtm) {
    if (wtm ? (b & 0xF000u) : (w & 0x000Fu)) return 0;
    int bw = 1 << 30, bl = -1;
    bool any = false;
    for (int s = 0; s < 16; ++s) {
        unsigned me = wtm ? w : b;
        if (!(me >> s & 1)) continue;
        int r = s / 4, c = s % 4, nr = wtm ? r - 1 : r + 1;
        if (nr < 0 || nr > 3) continue;
        for (int dc = -1; dc <= 1; ++dc) {
            int nc = c + dc;
            if (nc < 0 || nc > 3) continue;
            unsigned t = 1u << (nr * 4 + nc), f = 1u << s;
            unsigned opp = wtm ? b : w;
            if (dc == 0 ? ((w | b) & t) != 0 : (opp & t) == 0) continue;
            any = true;
            int q = wtm ? naive(w ^ f ^ t, b & ~t, false) : naive(w & ~t, b ^ f ^ t, true);
            if (!(q & 1)) { if (q + 1 < bw) bw = q + 1; }
            else if (q + 1 > bl) bl = q + 1;
        }
    }
    if (!any) return 0;
    return bw != (1 << 30) ? bw : bl;
}

static double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int main(int argc, char** argv) {
    if (argc >= 3 && !std::strcmp(argv[1], "gen")) {
        long n = std::atol(argv[2]);
        std::mt19937_64 rng(argc >= 4 ? std::atoll(argv[3]) : 12345);
        int maxp = argc >= 5 ? std::atoi(argv[4]) : 4;
        if (maxp < 2) maxp = 2;
        if (maxp > 6) maxp = 6;
        std::printf("%ld\n", n);
        for (long i = 0; i < n; ++i) {
            char bd[16];
            for (;;) {
                // 2..maxp pawns per side on random squares, white not on top row,
                // black not on bottom row (no already-finished games).
                for (char& ch : bd) ch = '.';
                int nw = 2 + rng() % (maxp - 1), nb = 2 + rng() % (maxp - 1);
                for (int k = 0; k < nw; ++k) { int s; do s = 4 + rng() % 12; while (bd[s] != '.'); bd[s] = 'P'; }
                for (int k = 0; k < nb; ++k) { int s; do s = rng() % 12; while (bd[s] != '.'); bd[s] = 'p'; }
                break;
            }
            for (int r = 0; r < 4; ++r) std::printf("%.4s\n", bd + 4 * r);
            if (i + 1 < n) std::printf("\n");
        }
        return 0;
    }

    int fails = 0;
    // UVa examples.
    {
        const char* e1 = ".ppp" "...." ".PPP" "....";
        const char* e2 = "...p" "...p" "pP.P" "...P";
        Answer a1 = alphabeta_solve(e1), a2 = alphabeta_solve(e2);
        std::printf("example1: %s (%d)\n", a1.white_wins ? "white" : "black", a1.plies);
        std::printf("example2: %s (%d)\n", a2.white_wins ? "white" : "black", a2.plies);
        if (!(a1.white_wins && a1.plies == 7)) ++fails;
        if (!(!a2.white_wins && a2.plies == 2)) ++fails;
    }

    // Cross-check alphabeta vs memo solver vs naive on all 4x4 white-to-move
    // positions with <= 4 pawns per side (naive on every 7th).
    {
        detail::MemoSolver ms(4, 4);
        long checked = 0, nchecked = 0;
        auto fw = [&](std::uint64_t w) {
            auto fb = [&](std::uint64_t b) {
                if (w & 0xF) return;
                char bd[16];
                for (int i = 0; i < 16; ++i) bd[i] = (w >> i & 1) ? 'P' : (b >> i & 1) ? 'p' : '.';
                Answer a = alphabeta_solve(bd);
                int m = ms.solve(w, b, true);
                if (a.white_wins != bool(m & 1) || a.plies != m) {
                    if (fails++ < 10) std::printf("MISMATCH ab/memo w=%llx b=%llx ab=%d,%d memo=%d\n",
                        (unsigned long long)w, (unsigned long long)b, a.white_wins, a.plies, m);
                }
                if (checked % 7 == 0) {
                    ++nchecked;
                    int nv = naive(unsigned(w), unsigned(b), true);
                    if (nv != m && fails++ < 10) std::printf("MISMATCH naive/memo w=%llx b=%llx\n",
                        (unsigned long long)w, (unsigned long long)b);
                    // also black to move
                    if (!(b & 0xF000)) {
                        int nv2 = naive(unsigned(w), unsigned(b), false), m2 = ms.solve(w, b, false);
                        if (nv2 != m2 && fails++ < 10) std::printf("MISMATCH naive/memo btm\n");
                    }
                }
                ++checked;
            };
            detail::for_each_subset(0xFFFF & ~w, 4, 0, 0, fb);
        };
        detail::for_each_subset(0xFFFF, 4, 0, 0, fw);
        std::printf("cross-check: %ld positions ab vs memo, %ld vs naive\n", checked, nchecked);
    }

    // Random heavier positions (up to 6 pawns per side): ab vs memo.
    {
        detail::MemoSolver ms(4, 4);
        std::mt19937_64 rng(99);
        int n = 20000;
        for (int i = 0; i < n; ++i) {
            std::uint64_t w = 0, b = 0;
            int nw = 1 + rng() % 6, nb = 1 + rng() % 6;
            for (int k = 0; k < nw; ++k) { int s; do s = 4 + rng() % 12; while ((w | b) >> s & 1); w |= 1ULL << s; }
            for (int k = 0; k < nb; ++k) { int s; do s = rng() % 16; while ((w | b) >> s & 1); b |= 1ULL << s; }
            char bd[16];
            for (int j = 0; j < 16; ++j) bd[j] = (w >> j & 1) ? 'P' : (b >> j & 1) ? 'p' : '.';
            Answer a = alphabeta_solve(bd);
            int m = ms.solve(w, b, true);
            if ((a.white_wins != bool(m & 1) || a.plies != m) && fails++ < 10)
                std::printf("MISMATCH heavy w=%llx b=%llx\n", (unsigned long long)w, (unsigned long long)b);
        }
        std::printf("heavy cross-check: %d random positions (<=6 pawns/side) ab vs memo\n", n);
    }

    // Domain runs.
    {
        double t0 = now();
        DomainStats s = memo_minimax_domain(3, 3, 3);
        double t1 = now();
        std::printf("memo_minimax_domain(3,3,3): positions=%llu white_wins=%llu checksum=%llu  %.3fs\n",
            (unsigned long long)s.positions, (unsigned long long)s.white_wins,
            (unsigned long long)s.checksum, t1 - t0);
        // Hexapawn start, white to move: known white... (3x3 value check via memo)
        detail::MemoSolver h(3, 3);
        int hv = h.solve(0x1C0, 0x007, true);  // PPP bottom, ppp top
        std::printf("hexapawn start (white to move): %s (%d)\n", (hv & 1) ? "white" : "black", hv);
        if (hv & 1) ++fails;  // hexapawn is a win for the second player
    }
    {
        double t0 = now();
        DomainStats s = memo_minimax_domain(4, 4, 4);
        double t1 = now();
        std::printf("memo_minimax_domain(4,4,4): positions=%llu white_wins=%llu checksum=%llu  %.3fs\n",
            (unsigned long long)s.positions, (unsigned long long)s.white_wins,
            (unsigned long long)s.checksum, t1 - t0);
    }
    std::printf(fails ? "FAILED (%d)\n" : "OK\n", fails);
    return fails ? 1 : 0;
}
