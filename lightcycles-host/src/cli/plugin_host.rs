//! The internal `__plugin-host` command: one bot of a native plugin in a
//! process of its own, for `--isolate`.

use std::process::ExitCode;

use crate::bot::adapter::plugin::isolated;
use crate::bot::BotContext;
use crate::cli::{Failure, PluginHostArgs};

pub(crate) fn run(args: &PluginHostArgs) -> Result<(), Failure> {
    let ctx = BotContext { game: args.game, seat: args.seat, players: args.players, seed: args.seed };
    match isolated::serve(&args.path, ctx, args.check) {
        code if code == ExitCode::SUCCESS => Ok(()),
        _ => Err(Failure { code: 2, message: String::new() }),
    }
}
