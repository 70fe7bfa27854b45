//! The C++ search bot of `examples/cpp-search-bot`: both builds compile with
//! g++, the stand-alone program plays a legal game against itself through
//! the C API, and the plugin, loaded as a host will load it, beats a random
//! mover.
//!
//! The full acceptance runs (100 games against a random mover, and the
//! depths reached at 10 ms per move on an open 48 × 36 board) are ignored by
//! default; run them on an optimised library with
//! `cargo test --release -p lightcycles-ffi --test cpp_bot -- --ignored --nocapture`.

mod support;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::OnceLock;

use lightcycles::{
    lc_game_free, lc_game_new, lc_game_observation_json, lc_game_step, plugin, LcBotEntryFn, LcBotV1, LcConfig, LcGame,
    LcStatus, ObservationBuffer,
};
use lightcycles_core::{Action, Answer, Config, Dir, Engine, Pos, ReferenceGame, SplitMix64, EMPTY};

struct Builds {
    program: PathBuf,
    /// The program under AddressSanitizer and UndefinedBehaviorSanitizer.
    sanitized: PathBuf,
    plugin: PathBuf,
}

/// Builds the bot once per test binary: the program and the plugin.
fn builds() -> &'static Builds {
    static BUILDS: OnceLock<Builds> = OnceLock::new();
    BUILDS.get_or_init(|| {
        let dir = support::scratch("cpp-search-bot");
        let source = support::workspace_root().join("examples/cpp-search-bot/bot.cpp");
        let lib = support::static_library();
        let program = dir.join("cpp-search-bot");
        let mut cmd = support::compiler("g++");
        cmd.args(["-std=c++17", "-O2"]).arg(&source).arg(&lib).args(support::NATIVE_LIBS).arg("-o").arg(&program);
        support::run_ok(&mut cmd);
        let sanitized = dir.join("cpp-search-bot-sanitized");
        let mut cmd = support::compiler("g++");
        cmd.args(["-std=c++17", "-O1"])
            .args(support::SANITIZE)
            .arg(&source)
            .arg(&lib)
            .args(support::NATIVE_LIBS)
            .arg("-o")
            .arg(&sanitized);
        support::run_ok(&mut cmd);
        let plugin = dir.join("libcpp_search_bot.so");
        let mut cmd = support::compiler("g++");
        cmd.args(["-std=c++17", "-O2", "-fPIC", "-shared", "-DLC_BOT_PLUGIN"])
            .arg(&source)
            .arg(&lib)
            .arg("-Wl,--exclude-libs,ALL")
            .args(support::NATIVE_LIBS)
            .arg("-o")
            .arg(&plugin);
        support::run_ok(&mut cmd);
        Builds { program, sanitized, plugin }
    })
}

/// A running stand-alone bot.
struct Program {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Program {
    fn start(path: &Path, time_ms: u32, verbose: bool) -> Program {
        let mut cmd = Command::new(path);
        cmd.args(["--time-ms", &time_ms.to_string()]);
        if verbose {
            cmd.arg("--verbose");
        }
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if verbose { Stdio::piped() } else { Stdio::inherit() })
            .spawn()
            .expect("the bot starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Program { child, stdin, stdout }
    }

    /// Sends one observation line, reads one answer line.
    fn ask(&mut self, json: &str) -> Vec<u8> {
        self.stdin.write_all(json.as_bytes()).unwrap();
        self.stdin.write_all(b"\n").unwrap();
        self.stdin.flush().unwrap();
        let mut line = Vec::new();
        self.stdout.read_until(b'\n', &mut line).unwrap();
        assert!(line.ends_with(b"\n"), "the bot answered {line:?} and closed");
        line.pop();
        line
    }

    /// Closes stdin and returns what the bot wrote to stderr.
    fn finish(self) -> String {
        drop(self.stdin);
        let out = self.child.wait_with_output().unwrap();
        assert!(out.status.success(), "the bot exited with {}", out.status);
        String::from_utf8_lossy(&out.stderr).into_owned()
    }
}

/// A game held through the C API, with the reference engine stepped beside it.
struct CGame(*mut LcGame);

impl CGame {
    fn new(config: &Config, seed: u64) -> CGame {
        let c = LcConfig::from(config);
        let mut game = std::ptr::null_mut();
        assert_eq!(unsafe { lc_game_new(&c, seed, &mut game) }, LcStatus::Ok);
        CGame(game)
    }

    fn observation_json(&self, you: usize) -> String {
        let mut len = 0usize;
        let status = unsafe { lc_game_observation_json(self.0, you as u32, std::ptr::null_mut(), 0, &mut len) };
        assert_eq!(status, LcStatus::BufferTooSmall);
        let mut buf = vec![0u8; len + 1];
        let status =
            unsafe { lc_game_observation_json(self.0, you as u32, buf.as_mut_ptr().cast(), buf.len(), &mut len) };
        assert_eq!(status, LcStatus::Ok);
        buf.truncate(len);
        String::from_utf8(buf).unwrap()
    }

