/*
 * LightCycles for C++17: a header-only wrapper over the C API of
 * lightcycles.h, written by hand (lightcycles.h is generated; this is not).
 *
 * - Game, SearchState and Observation own their C handle: move-only, freed
 *   by their destructor. A moved-from object holds no handle; using it
 *   throws (the C API reports the null handle).
 * - Config is a plain value (an LcConfig holds no resource), copied freely.
 * - Every failing call throws lightcycles::Error, which carries the
 *   LcStatus and the text of lc_last_error(). Nothing else is thrown but
 *   std::bad_alloc.
 * - The space helpers (reachable, separated, voronoi) are members of Game
 *   and SearchState.
 * - A plugin bot derives from lightcycles::Bot and exports its table with
 *   LIGHTCYCLES_BOT_PLUGIN(MyBot, "my-bot"); no exception crosses the
 *   plugin ABI.
 * - get() gives the C handle, for calls the wrapper does not cover.
 *
 * Tested under AddressSanitizer and UndefinedBehaviorSanitizer by
 * lightcycles-ffi/tests/cpp_wrapper.rs; docs/c-api.md shows its use.
 */

#ifndef LIGHTCYCLES_HPP
#define LIGHTCYCLES_HPP

#include "lightcycles.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#if !(__cplusplus >= 201703L || (defined(_MSVC_LANG) && _MSVC_LANG >= 201703L))
#error "lightcycles.hpp needs C++17 (lightcycles.h alone is C11)"
#endif

namespace lightcycles {

/* ---- Versions ---------------------------------------------------------- */

/** The version of the library loaded ("0.1.0"); LC_VERSION is the header's. */
inline std::string_view version() noexcept { return lc_version(); }

/** Whether the library loaded is the one this header belongs to: the same
 *  version and the same C ABI. */
inline bool library_matches_header() noexcept {
    return lc_version_number() == LC_VERSION_NUMBER && lc_abi_version() == LC_ABI_VERSION;
}

/* ---- Errors ------------------------------------------------------------ */

/** A failed call of the C API: its status and lc_last_error()'s text. */
class Error : public std::runtime_error {
  public:
    Error(LcStatus status, const std::string &message) : std::runtime_error(message), status_(status) {}
    /** The status the C call returned (never LC_STATUS_OK). */
    LcStatus status() const noexcept { return status_; }
    /** The status's name, for example "LC_STATUS_GAME_OVER". */
    const char *status_name() const noexcept { return lc_status_name(static_cast<int32_t>(status_)); }

  private:
    LcStatus status_;
};

namespace detail {
/** Throws the Error of a failed call; the message is read right away, while
 *  it is still the last error of this thread. */
inline void check(LcStatus status) {
    if (status != LC_STATUS_OK) throw Error(status, lc_last_error());
}

/** A C struct of the library with struct_size set. */
template <class T>
T sized() noexcept {
    T value{};
    value.struct_size = sizeof(T);
    return value;
}
}  // namespace detail

/* ---- Config ------------------------------------------------------------ */

/** Everything that defines a game besides its seed (or map): the defaults
 *  of lc_config_default(), changed by chained setters. The library checks
 *  the bounds when a Game is made from it. */
class Config {
  public:
    Config() noexcept : c_(lc_config_default()) {}
    /** A copy of a C configuration (its struct_size is set here). */
    explicit Config(const LcConfig &c) noexcept : c_(c) { c_.struct_size = sizeof(LcConfig); }

    Config &width(uint32_t v) noexcept { return c_.width = v, *this; }
    Config &height(uint32_t v) noexcept { return c_.height = v, *this; }
    Config &players(uint32_t v) noexcept { return c_.players = v, *this; }
    Config &max_ticks(uint32_t v) noexcept { return c_.max_ticks = v, *this; }
    Config &rock_density(uint32_t v) noexcept { return c_.rock_density = v, *this; }
    /** LC_FAULT_POLICY_STRAIGHT or LC_FAULT_POLICY_ELIMINATE. */
    Config &fault_policy(uint32_t v) noexcept { return c_.fault_policy = v, *this; }

    uint32_t width() const noexcept { return c_.width; }
    uint32_t height() const noexcept { return c_.height; }
    uint32_t players() const noexcept { return c_.players; }
    uint32_t max_ticks() const noexcept { return c_.max_ticks; }
    uint32_t rock_density() const noexcept { return c_.rock_density; }
    uint32_t fault_policy() const noexcept { return c_.fault_policy; }

    /** The C struct, for the C API. */
    const LcConfig &c() const noexcept { return c_; }

