/*
 * A C plugin built for another plugin ABI version (LC_BOT_ABI_VERSION + 1):
 * the host must refuse it, naming both versions, and never call it.
 */
#include <stdint.h>
#include <stdlib.h>

#include "lightcycles.h"

static void *create(const LcObservation *first, uint64_t seed) {
    (void)first;
    (void)seed;
    abort();
}

static int32_t choose(void *bot, const LcObservation *obs) {
    (void)bot;
    (void)obs;
    abort();
}

static void destroy(void *bot) {
    (void)bot;
    abort();
}

static const LcBotV1 TABLE = {
    .struct_size = sizeof(LcBotV1),
    .abi_version = LC_BOT_ABI_VERSION + 1,
    .name = "other-abi",
    .create = create,
    .choose = choose,
    .destroy = destroy,
};

const LcBotV1 *lightcycles_bot_v1(void) { return &TABLE; }
