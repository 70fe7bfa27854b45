/*
 * Exercises every entry point of lightcycles.h, success and every error
 * path, under AddressSanitizer and UndefinedBehaviorSanitizer. Built and run
 * by tests/c_abi.rs; exits non-zero on the first failed check.
 */
#include <lightcycles.h>

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int checks = 0;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        checks++;                                                                    \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: check failed: %s\n  last error: %s\n", __FILE__, \
                    __LINE__, #cond, lc_last_error());                               \
            exit(1);                                                                 \
        }                                                                            \
    } while (0)

/* A call fails with `status` and a last error that contains `needle`. */
#define FAILS(call, status, needle)                                                  \
    do {                                                                             \
        LcStatus got_ = (call);                                                      \
        checks++;                                                                    \
        if (got_ != (status) || strstr(lc_last_error(), (needle)) == NULL) {         \
            fprintf(stderr, "%s:%d: %s\n  returned %s, expected %s\n  last error: %s\n" \
                    "  expected it to contain: %s\n", __FILE__, __LINE__, #call,     \
                    lc_status_name(got_), lc_status_name(status), lc_last_error(),   \
                    needle);                                                         \
            exit(1);                                                                 \
        }                                                                            \
    } while (0)

#define OK(call) CHECK((call) == LC_STATUS_OK)

static LcGame *seeded(uint32_t width, uint32_t height, uint32_t players, uint32_t rocks, uint64_t seed) {
    LcConfig config = lc_config_default();
    config.width = width;
    config.height = height;
    config.players = players;
    config.rock_density = rocks;
    LcGame *game = NULL;
    OK(lc_game_new(&config, seed, &game));
    CHECK(game != NULL);
    return game;
}

static LcPlayer player(const LcGame *game, uint32_t id) {
    LcPlayer p;
    memset(&p, 0xAB, sizeof p);
    p.struct_size = sizeof p;
    OK(lc_game_player(game, id, &p));
    return p;
}

/* The layouts the Rust side pins in lib.rs (tests::c_layouts_are_pinned). */
_Static_assert(sizeof(LcConfig) == 28, "LcConfig layout");
_Static_assert(sizeof(LcPlayer) == 28, "LcPlayer layout");
_Static_assert(sizeof(LcResult) == 116, "LcResult layout");
_Static_assert(sizeof(LcPlayerView) == 20, "LcPlayerView layout");
_Static_assert(sizeof(LcObservation) == 56, "LcObservation layout");
_Static_assert(offsetof(LcObservation, players) == 40, "LcObservation.players");
_Static_assert(offsetof(LcObservation, grid) == 48, "LcObservation.grid");
_Static_assert(sizeof(LcBotV1) == 40, "LcBotV1 layout");
_Static_assert(offsetof(LcBotV1, create) == 16, "LcBotV1.create");

static void test_versions_and_names(void) {
    CHECK(lc_abi_version() == LC_ABI_VERSION);
    CHECK(lc_version_number() == LC_VERSION_NUMBER);
    CHECK(strcmp(lc_version(), LC_VERSION) == 0);
    CHECK(strcmp(lc_status_name(LC_STATUS_OK), "LC_STATUS_OK") == 0);
    CHECK(strcmp(lc_status_name(LC_STATUS_GAME_OVER), "LC_STATUS_GAME_OVER") == 0);
    CHECK(strcmp(lc_status_name(LC_STATUS_PANIC), "LC_STATUS_PANIC") == 0);
    CHECK(strcmp(lc_status_name(-1), "LC_STATUS_UNKNOWN") == 0);
    CHECK(strcmp(lc_status_name(1000), "LC_STATUS_UNKNOWN") == 0);
    CHECK(lc_last_error() != NULL);
}

