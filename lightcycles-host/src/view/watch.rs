//! `lightcycles play --watch`: the game drawn in the terminal as it runs.
//! On a terminal each tick redraws the last one in place, in colour: the
//! cursor goes back up over the previous frame, so whatever was printed
//! above it (the lines of earlier games) stays. Elsewhere (a pipe, a log
//! file) the ticks follow each other as plain text.

use std::io::{self, Write};
use std::thread;
use std::time::{Duration, Instant};

use super::scene::Scene;
use super::terminal;
use crate::io::untrusted::terminal_text;

/// The pause between two ticks drawn on a terminal, so that a person can
/// follow a game of fast bots: 20 ticks a second.
pub const TERMINAL_PACE: Duration = Duration::from_millis(50);

/// Draws scenes one after another on `out`.
pub struct Watcher<W: Write> {
    out: W,
    in_place: bool,
    pace: Duration,
    drawn: Option<Instant>,
    /// Lines of the frame on screen, to go back over; 0 to draw below.
    lines: usize,
}

impl<W: Write> Watcher<W> {
    /// A watcher that redraws in place with colours when `terminal` (and
    /// waits `pace` between ticks), or writes plain frames one after another.
    pub fn new(out: W, terminal: bool, pace: Duration) -> Watcher<W> {
        Watcher { out, in_place: terminal, pace, drawn: None, lines: 0 }
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
            // Back to the first line of the last frame, each line cleared to
            // its end as it is rewritten, and anything below cleared.
            let mut frame = if self.lines > 0 { format!("\x1b[{}F", self.lines) } else { String::new() };
            frame.push_str(&text.replace('\n', "\x1b[K\n"));
            frame.push_str("\x1b[J");
            self.lines = text.lines().count();
            self.out.write_all(frame.as_bytes())?;
        } else {
            text.push('\n');
            self.out.write_all(text.as_bytes())?;
        }
        self.out.flush()?;
        self.drawn = Some(Instant::now());
        Ok(())
    }

    /// Leaves the last frame on screen: the next one is drawn below it
    /// (and below anything written in between), without waiting.
    pub fn restart(&mut self) {
        self.drawn = None;
        self.lines = 0;
    }

    /// The writer, to print between frames; call [`Watcher::restart`] after.
    pub fn out(&mut self) -> &mut W {
        &mut self.out
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
    use lightcycles_core::{Action, Answer, Config, Dir, Engine, ReferenceGame};

    fn scenes() -> Vec<Scene> {
        let mut game = ReferenceGame::seeded(&Config::default(), 3).unwrap();
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
        let scenes = scenes();
        let lines = terminal::render(&scenes[0], false).lines().count() + 1;
        for s in &scenes {
            w.draw("game 0", s).unwrap();
        }
        w.out().extend_from_slice(b"game 0 over\n");
        w.restart();
        w.draw("game 1", &scenes[0]).unwrap();
        let out = String::from_utf8(w.into_inner()).unwrap();
        assert!(out.starts_with("game 0\x1b[K\n"), "the first frame is drawn where the cursor is");
        let up = format!("\x1b[{lines}F");
        assert_eq!(out.matches(&up).count(), 3, "each later frame goes back up over the last one");
        assert!(out.contains("game 0 over\ngame 1\x1b[K\n"), "after a restart the next frame is drawn below");
        assert!(out.contains("\x1b[38;5;"), "in colour");
        assert!(!out.contains("right\x1b[31m"), "a name never reaches the terminal raw");
        assert_eq!(out.matches("\x1b[K\n").count(), 5 * lines, "every line of every frame clears its rest");
        assert_eq!(out.matches('\n').count(), 5 * lines + 1);
    }
}