  private:
    LcConfig c_;
};

/* ---- Observations ------------------------------------------------------ */

/** Player `i` of an observation, stepping by player_size as the ABI asks
 *  (an observation from a newer library may have larger elements). */
inline const LcPlayerView &player_view(const LcObservation &obs, uint32_t i) {
    if (i >= obs.num_players) throw Error(LC_STATUS_OUT_OF_RANGE, "player_view: no such player");
    const auto *bytes = reinterpret_cast<const unsigned char *>(obs.players);
    return *reinterpret_cast<const LcPlayerView *>(bytes + static_cast<size_t>(i) * obs.player_size);
}

/** Cell (x, y) of an observation: -1 empty, -2 rock, p >= 0 a trail of
 *  player p. Off the board throws (to the rules it is a wall). */
inline int8_t cell(const LcObservation &obs, int32_t x, int32_t y) {
    if (x < 0 || y < 0 || static_cast<uint32_t>(x) >= obs.width || static_cast<uint32_t>(y) >= obs.height) {
        throw Error(LC_STATUS_OUT_OF_RANGE, "cell: off the board");
    }
    return obs.grid[static_cast<size_t>(y) * obs.width + static_cast<size_t>(x)];
}

/** An observation read from one JSON line of docs/RULES.md section 5, owned
 *  (lc_observation_from_json, freed by lc_observation_free). */
class Observation {
  public:
    /** Reads one line; throws LC_STATUS_PARSE or LC_STATUS_POSITION. */
    static Observation from_json(std::string_view line) {
        const LcObservation *obs = nullptr;
        detail::check(lc_observation_from_json(line.data(), line.size(), &obs));
        return Observation(obs);
    }
    Observation(Observation &&other) noexcept : obs_(std::exchange(other.obs_, nullptr)) {}
    Observation &operator=(Observation &&other) noexcept {
        if (this != &other) {
            lc_observation_free(obs_);
            obs_ = std::exchange(other.obs_, nullptr);
        }
        return *this;
    }
    Observation(const Observation &) = delete;
    Observation &operator=(const Observation &) = delete;
    ~Observation() { lc_observation_free(obs_); }

    /** The C observation (what a plugin receives). */
    const LcObservation &operator*() const noexcept { return *obs_; }
    const LcObservation *operator->() const noexcept { return obs_; }
    const LcObservation *get() const noexcept { return obs_; }

  private:
    explicit Observation(const LcObservation *obs) noexcept : obs_(obs) {}
    const LcObservation *obs_;
};

/* ---- Game -------------------------------------------------------------- */

/** A game (LcGame), owned. */
class Game {
  public:
    /** The seeded game of `config` (docs/RULES.md section 4). */
    Game(const Config &config, uint64_t seed) { detail::check(lc_game_new(&config.c(), seed, &game_)); }
    /** A game on a map in the 2010 Google AI Challenge format. */
    static Game from_map(std::string_view text, uint32_t max_ticks = 2000,
                         uint32_t fault_policy = LC_FAULT_POLICY_STRAIGHT) {
        LcGame *game = nullptr;
        detail::check(lc_game_from_map(text.data(), text.size(), max_ticks, fault_policy, &game));
        return Game(game);
    }
    /** The game an observation shows, to search from the referee's state. */
    static Game from_observation(const LcObservation &obs, uint32_t fault_policy = LC_FAULT_POLICY_STRAIGHT) {
        LcGame *game = nullptr;
        detail::check(lc_game_from_observation(&obs, fault_policy, &game));
        return Game(game);
    }
    /** Takes ownership of a handle from the C API. */
    static Game adopt(LcGame *game) noexcept { return Game(game); }

    Game(Game &&other) noexcept : game_(std::exchange(other.game_, nullptr)) {}
    Game &operator=(Game &&other) noexcept {
        if (this != &other) {
            lc_game_free(game_);
            game_ = std::exchange(other.game_, nullptr);
        }
        return *this;
    }
    Game(const Game &) = delete;
    Game &operator=(const Game &) = delete;
    ~Game() { lc_game_free(game_); }

    /** An independent copy (allocates: in a search, keep games and use copy_from). */
    Game clone() const {
        LcGame *copy = nullptr;
        detail::check(lc_game_clone(game_, &copy));
        return Game(copy);
    }
    /** Becomes a copy of `src`, reusing this game's memory (same board and players). */
    void copy_from(const Game &src) { detail::check(lc_game_copy_into(src.game_, game_)); }

    /** Plays one tick: one move code per player, by id. */
    void step(const int32_t *moves, size_t count) { detail::check(lc_game_step(game_, moves, count)); }
    void step(std::initializer_list<int32_t> moves) { step(moves.begin(), moves.size()); }
    void step(const std::vector<int32_t> &moves) { step(moves.data(), moves.size()); }

