//! Configuration from any field values, through `Config::validate` and map
//! generation, and through the command line's own flag parsing (`lightcycles
//! map`, and the board flags of `play` and `tournament`): a bad value is
//! refused with exit code 2 naming it, a good one gives a map that fits it,
//! always in bounded time (libFuzzer's -timeout catches a hang).
#![no_main]

use arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use lightcycles_core::map::{self, MapError};
use lightcycles_core::{Config, Engine, FastGame, FaultPolicy, ReferenceGame};
use lightcycles_host::cli::{execute, Cli};

use clap::Parser;

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    if u.arbitrary::<bool>().unwrap_or(false) {
        let _ = fields(&mut u);
    } else {
        let _ = command_line(&mut u);
    }
});

/// A number near the bounds of docs/RULES.md section 1 most of the time.
fn number(u: &mut Unstructured) -> Result<u32> {
    Ok(match u.int_in_range(0..=3)? {
        0 => u.int_in_range(0..=40)?,
        1 => u.int_in_range(0..=300)?,
        2 => u.choose(&[0, 1, 7, 8, 15, 16, 25, 26, 255, 256, 1_000_000, 1_000_001, u32::MAX])?.to_owned(),
        _ => u.arbitrary()?,
    })
}

fn fields(u: &mut Unstructured) -> Result<()> {
    let config = Config {
        width: number(u)?,
        height: number(u)?,
        players: number(u)?,
        max_ticks: number(u)?,
        rock_density: number(u)?,
        fault_policy: if u.arbitrary()? { FaultPolicy::Eliminate } else { FaultPolicy::Straight },
    };
    let seed: u64 = u.arbitrary()?;
    if let Err(e) = config.validate() {
        // Refused, naming the field; and map generation refuses it too.
        let message = e.to_string();
        assert!(["width", "height", "players", "max_ticks", "rock_density"].iter().any(|f| message.starts_with(f)));
        assert_eq!(map::generate(&config, seed), Err(MapError::Config(e)));
        return Ok(());
    }
    match map::generate(&config, seed) {
        Ok(map) => {
            map.validate().expect("a generated map fits together");
            assert_eq!(
                (map.width, map.height, map.starts.len()),
                (config.width, config.height, config.players as usize)
            );
            let rocks = map.rocks.iter().filter(|&&r| r).count();
            let target = config.cells() * config.rock_density as usize / 100;
            assert!(rocks < target + 4, "{rocks} rocks for a target of {target}");
            // The plain whole-board generator, where it is quick enough.
            if config.cells() <= 1200 {
                assert_eq!(map::generate_reference(&config, seed).as_ref(), Ok(&map));
            }
            let reference = ReferenceGame::from_map(&config, &map).expect("the reference engine starts");
            let fast = FastGame::from_map(&config, &map).expect("the fast engine starts");
            assert_eq!(reference.position(), fast.position());
        }
        Err(MapError::BoardTooSmall { players, .. }) => assert!(players >= 3 && players != 4),
        Err(e) => panic!("a valid configuration failed: {e}"),
    }
    Ok(())
}

/// A flag value: a number near a bound, or any text.
fn value(u: &mut Unstructured) -> Result<String> {
    Ok(match u.int_in_range(0..=4)? {
        0 => number(u)?.to_string(),
        1 => format!("-{}", number(u)?),
        2 => u.arbitrary::<u64>()?.to_string(),
        3 => {
            u.choose(&["", "straight", "eliminate", "1e3", "0x10", "+8", " 8", "99999999999999999999999"])?.to_string()
        }
        _ => u.arbitrary()?,
    })
}

fn command_line(u: &mut Unstructured) -> Result<()> {
    const BOARD: &[&str] = &[
        "--width",
        "--height",
        "--rock-density",
        "--max-ticks",
        "--fault-policy",
        "--time-ms",
        "--time-first-ms",
        "-s",
        "--seed",
    ];
    const MAP: &[&str] = &["--players", "--json"];
    const TOURNAMENT: &[&str] = &["-g", "-j", "--sprt", "--log-every"];
    let command = *u.choose(&["map", "play", "tournament"])?;
    let mut args = vec!["lightcycles".to_string(), command.to_string()];
    if command != "map" {
        args.extend(["builtin:straight".to_string(), "builtin:straight".to_string()]);
    }
    for _ in 0..u.int_in_range(0..=6)? {
        let flag = match (command, u.arbitrary::<bool>()?) {
            ("map", true) => u.choose(MAP)?,
            ("tournament", true) => u.choose(TOURNAMENT)?,
            _ => u.choose(BOARD)?,
        };
        args.push(flag.to_string());
        if u.ratio(7, 8)? {
            args.push(value(u)?);
        }
    }
    if command == "play" {
        // One game on one thread: bounded work whatever the board flags say.
        args.extend(["-r", "1", "-j", "1"].map(String::from));
    }
    let Ok(cli) = Cli::try_parse_from(&args) else { return Ok(()) };
    // A tournament is parsed only: it would play a hundred games.
    if command != "tournament" {
        let mut out = Vec::new();
        if let Err(failure) = execute(cli, &mut out) {
            assert_eq!(failure.code, 2, "{args:?}: {}", failure.message);
            assert!(!failure.message.is_empty());
        }
    }
    Ok(())
}
