//! Watching games: a replay viewer for the browser (one self-contained HTML
//! page) and for the terminal (`replay show`, `play --watch`).
//!
//! A replay file is untrusted input. [`viewable`] checks it once; the board
//! at any tick is rebuilt from its frames by [`board`]; [`scene`] adds what
//! the legend shows; [`terminal`] and [`html`] draw; [`map`] shows maps;
//! [`human`] is a person playing from the terminal's keys.
//! Names and answer lines are escaped by [`crate::io::untrusted`] wherever
//! they go.

pub mod board;
pub mod html;
pub mod human;
pub mod keys;
pub mod map;
pub mod palette;
pub mod scene;
pub mod terminal;
pub mod viewable;
pub mod watch;

pub use viewable::{parse, ViewError, Viewable};
