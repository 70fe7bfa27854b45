// A C++17 program as a user of an installed liblightcycles writes it, on
// the wrapper lightcycles.hpp: found through pkg-config or CMake alone
// (tests/consumers/run.sh), it checks the library against the header, plays
// a seeded game with a one-ply room search, and reports errors as exceptions.

#include <lightcycles.hpp>

#include <cstdio>

namespace lc = lightcycles;

int main() {
    if (!lc::library_matches_header()) {
        std::fprintf(stderr, "header %s, library %s\n", LC_VERSION, lc_version());
        return 1;
    }
    try {
        lc::Game game(lc::Config().width(20).height(16).rock_density(0), 7);
        lc::SearchState root(game), child(game);
        while (!game.is_over()) {
            // Player 0 takes the move that keeps the most room; player 1 rides on.
            root = lc::SearchState(game);
            int32_t best = LC_MOVE_NONE;
            uint32_t best_room = 0;
            for (int32_t d = LC_MOVE_N; d <= LC_MOVE_W; d++) {
                try {
                    child.step_from(root, {d, LC_MOVE_NONE});
                } catch (const lc::Error &) {
                    continue;  // a reversal: not a move
                }
                const uint32_t room = child.player(0).alive ? child.reachable(0) + 1 : 0;
                if (room > best_room) best = d, best_room = room;
            }
            game.step({best, LC_MOVE_NONE});
        }
        const LcResult r = game.result();
        std::printf("C++ consumer, lightcycles %s: winner %d after %u ticks\n", lc::version().data(), r.winner,
                    r.ticks);
        game.step({LC_MOVE_N, LC_MOVE_N});  // after the end: an exception
        return 1;
    } catch (const lc::Error &e) {
        if (e.status() != LC_STATUS_GAME_OVER) {
            std::fprintf(stderr, "%s: %s\n", e.status_name(), e.what());
            return 1;
        }
    }
    return 0;
}
