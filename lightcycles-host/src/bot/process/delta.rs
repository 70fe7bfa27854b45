//! Observations after the first sent as what changed: the players, the
//! tick, and the cells that changed since the last observation sent (a
//! tick changes the cells under the heads, so a few instead of the whole
//! board). The adapter on the other side (the Python adapter, or the
//! plugin host of an isolated plugin, [`DeltaReader`]) keeps the board and
//! rebuilds the observation the full JSON would give, key for key, so the
//! bot sees exactly what it would see without deltas.
//!
//! The first request, and the first after one that could not be queued,
//! is the whole observation (`SEQ {...}`); the others are `SEQ +{"tick":
//! T, "players": [...], "cells": [x, y, v, ...]}`, with `"time_bank_ms": B`
//! last when the bot has a time bank. The bot reads every
//! request in order (it may answer only the newest), so what it keeps is
//! what was sent.

use std::fmt::Write;

use lightcycles_core::observation::{Observation, PlayerView};
use lightcycles_core::CellValue;

use crate::bot::Turn;

/// What was last sent to one bot.
#[derive(Debug, Default)]
pub struct DeltaSender {
    /// The board of the last observation queued, when the bot has it.
    sent: Option<Vec<CellValue>>,
}

impl DeltaSender {
    /// The body of the request for `turn`: the whole observation when the
    /// bot has no board yet, else `+` and what changed. Taken as sent; call
    /// [`DeltaSender::forget`] if it was not.
    pub fn body(&mut self, turn: &Turn<'_>) -> String {
        let position = turn.position();
        let grid = &position.grid;
        let Some(sent) = self.sent.as_mut().filter(|s| s.len() == grid.len()) else {
            self.sent = Some(grid.clone());
            return turn.observation().to_json();
        };
        let width = position.config.width as usize;
        let mut body = String::with_capacity(160 + 40 * position.players.len());
        let _ = write!(body, "+{{\"tick\":{},\"players\":[", position.tick + 1);
        for (id, p) in position.players.iter().enumerate() {
            if id > 0 {
                body.push(',');
            }
            let view = PlayerView { id, x: p.pos.x as u32, y: p.pos.y as u32, dir: p.dir, alive: p.alive };
            body.push_str(&serde_json::to_string(&view).expect("a player serialises"));
        }
        body.push_str("],\"cells\":[");
        let mut first = true;
        for (i, (&now, seen)) in grid.iter().zip(sent.iter_mut()).enumerate() {
            if now != *seen {
                *seen = now;
                let sep = if first { "" } else { "," };
                first = false;
                let _ = write!(body, "{sep}{},{},{now}", i % width, i / width);
            }
        }
        body.push(']');
        if let Some(bank) = turn.time_bank() {
            let _ = write!(body, ",\"time_bank_ms\":{}", bank.as_millis());
        }
        body.push('}');
        body
    }

    /// The last request was not queued: the next one is whole.
    pub fn forget(&mut self) {
        self.sent = None;
    }
}

/// What changed, as sent.
#[derive(serde::Deserialize)]
struct Change {
    tick: u32,
    players: Vec<PlayerView>,
    cells: Vec<i64>,
    #[serde(default)]
    time_bank_ms: Option<u64>,
}

/// The other side of [`DeltaSender`]: the observation of each request.
#[derive(Debug, Default)]
pub struct DeltaReader {
    obs: Option<Observation>,
}

impl DeltaReader {
    /// The observation last read, if any.
    pub fn current(&self) -> Option<&Observation> {
        self.obs.as_ref()
    }

