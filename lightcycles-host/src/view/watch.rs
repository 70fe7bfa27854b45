//! `lightcycles play --watch`: the game drawn in the terminal as it runs.
//! On a terminal each tick redraws the last one in place, in colour: the
//! cursor goes back up over the previous frame, so whatever was printed
//! above it (the lines of earlier games) stays. Elsewhere (a pipe, a log
//! file) the ticks follow each other as plain text.
//!
//! With [`Keys`] (stdin is a terminal too), the watcher takes keys between
//! ticks: `q` quits, space pauses, `+`/`-` change the pace, `n` or → steps
//! one tick while paused; a line under the board says so. The game waits
//! between its ticks, before any bot is asked, so a pause costs no bot
//! its time.

use std::io::{self, Write};
use std::thread;
use std::time::{Duration, Instant};

use super::keys::{Key, Keys, Wait};
use super::scene::Scene;
use super::terminal;
use crate::io::untrusted::terminal_text;

/// The pause between two ticks drawn on a terminal, so that a person can
/// follow a game of fast bots: 20 ticks a second.
pub const TERMINAL_PACE: Duration = Duration::from_millis(50);

/// What [`Watcher::draw`]'s error holds when the watcher pressed `q`
/// ([`is_quit`] tells).
#[derive(Debug, thiserror::Error)]
#[error("quit with q")]
pub struct Quit;

/// Whether `e`, from [`Watcher::draw`], is the watcher pressing `q`.
pub fn is_quit(e: &io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<Quit>())
}

/// The slowest and the fastest pace the keys reach.
const PACES: (Duration, Duration) = (Duration::from_millis(2000), Duration::from_millis(1));

/// Draws scenes one after another on `out`.
pub struct Watcher<W: Write> {
    out: W,
    in_place: bool,
    pace: Duration,
    drawn: Option<Instant>,
    /// Lines of the frame on screen, to go back over; 0 to draw below.
    lines: usize,
    keys: Option<Keys>,
    paused: bool,
    /// The last frame drawn (without the keys line), to redraw on a pause.
    last: String,
}

impl<W: Write> Watcher<W> {
    /// A watcher that redraws in place with colours when `terminal` (and
    /// waits `pace` between ticks), or writes plain frames one after another.
    pub fn new(out: W, terminal: bool, pace: Duration) -> Watcher<W> {
        Watcher { out, in_place: terminal, pace, drawn: None, lines: 0, keys: None, paused: false, last: String::new() }
    }

    /// The same watcher, taking `keys` between ticks (on a terminal only).
    pub fn with_keys(mut self, keys: Keys) -> Watcher<W> {
        if self.in_place {
            self.keys = Some(keys);
        }
        self
    }

    /// The time between two ticks now.
    pub fn pace(&self) -> Duration {
        self.pace
    }

    /// Whether the watcher is paused.
    pub fn paused(&self) -> bool {
        self.paused
    }

    /// Waits `wait` before the next frame, taking keys meanwhile; for ever
    /// while paused, until space, a step or `q`.
    fn wait(&mut self, wait: Duration) -> io::Result<()> {
        if self.keys.is_none() {
            if !wait.is_zero() {
                thread::sleep(wait);
            }
            return Ok(());
        }
        let until = Instant::now() + wait;
        loop {
            let timeout = (!self.paused).then(|| until.saturating_duration_since(Instant::now()));
            if timeout.is_some_and(|t| t.is_zero()) {
                return Ok(());
            }
            let Some(keys) = self.keys.as_mut() else { return Ok(()) };
            match keys.wait(timeout) {
                Wait::Key(Key::Quit) => return Err(io::Error::new(io::ErrorKind::Interrupted, Quit)),
                Wait::Key(Key::Pause) => {
                    self.paused = !self.paused;
                    let last = std::mem::take(&mut self.last);
                    self.paint(&last)?;
                    self.last = last;
                    if !self.paused {
                        return Ok(());
                    }
                }
                Wait::Key(Key::Faster) => self.pace = (self.pace / 2).max(PACES.1),
                Wait::Key(Key::Slower) => self.pace = (self.pace.max(PACES.1) * 2).min(PACES.0),
                Wait::Key(Key::Step) if self.paused => return Ok(()),
                Wait::Key(Key::Step) | Wait::Timeout => {}
                Wait::Closed => {
                    self.keys = None;
                    self.paused = false;
                    return Ok(());
                }
            }
        }
    }

    /// The line of keys under the board.
    fn keys_line(&self) -> String {
        let state = if self.paused { "paused: space goes on, n steps" } else { "space pauses" };
        format!("q quits · {state} · + - speed ({} ms a tick)\n", self.pace.as_millis())
    }

    /// Draws `scene` under a `title` line (which game this is; untrusted
    /// parts are escaped here).
    pub fn draw(&mut self, title: &str, scene: &Scene) -> io::Result<()> {
        if let Some(drawn) = self.drawn {
            let wait = self.pace.saturating_sub(drawn.elapsed());
            self.wait(wait)?;
        }
        let mut text = terminal_text(title);
        text.push('\n');
        text.push_str(&terminal::render(scene, self.in_place));
        self.paint(&text)?;
        self.last = text;
        self.drawn = Some(Instant::now());
        Ok(())
    }

    /// Writes one frame: in place (with the keys line, if keys are taken),
    /// or below the last.
    fn paint(&mut self, frame_text: &str) -> io::Result<()> {
        let mut text = frame_text.to_string();
        if self.keys.is_some() {
            text.push_str(&self.keys_line());
        }
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
        self.out.flush()
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
    fn keys_pause_step_change_the_pace_and_quit() {
        let (send, recv) = std::sync::mpsc::channel();
        let mut w = Watcher::new(Vec::new(), true, Duration::from_millis(40)).with_keys(Keys::from_channel(recv));
        let scenes = scenes();
        w.draw("game 0", &scenes[0]).unwrap();
        assert!(String::from_utf8_lossy(w.out()).contains("q quits · space pauses · + - speed (40 ms a tick)"));
        // Faster, then a pause: the next frame waits for a step.
        for b in b"+ n" {
            send.send(*b).unwrap();
        }
        w.draw("game 0", &scenes[1]).unwrap();
        assert_eq!(w.pace(), Duration::from_millis(20));
        assert!(w.paused(), "still paused after the step");
        assert!(String::from_utf8_lossy(w.out()).contains("paused: space goes on, n steps"));
        send.send(b' ').unwrap();
        w.draw("game 0", &scenes[2]).unwrap();
        assert!(!w.paused());
        send.send(b'q').unwrap();
        let err = w.draw("game 0", &scenes[3]).unwrap_err();
        assert!(is_quit(&err), "{err}");
        // Off a terminal no keys are taken.
        let plain =
            Watcher::new(Vec::new(), false, Duration::ZERO).with_keys(Keys::from_channel(std::sync::mpsc::channel().1));
        assert!(plain.keys.is_none());
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
