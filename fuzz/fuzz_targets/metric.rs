//! The one reader of `[metric]` lines (lightcycles_host::metric, docs/bots.md
//! "Metrics"): any line a bot may write gives only metrics with a good name
//! and a finite value, each written as `NAME=` in the line, and a replay's
//! `said` of such lines is summarized without a panic, into finite figures.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lightcycles_core::replay::Said;
use lightcycles_host::metric::{is_name, parse_line, summaries, PREFIX};

fuzz_target!(|raw: &[u8]| {
    let text = String::from_utf8_lossy(raw);
    let mut lines = Vec::new();
    for line in text.split('\n') {
        for (name, value) in parse_line(line) {
            assert!(is_name(name), "{name:?}");
            assert!(value.is_finite());
            assert!(line.starts_with(PREFIX) && line.contains(&format!("{name}=")));
        }
        lines.push(line.to_string());
    }
    let said: Vec<Said> = lines
        .chunks(3)
        .enumerate()
        .map(|(k, chunk)| Said { tick: k as u32 + 1, player: (k % 2) as u32, lines: chunk.to_vec(), truncated: false })
        .collect();
    if let Some(all) = summaries(&said, 2) {
        for s in all.iter().flat_map(|m| m.values()) {
            assert!(s.n > 0 && s.max.is_finite());
        }
    }
});
