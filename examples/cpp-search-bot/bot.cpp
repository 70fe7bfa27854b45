// A LightCycles bot in C++17 that links the engine through its C ABI, on
// the C++ wrapper lightcycles.hpp (RAII games, errors as exceptions, the
// plugin as a class deriving from lightcycles::Bot), and searches: iterative-deepening alpha-beta over simultaneous moves (the bot
// commits to a move, the opponent answers it), a Voronoi evaluation, and a
// time budget per move.
//
// One source, two builds:
//   -DLC_BOT_PLUGIN  a plugin exporting lightcycles_bot_v1 (the plugin ABI);
//   otherwise        a program speaking the JSON-lines protocol: one
//                    observation per line on stdin, one answer N/E/S/W per
//                    line on stdout. Options: --time-ms N (budget per move,
//                    default 40), --verbose (one line per move on stderr).
// See README.md beside this file for the build commands.

#include <lightcycles.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace {

namespace lc = lightcycles;

using Clock = std::chrono::steady_clock;

// Scores, from the bot's point of view.
constexpr int kWin = 100000000;                // a won game (minus the plies it takes)
constexpr int kDraw = -kWin / 2;               // a draw: better than losing, worse than playing on
constexpr int kInfinity = 2 * kWin;            // beyond every score
constexpr int kSeparatedWeight = 64;           // one cell of room, once the players are apart
constexpr int kDecided = kWin - 100000;        // scores past this end the game for sure
constexpr int kMaxDepth = 400;                 // full moves; a board never lasts longer in a search

constexpr int kDx[4] = {0, 1, 0, -1};
constexpr int kDy[4] = {-1, 0, 1, 0};

// What one search reports, for logs and tests.
struct Report {
    int move = -1;
    int depth = 0;   // full moves (both players) completed
    int score = 0;
    long nodes = 0;
    bool forced = false;  // one move only: no search
};

// The games of a search are owned by lc::Game: no free, and any failure of
// the engine is an lc::Error (a bug here; the plugin answers it as a fault).
class Searcher {
  public:
    // Chooses a move for the observed state within `budget_ms`.
    Report choose(const LcObservation &obs, double budget_ms) {
        Report report;
        const auto start = Clock::now();
        deadline_ = start + std::chrono::microseconds(static_cast<long>(budget_ms * 1000.0));
        lc::Game root = lc::Game::from_observation(obs, LC_FAULT_POLICY_STRAIGHT);
        if (root_ && !same_shape(root, *root_)) stack_.clear();
        root_ = std::move(root);
        width_ = static_cast<int>(obs.width);
        height_ = static_cast<int>(obs.height);
        players_ = obs.num_players;
        me_ = obs.you;
        opponent_ = nearest_opponent(*root_);
        separated_ = opponent_ < 0 || root_->separated(me_, static_cast<uint32_t>(opponent_));
        nodes_ = 0;

        int moves[4];
        const int n = moves_of(*root_, me_, moves);
        report.move = moves[0];
        if (n == 1 || opponent_ < 0) {
            report.forced = true;  // a forced move, or nobody to play against
            return report;
        }
        int best_so_far = moves[0];
        for (int depth = 1; depth <= kMaxDepth; depth++) {
            aborted_ = false;
            root_best_ = -1;
            const int score = max_node(*root_, depth, -kInfinity, kInfinity, 0, best_so_far);
            if (aborted_) break;
            best_so_far = root_best_;
            report.move = root_best_;
            report.depth = depth;
            report.score = score;
            if (score >= kDecided || score <= -kDecided) break;  // the outcome is known
            if (Clock::now() >= deadline_) break;
        }
        report.nodes = nodes_;
        return report;
    }

  private:
    static bool same_shape(const lc::Game &a, const lc::Game &b) {
        const lc::Config ca = a.config(), cb = b.config();
        return ca.width() == cb.width() && ca.height() == cb.height() && ca.players() == cb.players();
    }

    // The living opponent closest to the bot's head, or -1.
    int nearest_opponent(const lc::Game &game) const {
        const LcPlayer mine = game.player(me_);
        int best = -1;
        long best_distance = 0;
        for (uint32_t id = 0; id < players_; id++) {
            if (id == me_) continue;
            const LcPlayer p = game.player(id);
            if (!p.alive) continue;
            const long d = std::labs(static_cast<long>(p.x) - mine.x) + std::labs(static_cast<long>(p.y) - mine.y);
            if (best < 0 || d < best_distance) {
                best = static_cast<int>(id);
                best_distance = d;
            }
        }
        return best;
    }

