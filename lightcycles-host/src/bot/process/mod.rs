//! Bot processes: each started in a process group of its own, fed and read
//! by threads of the host, contained, and killed with its whole group when
//! it is dropped ([`bot_process`]); the groups running now ([`groups`]);
//! the two ways of talking to one ([`line_bot`], [`numbered`]).

pub mod bot_process;
pub mod command;
pub mod contain;
pub mod delta;
pub mod groups;
pub mod isolate;
pub mod line_bot;
pub mod lines;
pub mod log;
pub mod numbered;
pub mod sandbox;
pub mod spawner;

pub use bot_process::{BotProcess, Next, GRACE, LINE_SPIN};
pub use command::{is_plain, shell};
pub use contain::GROUP_GONE;
pub use groups::{adopt_orphans, stop_all};
pub use line_bot::LineBot;
pub use numbered::{NumberedBot, PROTOCOL_LINE_CAP};

#[cfg(test)]
mod tests;
