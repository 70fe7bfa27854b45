//! What a replay needs before it can be drawn. A replay file is untrusted
//! input: every index the viewer will use is checked here once, so that
//! drawing never has to guess, and a bad file is refused with the field that
//! is wrong rather than a panic.

use lightcycles_core::config::{MAX_PLAYERS, MAX_SIDE, MIN_PLAYERS, MIN_SIDE};
use lightcycles_core::replay::Replay;

/// Why a replay cannot be shown.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ViewError {
    /// Not JSON, or not shaped like a replay file.
    #[error("not a replay file: {0}")]
    Unreadable(String),
    /// A field the viewer needs is out of range or inconsistent.
    #[error("{field}: {problem}")]
    Malformed {
        /// Where in the file, e.g. `frames[3].heads[1]`.
        field: String,
        /// What is wrong there.
        problem: String,
    },
    /// A tick past the end of the game was asked for.
    #[error("tick {tick} is past the last tick of the game ({last})")]
    NoSuchTick {
        /// The tick asked for.
        tick: u32,
        /// The last tick the replay holds.
        last: u32,
    },
}

fn malformed(field: impl Into<String>, problem: impl Into<String>) -> ViewError {
    ViewError::Malformed { field: field.into(), problem: problem.into() }
}

/// A replay that has passed [`Viewable::check`]: the board size and player
/// count are in range, and every frame, command row, fault row, rock and
/// result list fits them.
#[derive(Clone, Copy, Debug)]
pub struct Viewable<'a> {
    replay: &'a Replay,
}

impl<'a> Viewable<'a> {
    /// Checks everything the viewer reads. It does not replay the game:
    /// `lightcycles replay verify` is for that.
    pub fn check(replay: &'a Replay) -> Result<Viewable<'a>, ViewError> {
        let (w, h) = (replay.width, replay.height);
        for (field, side) in [("width", w), ("height", h)] {
            if !(MIN_SIDE..=MAX_SIDE).contains(&side) {
                return Err(malformed(field, format!("{side} is outside {MIN_SIDE}..={MAX_SIDE}")));
            }
        }
        let n = replay.num_players as usize;
        if !(MIN_PLAYERS as usize..=MAX_PLAYERS).contains(&n) {
            return Err(malformed("num_players", format!("{n} is outside {MIN_PLAYERS}..={MAX_PLAYERS}")));
        }
        if replay.names.len() != n {
            return Err(malformed("names", format!("{} names for {n} players", replay.names.len())));
        }
        let on_board = |x: u32, y: u32| x < w && y < h;
        for (k, [x, y]) in replay.rocks.iter().enumerate() {
            if !on_board(*x, *y) {
                return Err(malformed(format!("rocks[{k}]"), format!("({x}, {y}) is off the {w} × {h} board")));
            }
        }
        if replay.frames.is_empty() {
            return Err(malformed("frames", "there is no frame, not even the start"));
        }
        for (k, frame) in replay.frames.iter().enumerate() {
            if frame.t as usize != k {
                return Err(malformed(format!("frames[{k}].t"), format!("is {}, expected {k}", frame.t)));
            }
            if frame.heads.len() != n || frame.dirs.len() != n {
                return Err(malformed(
                    format!("frames[{k}]"),
                    format!("{} heads and {} dirs for {n} players", frame.heads.len(), frame.dirs.len()),
                ));
            }
            for (i, [x, y, alive]) in frame.heads.iter().enumerate() {
                if !on_board(*x, *y) {
                    return Err(malformed(
                        format!("frames[{k}].heads[{i}]"),
                        format!("({x}, {y}) is off the {w} × {h} board"),
                    ));
                }
                if *alive > 1 {
                    return Err(malformed(format!("frames[{k}].heads[{i}]"), format!("alive is {alive}, not 0 or 1")));
                }
            }
        }
        let ticks = replay.frames.len() - 1;
        for (field, rows) in [("commands", replay.commands.len()), ("faults", replay.faults.len())] {
            if rows != ticks {
                return Err(malformed(field, format!("{rows} rows for {ticks} ticks (frames after the start)")));
            }
        }
        for (k, row) in replay.commands.iter().enumerate() {
            if row.len() != n {
                return Err(malformed(format!("commands[{k}]"), format!("{} entries for {n} players", row.len())));
            }
        }
        for (k, row) in replay.faults.iter().enumerate() {
            if row.len() != n {
                return Err(malformed(format!("faults[{k}]"), format!("{} entries for {n} players", row.len())));
            }
        }
        let result = &replay.result;
        let lists = [
            ("result.placements", result.placements.len()),
            ("result.eliminated_at", result.eliminated_at.len()),
            ("result.trails", result.trails.len()),
        ];
        for (field, len) in lists {
            if len != n {
                return Err(malformed(field, format!("{len} entries for {n} players")));
            }
        }
        if let Some(winner) = replay.winner {
            if winner >= n {
                return Err(malformed("winner", format!("{winner} is not a player id below {n}")));
            }
        }
        Ok(Viewable { replay })
    }

    /// The checked replay.
    pub fn replay(&self) -> &'a Replay {
        self.replay
    }

