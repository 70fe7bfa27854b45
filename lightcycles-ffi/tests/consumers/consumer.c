/* A C program as a user of an installed liblightcycles writes it: it finds
 * the library through pkg-config or CMake alone (tests/consumers/run.sh),
 * checks that the library loaded is the one its header describes, and plays
 * a seeded game to its end. */
#include <lightcycles.h>

#include <stdio.h>
#include <string.h>

int main(void) {
    if (lc_version_number() != LC_VERSION_NUMBER || strcmp(lc_version(), LC_VERSION) != 0) {
        fprintf(stderr, "header %s, library %s\n", LC_VERSION, lc_version());
        return 1;
    }
    LcConfig config = lc_config_default();
    config.rock_density = 0;
    LcGame *game = NULL;
    if (lc_game_new(&config, 42, &game) != LC_STATUS_OK) {
        fprintf(stderr, "%s\n", lc_last_error());
        return 1;
    }
    bool over = false;
    while (!over) {
        int32_t moves[2] = {LC_MOVE_N, LC_MOVE_NONE};
        if (lc_game_step(game, moves, 2) != LC_STATUS_OK || lc_game_is_over(game, &over) != LC_STATUS_OK) {
            fprintf(stderr, "%s\n", lc_last_error());
            return 1;
        }
    }
    LcResult result;
    memset(&result, 0, sizeof result);
    result.struct_size = sizeof result;
    lc_game_result(game, &result);
    lc_game_free(game);
    printf("C consumer, lightcycles %s: winner %d after %u ticks\n", lc_version(), result.winner, result.ticks);
    return 0;
}