    bool empty(const lc::Game &game, int x, int y) const {
        if (x < 0 || y < 0 || x >= width_ || y >= height_) return false;
        return game.cell(x, y) == -1;
    }

    // The moves of `id` that do not hit anything standing: never the
    // reversal into its neck; the current direction when all moves crash.
    int moves_of(const lc::Game &game, uint32_t id, int out[4]) const {
        const LcPlayer p = game.player(id);
        int n = 0;
        for (int d = 0; d < 4; d++) {
            if (p.trail >= 2 && d == static_cast<int>((p.dir + 2) % 4)) continue;
            if (empty(game, static_cast<int>(p.x) + kDx[d], static_cast<int>(p.y) + kDy[d])) out[n++] = d;
        }
        if (n == 0) out[n++] = static_cast<int>(p.dir);
        return n;
    }

    bool out_of_time() {
        if ((++nodes_ & 31) == 0 && Clock::now() >= deadline_) aborted_ = true;
        return aborted_;
    }

    lc::Game &level(int ply) {
        while (static_cast<int>(stack_.size()) <= ply) stack_.push_back(root_->clone());
        return stack_[static_cast<size_t>(ply)];
    }

    // The score of a finished game, or of a game the bot is out of.
    int terminal(const lc::Game &game, int ply, bool *is_terminal) const {
        *is_terminal = true;
        const LcPlayer mine = game.player(me_);
        if (game.is_over()) {
            const LcResult r = game.result();
            if (r.winner == static_cast<int32_t>(me_)) return kWin - ply;
            if (r.placements[me_] == 1) return kDraw;
            return -kWin + ply;
        }
        if (!mine.alive) return -kWin + ply;
        *is_terminal = false;
        return 0;
    }

    // Voronoi: cells the bot reaches first minus the opponent's. Once the
    // players are apart these are the rooms they have left, and then a cell
    // of room weighs more than any Voronoi edge did: separation only ever
    // stays, so the root decides which scale the whole search uses.
    int evaluate(const lc::Game &game) const {
        const auto counts = game.voronoi();
        const int diff = static_cast<int>(counts[me_]) - static_cast<int>(counts[opponent_]);
        return separated_ ? diff * kSeparatedWeight : diff;
    }

    // The bot picks a move; `first` is tried first (the best of the last iteration).
    int max_node(const lc::Game &game, int depth, int alpha, int beta, int ply, int first) {
        if (out_of_time()) return 0;
        bool is_terminal = false;
        const int score = terminal(game, ply, &is_terminal);
        if (is_terminal) return score;
        if (depth == 0) return evaluate(game);
        int moves[4];
        const int n = moves_of(game, me_, moves);
        // Try first the best move of the last iteration, else the move that
        // last refuted the opponent at this ply.
        try_first(moves, n, first >= 0 ? first : killer(killers_mine_, ply));
        int best = -kInfinity;
        for (int i = 0; i < n; i++) {
            const int value = min_node(game, moves[i], depth, alpha, beta, ply);
            if (aborted_) return 0;
            if (value > best) {
                best = value;
                if (ply == 0) root_best_ = moves[i];
            }
            alpha = std::max(alpha, value);
            if (alpha >= beta) {
                remember(killers_mine_, ply, moves[i]);
                break;
            }
        }
        return best;
    }

    static void try_first(int moves[4], int n, int move) {
        for (int i = 1; i < n; i++) {
            if (moves[i] == move) std::swap(moves[0], moves[i]);
        }
    }

    static int killer(const std::vector<int> &killers, int ply) {
        return ply < static_cast<int>(killers.size()) ? killers[static_cast<size_t>(ply)] : -1;
    }

    static void remember(std::vector<int> &killers, int ply, int move) {
        if (static_cast<int>(killers.size()) <= ply) killers.resize(static_cast<size_t>(ply) + 1, -1);
        killers[static_cast<size_t>(ply)] = move;
    }