    /// The number of players.
    pub fn players(&self) -> usize {
        self.replay.names.len()
    }

    /// The last tick the replay holds (its frames run from 0 to this).
    pub fn last_tick(&self) -> u32 {
        (self.replay.frames.len() - 1) as u32
    }

    /// `tick`, or an error when it is past the end.
    pub fn tick(&self, tick: u32) -> Result<u32, ViewError> {
        if tick > self.last_tick() {
            Err(ViewError::NoSuchTick { tick, last: self.last_tick() })
        } else {
            Ok(tick)
        }
    }
}

/// Reads a replay from JSON text, for viewing.
pub fn parse(text: &str) -> Result<Replay, ViewError> {
    let replay = Replay::from_json(text).map_err(|e| {
        let message = e.to_string();
        ViewError::Unreadable(message.strip_prefix("malformed replay: ").unwrap_or(&message).to_string())
    })?;
    Viewable::check(&replay)?;
    Ok(replay)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn golden(name: &str) -> Replay {
        let path = format!("{}/../lightcycles-core/tests/golden-replays/{name}", env!("CARGO_MANIFEST_DIR"));
        parse(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    fn field_of(replay: &Replay) -> String {
        match Viewable::check(replay) {
            Err(ViewError::Malformed { field, .. }) => field,
            other => panic!("expected a malformed field, got {other:?}"),
        }
    }

    #[test]
    fn golden_replays_are_viewable() {
        for name in ["sim_0.json", "eight_players.json", "map_headon_draw.json", "cap_draw.json"] {
            let r = golden(name);
            let v = Viewable::check(&r).unwrap();
            assert_eq!(v.last_tick(), r.result.ticks, "{name}");
            assert_eq!(v.players(), r.num_players as usize);
        }
    }

    #[test]
    fn each_bad_field_is_named() {
        let good = golden("sim_0.json");
        type Spoil = Box<dyn Fn(&mut Replay)>;
        let cases: Vec<(&str, Spoil)> = vec![
            ("width", Box::new(|r| r.width = 256)),
            ("height", Box::new(|r| r.height = 7)),
            ("num_players", Box::new(|r| r.num_players = 9)),
            (
                "names",
                Box::new(|r| {
                    r.names.pop();
                }),
            ),
            ("rocks[3]", Box::new(|r| r.rocks[3] = [48, 0])),
            ("frames", Box::new(|r| r.frames.clear())),
            ("frames[2].t", Box::new(|r| r.frames[2].t = 7)),
            ("frames[5]", Box::new(|r| r.frames[5].heads.truncate(1))),
            ("frames[4].heads[1]", Box::new(|r| r.frames[4].heads[1] = [3, 36, 1])),
            ("frames[6].heads[0]", Box::new(|r| r.frames[6].heads[0][2] = 2)),
            ("commands", Box::new(|r| r.commands.truncate(3))),
            ("faults", Box::new(|r| r.faults.push(vec![None, None]))),
            ("commands[1]", Box::new(|r| r.commands[1].push(None))),
            ("faults[0]", Box::new(|r| r.faults[0].clear())),
            ("result.placements", Box::new(|r| r.result.placements.clear())),
            ("result.trails", Box::new(|r| r.result.trails.push(1))),
            ("winner", Box::new(|r| r.winner = Some(2))),
        ];
        for (field, spoil) in cases {
            let mut r = good.clone();
            spoil(&mut r);
            assert_eq!(field_of(&r), field);
        }
    }

    #[test]
    fn unreadable_text_says_where() {
        let err = parse("{\"format\": 3}").unwrap_err();
        assert!(matches!(&err, ViewError::Unreadable(m) if m.contains("line 1")), "{err}");
        assert!(matches!(parse(""), Err(ViewError::Unreadable(_))));
        assert!(matches!(parse("[1, 2"), Err(ViewError::Unreadable(_))));
    }

    #[test]
    fn ticks_past_the_end_are_refused() {
        let r = golden("sim_0.json");
        let v = Viewable::check(&r).unwrap();
        assert_eq!(v.tick(v.last_tick()), Ok(v.last_tick()));
        assert_eq!(v.tick(v.last_tick() + 1), Err(ViewError::NoSuchTick { tick: 27, last: 26 }));
    }
}
