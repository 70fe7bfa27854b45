/* A wasm bot linked with wasi-libc that tries what the sandbox refuses and
 * reads what it gives (tests/wasm.rs): it says on stderr whether it could
 * open a file, list the root, read an environment variable or its
 * arguments; each tick it reads both clocks and random bytes, logs them
 * and lets them choose among the moves that do not crash at once, so that
 * any difference in the clock or the random source changes the game.
 *   clang --target=wasm32-wasi -O2 -mexec-model=reactor -o probe.wasm wasi_probe.c
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define EXPORT(name) __attribute__((export_name(name)))
#define MAX_RECORD (40 + 8 * 20 + 255 * 255)

static uint8_t buffer[MAX_RECORD];

static uint32_t u32_at(const uint8_t *r, uint32_t at) {
    return (uint32_t)r[at] | (uint32_t)r[at + 1] << 8 | (uint32_t)r[at + 2] << 16 | (uint32_t)r[at + 3] << 24;
}

static uint64_t ns(clockid_t id) {
    struct timespec t;
    if (clock_gettime(id, &t) != 0) return 0;
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

EXPORT("lc_abi_version") int32_t lc_abi_version(void) { return 1; }

EXPORT("lc_new") int32_t lc_new(int64_t seed) {
    (void)seed;
    FILE *f = fopen("/etc/passwd", "r");
    fprintf(stderr, "open /etc/passwd: %s\n", f ? "opened" : strerror(errno));
    DIR *d = opendir("/");
    fprintf(stderr, "opendir /: %s\n", d ? "opened" : strerror(errno));
    const char *home = getenv("HOME");
    fprintf(stderr, "HOME: %s\n", home ? home : "(none)");
    struct timespec sleep = {0, 1000000};
    fprintf(stderr, "nanosleep: %s\n", nanosleep(&sleep, 0) == 0 ? "slept" : strerror(errno));
    return 0;
}

EXPORT("lc_buffer") uint8_t *lc_buffer(int32_t len) { return len >= 0 && len <= MAX_RECORD ? buffer : 0; }

EXPORT("lc_move") int32_t lc_move(const uint8_t *r, int32_t len) {
    static const int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
    if (r != buffer || len < 40) return -1;
    uint32_t tick = u32_at(r, 0), w = u32_at(r, 8), h = u32_at(r, 12), you = u32_at(r, 16), n = u32_at(r, 20);
    uint32_t me = 40 + 20 * you, x = u32_at(r, me), y = u32_at(r, me + 4);
    /* Some work, so that the clock moves under fuel. */
    volatile uint32_t sum = 0;
    for (uint32_t i = 0; i < 1000 + tick * 37; i++) sum += i;
    (void)sum;
    uint64_t mono = ns(CLOCK_MONOTONIC), real = ns(CLOCK_REALTIME);
    uint32_t random;
    getentropy(&random, sizeof random);
    fprintf(stderr, "tick %u: monotonic %llu realtime %llu random %08x\n", (unsigned)tick,
            (unsigned long long)mono, (unsigned long long)real, (unsigned)random);
    uint32_t pick = (uint32_t)(mono / 1000) ^ random;
    for (uint32_t k = 0; k < 4; k++) {
        uint32_t dir = (pick + k) % 4;
        int64_t nx = (int64_t)x + dx[dir], ny = (int64_t)y + dy[dir];
        if (nx >= 0 && ny >= 0 && nx < w && ny < h && (int8_t)r[40 + 20 * n + ny * w + nx] == -1) return (int32_t)dir;
    }
    return -1;
}
