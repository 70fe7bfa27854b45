/* Chaos C plugins, one per macro: CHAOS_SEGV writes through NULL,
 * CHAOS_ABORT calls abort(), CHAOS_SPIN never returns from choose,
 * CHAOS_HOG allocates and touches memory until malloc fails, then aborts,
 * and CHAOS_EXIT calls exit(0). Each misbehaves on its first choose.
 * CHAOS_HANG_DESTROY plays (always N) but never returns from destroy. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lightcycles.h"

static void *create(const LcObservation *first, uint64_t seed) {
    (void)first;
    (void)seed;
    return malloc(1);
}

static volatile int *volatile nowhere = NULL;

static int32_t choose(void *bot, const LcObservation *obs) {
    (void)bot;
    (void)obs;
#if defined(CHAOS_SEGV)
    *nowhere = 1;
#elif defined(CHAOS_ABORT)
    abort();
#elif defined(CHAOS_SPIN)
    for (volatile uint64_t i = 0;; i++) {
    }
#elif defined(CHAOS_HOG)
    for (;;) {
        char *p = malloc(16u << 20);
        if (!p) abort();
        memset(p, 1, 16u << 20);
    }
#elif defined(CHAOS_EXIT)
    exit(0);
#endif
    return 0;
}

static void destroy(void *bot) {
#if defined(CHAOS_HANG_DESTROY)
    for (;;) {
        pause();
    }
#endif
    free(bot);
}

static const LcBotV1 TABLE = {
    .struct_size = sizeof(LcBotV1),
    .abi_version = LC_BOT_ABI_VERSION,
    .name = "chaos",
    .create = create,
    .choose = choose,
    .destroy = destroy,
};

const LcBotV1 *lightcycles_bot_v1(void) { return &TABLE; }
