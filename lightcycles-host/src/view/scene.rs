//! Everything shown at one tick besides the board: who rides, what each bot
//! answered on that tick and what went wrong, and how the game ended.
//! The terminal views (`replay show`, `play --watch`) draw a [`Scene`].

use lightcycles_core::replay::Replay;
use lightcycles_core::{Answer, Engine, FaultKind, FaultPolicy};

use super::board::Board;
use super::viewable::{ViewError, Viewable};

/// Where the map came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MapOrigin {
    /// Generated from this seed.
    Seed(u64),
    /// A custom map file (docs/RULES.md section 9).
    Custom,
}

impl MapOrigin {
    /// The origin a replay records.
    pub fn of(replay: &Replay) -> MapOrigin {
        match (replay.seed, &replay.map) {
            (Some(seed), None) => MapOrigin::Seed(seed),
            _ => MapOrigin::Custom,
        }
    }
}

/// One player at one tick, besides its place on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// The display name, untrusted.
    pub name: String,
    /// The tick it was eliminated on, if it was by this tick.
    pub eliminated_at: Option<u32>,
    /// The line it answered on this tick (untrusted), if any.
    pub command: Option<String>,
    /// The fault it made on this tick, if any.
    pub fault: Option<FaultKind>,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The winner, `None` for a draw.
    pub winner: Option<usize>,
    /// The tick the game ended on.
    pub ticks: u32,
    /// Placement per player (1 is best).
    pub placements: Vec<u32>,
}

impl Ending {
    /// The players that share first place: the winner, or those in the draw.
    pub fn firsts(&self) -> Vec<usize> {
        match self.winner {
            Some(w) => vec![w],
            None => (0..self.placements.len()).filter(|&i| self.placements[i] == 1).collect(),
        }
    }
}

/// Everything a view shows at one tick.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scene {
    /// The board.
    pub board: Board,
    /// The tick shown (ticks played).
    pub tick: u32,
    /// The last tick of the game, when it is known (a replay).
    pub last_tick: Option<u32>,
    /// The tick cap.
    pub max_ticks: u32,
    /// Where the map came from.
    pub origin: MapOrigin,
    /// What a fault costs.
    pub fault_policy: FaultPolicy,
    /// Every player, by id.
    pub players: Vec<Player>,
    /// How the game ended, once it has.
    pub ending: Option<Ending>,
}

impl Scene {
    /// The scene after `tick` ticks of a checked replay. The ending is the
    /// replay's result, shown at every tick.
    pub fn from_replay(viewable: &Viewable<'_>, tick: u32) -> Result<Scene, ViewError> {
        let board = Board::from_replay(viewable, tick)?;
        let replay = viewable.replay();
        let frames = &replay.frames[..=tick as usize];
        let players = (0..viewable.players())
            .map(|i| {
                let eliminated_at = frames.iter().position(|f| f.heads[i][2] == 0).map(|t| t as u32);
                let (command, fault) = match tick.checked_sub(1) {
                    Some(k) => (replay.commands[k as usize][i].clone(), replay.faults[k as usize][i]),
                    None => (None, None),
                };
                Player { name: replay.names[i].clone(), eliminated_at, command, fault }
            })
            .collect();
        let result = &replay.result;
        let ending = Ending { winner: replay.winner, ticks: result.ticks, placements: result.placements.clone() };
        Ok(Scene {
            board,
            tick,
            last_tick: Some(viewable.last_tick()),
            max_ticks: replay.max_ticks,
            origin: MapOrigin::of(replay),
            fault_policy: replay.config.fault_policy,
            players,
            ending: Some(ending),
        })
    }

