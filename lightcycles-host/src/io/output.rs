//! The places a run writes to (`-o`, `--results`, `--report`, replays,
//! logs), checked before the first game, and the first failure to write a
//! bot's log, kept for the end of the run: a run that could not write
//! what it was asked to write never ends as a success.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The folder of the logs inside a run's output folder.
pub const LOGS_DIR: &str = "logs";

/// A place a run writes or reads, named by its flag, for [`check_collisions`].
#[derive(Clone, Copy, Debug)]
pub enum Place<'a> {
    /// A file the run writes (`--results`, `--report`, `view -o`).
    Writes(&'a str, &'a Path),
    /// A folder of games (`-o`): the run writes `sim_<g>.json` and `logs/` in it.
    Games(&'a str, &'a Path),
    /// A file the run reads (a bot, a map, a replay, a shard).
    Reads(&'a str, &'a Path),
}

impl Place<'_> {
    fn flag(&self) -> &str {
        match self {
            Place::Writes(flag, _) | Place::Games(flag, _) | Place::Reads(flag, _) => flag,
        }
    }

    fn path(&self) -> &Path {
        match self {
            Place::Writes(_, path) | Place::Games(_, path) | Place::Reads(_, path) => path,
        }
    }
}

/// Refuses, before anything is written, a file the run would write twice
/// or over one of its inputs: two outputs that are one file, an output that
/// is an input, and an output inside the games folder where the run writes
/// a replay (`sim_<g>.json`) or a log (`logs/`). Paths are compared as the
/// files they name (`./r.jsonl` and `r.jsonl`, links followed).
pub fn check_collisions(places: &[Place<'_>]) -> Result<(), String> {
    let normal: Vec<PathBuf> = places.iter().map(|p| normal_path(p.path())).collect();
    for (i, a) in places.iter().enumerate() {
        for (j, b) in places.iter().enumerate().skip(i + 1) {
            let named = |x: &Place<'_>| format!("{} {}", x.flag(), x.path().display());
            let same = normal[i] == normal[j];
            match (a, b) {
                (Place::Reads(..), Place::Reads(..)) => {}
                (Place::Writes(..), Place::Writes(..)) if same => {
                    return Err(format!("{} and {} name the same file; name two files", named(a), named(b)))
                }
                (Place::Writes(..), Place::Reads(..)) | (Place::Reads(..), Place::Writes(..)) if same => {
                    let (w, r) = if matches!(a, Place::Writes(..)) { (a, b) } else { (b, a) };
                    return Err(format!("{} would overwrite the input {}; name another file", named(w), named(r)));
                }
                (Place::Games(..), other) | (other, Place::Games(..)) if !matches!(other, Place::Games(..)) => {
                    let (games, file) = if matches!(a, Place::Games(..)) { (i, j) } else { (j, i) };
                    if let Some(what) = written_in_games(&normal[games], &normal[file]) {
                        let g = if games == i { a } else { b };
                        return Err(format!("{} is {what} that {} writes; name another file", named(other), named(g)));
                    }
                }
                (Place::Games(..), Place::Games(..)) if same => {
                    return Err(format!("{} and {} name the same folder", named(a), named(b)))
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// The files a run reads, by flag: the bots given as files (`PATH.py`,
/// `NAME=PATH`, a plugin), `--map` and the files of `--maps`.
pub fn input_files(bots: &[String], map: Option<&Path>, maps: &[String]) -> Vec<(&'static str, PathBuf)> {
    let mut files = Vec::new();
    for bot in bots {
        let form = bot.split_once('=').filter(|(name, _)| !name.contains(':')).map_or(bot.as_str(), |(_, f)| f);
        let path = Path::new(form);
        if path.is_file() {
            files.push(("a bot", path.to_path_buf()));
        } else if path.join("main.py").is_file() {
            files.push(("a bot", path.join("main.py")));
        }
    }
    files.extend(map.map(|m| ("--map", m.to_path_buf())));
    files.extend(maps.iter().map(Path::new).filter(|p| p.is_file()).map(|p| ("--maps", p.to_path_buf())));
    files
}

/// What the games folder `dir` writes at `file`, if it does: a replay
/// (`sim_<g>.json`) or a bot log (anything under `logs/`).
fn written_in_games(dir: &Path, file: &Path) -> Option<&'static str> {
    let rest = file.strip_prefix(dir).ok()?;
    let first = rest.components().next()?.as_os_str().to_str().unwrap_or("");
    if first == LOGS_DIR {
        return Some("in the bot logs' folder");
    }
    let is_replay = rest.components().count() == 1
        && first
            .strip_prefix("sim_")
            .and_then(|r| r.strip_suffix(".json"))
            .is_some_and(|g| !g.is_empty() && g.bytes().all(|b| b.is_ascii_digit()));
    is_replay.then_some("a game's replay")
}

/// `path` made absolute with the links of its longest existing part
/// followed, so that two names of one file compare equal.
fn normal_path(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut tail = Vec::new();
    let mut head = absolute.as_path();
    loop {
        if let Ok(real) = head.canonicalize() {
            return tail.iter().rev().fold(real, |p, part| p.join(part));
        }
        match (head.parent(), head.file_name()) {
            (Some(parent), Some(name)) => {
                tail.push(name.to_os_string());
                head = parent;
            }
            _ => return absolute,
        }
    }
}

/// Creates `dir` (and its parents) and checks that a file can be made in
/// it. `flag` names the place in the message (`-o out`).
pub fn prepare_dir(dir: &Path, flag: &str) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{flag} {}: cannot create the directory: {e}", dir.display()))?;
    probe(dir).map_err(|e| format!("{flag} {}: cannot write in the directory: {e}", dir.display()))
}

/// Checks that the folder `dir`, made later when it is first needed, can
/// be: where it exists it is a folder that takes a new file (its parent
/// is checked by the caller).
pub fn check_dir_later(dir: &Path, flag: &str) -> Result<(), String> {
    match std::fs::metadata(dir) {
        Err(_) => Ok(()),
        Ok(meta) if !meta.is_dir() => Err(format!("{flag} {}: is in the way: not a directory", dir.display())),
        Ok(_) => probe(dir).map_err(|e| format!("{flag} {}: cannot write in the directory: {e}", dir.display())),
    }
}

/// Checks that the file `path` can be written later: it is not a
/// directory, and its folder exists and takes a new file.
pub fn check_file(path: &Path, flag: &str) -> Result<(), String> {
    if path.is_dir() {
        return Err(format!("{flag} {}: is a directory, not a file", path.display()));
    }
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !dir.is_dir() {
        return Err(format!("{flag} {}: the directory {} does not exist", path.display(), dir.display()));
    }
    probe(dir).map_err(|e| format!("{flag} {}: cannot write in {}: {e}", path.display(), dir.display()))
}

/// Makes and removes a hidden file in `dir`.
fn probe(dir: &Path) -> std::io::Result<()> {
    let file = tempfile::Builder::new().prefix(".lightcycles-probe.").tempfile_in(dir)?;
    file.close()
}

static FIRST_FAILURE: Mutex<Option<String>> = Mutex::new(None);

/// Keeps `message` if it is the first failure to write of this process.
pub fn record_failure(message: String) {
    let mut first = FIRST_FAILURE.lock().unwrap_or_else(|p| p.into_inner());
    first.get_or_insert(message);
}

/// The first failure to write kept by [`record_failure`], if any.
pub fn first_failure() -> Option<String> {
    FIRST_FAILURE.lock().unwrap_or_else(|p| p.into_inner()).clone()
}

#[cfg(test)]
mod tests {
    #[test]
    fn colliding_outputs_are_refused_naming_both_flags() {
        use super::{check_collisions, Place};
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let (r, o) = (d.join("r.jsonl"), d.join("o"));
        let same = d.join(".").join("r.jsonl");
        let err = check_collisions(&[Place::Writes("--results", &r), Place::Writes("--report", &same)]).unwrap_err();
        assert!(
            err.starts_with("--results ") && err.contains(" and --report ") && err.contains("the same file"),
            "{err}"
        );
        let replay = o.join("sim_1.json");
        let err = check_collisions(&[Place::Games("-o", &o), Place::Writes("--results", &replay)]).unwrap_err();
        assert!(err.contains("is a game's replay that -o"), "{err}");
        let log = o.join("logs").join("x.log");
        assert!(check_collisions(&[Place::Writes("--report", &log), Place::Games("-o", &o)]).is_err());
        let input = d.join("rep.json");
        std::fs::write(&input, "{}").unwrap();
        let err = check_collisions(&[Place::Reads("replay", &input), Place::Writes("-o", &input)]).unwrap_err();
        assert!(err.contains("would overwrite the input"), "{err}");
        // Beside the replays, other names are free.
        let fine = [
            Place::Games("-o", &o),
            Place::Writes("--results", &o.join("results.jsonl")),
            Place::Writes("--report", &r),
        ];
        assert_eq!(check_collisions(&fine), Ok(()));
        assert_eq!(
            check_collisions(&[Place::Games("-o", &o), Place::Writes("--report", &o.join("sim_x.json"))]),
            Ok(())
        );
    }

    use super::*;

    #[test]
    fn a_file_in_a_missing_folder_is_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nowhere/report.json");
        let e = check_file(&path, "--report").unwrap_err();
        assert!(e.starts_with("--report ") && e.contains("does not exist"), "{e}");
        assert!(check_file(&dir.path().join("report.json"), "--report").is_ok());
        let e = check_file(dir.path(), "--report").unwrap_err();
        assert!(e.contains("is a directory"), "{e}");
    }

    #[test]
    fn a_folder_under_a_file_cannot_be_prepared() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f");
        std::fs::write(&file, "x").unwrap();
        let e = prepare_dir(&file.join("out"), "-o").unwrap_err();
        assert!(e.starts_with("-o ") && e.contains("cannot create"), "{e}");
        assert!(prepare_dir(&dir.path().join("a/b"), "-o").is_ok());
        assert_eq!(std::fs::read_dir(dir.path().join("a/b")).unwrap().count(), 0, "the probe is removed");
    }
}