static void test_config_and_new(void) {
    LcConfig config = lc_config_default();
    CHECK(config.struct_size == sizeof(LcConfig));
    CHECK(config.width == 48 && config.height == 36 && config.players == 2);
    CHECK(config.max_ticks == 2000 && config.rock_density == 4);
    CHECK(config.fault_policy == LC_FAULT_POLICY_STRAIGHT);

    /* docs/RULES.md 4.3: seed 1 on the default board. */
    LcGame *game = NULL;
    OK(lc_game_new(&config, 1, &game));
    LcPlayer p0 = player(game, 0), p1 = player(game, 1);
    CHECK(p0.struct_size == sizeof(LcPlayer));
    CHECK(p0.x == 4 && p0.y == 9 && p0.dir == LC_MOVE_S && p0.alive == 1 && p0.trail == 1);
    CHECK(p0.eliminated_at == -1);
    CHECK(p1.x == 43 && p1.y == 26 && p1.dir == LC_MOVE_N);
    int rocks = 0;
    for (int y = 0; y < 36; y++) {
        for (int x = 0; x < 48; x++) {
            int8_t v = 0;
            OK(lc_game_cell(game, x, y, &v));
            rocks += v == -2;
        }
    }
    CHECK(rocks == 70);
    int8_t v = 0;
    OK(lc_game_cell(game, 2, 0, &v));
    CHECK(v == -2);
    OK(lc_game_cell(game, 4, 9, &v));
    CHECK(v == 0);
    lc_game_free(game);

    /* NULL config: the default. */
    game = NULL;
    OK(lc_game_new(NULL, 1, &game));
    CHECK(player(game, 0).x == 4);
    LcConfig back;
    back.struct_size = sizeof back;
    OK(lc_game_config(game, &back));
    CHECK(back.width == 48 && back.height == 36 && back.players == 2 && back.max_ticks == 2000);
    CHECK(back.rock_density == 4 && back.fault_policy == LC_FAULT_POLICY_STRAIGHT);
    uint32_t tick = 99;
    OK(lc_game_tick(game, &tick));
    CHECK(tick == 0);

    /* Errors of lc_game_config and lc_game_tick. */
    FAILS(lc_game_config(NULL, &back), LC_STATUS_NULL_POINTER, "lc_game_config: game is null");
    FAILS(lc_game_config(game, NULL), LC_STATUS_NULL_POINTER, "out is null");
    back.struct_size = 3;
    FAILS(lc_game_config(game, &back), LC_STATUS_STRUCT_SIZE, "out->struct_size = 3");
    FAILS(lc_game_tick(NULL, &tick), LC_STATUS_NULL_POINTER, "lc_game_tick: game is null");
    FAILS(lc_game_tick(game, NULL), LC_STATUS_NULL_POINTER, "out is null");
    lc_game_free(game);
    lc_game_free(NULL);

    /* Errors of lc_game_new: the output is cleared on every failure. */
    LcGame *out = (LcGame *)&config; /* any non-NULL value */
    FAILS(lc_game_new(&config, 1, NULL), LC_STATUS_NULL_POINTER, "lc_game_new: out is null");
    LcConfig bad = config;
    bad.struct_size = 0;
    FAILS(lc_game_new(&bad, 1, &out), LC_STATUS_STRUCT_SIZE, "config->struct_size = 0");
    CHECK(out == NULL);
    bad = config;
    bad.fault_policy = 7;
    FAILS(lc_game_new(&bad, 1, &out), LC_STATUS_OUT_OF_RANGE, "config->fault_policy = 7");
    bad = config;
    bad.width = 300;
    FAILS(lc_game_new(&bad, 1, &out), LC_STATUS_CONFIG, "width = 300 is out of range: allowed 8 to 255");
    bad = config;
    bad.players = 3;
    bad.height = 12;
    FAILS(lc_game_new(&bad, 1, &out), LC_STATUS_CONFIG, "height = 12 is too small for 3 players");
    bad = config;
    bad.max_ticks = 0;
    FAILS(lc_game_new(&bad, 1, &out), LC_STATUS_CONFIG, "max_ticks = 0");
    CHECK(out == NULL);
}

static const char MAP[] = "8 8\n"
                          "########\n"
                          "#1     #\n"
                          "#      #\n"
                          "#  ##  #\n"
                          "#  ##  #\n"
                          "#      #\n"
                          "#     2#\n"
                          "########\n";

static void test_from_map(void) {
    LcGame *game = NULL;
    OK(lc_game_from_map(MAP, strlen(MAP), 100, LC_FAULT_POLICY_ELIMINATE, &game));
    LcConfig c;
    c.struct_size = sizeof c;
    OK(lc_game_config(game, &c));
    CHECK(c.width == 8 && c.height == 8 && c.players == 2 && c.max_ticks == 100 && c.rock_density == 0);
    CHECK(c.fault_policy == LC_FAULT_POLICY_ELIMINATE);
    LcPlayer p0 = player(game, 0), p1 = player(game, 1);
    /* Longest empty run, ties to the lower code: E (over S) for player 0, N (over W) for player 1. */
    CHECK(p0.x == 1 && p0.y == 1 && p0.dir == LC_MOVE_E);
    CHECK(p1.x == 6 && p1.y == 6 && p1.dir == LC_MOVE_N);
    /* Under eliminate a fault crashes where it stands. */
    int32_t moves[2] = {LC_FAULT_TIMEOUT, LC_MOVE_N};
    OK(lc_game_step(game, moves, 2));
    bool over = false;
    OK(lc_game_is_over(game, &over));
    CHECK(over);
    LcResult r;
    r.struct_size = sizeof r;
    OK(lc_game_result(game, &r));
    CHECK(r.num_players == 2 && r.winner == 1 && r.draw == 0 && r.ticks == 1);
    CHECK(r.placements[0] == 2 && r.placements[1] == 1);
    CHECK(r.eliminated_at[0] == 1 && r.eliminated_at[1] == -1);
    CHECK(r.trails[0] == 1 && r.trails[1] == 2);
    CHECK(player(game, 0).alive == 0 && player(game, 0).eliminated_at == 1);
    lc_game_free(game);

    LcGame *out = NULL;
    FAILS(lc_game_from_map(MAP, strlen(MAP), 100, 0, NULL), LC_STATUS_NULL_POINTER, "out is null");
    FAILS(lc_game_from_map(NULL, 10, 100, 0, &out), LC_STATUS_NULL_POINTER, "text is null");
    FAILS(lc_game_from_map(NULL, 0, 100, 0, &out), LC_STATUS_NULL_POINTER, "text is null");
    FAILS(lc_game_from_map("8 8\n\xff", 5, 100, 0, &out), LC_STATUS_PARSE, "text is not UTF-8");
    FAILS(lc_game_from_map(MAP, strlen(MAP), 0, 0, &out), LC_STATUS_CONFIG, "max_ticks = 0");
    FAILS(lc_game_from_map(MAP, strlen(MAP), 100, 2, &out), LC_STATUS_OUT_OF_RANGE, "fault_policy = 2");
    /* A map cut short after three lines. */
    FAILS(lc_game_from_map(MAP, 22, 100, 0, &out), LC_STATUS_MAP, "line 4");
    static const char NO_TWO[] = "8 8\n########\n#1     #\n#      #\n#      #\n#      #\n#      #\n#      #\n########\n";
    FAILS(lc_game_from_map(NO_TWO, strlen(NO_TWO), 100, 0, &out), LC_STATUS_MAP, "map:");
    CHECK(out == NULL);
}