    /// The scene of a game in progress, after the tick whose answers are
    /// `answers` (none before the first tick).
    pub fn from_engine<E: Engine>(engine: &E, names: &[String], answers: &[Answer], origin: MapOrigin) -> Scene {
        let players = (0..engine.num_players())
            .map(|i| {
                let answer = answers.get(i).cloned().unwrap_or_default();
                Player {
                    name: names.get(i).cloned().unwrap_or_else(|| format!("player {i}")),
                    eliminated_at: engine.player(i).eliminated_at,
                    command: answer.line,
                    fault: answer.fault,
                }
            })
            .collect();
        let ending = engine.outcome().map(|o| Ending { winner: o.winner, ticks: o.ticks, placements: o.placements });
        Scene {
            board: Board::from_engine(engine),
            tick: engine.tick(),
            last_tick: ending.as_ref().map(|e| e.ticks),
            max_ticks: engine.config().max_ticks,
            origin,
            fault_policy: engine.config().fault_policy,
            players,
            ending,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lightcycles_core::{Action, Dir, ReferenceGame};

    fn golden(name: &str) -> Replay {
        let path = format!("{}/../lightcycles-core/tests/golden-replays/{name}", env!("CARGO_MANIFEST_DIR"));
        super::super::viewable::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    #[test]
    fn a_tick_shows_its_own_answers_and_faults() {
        let replay = golden("sim_0.json");
        let v = Viewable::check(&replay).unwrap();
        let start = Scene::from_replay(&v, 0).unwrap();
        assert!(start.players.iter().all(|p| p.command.is_none() && p.fault.is_none()));
        // commands[1] = ["n", "S"], faults[1] = ["invalid", null]: tick 2.
        let two = Scene::from_replay(&v, 2).unwrap();
        assert_eq!(two.players[0].command.as_deref(), Some("n"));
        assert_eq!(two.players[0].fault, Some(FaultKind::Invalid));
        assert_eq!(two.players[1].command.as_deref(), Some("S"));
        assert_eq!(two.players[1].fault, None);
        assert_eq!(two.origin, MapOrigin::Seed(500));
        assert_eq!(two.last_tick, Some(26));
    }

    #[test]
    fn elimination_ticks_appear_when_they_happen() {
        let replay = golden("sim_0.json");
        let v = Viewable::check(&replay).unwrap();
        assert_eq!(Scene::from_replay(&v, 25).unwrap().players[1].eliminated_at, None);
        let end = Scene::from_replay(&v, 26).unwrap();
        assert_eq!(end.players[1].eliminated_at, Some(26));
        assert_eq!(end.players[0].eliminated_at, None);
        let ending = end.ending.unwrap();
        assert_eq!((ending.winner, ending.ticks, ending.firsts()), (Some(0), 26, vec![0]));
    }

    #[test]
    fn a_draw_lists_everyone_placed_first() {
        let replay = golden("map_headon_draw.json");
        let v = Viewable::check(&replay).unwrap();
        let scene = Scene::from_replay(&v, v.last_tick()).unwrap();
        assert_eq!(scene.origin, MapOrigin::Custom);
        assert_eq!(scene.ending.unwrap().firsts(), vec![0, 1]);
    }

    #[test]
    fn a_game_in_progress_has_no_ending_yet() {
        let config = lightcycles_core::Config::default();
        let mut game = ReferenceGame::seeded(&config, 1).unwrap();
        let names = vec!["a".to_string(), "b".to_string()];
        let before = Scene::from_engine(&game, &names, &[], MapOrigin::Seed(1));
        assert_eq!((before.tick, before.last_tick, before.ending.is_none()), (0, None, true));
        game.step(&[Action::Move(Dir::S), Action::Fault(FaultKind::Timeout)]).unwrap();
        let answers = [Answer::from_line(b"S"), Answer::fault(FaultKind::Timeout)];
        let after = Scene::from_engine(&game, &names, &answers, MapOrigin::Seed(1));
        assert_eq!(after.tick, 1);
        assert_eq!(after.players[0].command.as_deref(), Some("S"));
        assert_eq!(after.players[1].fault, Some(FaultKind::Timeout));
        assert_eq!(after.board.riders()[0].trail, 2);
    }
}
