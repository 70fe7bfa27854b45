/*
 * Steps recorded games through the C ABI and prints every frame and the
 * result, for tests/replays.rs to compare with the replay files.
 *
 * Usage: replay_stepper GAME.txt...   (writes GAME.txt.out beside each)
 *
 * GAME.txt:
 *   seed S W H PLAYERS MAX_TICKS ROCK_DENSITY FAULT_POLICY
 *   | map PATH MAX_TICKS FAULT_POLICY         (a 2010 map file)
 *   then one line per tick: PLAYERS move codes (0..3, -1 none, -2..-4 faults)
 * GAME.txt.out:
 *   one line per frame: "t x y alive dir" for each player after t ticks
 *   then "result WINNER DRAW TICKS" and, per player, "PLACEMENT ELIMINATED_AT TRAIL"
 */
#include <lightcycles.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *path, const char *what, LcStatus status) {
    fprintf(stderr, "%s: %s: %s (%s)\n", path, what, lc_status_name(status), lc_last_error());
    return 1;
}

static void print_frame(FILE *out, const LcGame *game, uint32_t players) {
    uint32_t tick = 0;
    lc_game_tick(game, &tick);
    fprintf(out, "%" PRIu32, tick);
    for (uint32_t i = 0; i < players; i++) {
        LcPlayer p;
        p.struct_size = sizeof p;
        if (lc_game_player(game, i, &p) != LC_STATUS_OK) {
            fprintf(out, " error");
            continue;
        }
        fprintf(out, " %" PRIu32 " %" PRIu32 " %" PRIu32 " %" PRIu32, p.x, p.y, p.alive, p.dir);
    }
    fprintf(out, "\n");
}

static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)size + 1);
    *len = fread(text, 1, (size_t)size, f);
    text[*len] = '\0';
    fclose(f);
    return text;
}

static int step_one(const char *path) {
    FILE *in = fopen(path, "r");
    if (!in) {
        fprintf(stderr, "%s: cannot open\n", path);
        return 1;
    }
    char kind[8] = {0};
    LcGame *game = NULL;
    LcStatus status;
    if (fscanf(in, "%7s", kind) != 1) return fail(path, "empty file", LC_STATUS_PARSE);
    if (strcmp(kind, "seed") == 0) {
        uint64_t seed;
        LcConfig c = lc_config_default();
        if (fscanf(in, "%" SCNu64 " %" SCNu32 " %" SCNu32 " %" SCNu32 " %" SCNu32 " %" SCNu32 " %" SCNu32, &seed,
                   &c.width, &c.height, &c.players, &c.max_ticks, &c.rock_density, &c.fault_policy) != 7)
            return fail(path, "bad seed line", LC_STATUS_PARSE);
        status = lc_game_new(&c, seed, &game);
    } else {
        char map_path[4096];
        uint32_t max_ticks, policy;
        if (fscanf(in, "%4095s %" SCNu32 " %" SCNu32, map_path, &max_ticks, &policy) != 3)
            return fail(path, "bad map line", LC_STATUS_PARSE);
        size_t len = 0;
        char *text = read_file(map_path, &len);
        if (!text) return fail(path, "cannot read the map", LC_STATUS_PARSE);
        status = lc_game_from_map(text, len, max_ticks, policy, &game);
        free(text);
    }
    if (status != LC_STATUS_OK) return fail(path, "create", status);

    LcConfig c;
    c.struct_size = sizeof c;
    lc_game_config(game, &c);
    char out_path[4200];
    snprintf(out_path, sizeof out_path, "%s.out", path);
    FILE *out = fopen(out_path, "w");
    print_frame(out, game, c.players);
    int32_t moves[LC_MAX_PLAYERS];
    int ok = 1;
    for (;;) {
        uint32_t i = 0;
        for (; i < c.players; i++)
            if (fscanf(in, "%" SCNd32, &moves[i]) != 1) break;
        if (i == 0) break;
        if (i != c.players) {
            ok = !fail(path, "a short tick line", LC_STATUS_PARSE);
            break;
        }
        status = lc_game_step(game, moves, c.players);
        if (status != LC_STATUS_OK) {
            ok = !fail(path, "step", status);
            break;
        }
        print_frame(out, game, c.players);
    }
    LcResult r;
    r.struct_size = sizeof r;
    status = lc_game_result(game, &r);
    if (status == LC_STATUS_OK) {
        fprintf(out, "result %" PRId32 " %" PRIu32 " %" PRIu32 "\n", r.winner, r.draw, r.ticks);
        for (uint32_t i = 0; i < r.num_players; i++)
            fprintf(out, "%" PRIu32 " %" PRId32 " %" PRIu32 "\n", r.placements[i], r.eliminated_at[i], r.trails[i]);
    } else {
        fprintf(out, "result %s\n", lc_status_name(status));
    }
    fclose(out);
    fclose(in);
    lc_game_free(game);
    return ok ? 0 : 1;
}

int main(int argc, char **argv) {
    int failures = 0;
    for (int i = 1; i < argc; i++) failures += step_one(argv[i]);
    printf("replay_stepper: %d games stepped, %d failed\n", argc - 1, failures);
    return failures != 0;
}
