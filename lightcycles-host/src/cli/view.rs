//! `lightcycles view`: one self-contained HTML page that plays replays.

use std::io::Write;
use std::path::{Path, PathBuf};

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
    let output = args.output.clone().unwrap_or_else(|| default_output(&args.files));
    let mut places: Vec<crate::io::output::Place<'_>> =
        args.files.iter().map(|p| crate::io::output::Place::Reads("replay", p)).collect();
    places.push(crate::io::output::Place::Writes("-o", &output));
    crate::io::output::check_collisions(&places).map_err(bad_input)?;
    let shown = output.display();
    whole_file::write(&output, page.as_bytes()).map_err(|e| bad_input(format!("-o {shown}: cannot write: {e}")))?;
    let count = if replays.len() == 1 { "1 replay".to_string() } else { format!("{} replays", replays.len()) };
    write_out(out, &format!("{shown}: {count}, {} bytes\n", page.len())).map_err(stdout_failure)?;
    if args.open {
        if let Err(e) = open_in_browser(&output) {
            eprintln!("note: cannot open a browser ({e}); open {shown} yourself");
        }
    }
    Ok(())
}

/// Where the page goes without `-o`: next to the replay (`games/sim_3.json`
/// gives `games/sim_3.html`); for several replays, `replays.html` in the
/// folder of the first.
pub(crate) fn default_output(files: &[PathBuf]) -> PathBuf {
    match files {
        [one] => one.with_extension("html"),
        _ => files.first().and_then(|f| f.parent()).unwrap_or(Path::new("")).join("replays.html"),
    }
}

/// Hands `page` to the desktop's opener, without waiting for the browser.
fn open_in_browser(page: &Path) -> Result<(), String> {
    let opener = if cfg!(target_os = "macos") { "open" } else { "xdg-open" };
    std::process::Command::new(opener)
        .arg(page)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map(drop)
        .map_err(|e| format!("{opener}: {e}"))
}