    fn step(&mut self, codes: &[i32]) {
        assert_eq!(unsafe { lc_game_step(self.0, codes.as_ptr(), codes.len()) }, LcStatus::Ok);
    }
}

impl Drop for CGame {
    fn drop(&mut self) {
        unsafe { lc_game_free(self.0) }
    }
}

fn code(action: Action) -> i32 {
    match action {
        Action::Move(d) => d.code() as i32,
        _ => -1,
    }
}

/// Plays two stand-alone bots against each other through the C API,
/// checking every answer and every frame against the reference engine.
fn self_play(program: &Path, config: &Config, seed: u64, time_ms: u32) -> ReferenceGame {
    let mut bots: Vec<Program> = (0..config.players).map(|_| Program::start(program, time_ms, false)).collect();
    let mut c_game = CGame::new(config, seed);
    let mut reference = ReferenceGame::seeded(config, seed).unwrap();
    while !reference.is_over() {
        let mut actions = Vec::new();
        for (id, bot) in bots.iter_mut().enumerate() {
            if !reference.player(id).alive {
                actions.push(Action::Keep);
                continue;
            }
            let json = c_game.observation_json(id);
            let answer = Answer::from_line(&bot.ask(&json));
            assert_eq!(answer.fault, None, "tick {}: player {id} answered {:?}", reference.tick() + 1, answer.line);
            actions.push(answer.action());
        }
        let codes: Vec<i32> = actions.iter().map(|a| code(*a)).collect();
        c_game.step(&codes);
        reference.step(&actions).unwrap();
        let obs = c_game.observation_json(0);
        let expected = lightcycles_core::observation::Observation::new(&reference, 0).to_json();
        assert_eq!(obs, expected, "the C API and the reference engine differ after tick {}", reference.tick());
    }
    for bot in bots {
        bot.finish();
    }
    reference
}

#[test]
fn four_stand_alone_bots_play_a_legal_game() {
    let config = Config { width: 20, height: 20, players: 4, rock_density: 4, ..Config::default() };
    let game = self_play(&builds().program, &config, 5, 2);
    let outcome = game.outcome().expect("the game ended");
    assert!(outcome.ticks >= 10, "four searching bots last a while, not {} ticks", outcome.ticks);
}

#[test]
fn the_stand_alone_bot_plays_a_legal_game_against_itself() {
    let config = Config { width: 20, height: 16, rock_density: 6, ..Config::default() };
    let game = self_play(&builds().program, &config, 11, 3);
    let outcome = game.outcome().expect("the game ended");
    assert!(outcome.ticks >= 20, "two searching bots last a while on 20 × 16, not {} ticks", outcome.ticks);
    assert!(outcome.ticks <= config.max_ticks);
}

#[test]
fn the_stand_alone_bot_is_clean_under_the_sanitizers() {
    // A short game: the bot exits with an error status on any finding
    // (leaks included), which `Program::finish` checks.
    let config = Config { width: 12, height: 10, rock_density: 10, max_ticks: 40, ..Config::default() };
    let game = self_play(&builds().sanitized, &config, 3, 2);
    assert!(game.is_over());
}

/// A plugin loaded with libloading, as a host loads it.
struct Plugin {
    _library: libloading::Library,
    table: &'static LcBotV1,
}

impl Plugin {
    fn load(path: &Path) -> Plugin {
        let library = unsafe { libloading::Library::new(path) }.expect("the plugin loads");
        let entry: LcBotEntryFn =
            *unsafe { library.get::<LcBotEntryFn>(b"lightcycles_bot_v1\0") }.expect("it exports the entry");
        let table = unsafe { plugin::check_table(entry()) }.expect("the table is well formed");
        // SAFETY: the table lives as long as the library, which the struct keeps.
        let table: &'static LcBotV1 = unsafe { &*(table as *const LcBotV1) };
        Plugin { _library: library, table }
    }
}

/// A random mover: a random move that does not crash into what stands, when there is one.
fn random_move(game: &ReferenceGame, id: usize, rng: &mut SplitMix64) -> Action {
    let p = game.player(id);
    let c = game.config();
    let safe: Vec<Dir> = Dir::ALL
        .into_iter()
        .filter(|&d| p.pos.step(d, c.width, c.height).is_some_and(|t: Pos| game.cell(t) == EMPTY))
        .collect();
    let dir =
        if safe.is_empty() { Dir::ALL[rng.below(4) as usize] } else { safe[rng.below(safe.len() as u64) as usize] };
    Action::Move(dir)
}

/// Plays the plugin against a random mover; returns the outcome's winner
/// and whether it is the bot.
fn plugin_vs_random(
    plugin: &Plugin,
    config: &Config,
    seed: u64,
    bot_seat: usize,
    time_limit_ms: u32,
) -> (ReferenceGame, bool) {
    let t = plugin.table;
    let mut game = ReferenceGame::seeded(config, seed).unwrap();
    let mut obs = ObservationBuffer::from_engine(&game, bot_seat).unwrap();
    obs.set_time_limit_ms(time_limit_ms);
    let bot = unsafe { (t.create.unwrap())(obs.as_ptr(), seed) };
    assert!(!bot.is_null(), "the plugin creates a bot");
    let mut rng = SplitMix64::new(seed ^ 0xA5A5);
    while !game.is_over() {
        obs.update_from_engine(&game, bot_seat).unwrap();
        let code = unsafe { (t.choose.unwrap())(bot, obs.as_ptr()) };
        let mine = Dir::from_code(code as u32).map(Action::Move);
        assert!(mine.is_some(), "tick {}: the bot answered {code}", game.tick() + 1);
        let other = random_move(&game, 1 - bot_seat, &mut rng);
        let mut actions = [Action::Keep; 2];
        actions[bot_seat] = mine.unwrap();
        actions[1 - bot_seat] = other;
        game.step(&actions).unwrap();
    }
    unsafe { (t.destroy.unwrap())(bot) };
    let won = game.outcome().unwrap().winner == Some(bot_seat);
    (game, won)
}

#[test]
fn the_plugin_exports_its_table_and_beats_a_random_mover() {
    let plugin = Plugin::load(&builds().plugin);
    let name = unsafe { std::ffi::CStr::from_ptr(plugin.table.name) };
    assert_eq!(name.to_str().unwrap(), "cpp-search-bot");
    assert_eq!(plugin.table.abi_version, lightcycles::LC_BOT_ABI_VERSION);
    let config = Config::default();
    for g in 0..10u64 {
        let (game, won) = plugin_vs_random(&plugin, &config, 1000 + g, (g % 2) as usize, 8);
        assert!(won, "game {g}: the bot lost or drew against a random mover: {:?}", game.outcome());
    }
}

/// The acceptance run: 100 games against a random mover at 10 ms per move,
/// every one won.
#[test]
#[ignore = "long: run with --release -- --ignored (see the top of this file)"]
fn the_plugin_beats_a_random_mover_in_100_of_100_games() {
    let plugin = Plugin::load(&builds().plugin);
    let config = Config::default();
    let mut wins = 0;
    for g in 0..100u64 {
        let (game, won) = plugin_vs_random(&plugin, &config, g, (g % 2) as usize, 20);
        let o = game.outcome().unwrap();
        if won {
            wins += 1;
        } else {
            println!("game {g}: lost or drew: {o:?}");
        }
    }
    println!("cpp-search-bot beat the random mover in {wins} of 100 games");
    assert_eq!(wins, 100);
}

/// The depths the stand-alone bot completes at 10 ms per move on an open
/// 48 × 36 board, in self-play.
#[test]
#[ignore = "long: run with --release -- --ignored (see the top of this file)"]
fn depths_reached_at_10_ms_on_an_open_board() {
    let b = builds();
    let config = Config { rock_density: 0, ..Config::default() };
    let mut bots = [Program::start(&b.program, 10, true), Program::start(&b.program, 10, true)];
    let mut game = ReferenceGame::seeded(&config, 7).unwrap();
    while !game.is_over() && game.tick() < 200 {
        let mut actions = [Action::Keep; 2];
        for (id, bot) in bots.iter_mut().enumerate() {
            let json = lightcycles_core::observation::Observation::new(&game, id).to_json();
            actions[id] = Answer::from_line(&bot.ask(&json)).action();
        }
        game.step(&actions).unwrap();
    }
    // Depths of the moves that were searched: not forced (one move left),
    // not cut short because the outcome was already known.
    let mut depths: Vec<u32> = Vec::new();
    for bot in bots {
        for line in bot.finish().lines() {
            let words: Vec<&str> = line.split_whitespace().collect();
            let field = |name: &str| words.iter().position(|w| *w == name).map(|i| words[i + 1]);
            if field("forced") == Some("0") && field("decided") == Some("0") {
                depths.push(field("plies").unwrap().parse().unwrap());
            }
        }
    }
    assert!(depths.len() >= 50, "only {} searched moves", depths.len());
    depths.sort_unstable();
    let median = depths[depths.len() / 2];
    let min = depths[0];
    let p10 = depths[depths.len() / 10];
    println!(
        "depth in plies at 10 ms over {} moves: min {min}, 10th percentile {p10}, median {median}, max {}",
        depths.len(),
        depths[depths.len() - 1]
    );
    assert!(p10 >= 6, "depth 6 plies is reached on at least 90 % of moves");
}
