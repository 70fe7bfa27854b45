//! The replay loader and verifier (docs/RULES.md section 10) on any text, and on
//! golden replays damaged field by field: never a panic, and the reference
//! and the fast engine reach the same verdict, down to the first difference.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lightcycles_core::replay::{self, Replay};
use lightcycles_core::{FastGame, ReferenceGame};
use lightcycles_fuzz::replay_text;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = replay_text(data) else { return };
    let Ok(replay) = Replay::from_json(&text) else { return };
    // What was read is written back and read again unchanged.
    assert_eq!(Replay::from_json(&replay.to_json()).as_ref(), Ok(&replay));
    let reference = replay::verify::<ReferenceGame>(&replay);
    let fast = replay::verify::<FastGame>(&replay);
    assert_eq!(reference, fast, "the engines disagree on a replay");
    if let Ok(outcome) = reference {
        assert_eq!(outcome.ticks as usize, replay.commands.len());
        assert_eq!(replay.frames.len(), replay.commands.len() + 1);
        assert_eq!(replay.winner, outcome.winner);
    }
});