static void test_step_and_result(void) {
    LcGame *game = seeded(16, 16, 2, 0, 3);
    int32_t keep[2] = {LC_MOVE_NONE, LC_MOVE_NONE};
    int32_t moves[3] = {LC_MOVE_N, LC_MOVE_N, LC_MOVE_N};

    FAILS(lc_game_step(NULL, keep, 2), LC_STATUS_NULL_POINTER, "lc_game_step: game is null");
    FAILS(lc_game_step(game, NULL, 2), LC_STATUS_NULL_POINTER, "moves is null");
    FAILS(lc_game_step(game, NULL, 0), LC_STATUS_OUT_OF_RANGE, "count = 0, expected 2");
    FAILS(lc_game_step(game, moves, 3), LC_STATUS_OUT_OF_RANGE, "count = 3, expected 2");
    FAILS(lc_game_step(game, moves, 1), LC_STATUS_OUT_OF_RANGE, "count = 1, expected 2");
    int32_t bad[2] = {LC_MOVE_N, 4};
    FAILS(lc_game_step(game, bad, 2), LC_STATUS_OUT_OF_RANGE, "moves[1] = 4 is not a move code");
    bad[1] = -5;
    FAILS(lc_game_step(game, bad, 2), LC_STATUS_OUT_OF_RANGE, "moves[1] = -5");
    uint32_t tick = 7;
    OK(lc_game_tick(game, &tick));
    CHECK(tick == 0); /* failed steps change nothing */

    LcResult r;
    r.struct_size = sizeof r;
    FAILS(lc_game_result(game, &r), LC_STATUS_NOT_OVER, "the game goes on after tick 0");
    FAILS(lc_game_result(NULL, &r), LC_STATUS_NULL_POINTER, "game is null");
    FAILS(lc_game_result(game, NULL), LC_STATUS_NULL_POINTER, "out is null");
    bool over = true;
    OK(lc_game_is_over(game, &over));
    CHECK(!over);
    FAILS(lc_game_is_over(NULL, &over), LC_STATUS_NULL_POINTER, "game is null");
    FAILS(lc_game_is_over(game, NULL), LC_STATUS_NULL_POINTER, "out is null");

    /* Keep riding until someone hits a wall: every tick the trails grow. */
    uint32_t ticks = 0;
    while (!over) {
        OK(lc_game_step(game, keep, 2));
        ticks++;
        OK(lc_game_is_over(game, &over));
    }
    OK(lc_game_tick(game, &tick));
    CHECK(tick == ticks && ticks <= 16);
    FAILS(lc_game_step(game, keep, 2), LC_STATUS_GAME_OVER, "the game ended on tick");
    r.struct_size = 4;
    FAILS(lc_game_result(game, &r), LC_STATUS_STRUCT_SIZE, "out->struct_size = 4");
    r.struct_size = sizeof r + 16; /* a newer, larger struct is fine */
    OK(lc_game_result(game, &r));
    CHECK(r.ticks == ticks && r.num_players == 2);
    CHECK(r.winner == -1 ? r.draw == 1 : r.draw == 0);
    lc_game_free(game);
}