    Config config() const {
        LcConfig c = detail::sized<LcConfig>();
        detail::check(lc_game_config(game_, &c));
        return Config(c);
    }
    /** Ticks played so far. */
    uint32_t tick() const {
        uint32_t t = 0;
        detail::check(lc_game_tick(game_, &t));
        return t;
    }
    /** -1 empty, -2 rock, p >= 0 a trail of player p; off the board throws. */
    int8_t cell(int32_t x, int32_t y) const {
        int8_t v = 0;
        detail::check(lc_game_cell(game_, x, y, &v));
        return v;
    }
    LcPlayer player(uint32_t id) const {
        LcPlayer p = detail::sized<LcPlayer>();
        detail::check(lc_game_player(game_, id, &p));
        return p;
    }
    bool is_over() const {
        bool over = false;
        detail::check(lc_game_is_over(game_, &over));
        return over;
    }
    /** How the game ended; throws LC_STATUS_NOT_OVER while it goes on. */
    LcResult result() const {
        LcResult r = detail::sized<LcResult>();
        detail::check(lc_game_result(game_, &r));
        return r;
    }
    /** The JSON line player `you` is sent (docs/RULES.md section 5). */
    std::string observation_json(uint32_t you) const {
        size_t len = 0;
        const LcStatus probe = lc_game_observation_json(game_, you, nullptr, 0, &len);
        if (probe != LC_STATUS_BUFFER_TOO_SMALL) detail::check(probe);
        std::string json(len + 1, '\0');
        detail::check(lc_game_observation_json(game_, you, json.data(), json.size(), &len));
        json.resize(len);
        return json;
    }

    /** Empty cells `player` can reach from its head: its room left. */
    uint32_t reachable(uint32_t player) const {
        uint32_t n = 0;
        detail::check(lc_game_reachable(game_, player, &n));
        return n;
    }
    /** Whether players `a` and `b` can no longer meet. */
    bool separated(uint32_t a, uint32_t b) const {
        bool apart = false;
        detail::check(lc_game_separated(game_, a, b, &apart));
        return apart;
    }
    /** The Voronoi split: cells each player reaches first, by id (0 past the players). */
    std::array<uint32_t, LC_MAX_PLAYERS> voronoi() const {
        std::array<uint32_t, LC_MAX_PLAYERS> counts{};
        voronoi(counts.data(), counts.size(), nullptr, 0);
        return counts;
    }
    /** The Voronoi split with each cell's owner (-1 none), as lc_game_voronoi. */
    void voronoi(uint32_t *counts, size_t counts_len, int8_t *owners, size_t owners_len) const {
        detail::check(lc_game_voronoi(game_, counts, counts_len, owners, owners_len));
    }

    /** The C handle (still owned by this Game). */
    LcGame *get() noexcept { return game_; }
    const LcGame *get() const noexcept { return game_; }
    /** Gives up the handle: the caller frees it with lc_game_free. */
    LcGame *release() noexcept { return std::exchange(game_, nullptr); }

  private:
    explicit Game(LcGame *game) noexcept : game_(game) {}
    LcGame *game_ = nullptr;
};

/* ---- SearchState ------------------------------------------------------- */

/** The lean state of a search (LcSearchState, boards up to 64 x 64), owned. */
class SearchState {
  public:
    /** The search state of `game`; throws LC_STATUS_OUT_OF_RANGE for a larger board. */
    explicit SearchState(const Game &game) { detail::check(lc_search_state_new(game.get(), &state_)); }

    SearchState(SearchState &&other) noexcept : state_(std::exchange(other.state_, nullptr)) {}
    SearchState &operator=(SearchState &&other) noexcept {
        if (this != &other) {
            lc_search_state_free(state_);
            state_ = std::exchange(other.state_, nullptr);
        }
        return *this;
    }
    SearchState(const SearchState &) = delete;
    SearchState &operator=(const SearchState &) = delete;
    ~SearchState() { lc_search_state_free(state_); }

    /** Becomes a copy of `src` (640 bytes, no allocation, any boards). */
    void copy_from(const SearchState &src) { detail::check(lc_search_state_copy_into(src.state_, state_)); }
    /** Plays one tick, as Game::step. */
    void step(const int32_t *moves, size_t count) { detail::check(lc_search_state_step(state_, moves, count)); }
    void step(std::initializer_list<int32_t> moves) { step(moves.begin(), moves.size()); }
    /** The copy-make of a search: becomes `src` one tick further. */
    void step_from(const SearchState &src, const int32_t *moves, size_t count) {
        detail::check(lc_search_state_step_from(src.state_, state_, moves, count));
    }
    void step_from(const SearchState &src, std::initializer_list<int32_t> moves) {
        step_from(src, moves.begin(), moves.size());
    }

