//! The report page of results files ([`write_page`], `tournament report`),
//! and the page of a running tournament (`--html`), kept current from its
//! results file by a thread of its own.

use std::path::{Path, PathBuf};

use super::page;
use crate::io::whole_file;
use crate::stats::Sprt;

/// Reads `files` and writes their page to `page`, whole; with
/// `inherit_model`, the SPRT takes the model the results header records.
pub fn write_page(files: &[PathBuf], page: &Path, mut sprt: Option<Sprt>, inherit_model: bool) -> Result<(), String> {
    let source = page::load(files)?;
    if let Some(s) = sprt.as_mut().filter(|_| inherit_model) {
        s.model = source.header.sprt_model.unwrap_or_default();
    }
    let data = page::build(&source, sprt)?;
    let links = page::replay_links(&source.games, page);
    let title: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    let html = page::render(&data, &source, &links, &title.join(", "));
    whole_file::write(page, html.as_bytes()).map_err(|e| format!("{}: cannot write: {e}", page.display()))
}

/// `--html`: the page of a running tournament, rewritten from its results
/// file every few seconds by a thread of its own (the games never wait for
/// it), and once more at the end.
pub struct LivePage {
    stop: std::sync::mpsc::Sender<()>,
    thread: std::thread::JoinHandle<()>,
    page: PathBuf,
    results: PathBuf,
    sprt: Option<Sprt>,
}

/// How often `--html` rewrites the page.
const LIVE_PAGE_EVERY: std::time::Duration = std::time::Duration::from_secs(3);

impl LivePage {
    /// Starts rewriting `page` from `results`.
    pub fn start(page: PathBuf, results: PathBuf, sprt: Option<Sprt>) -> LivePage {
        let (stop, stopped) = std::sync::mpsc::channel::<()>();
        let (p, r) = (page.clone(), results.clone());
        let thread = std::thread::spawn(move || {
            while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(LIVE_PAGE_EVERY) {
                // A file not made yet, or a page that cannot be written now,
                // is tried again; the last page's errors are reported.
                let _ = write_page(std::slice::from_ref(&r), &p, sprt, false);
            }
        });
        LivePage { stop, thread, page, results, sprt }
    }

    /// Stops, and writes the last page (when the results file exists).
    pub fn finish(self) -> Result<(), String> {
        let _ = self.stop.send(());
        let _ = self.thread.join();
        if !self.results.exists() {
            return Ok(());
        }
        write_page(std::slice::from_ref(&self.results), &self.page, self.sprt, false)
            .map_err(|e| format!("--html: {e}"))
    }
}