static void test_players_and_cells(void) {
    LcGame *game = seeded(20, 16, 3, 10, 3);
    /* docs/RULES.md 4.3: seed 3, 20 x 16, 3 players, 10 % rocks. */
    CHECK(player(game, 0).x == 15 && player(game, 0).y == 11 && player(game, 0).dir == LC_MOVE_E);
    CHECK(player(game, 1).x == 17 && player(game, 1).y == 8 && player(game, 1).dir == LC_MOVE_W);
    CHECK(player(game, 2).x == 10 && player(game, 2).y == 12 && player(game, 2).dir == LC_MOVE_S);
    LcPlayer p;
    p.struct_size = sizeof p;
    FAILS(lc_game_player(game, 3, &p), LC_STATUS_OUT_OF_RANGE, "player = 3 is not a player id below 3");
    FAILS(lc_game_player(NULL, 0, &p), LC_STATUS_NULL_POINTER, "game is null");
    FAILS(lc_game_player(game, 0, NULL), LC_STATUS_NULL_POINTER, "out is null");
    p.struct_size = 0;
    FAILS(lc_game_player(game, 0, &p), LC_STATUS_STRUCT_SIZE, "out->struct_size = 0");
    p.struct_size = 0xFFFFFFFFu;
    FAILS(lc_game_player(game, 0, &p), LC_STATUS_STRUCT_SIZE, "out->struct_size = 4294967295");

    int8_t v;
    OK(lc_game_cell(game, 16, 0, &v));
    CHECK(v == -2);
    OK(lc_game_cell(game, 19, 15, &v));
    FAILS(lc_game_cell(game, -1, 0, &v), LC_STATUS_OUT_OF_RANGE, "cell (-1, 0) is off the 20 × 16 board");
    FAILS(lc_game_cell(game, 0, 16, &v), LC_STATUS_OUT_OF_RANGE, "cell (0, 16)");
    FAILS(lc_game_cell(game, 20, 0, &v), LC_STATUS_OUT_OF_RANGE, "cell (20, 0)");
    FAILS(lc_game_cell(game, 0x7FFFFFFF, -0x7FFFFFFF, &v), LC_STATUS_OUT_OF_RANGE, "off the");
    FAILS(lc_game_cell(NULL, 0, 0, &v), LC_STATUS_NULL_POINTER, "game is null");
    FAILS(lc_game_cell(game, 0, 0, NULL), LC_STATUS_NULL_POINTER, "out is null");
    lc_game_free(game);
}

static void test_clone_and_copy(void) {
    LcGame *a = seeded(16, 16, 2, 0, 9);
    LcGame *b = NULL;
    OK(lc_game_clone(a, &b));
    int32_t moves[2] = {LC_MOVE_NONE, LC_MOVE_NONE};
    OK(lc_game_step(a, moves, 2));
    uint32_t ta = 0, tb = 0;
    OK(lc_game_tick(a, &ta));
    OK(lc_game_tick(b, &tb));
    CHECK(ta == 1 && tb == 0); /* independent copies */
    OK(lc_game_copy_into(a, b));
    OK(lc_game_tick(b, &tb));
    CHECK(tb == 1);
    CHECK(player(a, 0).x == player(b, 0).x && player(a, 1).y == player(b, 1).y);
    OK(lc_game_copy_into(a, a));

    LcGame *other = seeded(17, 16, 2, 0, 9);
    FAILS(lc_game_copy_into(a, other), LC_STATUS_SHAPE_MISMATCH, "src is 16 × 16 with 2 players, dst 17 × 16 with 2");
    FAILS(lc_game_copy_into(NULL, b), LC_STATUS_NULL_POINTER, "src is null");
    FAILS(lc_game_copy_into(a, NULL), LC_STATUS_NULL_POINTER, "dst is null");
    FAILS(lc_game_copy_into(NULL, NULL), LC_STATUS_NULL_POINTER, "src is null");
    LcGame *out = a;
    FAILS(lc_game_clone(NULL, &out), LC_STATUS_NULL_POINTER, "lc_game_clone: game is null");
    CHECK(out == NULL);
    FAILS(lc_game_clone(a, NULL), LC_STATUS_NULL_POINTER, "out is null");
    lc_game_free(other);
    lc_game_free(a);
    lc_game_free(b);
}

