// Exercises every part of include/lightcycles.hpp: the versions, Config,
// Game, SearchState and Observation as move-only owners, every error as a
// lightcycles::Error with its status, the space helpers, and a plugin bot
// derived from lightcycles::Bot, called through its exported table as a host
// calls it. Built and run under AddressSanitizer and UndefinedBehaviorSanitizer
// by tests/cpp_wrapper.rs; exits non-zero on the first failed check.

#include <lightcycles.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>

namespace lc = lightcycles;

static int checks = 0;

#define CHECK(cond)                                                              \
    do {                                                                         \
        checks++;                                                                \
        if (!(cond)) {                                                           \
            std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, \
                         #cond);                                                 \
            std::exit(1);                                                        \
        }                                                                        \
    } while (0)

// `expr` throws a lightcycles::Error of status `expected` whose message holds `needle`.
#define THROWS(expr, expected, needle)                                                          \
    do {                                                                                      \
        checks++;                                                                             \
        bool thrown_ = false;                                                                 \
        try {                                                                                 \
            (void)(expr);                                                                     \
        } catch (const lc::Error &e) {                                                        \
            thrown_ = e.status() == (expected) && std::strstr(e.what(), (needle)) != nullptr;   \
            if (!thrown_) std::fprintf(stderr, "%s: %s\n", e.status_name(), e.what());        \
        }                                                                                     \
        if (!thrown_) {                                                                       \
            std::fprintf(stderr, "%s:%d: %s did not throw %s with \"%s\"\n", __FILE__, __LINE__, \
                         #expr, #expected, needle);                                             \
            std::exit(1);                                                                     \
        }                                                                                     \
    } while (0)

static_assert(!std::is_copy_constructible<lc::Game>::value, "Game is move-only");
static_assert(!std::is_copy_assignable<lc::Game>::value, "Game is move-only");
static_assert(std::is_nothrow_move_constructible<lc::Game>::value, "Game moves without throwing");
static_assert(std::is_nothrow_move_assignable<lc::Game>::value, "Game moves without throwing");
static_assert(!std::is_copy_constructible<lc::SearchState>::value, "SearchState is move-only");
static_assert(std::is_nothrow_move_constructible<lc::SearchState>::value, "SearchState moves");
static_assert(!std::is_copy_constructible<lc::Observation>::value, "Observation is move-only");
static_assert(std::is_nothrow_move_assignable<lc::Observation>::value, "Observation moves");
static_assert(std::is_trivially_copyable<lc::Config>::value, "Config is a plain value");

static const char MAP[] =
    "8 8\n"
    "########\n"
    "#1     #\n"
    "#      #\n"
    "#  ##  #\n"
    "#  ##  #\n"
    "#      #\n"
    "#     2#\n"
    "########\n";

static void test_versions() {
    CHECK(lc::version() == LC_VERSION);
    CHECK(lc::library_matches_header());
    CHECK(lc_version_number() == LC_VERSION_NUMBER);
}

static void test_config() {
    const lc::Config defaults;
    CHECK(defaults.width() == 48 && defaults.height() == 36 && defaults.players() == 2);
    CHECK(defaults.c().struct_size == sizeof(LcConfig));
    lc::Config c = lc::Config().width(20).height(16).players(3).max_ticks(50).rock_density(0).fault_policy(
        LC_FAULT_POLICY_ELIMINATE);
    CHECK(c.width() == 20 && c.height() == 16 && c.players() == 3 && c.max_ticks() == 50);
    CHECK(c.rock_density() == 0 && c.fault_policy() == LC_FAULT_POLICY_ELIMINATE);
    THROWS(lc::Game(lc::Config().width(3), 1), LC_STATUS_CONFIG, "width");
    THROWS(lc::Game(lc::Config().fault_policy(9), 1), LC_STATUS_OUT_OF_RANGE, "fault_policy");
    const lc::Game game(c, 7);
    const lc::Config back = game.config();
    CHECK(back.width() == 20 && back.players() == 3 && back.fault_policy() == LC_FAULT_POLICY_ELIMINATE);
}

static void test_game() {
    lc::Game game(lc::Config().rock_density(0), 42);
    CHECK(game.tick() == 0 && !game.is_over());
    const LcPlayer p0 = game.player(0);
    CHECK(p0.alive == 1 && p0.trail == 1 && p0.eliminated_at == -1);
    CHECK(game.cell(static_cast<int32_t>(p0.x), static_cast<int32_t>(p0.y)) == 0);
    THROWS(game.cell(-1, 0), LC_STATUS_OUT_OF_RANGE, "lc_game_cell");
    THROWS(game.player(2), LC_STATUS_OUT_OF_RANGE, "lc_game_player");
    THROWS(game.result(), LC_STATUS_NOT_OVER, "lc_game_result");
    THROWS(game.step({LC_MOVE_N}), LC_STATUS_OUT_OF_RANGE, "count");
    THROWS(game.step({7, LC_MOVE_NONE}), LC_STATUS_OUT_OF_RANGE, "moves[0] = 7");
    CHECK(game.tick() == 0);  // a failed step leaves the game as it was

    // The space helpers.
    CHECK(game.reachable(0) > 100);
    CHECK(!game.separated(0, 1));
    const auto counts = game.voronoi();
    CHECK(counts[0] > 0 && counts[1] > 0 && counts[2] == 0);
    std::vector<int8_t> owners(48 * 36);
    uint32_t two[2] = {0, 0};
    game.voronoi(two, 2, owners.data(), owners.size());
    CHECK(two[0] == counts[0] && two[1] == counts[1]);
    THROWS(game.voronoi(two, 1, nullptr, 0), LC_STATUS_OUT_OF_RANGE, "counts_len");

    // clone and copy_from make independent games.
    lc::Game copy = game.clone();
    game.step({LC_MOVE_NONE, LC_MOVE_NONE});
    CHECK(game.tick() == 1 && copy.tick() == 0);
    copy.copy_from(game);
    CHECK(copy.tick() == 1);
    const lc::Game small(lc::Config().width(10).height(10), 1);
    THROWS(copy.copy_from(small), LC_STATUS_SHAPE_MISMATCH, "lc_game_copy_into");

    // The JSON observation, read back.
    const std::string json = game.observation_json(1);
    CHECK(json.find("\"you\":1") != std::string::npos && json.back() == '}');
    const lc::Observation obs = lc::Observation::from_json(json);
    CHECK(obs->you == 1 && obs->tick == 2 && obs->num_players == 2);
    CHECK(lc::player_view(*obs, 0).x == game.player(0).x);
    THROWS(lc::player_view(*obs, 2), LC_STATUS_OUT_OF_RANGE, "player_view");
    CHECK(lc::cell(*obs, static_cast<int32_t>(p0.x), static_cast<int32_t>(p0.y)) == 0);
    THROWS(lc::cell(*obs, 48, 0), LC_STATUS_OUT_OF_RANGE, "off the board");
    THROWS(lc::Observation::from_json("{\"tick\": 1}"), LC_STATUS_PARSE, "lc_observation_from_json");
    THROWS(game.observation_json(5), LC_STATUS_OUT_OF_RANGE, "you");

    // A game rebuilt from what a bot sees has the referee's state.
    const lc::Game rebuilt = lc::Game::from_observation(*obs);
    CHECK(rebuilt.tick() == 1 && rebuilt.player(1).x == game.player(1).x);

    // Play it out: the result, then no more steps.
    while (!game.is_over()) game.step({LC_MOVE_N, LC_MOVE_S});
    const LcResult r = game.result();
    CHECK(r.num_players == 2 && r.ticks == game.tick());
    THROWS(game.step({LC_MOVE_N, LC_MOVE_N}), LC_STATUS_GAME_OVER, "lc_game_step");
}

static void test_from_map_and_moves() {
    lc::Game game = lc::Game::from_map(MAP, 100, LC_FAULT_POLICY_ELIMINATE);
    CHECK(game.config().width() == 8 && game.config().max_ticks() == 100);
    THROWS(lc::Game::from_map("8 8\n#"), LC_STATUS_MAP, "line");

    // Moving leaves the source empty: it holds no handle and every call throws.
    lc::Game moved = std::move(game);
    CHECK(moved.get() != nullptr && game.get() == nullptr);
    THROWS(game.tick(), LC_STATUS_NULL_POINTER, "game is null");
    game = std::move(moved);  // move-assign back; the empty one is freed safely
    CHECK(game.tick() == 0);

    LcGame *raw = game.release();
    CHECK(game.get() == nullptr);
    lc::Game adopted = lc::Game::adopt(raw);
    CHECK(adopted.config().height() == 8);
}

static void test_search_state() {
    const lc::Game game(lc::Config().width(20).height(16).rock_density(0), 3);
    lc::SearchState root(game);
    lc::SearchState child(game);
    CHECK(root.tick() == 0 && !root.is_over());
    CHECK(root.reachable(0) == game.reachable(0));
    const auto counts = root.voronoi();
    const auto expected = game.voronoi();
    CHECK(counts[0] == expected[0] && counts[1] == expected[1]);
    const LcPlayer p = root.player(0);
    CHECK(!root.is_empty(static_cast<int32_t>(p.x), static_cast<int32_t>(p.y)));
    THROWS(root.is_empty(20, 0), LC_STATUS_OUT_OF_RANGE, "lc_search_state_is_empty");

    child.step_from(root, {LC_MOVE_E, LC_MOVE_W});
    CHECK(child.tick() == 1 && root.tick() == 0);
    child.copy_from(root);
    CHECK(child.tick() == 0);
    child.step({LC_MOVE_NONE, LC_MOVE_NONE});
    CHECK(child.tick() == 1);
    THROWS(child.step({9, 0}), LC_STATUS_OUT_OF_RANGE, "moves[0] = 9");
    uint32_t one[1];
    THROWS(child.voronoi(one, 1, nullptr, 0), LC_STATUS_OUT_OF_RANGE, "counts_len");

    lc::SearchState other = std::move(child);
    THROWS(child.tick(), LC_STATUS_NULL_POINTER, "state is null");
    CHECK(other.tick() == 1);

    const lc::Game large(lc::Config().width(100).height(20), 1);
    THROWS(lc::SearchState{large}, LC_STATUS_OUT_OF_RANGE, "lc_search_state_new");
}

// ---- The plugin ABI: a bot that rides towards the most room.

static int constructed = 0, destroyed = 0;

class RoomBot : public lc::Bot {
  public:
    RoomBot(const LcObservation &first, uint64_t seed) : seed_(seed) {
        constructed++;
        if (first.you > 7) throw std::runtime_error("no such seat");
    }
    ~RoomBot() override { destroyed++; }

    int32_t choose(const LcObservation &obs) override {
        const lc::Game game = lc::Game::from_observation(obs);
        const LcPlayerView &me = lc::player_view(obs, obs.you);
        static const int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
        int32_t best = LC_MOVE_NONE;
        uint32_t best_room = 0;
        for (int32_t d = 0; d < 4; d++) {
            const int32_t x = static_cast<int32_t>(me.x) + dx[d], y = static_cast<int32_t>(me.y) + dy[d];
            if (x < 0 || y < 0 || x >= static_cast<int32_t>(obs.width) || y >= static_cast<int32_t>(obs.height))
                continue;
            if (lc::cell(obs, x, y) != -1) continue;
            lc::Game next = game.clone();
            int32_t moves[LC_MAX_PLAYERS];
            for (uint32_t i = 0; i < obs.num_players; i++) moves[i] = LC_MOVE_NONE;
            moves[obs.you] = d;
            next.step(moves, obs.num_players);
            const uint32_t room = next.player(obs.you).alive ? next.reachable(obs.you) + 1 : 0;
            if (room > best_room) best = d, best_room = room;
        }
        return best;
    }

    uint64_t seed_;
};

LIGHTCYCLES_BOT_PLUGIN(RoomBot, "room-bot")

// A bot whose choose throws: the plugin answers LC_FAULT_INVALID instead.
class ThrowingBot : public lc::Bot {
  public:
    ThrowingBot(const LcObservation &, uint64_t) {}
    int32_t choose(const LcObservation &obs) override {
        (void)lc::Game::from_observation(obs, 7);  // an unknown fault policy throws
        return LC_MOVE_N;
    }
};

static void test_plugin() {
    const LcBotV1 *table = lightcycles_bot_v1();
    CHECK(table == lightcycles_bot_v1());  // one table, made once
    CHECK(table->struct_size == sizeof(LcBotV1) && table->abi_version == LC_BOT_ABI_VERSION);
    CHECK(std::strcmp(table->name, "room-bot") == 0);

    lc::Game game(lc::Config().width(16).height(12).rock_density(0), 9);
    const lc::Observation first = lc::Observation::from_json(game.observation_json(0));
    void *bot = table->create(first.get(), 77);
    CHECK(bot != nullptr && constructed == 1);
    CHECK(static_cast<RoomBot *>(static_cast<lc::Bot *>(bot))->seed_ == 77);
    CHECK(table->create(nullptr, 1) == nullptr);
    int played = 0;
    while (!game.is_over() && played < 30) {
        const lc::Observation obs = lc::Observation::from_json(game.observation_json(0));
        const int32_t move = table->choose(bot, obs.get());
        CHECK(move >= LC_MOVE_N && move <= LC_MOVE_W);
        game.step({move, LC_MOVE_NONE});
        played++;
    }
    CHECK(game.player(0).alive == 1);  // a room-seeking bot lives 30 ticks on an open 16 x 12 board
    CHECK(table->choose(bot, nullptr) == LC_FAULT_INVALID);
    CHECK(table->choose(nullptr, first.get()) == LC_FAULT_INVALID);
    table->destroy(bot);
    CHECK(destroyed == 1);

    // A constructor that throws is a bot that cannot play (and, never
    // constructed, is never destroyed).
    LcObservation odd = *first;
    odd.you = 9;
    CHECK(table->create(&odd, 1) == nullptr);
    CHECK(constructed == 2 && destroyed == 1);

    // A choose that throws is an invalid answer; nothing unwinds into the host.
    const LcBotV1 *throwing = lc::Plugin<ThrowingBot>::table("throwing");
    void *t = throwing->create(first.get(), 1);
    CHECK(t != nullptr);
    CHECK(throwing->choose(t, first.get()) == LC_FAULT_INVALID);
    throwing->destroy(t);
}

int main() {
    test_versions();
    test_config();
    test_game();
    test_from_map_and_moves();
    test_search_state();
    test_plugin();
    std::printf("wrapper: %d checks passed\n", checks);
    return 0;
}
