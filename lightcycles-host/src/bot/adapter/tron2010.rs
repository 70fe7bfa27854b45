//! `tron2010:COMMAND`: bots of the 2010 Google AI Challenge (Tron).
//!
//! Each tick the bot gets the whole board as that contest sent it: a line
//! `W H` with the size of the picture, then `H` rows of `W` characters,
//! where the board of the game is framed by a border of `#` (off the board
//! is a wall in both games). `#` is a wall: the border, a rock, or any trail
//! (the bot's own and the other's); `1` is the bot's own head and `2` the
//! other player's head, whichever seat the bot rides in: a bot of that
//! contest always sees itself as `1`. A space is empty.
//!
//! The bot answers `1`, `2`, `3` or `4` for north, east, south and west.
//! Such an answer is handed to the core's parser as `N`, `E`, `S` or `W`
//! and recorded so. Anything else is kept as it was, so the parser finds it
//! invalid, except a bare `N`, `E`, `S` or `W`, which is no answer of that
//! protocol: it is recorded as `not 1-4: N` so that it stays invalid on
//! replay. Two players only: the contest had no more.

use lightcycles_core::command::{parse_move, trim_ascii_space};
use lightcycles_core::EMPTY;

use crate::bot::adapter::line::{LineFactory, LineProtocol};
use crate::bot::Turn;

/// The protocol of the 2010 Google AI Challenge.
#[derive(Clone, Copy, Debug)]
pub struct Tron2010;

/// Makes a 2010-protocol bot for each game and seat of a two-player game.
pub type Tron2010Factory = LineFactory<Tron2010>;

