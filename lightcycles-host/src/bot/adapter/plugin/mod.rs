//! Native plugins (`PATH.so`, `.dylib`, `.dll`).
//!
//! - [`adapter`]: the adapter ([`PluginAdapter`]) and its in-process factory.
//! - [`load`]: which interface a library speaks: [`c`], the C plugin ABI
//!   (`lightcycles_bot_v1`), or [`rust`], a Rust plugin through abi_stable.
//! - [`in_process`]: a plugin's bot on a thread of the host (`--in-process`).
//! - [`isolated`]: a plugin's bot in a child process of its own (`--isolate`).

pub mod adapter;
pub mod c;
pub mod in_process;
pub mod isolated;
pub mod load;
pub mod rust;

pub use adapter::{factory, PluginAdapter};
