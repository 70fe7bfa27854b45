//! `lightcycles view`: one self-contained HTML page that plays replays.

use std::io::Write;

use crate::cli::replay::load_replay;
use crate::cli::{bad_input, stdout_failure, write_out, Failure, ViewArgs};
use crate::io::whole_file;
use crate::view::{self, Viewable};

/// Runs `view`.
pub(crate) fn run(args: &ViewArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let replays = args.files.iter().map(|p| load_replay(p)).collect::<Result<Vec<_>, _>>()?;
    let labels: Vec<String> = args.files.iter().map(|p| p.display().to_string()).collect();
    let mut entries: Vec<(&str, Viewable<'_>)> = Vec::with_capacity(replays.len());
    for (label, replay) in labels.iter().zip(&replays) {
        let viewable = Viewable::check(replay).map_err(|e| bad_input(format!("{label}: {e}")))?;
        entries.push((label, viewable));
    }
    let page = view::html::render(&entries);
    let shown = args.output.display();
    whole_file::write(&args.output, page.as_bytes())
        .map_err(|e| bad_input(format!("-o {shown}: cannot write: {e}")))?;
    let count = if replays.len() == 1 { "1 replay".to_string() } else { format!("{} replays", replays.len()) };
    write_out(out, &format!("{shown}: {count}, {} bytes\n", page.len())).map_err(stdout_failure)
}
