//! The board and its legend as text for a terminal: plain characters that
//! read on their own (and in a golden test), and the same characters with
//! ANSI colours when a person is looking.
//!
//! Plain cells: `.` empty, `#` rock, `0`–`7` a player's trail, `A`–`H` a
//! player's head, `a`–`h` the head of a player that has crashed.

use std::fmt::Write;

use lightcycles_core::replay::Replay;

use super::board::{Board, Cell};
use super::palette;
use super::scene::{MapOrigin, Player, Scene};
use super::viewable::{ViewError, Viewable};
use crate::io::untrusted::{clip, terminal_quoted, terminal_text};

/// Longest name shown in the legend, in characters.
const NAME_WIDTH: usize = 32;
/// Longest answer line shown in the legend, in characters: the rules record
/// at most 61 of an invalid line, so this only cuts hand-made files.
const LINE_WIDTH: usize = 64;

/// How one character is coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Style {
    Plain,
    Frame,
    Empty,
    Rock,
    Trail(usize),
    Head(usize),
    Crashed,
    Name(usize),
    Bold,
}

impl Style {
    /// The SGR sequence that starts this style (after a reset).
    fn sgr(self) -> String {
        match self {
            Style::Plain => String::new(),
            Style::Frame => "\x1b[38;5;240m".into(),
            Style::Empty => format!("\x1b[38;5;{}m", palette::EMPTY.ansi),
            Style::Rock => format!("\x1b[38;5;{}m", palette::ROCK.ansi),
            Style::Trail(p) => {
                let c = palette::player(p).ansi;
                format!("\x1b[38;5;{c};48;5;{c}m")
            }
            Style::Head(p) => format!("\x1b[1;38;5;16;48;5;{}m", palette::player(p).ansi),
            Style::Crashed => "\x1b[1;38;5;231;48;5;196m".into(),
            Style::Name(p) => format!("\x1b[38;5;{}m", palette::player(p).ansi),
            Style::Bold => "\x1b[1m".into(),
        }
    }
}

/// Text that is coloured only when asked to be.
struct Painter {
    colour: bool,
    out: String,
    current: Style,
}

impl Painter {
    fn new(colour: bool) -> Painter {
        Painter { colour, out: String::new(), current: Style::Plain }
    }

    fn put(&mut self, style: Style, text: &str) {
        if self.colour && style != self.current {
            if self.current != Style::Plain {
                self.out.push_str("\x1b[0m");
            }
            self.out.push_str(&style.sgr());
            self.current = style;
        }
        self.out.push_str(text);
    }

    fn end_line(&mut self) {
        if self.colour && self.current != Style::Plain {
            self.out.push_str("\x1b[0m");
            self.current = Style::Plain;
        }
        self.out.push('\n');
    }
}

/// The character and style of the cell at `(x, y)`.
fn glyph(board: &Board, x: u32, y: u32) -> (char, Style) {
    if let Some(p) = board.head_at(x, y) {
        let letter = (b'A' + p as u8) as char;
        return if board.riders()[p].alive {
            (letter, Style::Head(p))
        } else {
            (letter.to_ascii_lowercase(), Style::Crashed)
        };
    }
    match board.cell(x, y) {
        Some(Cell::Rock) => ('#', Style::Rock),
        Some(Cell::Trail(p)) => ((b'0' + p) as char, Style::Trail(p as usize)),
        _ => ('.', Style::Empty),
    }
}

/// The answer column: the line as recorded, and the fault.
fn answer_text(tick: u32, player: &Player) -> String {
    if tick == 0 {
        return String::new();
    }
    let line = player.command.as_deref().map(|l| match l {
        "N" | "E" | "S" | "W" => l.to_string(),
        _ => terminal_quoted(&clip(l, LINE_WIDTH)),
    });
    match (line, player.fault) {
        (Some(line), Some(fault)) => format!("{line} {fault}"),
        (Some(line), None) => line,
        (None, Some(fault)) => fault.to_string(),
        (None, None) => "-".to_string(),
    }
}

fn header(scene: &Scene) -> String {
    let mut line = match scene.last_tick {
        Some(last) => format!("tick {} / {}", scene.tick, last),
        None => format!("tick {}", scene.tick),
    };
    let board = &scene.board;
    let _ = write!(line, " · {} × {}", board.width(), board.height());
    match scene.origin {
        MapOrigin::Seed(seed) => {
            let _ = write!(line, " · seed {seed}");
        }
        MapOrigin::Custom => line.push_str(" · custom map"),
    }
    let _ = write!(line, " · max {} ticks · fault policy: {}", scene.max_ticks, scene.fault_policy);
    line
}

