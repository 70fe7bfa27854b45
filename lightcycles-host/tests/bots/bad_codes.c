/*
 * A misbehaving C plugin for the host's tests: on tick 2 it declines to
 * move (-1, no fault), on ticks 3, 4 and 5 it returns codes out of range
 * (7, -5, INT32_MAX: invalid answers); otherwise the free direction with the
 * longest straight run ahead.
 */
#include <stdint.h>
#include <stdlib.h>

#include "lightcycles.h"

static const int DX[4] = {0, 1, 0, -1};
static const int DY[4] = {-1, 0, 1, 0};

static int empty(const LcObservation *obs, int x, int y) {
    return x >= 0 && y >= 0 && (uint32_t)x < obs->width && (uint32_t)y < obs->height &&
           obs->grid[(size_t)y * obs->width + (size_t)x] == -1;
}

static void *create(const LcObservation *first, uint64_t seed) {
    (void)first;
    (void)seed;
    return malloc(1);
}

static int32_t choose(void *bot, const LcObservation *obs) {
    (void)bot;
    switch (obs->tick) {
        case 2: return LC_MOVE_NONE;
        case 3: return 7;
        case 4: return -5;
        case 5: return INT32_MAX;
        default: break;
    }
    const LcPlayerView *me =
        (const LcPlayerView *)((const char *)obs->players + (size_t)obs->you * obs->player_size);
    int32_t best = (int32_t)me->dir;
    int best_run = -1;
    for (int d = 0; d < 4; d++) {
        int run = 0, x = (int)me->x + DX[d], y = (int)me->y + DY[d];
        while (empty(obs, x, y)) {
            run++;
            x += DX[d];
            y += DY[d];
        }
        if (run > best_run) {
            best = d;
            best_run = run;
        }
    }
    return best;
}

static void destroy(void *bot) { free(bot); }

static const LcBotV1 TABLE = {
    .struct_size = sizeof(LcBotV1),
    .abi_version = LC_BOT_ABI_VERSION,
    .name = "bad-codes",
    .create = create,
    .choose = choose,
    .destroy = destroy,
};

const LcBotV1 *lightcycles_bot_v1(void) { return &TABLE; }
