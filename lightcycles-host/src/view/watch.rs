//! `lightcycles play --watch`: the game drawn in the terminal as it runs.
//! On a terminal each tick redraws the last one in place (ANSI cursor
//! moves, colours); elsewhere (a pipe, a log file) the ticks follow each
//! other as plain text.

use std::io::{self, Write};
use std::thread;
use std::time::{Duration, Instant};

use super::scene::Scene;
use super::terminal;
use super::untrusted::terminal_text;

/// The pause between two ticks drawn on a terminal, so that a person can
/// follow a game of fast bots: 20 ticks a second.
pub const TERMINAL_PACE: Duration = Duration::from_millis(50);

/// Draws scenes one after another on `out`.
pub struct Watcher<W: Write> {
    out: W,
    in_place: bool,
    pace: Duration,
    drawn: Option<Instant>,
}

impl<W: Write> Watcher<W> {
    /// A watcher that redraws in place with colours when `terminal` (and
    /// waits `pace` between ticks), or writes plain frames one after another.
    pub fn new(out: W, terminal: bool, pace: Duration) -> Watcher<W> {
        Watcher { out, in_place: terminal, pace, drawn: None }
    }

    /// Draws `scene` under a `title` line (which game this is; untrusted
    /// parts are escaped here).
    pub fn draw(&mut self, title: &str, scene: &Scene) -> io::Result<()> {
        if let Some(drawn) = self.drawn {
            let wait = self.pace.saturating_sub(drawn.elapsed());
            if !wait.is_zero() {
                thread::sleep(wait);
            }
        }
        let mut text = terminal_text(title);
        text.push('\n');
        text.push_str(&terminal::render(scene, self.in_place));
        if self.in_place {
            let first = self.drawn.is_none();
            // Home the cursor (clearing the screen the first time), clear the
            // rest of each line as it is rewritten, and whatever is below.
            let mut frame = String::from(if first { "\x1b[H\x1b[2J" } else { "\x1b[H" });
            frame.push_str(&text.replace('\n', "\x1b[K\n"));
            frame.push_str("\x1b[J");
            self.out.write_all(frame.as_bytes())?;
        } else {
            text.push('\n');
            self.out.write_all(text.as_bytes())?;
        }
        self.out.flush()?;
        self.drawn = Some(Instant::now());
        Ok(())
    }

    /// Forgets the last frame, so that the next game starts on a clean screen.
    pub fn restart(&mut self) {
        self.drawn = None;
    }

    /// The writer, back.
    pub fn into_inner(self) -> W {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::scene::MapOrigin;
    use lightcycles_core::{Action, Answer, Config, Dir, Engine, Game};

    fn scenes() -> Vec<Scene> {
        let mut game = Game::seeded(&Config::default(), 3).unwrap();
        let names = vec!["left".to_string(), "right\x1b[31m".to_string()];
        let mut scenes = vec![Scene::from_engine(&game, &names, &[], MapOrigin::Seed(3))];
        for _ in 0..3 {
            game.step(&[Action::Keep, Action::Move(Dir::N)]).unwrap();
            let answers = [Answer::none(), Answer::from_line(b"N")];
            scenes.push(Scene::from_engine(&game, &names, &answers, MapOrigin::Seed(3)));
        }
        scenes
    }

    #[test]
    fn plain_frames_follow_each_other() {
        let mut w = Watcher::new(Vec::new(), false, Duration::ZERO);
        for s in scenes() {
            w.draw("game 0 \x07", &s).unwrap();
        }
        let out = String::from_utf8(w.into_inner()).unwrap();
        assert_eq!(out.matches("game 0 \\u{7}\n").count(), 4, "one titled frame per tick, escaped");
        assert!(out.contains("tick 0 · 48 × 36"));
        assert!(out.contains("tick 3 · 48 × 36"));
        assert!(!out.contains('\x1b'), "no escape sequence off a terminal, not even from a name");
        assert!(out.contains("right\\u{1b}[31m"));
    }

    #[test]
    fn a_terminal_is_redrawn_in_place() {
        let mut w = Watcher::new(Vec::new(), true, Duration::ZERO);
        for s in scenes() {
            w.draw("game 0", &s).unwrap();
        }
        let out = String::from_utf8(w.into_inner()).unwrap();
        assert!(out.starts_with("\x1b[H\x1b[2J"), "the first frame clears the screen");
        assert_eq!(out.matches("\x1b[2J").count(), 1, "later frames only home the cursor");
        assert_eq!(out.matches("\x1b[H").count(), 4);
        assert!(out.contains("\x1b[38;5;"), "in colour");
        assert!(!out.contains("right\x1b[31m"), "a name never reaches the terminal raw");
    }
}