static void test_observations(void) {
    LcGame *game = seeded(8, 8, 2, 25, 123);
    size_t len = 0;
    FAILS(lc_game_observation_json(game, 1, NULL, 0, &len), LC_STATUS_BUFFER_TOO_SMALL, "capacity = 0");
    CHECK(len > 100);
    char *buf = malloc(len + 1);
    FAILS(lc_game_observation_json(game, 1, buf, len, &len), LC_STATUS_BUFFER_TOO_SMALL, "the JSON needs");
    OK(lc_game_observation_json(game, 1, buf, len + 1, &len));
    CHECK(strlen(buf) == len);
    /* docs/RULES.md 4.3, seed 123: (2,2,N) and (5,5,S). */
    const char *expected = "{\"tick\":1,\"max_ticks\":2000,\"width\":8,\"height\":8,\"you\":1,\"players\":"
                           "[{\"id\":0,\"x\":2,\"y\":2,\"dir\":\"N\",\"alive\":true},"
                           "{\"id\":1,\"x\":5,\"y\":5,\"dir\":\"S\",\"alive\":true}],\"grid\":[[";
    CHECK(strncmp(buf, expected, strlen(expected)) == 0);
    FAILS(lc_game_observation_json(game, 2, buf, len + 1, &len), LC_STATUS_OUT_OF_RANGE, "you: player = 2");
    FAILS(lc_game_observation_json(NULL, 0, buf, len + 1, &len), LC_STATUS_NULL_POINTER, "game is null");
    FAILS(lc_game_observation_json(game, 0, buf, len + 1, NULL), LC_STATUS_NULL_POINTER, "len is null");
    FAILS(lc_game_observation_json(game, 0, NULL, 10, &len), LC_STATUS_NULL_POINTER, "buf is null");

    /* JSON -> LcObservation -> game: the same state. */
    const LcObservation *obs = NULL;
    OK(lc_observation_from_json(buf, len, &obs));
    CHECK(obs->struct_size == sizeof(LcObservation) && obs->player_size == sizeof(LcPlayerView));
    CHECK(obs->tick == 1 && obs->max_ticks == 2000 && obs->width == 8 && obs->height == 8);
    CHECK(obs->you == 1 && obs->num_players == 2 && obs->time_limit_ms == 0);
    CHECK(obs->players[1].x == 5 && obs->players[1].y == 5 && obs->players[1].dir == LC_MOVE_S);
    CHECK(obs->players[1].alive == 1 && obs->players[1].id == 1);
    CHECK(obs->grid[2 * 8 + 2] == 0 && obs->grid[5 * 8 + 5] == 1 && obs->grid[0 * 8 + 6] == -2);
    LcGame *rebuilt = NULL;
    OK(lc_game_from_observation(obs, LC_FAULT_POLICY_STRAIGHT, &rebuilt));
    for (int y = 0; y < 8; y++) {
        for (int x = 0; x < 8; x++) {
            int8_t a, b;
            OK(lc_game_cell(game, x, y, &a));
            OK(lc_game_cell(rebuilt, x, y, &b));
            CHECK(a == b);
        }
    }
    OK(lc_game_copy_into(rebuilt, game)); /* same shape */

    /* An observation built by hand, as a host does, with a larger stride. */
    struct {
        LcPlayerView view;
        uint32_t newer_field;
    } views[2];
    memset(views, 0, sizeof views);
    int8_t grid[64];
    memcpy(grid, obs->grid, sizeof grid);
    for (int i = 0; i < 2; i++) views[i].view = obs->players[i];
    LcObservation mine = *obs;
    mine.players = &views[0].view;
    mine.player_size = sizeof views[0];
    mine.grid = grid;
    lc_observation_free(obs);
    LcGame *g2 = NULL;
    OK(lc_game_from_observation(&mine, LC_FAULT_POLICY_ELIMINATE, &g2));
    LcConfig c;
    c.struct_size = sizeof c;
    OK(lc_game_config(g2, &c));
    CHECK(c.fault_policy == LC_FAULT_POLICY_ELIMINATE && c.width == 8 && c.rock_density == 0);
    lc_game_free(g2);

    /* Every error of lc_game_from_observation. */
    LcGame *out = game;
    FAILS(lc_game_from_observation(NULL, 0, &out), LC_STATUS_NULL_POINTER, "obs is null");
    CHECK(out == NULL);
    FAILS(lc_game_from_observation(&mine, 0, NULL), LC_STATUS_NULL_POINTER, "out is null");
    FAILS(lc_game_from_observation(&mine, 5, &out), LC_STATUS_OUT_OF_RANGE, "fault_policy = 5");
    LcObservation bad = mine;
    bad.struct_size = 16;
    FAILS(lc_game_from_observation(&bad, 0, &out), LC_STATUS_STRUCT_SIZE, "obs->struct_size = 16");
    bad = mine;
    bad.player_size = 4;
    FAILS(lc_game_from_observation(&bad, 0, &out), LC_STATUS_STRUCT_SIZE, "obs->player_size = 4");
    bad = mine;
    bad.players = NULL;
    FAILS(lc_game_from_observation(&bad, 0, &out), LC_STATUS_NULL_POINTER, "obs->players is null");
    bad = mine;
    bad.grid = NULL;
    FAILS(lc_game_from_observation(&bad, 0, &out), LC_STATUS_NULL_POINTER, "obs->grid is null");
    bad = mine;
    bad.width = 7;
    FAILS(lc_game_from_observation(&bad, 0, &out), LC_STATUS_POSITION, "obs->width = 7");
    bad = mine;
    bad.num_players = 9;
    FAILS(lc_game_from_observation(&bad, 0, &out), LC_STATUS_POSITION, "obs->num_players = 9");
    bad = mine;
    bad.you = 2;
    FAILS(lc_game_from_observation(&bad, 0, &out), LC_STATUS_POSITION, "obs->you = 2");
    bad = mine;
    bad.max_ticks = 0;
    FAILS(lc_game_from_observation(&bad, 0, &out), LC_STATUS_CONFIG, "max_ticks = 0");
    views[1].view.dir = 9;
    FAILS(lc_game_from_observation(&mine, 0, &out), LC_STATUS_POSITION, "obs->players[1].dir = 9");
    views[1].view.dir = 2;
    views[1].view.x = 4; /* a head off its own trail */
    FAILS(lc_game_from_observation(&mine, 0, &out), LC_STATUS_POSITION, "head (4, 5) is not a cell of its own trail");
    views[1].view.x = 5;
    grid[0] = 7; /* not a cell value */
    FAILS(lc_game_from_observation(&mine, 0, &out), LC_STATUS_POSITION, "cell (0, 0) holds 7");
    CHECK(out == NULL);

    /* Every error of lc_observation_from_json. */
    const LcObservation *o = (const LcObservation *)buf;
    FAILS(lc_observation_from_json(buf, len, NULL), LC_STATUS_NULL_POINTER, "out is null");
    FAILS(lc_observation_from_json(NULL, 5, &o), LC_STATUS_NULL_POINTER, "json is null");
    CHECK(o == NULL);
    FAILS(lc_observation_from_json(NULL, 0, &o), LC_STATUS_NULL_POINTER, "json is null");
    FAILS(lc_observation_from_json("{\xfe}", 3, &o), LC_STATUS_PARSE, "json is not UTF-8");
    FAILS(lc_observation_from_json("{}", 2, &o), LC_STATUS_PARSE, "json is not an observation");
    FAILS(lc_observation_from_json(buf, len - 1, &o), LC_STATUS_PARSE, "json is not an observation");
    buf[strlen("{\"tick\":1,\"max_ticks\":2000,\"width\":8,\"height\":8,\"you\":")] = '5';
    FAILS(lc_observation_from_json(buf, len, &o), LC_STATUS_POSITION, "you = 5 is not a player id below 2");
    CHECK(o == NULL);
    lc_observation_free(NULL);

    free(buf);
    lc_game_free(rebuilt);
    lc_game_free(game);
}

