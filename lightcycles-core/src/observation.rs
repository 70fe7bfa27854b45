//! What a bot sees at the start of each tick (docs/RULES.md section 5).

use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use crate::bounded;
use crate::config::{Config, FaultPolicy, MAX_PLAYERS, MAX_SIDE};
use crate::engine::Engine;
use crate::geometry::{CellValue, Dir, Pos};
use crate::player::PlayerState;
use crate::position::{Position, PositionError};

/// One player as a bot sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerView {
    /// Player id.
    pub id: usize,
    /// Head column (last head when dead).
    pub x: u32,
    /// Head row.
    pub y: u32,
    /// Current direction.
    pub dir: Dir,
    /// Whether the player still rides.
    pub alive: bool,
}

/// The whole, exact state sent to a bot; serialises to the JSON of
/// docs/RULES.md section 5, keys in that order. Read from JSON, `players` holds
/// at most 8 entries and `grid` at most 255 rows of 255 cells (the largest
/// game), so that reading one takes memory in proportion to its text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observation {
    /// The tick being decided: 1 on the first decision.
    pub tick: u32,
    /// The tick cap.
    pub max_ticks: u32,
    /// Board width.
    pub width: u32,
    /// Board height.
    pub height: u32,
    /// The id of the bot this observation is for.
    pub you: usize,
    /// Every player by id, dead ones too.
    #[serde(deserialize_with = "players")]
    pub players: Vec<PlayerView>,
    /// `grid[y][x]`: `-1` empty, `-2` rock, `p` a trail of player `p`.
    #[serde(deserialize_with = "grid")]
    pub grid: Vec<Vec<CellValue>>,
    /// The time bank the bot has left, in milliseconds, when the host gives
    /// it one (docs/bots.md, "Time banks"); absent otherwise, so that a bot
    /// without a bank sees the observation of docs/RULES.md section 5.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_bank_ms: Option<u64>,
}

fn players<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<PlayerView>, D::Error> {
    bounded::list(d, MAX_PLAYERS, "players")
}

fn grid<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Vec<CellValue>>, D::Error> {
    bounded::rows(d, MAX_SIDE as usize, MAX_SIDE as usize, "grid")
}

impl Observation {
    /// The observation of `engine` for player `you`, before the next tick.
    pub fn new<E: Engine>(engine: &E, you: usize) -> Observation {
        Observation::of_position(&engine.position(), you)
    }

    /// The observation of `position` for player `you`, before the next
    /// tick: the one place where a state becomes what a bot sees, for the
    /// engines and for the host alike.
    pub fn of_position(position: &Position, you: usize) -> Observation {
        let config = &position.config;
        let players = position
            .players
            .iter()
            .enumerate()
            .map(|(id, p)| PlayerView { id, x: p.pos.x as u32, y: p.pos.y as u32, dir: p.dir, alive: p.alive })
            .collect();
        let grid = position.grid.chunks(config.width as usize).map(<[CellValue]>::to_vec).collect();
        Observation {
            tick: position.tick + 1,
            max_ticks: config.max_ticks,
            width: config.width,
            height: config.height,
            you,
            players,
            grid,
            time_bank_ms: None,
        }
    }

    /// The same observation for another player: only `you` differs.
    pub fn for_player(&self, you: usize) -> Observation {
        Observation { you, ..self.clone() }
    }

    /// The observation as one line of JSON (no newline).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("an observation always serialises")
    }

    /// The position this observation shows, under `fault_policy`. An
    /// observation does not say when dead players died; they are taken as
    /// eliminated on the last tick played (this only matters for placements).
    pub fn to_position(&self, fault_policy: FaultPolicy) -> Result<Position, PositionError> {
        let config = Config {
            width: self.width,
            height: self.height,
            players: self.players.len() as u32,
            max_ticks: self.max_ticks,
            rock_density: 0,
            fault_policy,
        };
        config.validate()?;
        let tick = self.tick.saturating_sub(1);
        let rows_ok =
            self.grid.len() == self.height as usize && self.grid.iter().all(|r| r.len() == self.width as usize);
        if !rows_ok {
            let len = self.grid.iter().map(Vec::len).sum();
            return Err(PositionError::GridSize { len, cells: config.cells() });
        }
        let grid: Vec<CellValue> = self.grid.iter().flatten().copied().collect();
        let mut players = Vec::with_capacity(self.players.len());
        for (id, p) in self.players.iter().enumerate() {
            if p.x >= self.width || p.y >= self.height || p.id != id {
                return Err(PositionError::Head { player: id, x: p.x, y: p.y });
            }
            let trail = grid.iter().filter(|&&v| v == id as CellValue).count() as u32;
            players.push(PlayerState {
                pos: Pos::new(p.x as u8, p.y as u8),
                dir: p.dir,
                alive: p.alive,
                trail,
                eliminated_at: (!p.alive).then_some(tick),
            });
        }
        let position = Position { config, tick, grid, players };
        position.validate()?;
        Ok(position)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Config, ReferenceGame};

    #[test]
    fn json_keys_come_in_the_order_of_the_rule_book() {
        let config = Config { width: 8, height: 8, rock_density: 0, ..Config::default() };
        let game = ReferenceGame::seeded(&config, 123).unwrap();
        let json = Observation::new(&game, 1).to_json();
        assert!(json.starts_with(r#"{"tick":1,"max_ticks":2000,"width":8,"height":8,"you":1,"players":[{"id":0,"x":2,"y":2,"dir":"N","alive":true},{"id":1,"x":5,"y":5,"dir":"S","alive":true}],"grid":[[-1,"#), "{json}");
        let obs: Observation = serde_json::from_str(&json).unwrap();
        assert_eq!(obs.grid[2][2], 0);
        assert_eq!(obs.grid[5][5], 1);
        assert_eq!(obs.grid.len(), 8);
        assert!(obs.grid.iter().all(|row| row.len() == 8));
    }

    #[test]
    fn lists_past_the_largest_game_are_refused_as_they_are_read() {
        let base = r#"{"tick":1,"max_ticks":2,"width":8,"height":8,"you":0,"players":PLAYERS,"grid":GRID}"#;
        let read = |players: &str, grid: &str| {
            serde_json::from_str::<Observation>(&base.replace("PLAYERS", players).replace("GRID", grid))
                .map_err(|e| alloc::string::ToString::to_string(&e))
        };
        let player = r#"{"id":0,"x":1,"y":1,"dir":"N","alive":true}"#;
        let nine = alloc::format!("[{}]", [player; 9].join(","));
        assert!(read(&nine, "[]").unwrap_err().starts_with("players: more than 8 entries"));
        let rows = alloc::format!("[{}[]]", "[],".repeat(1_000_000));
        assert!(read("[]", &rows).unwrap_err().starts_with("grid: more than 255 entries"));
        let wide = alloc::format!("[[{}-1]]", "-1,".repeat(1_000_000));
        assert!(read("[]", &wide).unwrap_err().starts_with("grid: more than 255 entries"));
        let row = alloc::format!("[{}]", ["-1"; 255].join(","));
        let full = alloc::format!("[{}]", alloc::vec![row; 255].join(","));
        assert_eq!(read(&alloc::format!("[{player}]"), &full).unwrap().grid.len(), 255);
    }
}