    /// The observation of request body `body` (a whole observation, or `+`
    /// and what changed since the last), kept for the next.
    pub fn read(&mut self, body: &str) -> Result<&Observation, String> {
        let Some(change) = body.strip_prefix('+') else {
            let obs: Observation = serde_json::from_str(body).map_err(|e| format!("not an observation: {e}"))?;
            return Ok(self.obs.insert(obs));
        };
        let obs = self.obs.as_mut().ok_or("what changed, before any whole observation")?;
        let change: Change = serde_json::from_str(change).map_err(|e| format!("not a change: {e}"))?;
        if change.players.len() != obs.players.len() || change.cells.len() % 3 != 0 {
            return Err("a change of another game".into());
        }
        for cell in change.cells.chunks(3) {
            let (x, y) = (usize::try_from(cell[0]), usize::try_from(cell[1]));
            let value = CellValue::try_from(cell[2]).map_err(|_| format!("cell value {} out of range", cell[2]))?;
            let slot = match (x, y) {
                (Ok(x), Ok(y)) => obs.grid.get_mut(y).and_then(|row| row.get_mut(x)),
                _ => None,
            };
            *slot.ok_or_else(|| format!("cell ({}, {}) is off the board", cell[0], cell[1]))? = value;
        }
        obs.tick = change.tick;
        obs.players = change.players;
        obs.time_bank_ms = change.time_bank_ms;
        Ok(obs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lightcycles_core::{Action, Config, Engine, ReferenceGame};

    #[test]
    fn the_first_request_is_whole_and_the_next_say_what_changed() {
        let mut game = ReferenceGame::seeded(&Config { width: 10, height: 8, ..Config::default() }, 3).unwrap();
        let mut deltas = DeltaSender::default();
        let first = game.position();
        let body = deltas.body(&Turn::new(&first, 1));
        assert_eq!(body, Turn::new(&first, 1).observation().to_json());
        game.step(&[Action::Keep, Action::Keep]).unwrap();
        let next = game.position();
        let body = deltas.body(&Turn::new(&next, 1));
        let changed: Vec<usize> = (0..next.grid.len()).filter(|&i| next.grid[i] != first.grid[i]).collect();
        assert_eq!(changed.len(), 2, "two heads moved");
        let v: serde_json::Value = serde_json::from_str(body.strip_prefix('+').unwrap()).unwrap();
        assert_eq!(v["tick"], 2);
        let cells: Vec<i64> = v["cells"].as_array().unwrap().iter().map(|c| c.as_i64().unwrap()).collect();
        let expected: Vec<i64> =
            changed.iter().flat_map(|&i| [(i % 10) as i64, (i / 10) as i64, next.grid[i] as i64]).collect();
        assert_eq!(cells, expected);
        let full: serde_json::Value = serde_json::from_str(&Turn::new(&next, 1).observation().to_json()).unwrap();
        assert_eq!(v["players"], full["players"]);
        deltas.forget();
        assert!(!deltas.body(&Turn::new(&next, 1)).starts_with('+'), "whole again after a request was lost");
    }

    /// A reader rebuilds, from what a sender sends, every observation of a
    /// game exactly.
    #[test]
    fn a_reader_rebuilds_every_observation() {
        let config = Config { width: 16, height: 12, ..Config::default() };
        let mut game = ReferenceGame::seeded(&config, 8).unwrap();
        let (mut sender, mut reader) = (DeltaSender::default(), DeltaReader::default());
        while !game.is_over() {
            let position = game.position();
            let turn = Turn::new(&position, 0);
            assert_eq!(reader.read(&sender.body(&turn)).unwrap(), &turn.observation(), "tick {}", position.tick);
            let moves: Vec<Action> = (0..2)
                .map(|id| {
                    lightcycles_core::space::safe_moves(&game, id).iter().next().map_or(Action::Keep, Action::Move)
                })
                .collect();
            game.step(&moves).unwrap();
        }
        for bad in ["+{\"tick\":1,\"players\":[],\"cells\":[]}", "+{\"tick\":1}", "{", "+x"] {
            assert!(reader.read(bad).is_err(), "{bad}");
        }
        let whole = reader.obs.clone().unwrap();
        let p = serde_json::to_string(&whole.players).unwrap();
        for cells in ["[99,0,1]", "[0,99,1]", "[-1,0,1]", "[0,0,300]", "[0,0]"] {
            let body = format!("+{{\"tick\":5,\"players\":{p},\"cells\":{cells}}}");
            assert!(reader.read(&body).is_err(), "{body}");
        }
        assert!(DeltaReader::default().read("+{}").is_err(), "a change needs a whole observation first");
    }
}