/* An open 8 x 8 board with the heads at (1, 1) and (6, 6). */
static const char OPEN[] = "8 8\n        \n 1      \n        \n        \n        \n        \n      2 \n        \n";

static void test_search_helpers(void) {
    LcGame *game = NULL;
    OK(lc_game_from_map(OPEN, strlen(OPEN), 2000, LC_FAULT_POLICY_STRAIGHT, &game));
    uint32_t room = 0;
    OK(lc_game_reachable(game, 0, &room));
    CHECK(room == 62);
    uint32_t counts[3] = {99, 99, 99};
    int8_t owners[64];
    OK(lc_game_voronoi(game, counts, 3, owners, 64));
    CHECK(counts[0] == counts[1] && counts[2] == 99);
    CHECK(owners[0] == 0 && owners[63] == 1 && owners[1 * 8 + 1] == -1 && owners[7] == -1);
    int owned = 0;
    for (int i = 0; i < 64; i++) owned += owners[i] >= 0;
    CHECK((uint32_t)owned == counts[0] + counts[1]);
    OK(lc_game_voronoi(game, counts, 2, NULL, 0));
    OK(lc_game_voronoi(game, counts, 2, NULL, 5)); /* no owners wanted: the length is ignored */

    bool apart = true;
    OK(lc_game_separated(game, 0, 1, &apart));
    CHECK(!apart);
    OK(lc_game_separated(game, 1, 1, &apart));
    CHECK(!apart);
    FAILS(lc_game_separated(game, 0, 2, &apart), LC_STATUS_OUT_OF_RANGE, "b: player = 2");
    FAILS(lc_game_separated(game, 8, 0, &apart), LC_STATUS_OUT_OF_RANGE, "a: player = 8");
    FAILS(lc_game_separated(NULL, 0, 1, &apart), LC_STATUS_NULL_POINTER, "game is null");
    FAILS(lc_game_separated(game, 0, 1, NULL), LC_STATUS_NULL_POINTER, "out is null");

    FAILS(lc_game_reachable(game, 2, &room), LC_STATUS_OUT_OF_RANGE, "player = 2");
    FAILS(lc_game_reachable(NULL, 0, &room), LC_STATUS_NULL_POINTER, "game is null");
    FAILS(lc_game_reachable(game, 0, NULL), LC_STATUS_NULL_POINTER, "out is null");
    FAILS(lc_game_voronoi(NULL, counts, 2, NULL, 0), LC_STATUS_NULL_POINTER, "game is null");
    FAILS(lc_game_voronoi(game, NULL, 2, NULL, 0), LC_STATUS_NULL_POINTER, "counts is null");
    FAILS(lc_game_voronoi(game, counts, 1, NULL, 0), LC_STATUS_OUT_OF_RANGE, "counts_len = 1, expected at least 2");
    FAILS(lc_game_voronoi(game, counts, 2, owners, 63), LC_STATUS_OUT_OF_RANGE, "owners_len = 63, expected at least 64");

    /* Player 1 rides into the east wall: dead players reach and own nothing. */
    int32_t moves[2] = {LC_MOVE_S, LC_MOVE_E};
    bool over = false;
    while (!over) {
        OK(lc_game_step(game, moves, 2));
        OK(lc_game_is_over(game, &over));
    }
    OK(lc_game_reachable(game, 1, &room));
    CHECK(room == 0);
    OK(lc_game_voronoi(game, counts, 2, NULL, 0));
    OK(lc_game_reachable(game, 0, &room));
    CHECK(counts[1] == 0 && counts[0] == room);
    OK(lc_game_separated(game, 0, 1, &apart));
    CHECK(apart);
    lc_game_free(game);

    /* A wall with no gap: two rooms. */
    static const char WALLED[] = "8 8\n    #   \n 1  #   \n    #   \n    #   \n    #   \n    #   \n    # 2 \n    #   \n";
    OK(lc_game_from_map(WALLED, strlen(WALLED), 2000, LC_FAULT_POLICY_STRAIGHT, &game));
    OK(lc_game_separated(game, 0, 1, &apart));
    CHECK(apart);
    OK(lc_game_voronoi(game, counts, 2, NULL, 0));
    CHECK(counts[0] == 31 && counts[1] == 23);
    lc_game_free(game);
}