impl LineProtocol for Tron2010 {
    const PREFIX: &'static str = "tron2010:";
    const FORM: &'static str = "2010 Google AI Challenge bots (tron2010:COMMAND)";
    const MAX_PLAYERS: Option<(usize, &'static str)> =
        Some((2, "bots of the 2010 protocol play two-player games only"));

    /// The board as the protocol shows it to player `turn.you()`.
    fn encode(turn: &Turn<'_>) -> Vec<u8> {
        let position = turn.position();
        let (w, h) = (turn.width() as usize, turn.height() as usize);
        let mut rows = vec![vec![b'#'; w + 2]; h + 2];
        for y in 0..h {
            for x in 0..w {
                if position.grid[y * w + x] == EMPTY {
                    rows[y + 1][x + 1] = b' ';
                }
            }
        }
        for (id, player) in position.players.iter().enumerate() {
            let mark = if id == turn.you() {
                b'1'
            } else if player.alive {
                b'2'
            } else {
                continue;
            };
            rows[player.pos.y as usize + 1][player.pos.x as usize + 1] = mark;
        }
        let mut out = format!("{} {}\n", w + 2, h + 2).into_bytes();
        for row in rows {
            out.extend_from_slice(&row);
            out.push(b'\n');
        }
        out
    }

    /// An answer of 1 to 4 as the move it names; anything else kept invalid.
    fn decode(raw: Vec<u8>) -> Vec<u8> {
        translate(&raw)
    }
}

/// The line handed to the core's parser for an answer of the 2010 protocol.
pub fn translate(raw: &[u8]) -> Vec<u8> {
    match trim_ascii_space(raw) {
        b"1" => b"N".to_vec(),
        b"2" => b"E".to_vec(),
        b"3" => b"S".to_vec(),
        b"4" => b"W".to_vec(),
        _ if parse_move(raw).is_some() => [&b"not 1-4: "[..], trim_ascii_space(raw)].concat(),
        _ => raw.to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::process::sandbox::Sandbox;
    use crate::bot::{BotContext, BotFactory, Reply};
    use lightcycles_core::{Action, Answer, Config, Dir, Engine, FaultKind, ReferenceGame};
    use std::time::Duration;

    fn text(turn: &Turn<'_>) -> String {
        String::from_utf8(Tron2010::encode(turn)).unwrap()
    }

    #[test]
    fn each_player_sees_itself_as_1_inside_a_border() {
        let config = Config { width: 8, height: 8, rock_density: 25, ..Config::default() };
        let mut game = ReferenceGame::seeded(&config, 123).unwrap();
        // Starts (2,2) N and (5,5) S; rocks from the golden map of seed 123.
        game.step(&[Action::Move(Dir::E), Action::Keep]).unwrap();
        let position = game.position();
        let zero = text(&Turn::new(&position, 0));
        let one = text(&Turn::new(&position, 1));
        let rows: Vec<&str> = zero.lines().collect();
        assert_eq!(rows[0], "10 10");
        assert_eq!(rows.len(), 11);
        assert!(rows[1..].iter().all(|r| r.len() == 10));
        assert_eq!(rows[1], "##########");
        assert_eq!(rows[10], "##########");
        // Row y of the board is line y + 2: the size, then the border.
        // Player 0 went from (2,2) to (3,2): its old head is trail.
        assert_eq!(&rows[4][3..5], "#1");
        // Player 1 went from (5,5) to (5,6).
        assert_eq!(rows[8].as_bytes()[6], b'2');
        let swapped: String = zero
            .chars()
            .map(|c| {
                if c == '1' {
                    '2'
                } else if c == '2' {
                    '1'
                } else {
                    c
                }
            })
            .collect();
        // The first line has a 1 in "10 10" too: compare the boards only.
        assert_eq!(swapped.lines().skip(1).collect::<Vec<_>>(), one.lines().skip(1).collect::<Vec<_>>());
        // Every cell agrees with the grid: empty is a space, the rest a wall or a head.
        for y in 0..8usize {
            for x in 0..8usize {
                let c = rows[y + 2].as_bytes()[x + 1];
                assert_eq!(c == b' ', position.grid[y * 8 + x] == EMPTY, "({x}, {y})");
            }
        }
    }

    #[test]
    fn answers_1_to_4_become_moves_and_the_rest_stays_invalid() {
        assert_eq!(translate(b"1"), b"N");
        assert_eq!(translate(b" 2\r"), b"E");
        assert_eq!(translate(b"3"), b"S");
        assert_eq!(translate(b"4\t"), b"W");
        for raw in [&b"0"[..], b"5", b"12", b"", b"north", b"n"] {
            assert_eq!(translate(raw), raw, "kept as it was");
            assert_eq!(Answer::from_line(&translate(raw)).fault, Some(FaultKind::Invalid));
        }
        let letter = translate(b" N ");
        assert_eq!(letter, b"not 1-4: N");
        let recorded = Answer::from_line(&letter);
        assert_eq!(recorded.fault, Some(FaultKind::Invalid));
        assert_eq!(recorded.action(), Action::Fault(FaultKind::Invalid), "stays invalid on replay");
        let long = vec![b'1'; 2000];
        assert_eq!(translate(&long), long);
    }

    #[test]
    fn more_than_two_players_is_refused() {
        let f = Tron2010Factory::new("true", None, Sandbox::default());
        let err = f.create(&BotContext { game: 0, seat: 0, players: 3, seed: 0 }).err().unwrap();
        assert!(err.0.contains("two-player games only, not 3"), "{err}");
    }

    #[test]
    fn a_2010_bot_plays_through_the_shell() {
        // Reads the picture, always answers 2 (east).
        let script = "while read -r w h; do i=0; while [ $i -lt $h ]; do read -r row; i=$((i+1)); done; echo 2; done";
        let f = Tron2010Factory::new(script, None, Sandbox::default());
        let mut bot = f.create(&BotContext { game: 0, seat: 1, players: 2, seed: 0 }).unwrap();
        let game = ReferenceGame::seeded(&Config::default(), 1).unwrap();
        let position = game.position();
        for _ in 0..3 {
            assert_eq!(bot.answer(&Turn::new(&position, 1), Duration::from_secs(5)), Reply::Line(b"E".to_vec()));
        }
    }
}