    // The opponent answers the bot's move `mine`; then the tick is played.
    int min_node(const lc::Game &game, int mine, int depth, int alpha, int beta, int ply) {
        int theirs[4];
        const LcPlayer opponent = game.player(static_cast<uint32_t>(opponent_));
        const int n = opponent.alive ? moves_of(game, static_cast<uint32_t>(opponent_), theirs) : 1;
        if (!opponent.alive) theirs[0] = LC_MOVE_NONE;
        else try_first(theirs, n, killer(killers_theirs_, ply));
        int32_t codes[LC_MAX_PLAYERS];
        for (uint32_t id = 0; id < players_; id++) codes[id] = LC_MOVE_NONE;
        int best = kInfinity;
        for (int i = 0; i < n; i++) {
            lc::Game &child = level(ply);
            child.copy_from(game);
            codes[me_] = mine;
            codes[opponent_] = theirs[i];
            child.step(codes, players_);
            const int value = max_node(child, depth - 1, alpha, beta, ply + 1, -1);
            if (aborted_) return 0;
            best = std::min(best, value);
            beta = std::min(beta, value);
            if (alpha >= beta) {
                remember(killers_theirs_, ply, theirs[i]);
                break;
            }
        }
        return best;
    }

    std::optional<lc::Game> root_;
    // One game per ply, reused with copy_from. A deque: growing it keeps the
    // games of the plies above (which the recursion holds) where they are.
    std::deque<lc::Game> stack_;
    std::vector<int> killers_mine_, killers_theirs_;  // by ply: the last move that caused a cutoff
    Clock::time_point deadline_{};
    int width_ = 0, height_ = 0;
    uint32_t players_ = 0, me_ = 0;
    int opponent_ = -1;
    int root_best_ = -1;
    long nodes_ = 0;
    bool aborted_ = false;
    bool separated_ = false;  // the bot and its opponent can no longer meet
};

double env_budget(double fallback) {
    const char *text = std::getenv("LC_BOT_TIME_MS");
    return text != nullptr && std::atof(text) > 0 ? std::atof(text) : fallback;
}

// A bot for one game: the searcher and its budget. As a plugin it is an
// lc::Bot, made by the host for each game with the first observation.
class SearchBot : public lc::Bot {
  public:
    SearchBot() = default;
    SearchBot(const LcObservation &first, uint64_t seed) {
        (void)first;
        (void)seed;  // the search is deterministic
        default_budget_ms = env_budget(default_budget_ms);
        verbose = std::getenv("LC_BOT_VERBOSE") != nullptr;
    }

    int32_t choose(const LcObservation &obs) override {
        // Half the host's limit when it says one: the rest is for the host.
        const double budget = obs.time_limit_ms > 0 ? obs.time_limit_ms * 0.5 : default_budget_ms;
        const Report r = searcher_.choose(obs, budget);
        if (verbose) {
            const bool decided = r.score >= kDecided || r.score <= -kDecided;
            std::fprintf(stderr, "tick %u move %c depth %d plies %d nodes %ld score %d forced %d decided %d\n",
                         obs.tick, r.move >= 0 ? "NESW"[r.move] : '-', r.depth, 2 * r.depth, r.nodes, r.score,
                         r.forced ? 1 : 0, decided ? 1 : 0);
        }
        return r.move;
    }

    double default_budget_ms = 40.0;
    bool verbose = false;

  private:
    Searcher searcher_;
};

}  // namespace

#ifdef LC_BOT_PLUGIN

// ---- The plugin: lightcycles_bot_v1 and its table, made by the wrapper.
// An exception out of the search is answered as an invalid move (a fault),
// a bot that cannot be made as NULL; none crosses the ABI.

LIGHTCYCLES_BOT_PLUGIN(SearchBot, "cpp-search-bot")

#else

// ---- The stand-alone program: JSON lines in, one answer line out per line.

int main(int argc, char **argv) {
    SearchBot bot;
    bot.default_budget_ms = env_budget(bot.default_budget_ms);
    for (int i = 1; i < argc; i++) {
        if (std::strcmp(argv[i], "--time-ms") == 0 && i + 1 < argc) {
            bot.default_budget_ms = std::atof(argv[++i]);
        } else if (std::strcmp(argv[i], "--verbose") == 0) {
            bot.verbose = true;
        } else {
            std::fprintf(stderr, "usage: %s [--time-ms N] [--verbose]\n", argv[0]);
            return 2;
        }
    }
    std::ios::sync_with_stdio(false);
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        int32_t move = LC_MOVE_NONE;
        try {
            const lc::Observation obs = lc::Observation::from_json(line);
            move = bot.choose(*obs);
        } catch (const lc::Error &e) {
            std::fprintf(stderr, "cpp-search-bot: %s\n", e.what());
        }
        // Exactly one answer per observation; with no move, an empty line
        // (a fault the host records, and the cycle keeps its direction).
        std::printf("%s\n", move >= 0 ? std::string(1, "NESW"[move]).c_str() : "");
        std::fflush(stdout);
    }
    return 0;
}

#endif