fn state_text(player: &Player) -> String {
    match player.eliminated_at {
        Some(t) => format!("crashed on tick {t}"),
        None => "riding".to_string(),
    }
}

fn ending_text(scene: &Scene, names: &[String]) -> Option<String> {
    let ending = scene.ending.as_ref()?;
    Some(match ending.winner {
        Some(w) => format!("result: {} wins on tick {}", names[w], ending.ticks),
        None => {
            let firsts: Vec<&str> = ending.firsts().iter().map(|&i| names[i].as_str()).collect();
            if firsts.is_empty() {
                format!("result: a draw on tick {}", ending.ticks)
            } else {
                format!("result: a draw on tick {} between {}", ending.ticks, firsts.join(", "))
            }
        }
    })
}

/// The board and legend of `scene` as text, with ANSI colours when `colour`.
/// Without colour the text holds no escape sequence and no control
/// character other than newlines: names and lines are escaped.
pub fn render(scene: &Scene, colour: bool) -> String {
    let board = &scene.board;
    let mut p = Painter::new(colour);
    p.put(Style::Bold, &header(scene));
    p.end_line();
    let edge = format!("+{}+", "-".repeat(board.width() as usize));
    p.put(Style::Frame, &edge);
    p.end_line();
    let mut buf = [0u8; 4];
    for y in 0..board.height() {
        p.put(Style::Frame, "|");
        for x in 0..board.width() {
            let (c, style) = glyph(board, x, y);
            p.put(style, c.encode_utf8(&mut buf));
        }
        p.put(Style::Frame, "|");
        p.end_line();
    }
    p.put(Style::Frame, &edge);
    p.end_line();

    let names: Vec<String> = scene.players.iter().map(|pl| clip(&terminal_text(&pl.name), NAME_WIDTH)).collect();
    let name_width = names.iter().map(|n| n.chars().count()).max().unwrap_or(0).max(4);
    let states: Vec<String> = scene.players.iter().map(state_text).collect();
    let state_width = states.iter().map(|s| s.chars().count()).max().unwrap_or(0).max(5);
    p.put(Style::Bold, &format!("    {:name_width$}  {:state_width$}  trail  answer", "name", "state"));
    p.end_line();
    for (i, player) in scene.players.iter().enumerate() {
        let rider = board.riders()[i];
        let (key, key_style) = if rider.alive {
            ((b'A' + i as u8) as char, Style::Head(i))
        } else {
            ((b'a' + i as u8) as char, Style::Crashed)
        };
        p.put(key_style, &key.to_string());
        p.put(Style::Trail(i), &i.to_string());
        p.put(Style::Plain, "  ");
        p.put(Style::Name(i), &names[i]);
        let pad = name_width - names[i].chars().count();
        let answer = answer_text(scene.tick, player);
        let row = format!("{:pad$}  {:state_width$}  {:>5}  {answer}", "", states[i], rider.trail);
        p.put(Style::Plain, row.trim_end());
        p.end_line();
    }
    if let Some(text) = ending_text(scene, &names) {
        p.put(Style::Bold, &text);
        p.end_line();
    }
    p.out
}

/// The board of `replay` after `tick` ticks (the last tick when `None`).
pub fn render_replay(replay: &Replay, tick: Option<u32>, colour: bool) -> Result<String, ViewError> {
    let viewable = Viewable::check(replay)?;
    let scene = Scene::from_replay(&viewable, tick.unwrap_or(viewable.last_tick()))?;
    let mut text = render(&scene, colour);
    text.push_str(&said_text(replay, scene.tick));
    Ok(text)
}

/// Longest line of a bot's output shown under the board, in characters.
const SAID_WIDTH: usize = 160;