/* The lean search state plays the game's game, tick by tick, and answers its
 * flood fills alike; copies are independent; every error path. */
static void test_search_state(void) {
    LcGame *game = seeded(48, 36, 2, 4, 21);
    LcSearchState *state = NULL, *copy = NULL;
    OK(lc_search_state_new(game, &state));
    OK(lc_search_state_new(game, &copy));
    CHECK(state != NULL && copy != NULL);
    int32_t moves[2] = {LC_MOVE_E, LC_MOVE_W};
    bool over = false;
    uint32_t ticks = 0;
    while (!over) {
        /* Each player turns every seventh tick, and takes the first move
         * (from its turn on) whose target is empty, so that the trails bend
         * and the game lasts. */
        for (uint32_t id = 0; id < 2; id++) {
            LcPlayer me = player(game, id);
            static const int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
            int first = (int)(ticks % 7 == 6 ? (me.dir + 1 + 2 * id) % 4 : me.dir);
            for (int k = 0; k < 4; k++) {
                int d = (first + k) % 4, x = (int)me.x + dx[d], y = (int)me.y + dy[d];
                bool empty = false;
                if (x >= 0 && y >= 0 && x < 48 && y < 36 && lc_search_state_is_empty(state, x, y, &empty) == LC_STATUS_OK && empty) {
                    moves[id] = d;
                    break;
                }
            }
        }
        OK(lc_game_step(game, moves, 2));
        OK(lc_search_state_step(state, moves, 2));
        ticks++;
        uint32_t t = 0;
        OK(lc_search_state_tick(state, &t));
        CHECK(t == ticks);
        for (uint32_t id = 0; id < 2; id++) {
            LcPlayer want = player(game, id), got;
            memset(&got, 0xCD, sizeof got);
            got.struct_size = sizeof got;
            OK(lc_search_state_player(state, id, &got));
            CHECK(memcmp(&want, &got, sizeof want) == 0);
            uint32_t room_game = 0, room_state = 1;
            OK(lc_game_reachable(game, id, &room_game));
            OK(lc_search_state_reachable(state, id, &room_state));
            CHECK(room_game == room_state);
        }
        for (int y = 0; y < 36; y++) {
            for (int x = 0; x < 48; x++) {
                int8_t v = 0;
                bool empty = false;
                OK(lc_game_cell(game, x, y, &v));
                OK(lc_search_state_is_empty(state, x, y, &empty));
                CHECK(empty == (v == -1));
            }
        }
        uint32_t counts_game[2], counts_state[2];
        static int8_t owners_game[48 * 36], owners_state[48 * 36];
        OK(lc_game_voronoi(game, counts_game, 2, owners_game, sizeof owners_game));
        OK(lc_search_state_voronoi(state, counts_state, 2, owners_state, sizeof owners_state));
        CHECK(memcmp(counts_game, counts_state, sizeof counts_game) == 0);
        CHECK(memcmp(owners_game, owners_state, sizeof owners_game) == 0);
        OK(lc_search_state_voronoi(state, counts_state, 2, NULL, 0));
        CHECK(memcmp(counts_game, counts_state, sizeof counts_game) == 0);
        OK(lc_game_is_over(game, &over));
        bool lean_over = !over;
        OK(lc_search_state_is_over(state, &lean_over));
        CHECK(lean_over == over);
    }
    CHECK(ticks > 30);
    FAILS(lc_search_state_step(state, moves, 2), LC_STATUS_GAME_OVER, "the game ended on tick");

    /* The copy still holds the start; copying over it makes it the end. */
    uint32_t t = 99;
    OK(lc_search_state_tick(copy, &t));
    CHECK(t == 0);
    OK(lc_search_state_copy_into(state, copy));
    OK(lc_search_state_tick(copy, &t));
    CHECK(t == ticks);
    OK(lc_search_state_copy_into(copy, copy));
    FAILS(lc_search_state_copy_into(NULL, copy), LC_STATUS_NULL_POINTER, "src is null");
    FAILS(lc_search_state_copy_into(state, NULL), LC_STATUS_NULL_POINTER, "dst is null");
    FAILS(lc_search_state_copy_into(NULL, NULL), LC_STATUS_NULL_POINTER, "src is null");
    /* Copy-make in one call: the start played one tick further, the start kept. */
    LcSearchState *start = NULL;
    OK(lc_search_state_new(game, &start)); /* the game is over: its last state */
    FAILS(lc_search_state_step_from(start, copy, moves, 2), LC_STATUS_GAME_OVER, "the game ended");
    OK(lc_search_state_tick(copy, &t));
    CHECK(t == ticks); /* unchanged on error */
    lc_search_state_free(start);
    FAILS(lc_search_state_step_from(NULL, copy, moves, 2), LC_STATUS_NULL_POINTER, "src is null");
    FAILS(lc_search_state_step_from(copy, NULL, moves, 2), LC_STATUS_NULL_POINTER, "dst is null");
    FAILS(lc_search_state_step_from(copy, copy, moves, 3), LC_STATUS_OUT_OF_RANGE, "count = 3, expected 2");
    lc_search_state_free(copy);
    lc_search_state_free(state);
    lc_search_state_free(NULL);

    /* Errors. */
    LcSearchState *fresh = NULL;
    LcGame *small = seeded(16, 16, 3, 0, 2);
    LcGame *small_game_for_next = seeded(20, 20, 3, 0, 9); /* any board: states of any size copy */
    OK(lc_search_state_new(small, &fresh));
    lc_game_free(small); /* the state is a copy: it outlives its game */
    int32_t three[3] = {LC_MOVE_N, LC_MOVE_NONE, LC_FAULT_TIMEOUT};
    FAILS(lc_search_state_step(fresh, three, 2), LC_STATUS_OUT_OF_RANGE, "count = 2, expected 3");
    three[1] = 9;
    FAILS(lc_search_state_step(fresh, three, 3), LC_STATUS_OUT_OF_RANGE, "moves[1] = 9");
    OK(lc_search_state_tick(fresh, &t));
    CHECK(t == 0);
    three[1] = LC_FAULT_INVALID;
    LcSearchState *next = NULL;
    OK(lc_search_state_new(small_game_for_next, &next));
    OK(lc_search_state_step_from(fresh, next, three, 3));
    OK(lc_search_state_tick(next, &t));
    CHECK(t == 1);
    OK(lc_search_state_tick(fresh, &t));
    CHECK(t == 0); /* the source is kept */
    lc_search_state_free(next);
    OK(lc_search_state_step(fresh, three, 3));
    FAILS(lc_search_state_step(NULL, three, 3), LC_STATUS_NULL_POINTER, "state is null");
    FAILS(lc_search_state_step(fresh, NULL, 3), LC_STATUS_NULL_POINTER, "moves is null");
    bool empty = false;
    FAILS(lc_search_state_is_empty(fresh, 16, 0, &empty), LC_STATUS_OUT_OF_RANGE, "cell (16, 0) is off the 16 × 16 board");
    FAILS(lc_search_state_is_empty(fresh, 0, -1, &empty), LC_STATUS_OUT_OF_RANGE, "off the");
    FAILS(lc_search_state_is_empty(fresh, 0, 0, NULL), LC_STATUS_NULL_POINTER, "out is null");
    LcPlayer p;
    p.struct_size = sizeof p;
    FAILS(lc_search_state_player(fresh, 3, &p), LC_STATUS_OUT_OF_RANGE, "player = 3");
    p.struct_size = 4;
    FAILS(lc_search_state_player(fresh, 0, &p), LC_STATUS_STRUCT_SIZE, "out");
    uint32_t room = 0, counts[3];
    int8_t owners[256];
    FAILS(lc_search_state_reachable(fresh, 3, &room), LC_STATUS_OUT_OF_RANGE, "player = 3");
    FAILS(lc_search_state_reachable(NULL, 0, &room), LC_STATUS_NULL_POINTER, "state is null");
    FAILS(lc_search_state_voronoi(fresh, counts, 2, NULL, 0), LC_STATUS_OUT_OF_RANGE, "counts_len = 2, expected at least 3");
    FAILS(lc_search_state_voronoi(fresh, counts, 3, owners, 255), LC_STATUS_OUT_OF_RANGE, "owners_len = 255, expected at least 256");
    FAILS(lc_search_state_voronoi(fresh, NULL, 3, NULL, 0), LC_STATUS_NULL_POINTER, "counts is null");
    OK(lc_search_state_voronoi(fresh, counts, 3, owners, 256));
    FAILS(lc_search_state_tick(NULL, &t), LC_STATUS_NULL_POINTER, "state is null");
    FAILS(lc_search_state_is_over(fresh, NULL), LC_STATUS_NULL_POINTER, "out is null");
    lc_search_state_free(fresh);
    lc_game_free(small_game_for_next);

    LcSearchState *big = (LcSearchState *)&t; /* must be cleared on failure */
    LcGame *wide = seeded(65, 20, 2, 0, 1);
    FAILS(lc_search_state_new(wide, &big), LC_STATUS_OUT_OF_RANGE, "up to 64 × 64");
    CHECK(big == NULL);
    FAILS(lc_search_state_new(NULL, &big), LC_STATUS_NULL_POINTER, "game is null");
    FAILS(lc_search_state_new(wide, NULL), LC_STATUS_NULL_POINTER, "out is null");
    lc_game_free(wide);
    lc_game_free(game);
}

int main(void) {
    test_versions_and_names();
    test_config_and_new();
    test_from_map();
    test_step_and_result();
    test_players_and_cells();
    test_clone_and_copy();
    test_observations();
    test_search_helpers();
    test_search_state();
    printf("abi_test: %d checks passed\n", checks);
    return 0;
}
