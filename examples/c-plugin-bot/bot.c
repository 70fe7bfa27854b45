/*
 * A small LightCycles bot as a C plugin: each tick it takes the free
 * neighbour with the most room behind it (a flood fill of the empty cells
 * it could still reach), breaking ties by going straight.
 *
 * Build (from the repository root) and play:
 *
 *   cc -std=c11 -O2 -fPIC -shared -Iinclude examples/c-plugin-bot/bot.c -o libc_plugin_bot.so
 *   lightcycles play ./libc_plugin_bot.so builtin:random
 *
 * The plugin needs only the header: it reads the observation the host
 * gives it and keeps no engine of its own.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lightcycles.h"

typedef struct Bot {
    uint32_t cells;  /* capacity of the buffers below */
    uint8_t *seen;
    uint32_t *queue;
} Bot;

static const int DX[4] = {0, 1, 0, -1};
static const int DY[4] = {-1, 0, 1, 0};

static const LcPlayerView *player(const LcObservation *obs, uint32_t id) {
    return (const LcPlayerView *)((const char *)obs->players + (size_t)id * obs->player_size);
}

static int empty(const LcObservation *obs, int x, int y) {
    return x >= 0 && y >= 0 && (uint32_t)x < obs->width && (uint32_t)y < obs->height &&
           obs->grid[(size_t)y * obs->width + (size_t)x] == -1;
}

/* Empty cells reachable from (x, y), itself included. */
static uint32_t room(Bot *bot, const LcObservation *obs, int x, int y) {
    uint32_t w = obs->width, head = 0, tail = 0;
    memset(bot->seen, 0, (size_t)obs->width * obs->height);
    bot->seen[(size_t)y * w + (size_t)x] = 1;
    bot->queue[tail++] = (uint32_t)y * w + (uint32_t)x;
    while (head < tail) {
        uint32_t c = bot->queue[head++];
        int cx = (int)(c % w), cy = (int)(c / w);
        for (int d = 0; d < 4; d++) {
            int nx = cx + DX[d], ny = cy + DY[d];
            if (empty(obs, nx, ny) && !bot->seen[(size_t)ny * w + (size_t)nx]) {
                bot->seen[(size_t)ny * w + (size_t)nx] = 1;
                bot->queue[tail++] = (uint32_t)ny * w + (uint32_t)nx;
            }
        }
    }
    return tail;
}

static void *create(const LcObservation *first, uint64_t seed) {
    (void)seed;
    Bot *bot = calloc(1, sizeof(Bot));
    if (!bot) return NULL;
    bot->cells = first->width * first->height;
    bot->seen = malloc(bot->cells);
    bot->queue = malloc(sizeof(uint32_t) * bot->cells);
    if (!bot->seen || !bot->queue) {
        free(bot->seen);
        free(bot->queue);
        free(bot);
        return NULL;
    }
    return bot;
}

static int32_t choose(void *opaque, const LcObservation *obs) {
    Bot *bot = opaque;
    if (obs->width * obs->height > bot->cells) return LC_MOVE_NONE;
    const LcPlayerView *me = player(obs, obs->you);
    int32_t best = LC_MOVE_NONE;
    uint32_t best_room = 0;
    for (int d = 0; d < 4; d++) {
        int nx = (int)me->x + DX[d], ny = (int)me->y + DY[d];
        if (!empty(obs, nx, ny)) continue;
        uint32_t r = room(bot, obs, nx, ny);
        if (r > best_room || (r == best_room && (uint32_t)d == me->dir)) {
            best = d;
            best_room = r;
        }
    }
    return best;
}

static void destroy(void *opaque) {
    Bot *bot = opaque;
    free(bot->seen);
    free(bot->queue);
    free(bot);
}

static const LcBotV1 TABLE = {
    .struct_size = sizeof(LcBotV1),
    .abi_version = LC_BOT_ABI_VERSION,
    .name = "c-plugin-bot",
    .create = create,
    .choose = choose,
    .destroy = destroy,
};

const LcBotV1 *lightcycles_bot_v1(void) { return &TABLE; }