/// What the bots wrote on `tick` (the replay's `said`), under the board:
/// `said on tick T:`, then `  K  NAME: LINE` for each line, every control
/// character escaped; nothing when no bot wrote anything on that tick.
/// Entries that name no player of the game are left out.
pub fn said_text(replay: &Replay, tick: u32) -> String {
    let mut out = String::new();
    let entries = replay.said.iter().flatten().filter(|e| e.tick == tick && tick > 0);
    for entry in entries {
        let p = entry.player as usize;
        let Some(name) = replay.names.get(p).filter(|_| p < replay.num_players as usize) else { continue };
        if out.is_empty() {
            let _ = writeln!(out, "said on tick {tick}:");
        }
        let name = clip(&terminal_text(name), NAME_WIDTH);
        for line in &entry.lines {
            let _ = writeln!(out, "  {p}  {name}: {}", clip(&terminal_text(line), SAID_WIDTH));
        }
        if entry.truncated {
            let _ = writeln!(out, "  {p}  {name}: [cut: more was written than is kept]");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::parse;

    fn golden(name: &str) -> Replay {
        let path = format!("{}/../lightcycles-core/tests/golden-replays/{name}", env!("CARGO_MANIFEST_DIR"));
        parse(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    /// `text` without its SGR sequences (`ESC [ … m`).
    fn strip_sgr(text: &str) -> String {
        let mut out = String::new();
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            if c == '\x1b' {
                assert_eq!(chars.next(), Some('['), "only SGR sequences are written");
                for d in chars.by_ref() {
                    if d == 'm' {
                        break;
                    }
                    assert!(d.is_ascii_digit() || d == ';', "SGR parameters only: {d:?}");
                }
            } else {
                out.push(c);
            }
        }
        out
    }

    #[test]
    fn colour_adds_nothing_but_colour() {
        for name in ["sim_0.json", "eight_players.json", "map_headon_draw.json"] {
            let r = golden(name);
            for tick in [Some(0), Some(3), None] {
                let plain = render_replay(&r, tick, false).unwrap();
                let colour = render_replay(&r, tick, true).unwrap();
                assert!(!plain.contains('\x1b'));
                assert!(colour.contains("\x1b[38;5;"), "{name}");
                assert_eq!(strip_sgr(&colour), plain, "{name} at {tick:?}");
                for line in colour.lines().filter(|l| l.contains('\x1b')) {
                    let last = line.rfind('\x1b').unwrap();
                    assert!(line[last..].starts_with("\x1b[0m"), "no colour runs past a line: {line:?}");
                }
            }
        }
    }

    #[test]
    fn eight_players_have_eight_keys() {
        let r = golden("eight_players.json");
        let shown = render_replay(&r, Some(1), false).unwrap();
        for (i, key) in "ABCDEFGH".chars().enumerate() {
            let row = shown.lines().find(|l| l.starts_with(&format!("{key}{i}"))).unwrap_or_else(|| panic!("{key}"));
            assert!(row.contains(&r.names[i]), "{row}");
            let board: String = shown.lines().filter(|l| l.starts_with('|')).collect();
            assert_eq!(board.matches(key).count(), 1, "{key}: one head on the board");
        }
    }

    #[test]
    fn the_start_has_no_answers_yet() {
        let shown = render_replay(&golden("sim_0.json"), Some(0), false).unwrap();
        assert!(shown.contains("A0  fuzz0  riding      1\n"), "{shown}");
        assert!(shown.contains("B1  fuzz1  riding      1\n"));
    }

    #[test]
    fn hostile_names_and_lines_stay_text() {
        let mut r = golden("sim_0.json");
        r.names[0] = "\x1b[2J\x1b]0;pwned\x07".into();
        r.names[1] = "evil\u{9b}31m\u{202e}".into();
        r.commands[1][0] = Some("\x1b[31mN\r".into());
        for colour in [false, true] {
            let shown = render_replay(&r, Some(2), colour).unwrap();
            let text = strip_sgr(&shown);
            assert!(!text.chars().any(|c| c.is_control() && c != '\n'), "{text:?}");
            assert!(text.contains("\\u{1b}[2J\\u{1b}]0;pwned\\u{7}"));
            assert!(text.contains("evil\\u{9b}31m\\u{202e}"));
            assert!(text.contains("\"\\u{1b}[31mN\\u{d}\" invalid"));
        }
    }

    #[test]
    fn long_names_and_lines_are_cut() {
        let mut r = golden("sim_0.json");
        r.names[0] = "n".repeat(500);
        r.commands[1][0] = Some("x".repeat(5000));
        let shown = render_replay(&r, Some(2), false).unwrap();
        assert!(shown.contains(&format!("{}…  ", "n".repeat(31))));
        assert!(shown.contains(&format!("\"{}…\" invalid", "x".repeat(63))));
        assert!(shown.lines().all(|l| l.chars().count() < 140), "{shown}");
    }

    #[test]
    fn a_tick_past_the_end_is_an_error() {
        let err = render_replay(&golden("sim_0.json"), Some(99), false).unwrap_err();
        assert_eq!(err.to_string(), "tick 99 is past the last tick of the game (26)");
    }
}
