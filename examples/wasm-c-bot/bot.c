/* A LightCycles wasm bot in C: guest ABI version 1 (docs/wasm-bots.md).
 * It rides on while the cell ahead is free, else takes the first free
 * turn, or its seed's choice when both sides are free.
 *
 * Built with wasi-libc (Debian's wasi-libc) it says on stderr, which is
 * its log, where it turns:
 *   clang --target=wasm32-wasi -O2 -mexec-model=reactor -o c_bot.wasm bot.c
 * Built without a C library it is the same bot, silent, and imports
 * nothing:
 *   clang --target=wasm32 -O2 -nostdlib -Wl,--no-entry -o c_bot.wasm bot.c
 */
#include <stdint.h>
#ifdef __wasi__
#include <stdio.h>
#endif

#define EXPORT(name) __attribute__((export_name(name)))

/* The largest record: 40 + 8 players x 20 + 255 x 255 cells. */
#define MAX_RECORD (40 + 8 * 20 + 255 * 255)

static uint8_t buffer[MAX_RECORD];
static uint64_t rng;

static uint32_t u32_at(const uint8_t *r, uint32_t at) {
    return (uint32_t)r[at] | (uint32_t)r[at + 1] << 8 | (uint32_t)r[at + 2] << 16 | (uint32_t)r[at + 3] << 24;
}

/* SplitMix64, for the one choice the board leaves open. */
static uint64_t next(void) {
    uint64_t z = (rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Whether riding `dir` from (x, y) reaches a free cell. */
static int free_after(const uint8_t *r, uint32_t x, uint32_t y, uint32_t dir) {
    static const int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
    uint32_t w = u32_at(r, 8), h = u32_at(r, 12), n = u32_at(r, 20);
    int64_t nx = (int64_t)x + dx[dir], ny = (int64_t)y + dy[dir];
    if (nx < 0 || ny < 0 || nx >= w || ny >= h) return 0;
    return (int8_t)r[40 + 20 * n + ny * w + nx] == -1;
}

/* A line on stderr: the bot's log. Nothing without a C library. */
static void say(uint32_t tick, const char *what, uint32_t dir) {
#ifdef __wasi__
    static const char *names = "NESW";
    fprintf(stderr, "tick %u: %s, riding %c\n", (unsigned)tick, what, names[dir]);
#else
    (void)tick, (void)what, (void)dir;
#endif
}

EXPORT("lc_abi_version") int32_t lc_abi_version(void) { return 1; }

EXPORT("lc_new") int32_t lc_new(int64_t seed) {
    rng = (uint64_t)seed;
    return 0;
}

EXPORT("lc_buffer") uint8_t *lc_buffer(int32_t len) { return len >= 0 && len <= MAX_RECORD ? buffer : 0; }

EXPORT("lc_move") int32_t lc_move(const uint8_t *r, int32_t len) {
    if (r != buffer || len < 40) return -1;
    uint32_t tick = u32_at(r, 0), you = u32_at(r, 16), me = 40 + 20 * you;
    uint32_t x = u32_at(r, me), y = u32_at(r, me + 4), dir = u32_at(r, me + 8);
    if (free_after(r, x, y, dir)) return (int32_t)dir;
    uint32_t left = (dir + 3) % 4, right = (dir + 1) % 4;
    int l = free_after(r, x, y, left), rt = free_after(r, x, y, right);
    uint32_t turn = l && rt ? (next() & 1 ? left : right) : l ? left : right;
    if (!l && !rt) {
        say(tick, "boxed in", dir);
        return -1;
    }
    say(tick, l && rt ? "blocked ahead, a free turn either side" : "blocked ahead", turn);
    return (int32_t)turn;
}
