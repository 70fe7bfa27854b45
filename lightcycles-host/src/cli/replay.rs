//! `lightcycles replay verify` and `replay show`.

use std::io::Write;
use std::path::{Path, PathBuf};

use lightcycles_core::replay::Replay;

use crate::cli::{bad_input, stdout_failure, stdout_is_a_screen, write_out, Failure, ShowArgs};
use crate::game::verify::{self, Verdict};
use crate::io::input;
use crate::view;

/// Runs `replay verify`.
pub(crate) fn verify(files: &[PathBuf], out: &mut dyn Write) -> Result<(), Failure> {
    for path in files {
        let shown = path.display();
        match verify::check_file::<lightcycles_core::ReferenceGame>(path) {
            Ok(Verdict::Verified(o)) => {
                let result = match o.winner {
                    Some(w) => format!("player {w} won"),
                    None => "draw".to_string(),
                };
                write_out(out, &format!("{shown}: ok ({} ticks, {result})\n", o.ticks)).map_err(stdout_failure)?;
            }
            Ok(Verdict::Differs(m)) => {
                let said = crate::io::untrusted::terminal_text(&m.to_string());
                write_out(out, &format!("{shown}: differs at {said}\n")).map_err(stdout_failure)?;
                return Err(Failure { code: 1, message: format!("{shown}: replay differs from the rules") });
            }
            Err(e) => return Err(bad_input(format!("{shown}: {e}"))),
        }
    }
    Ok(())
}

/// Reads a replay file for viewing, or says what is wrong and where.
pub(crate) fn load_replay(path: &Path) -> Result<Replay, Failure> {
    let text = input::read_text(path, &input::REPLAY).map_err(|e| bad_input(format!("{}: {e}", path.display())))?;
    view::parse(&text).map_err(|e| bad_input(format!("{}: {e}", path.display())))
}

/// Runs `replay show`.
pub(crate) fn show(args: &ShowArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let replay = load_replay(&args.file)?;
    let text = view::terminal::render_replay(&replay, args.tick, stdout_is_a_screen())
        .map_err(|e| bad_input(format!("{}: --tick: {e}", args.file.display())))?;
    write_out(out, &text).map_err(stdout_failure)
}