    uint32_t tick() const {
        uint32_t t = 0;
        detail::check(lc_search_state_tick(state_, &t));
        return t;
    }
    bool is_over() const {
        bool over = false;
        detail::check(lc_search_state_is_over(state_, &over));
        return over;
    }
    LcPlayer player(uint32_t id) const {
        LcPlayer p = detail::sized<LcPlayer>();
        detail::check(lc_search_state_player(state_, id, &p));
        return p;
    }
    /** Whether cell (x, y) is empty; off the board throws. */
    bool is_empty(int32_t x, int32_t y) const {
        bool empty = false;
        detail::check(lc_search_state_is_empty(state_, x, y, &empty));
        return empty;
    }
    uint32_t reachable(uint32_t player) const {
        uint32_t n = 0;
        detail::check(lc_search_state_reachable(state_, player, &n));
        return n;
    }
    std::array<uint32_t, LC_MAX_PLAYERS> voronoi() const {
        std::array<uint32_t, LC_MAX_PLAYERS> counts{};
        voronoi(counts.data(), counts.size(), nullptr, 0);
        return counts;
    }
    void voronoi(uint32_t *counts, size_t counts_len, int8_t *owners, size_t owners_len) const {
        detail::check(lc_search_state_voronoi(state_, counts, counts_len, owners, owners_len));
    }

    LcSearchState *get() noexcept { return state_; }
    const LcSearchState *get() const noexcept { return state_; }

  private:
    LcSearchState *state_ = nullptr;
};

/* ---- The plugin ABI ---------------------------------------------------- */

/** A bot of a native plugin. Derive from it, give the class a constructor
 *  taking (const LcObservation &first, uint64_t seed), and export it with
 *  LIGHTCYCLES_BOT_PLUGIN. The observation passed to choose is the host's,
 *  valid during the call only: copy what you keep. */
class Bot {
  public:
    virtual ~Bot() = default;
    /** The move for `obs`: LC_MOVE_N, _E, _S, _W, or LC_MOVE_NONE. */
    virtual int32_t choose(const LcObservation &obs) = 0;
};

/** The LcBotV1 table of bot class T, with the three functions of the ABI.
 *  They let no exception out: a constructor that throws is a bot that cannot
 *  play (create returns NULL: the host counts crashes), and a choose that
 *  throws gives LC_FAULT_INVALID, an invalid answer (a fault on that tick). */
template <class T>
struct Plugin {
    static_assert(std::is_base_of<Bot, T>::value, "a plugin bot derives from lightcycles::Bot");
    static_assert(std::is_constructible<T, const LcObservation &, uint64_t>::value,
                  "a plugin bot is constructible from (const LcObservation &first, uint64_t seed)");

    static void *create(const LcObservation *first, uint64_t seed) noexcept {
        if (first == nullptr) return nullptr;
        try {
            return static_cast<Bot *>(new T(*first, seed));
        } catch (...) {
            return nullptr;
        }
    }
    static int32_t choose(void *bot, const LcObservation *obs) noexcept {
        if (bot == nullptr || obs == nullptr) return LC_FAULT_INVALID;
        try {
            return static_cast<Bot *>(bot)->choose(*obs);
        } catch (...) {
            return LC_FAULT_INVALID;
        }
    }
    static void destroy(void *bot) noexcept { delete static_cast<Bot *>(bot); }

    /** The table, made on the first call; `name` must outlive the library
     *  (a string literal). */
    static const LcBotV1 *table(const char *name) noexcept {
        static const LcBotV1 t = {sizeof(LcBotV1), LC_BOT_ABI_VERSION, name, &create, &choose, &destroy};
        return &t;
    }
};

}  // namespace lightcycles

/** The visibility a plugin's entry symbol needs. */
#if defined(_WIN32)
#define LIGHTCYCLES_EXPORT __declspec(dllexport)
#else
#define LIGHTCYCLES_EXPORT __attribute__((visibility("default")))
#endif

/** Exports lightcycles_bot_v1 for bot class BotClass, named `name`: one line
 *  per plugin, at namespace scope. */
#define LIGHTCYCLES_BOT_PLUGIN(BotClass, name)                                \
    extern "C" LIGHTCYCLES_EXPORT const LcBotV1 *lightcycles_bot_v1(void) {   \
        return ::lightcycles::Plugin<BotClass>::table(name);                  \
    }

#endif /* LIGHTCYCLES_HPP */
