//! What the `lightcycles` CLI does with a replay file it is given: `replay
//! verify`, `replay show` at any tick and `view`. Any text, and golden
//! replays damaged field by field, is shown or refused, never a panic; no
//! control character reaches the terminal and no name closes the page's
//! script element.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lightcycles_core::ReferenceGame;
use lightcycles_fuzz::replay_text;
use lightcycles_host::game::verify;
use lightcycles_host::view::{html, parse, terminal, Viewable};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = replay_text(data) else { return };
    let _ = verify::check_text::<ReferenceGame>(&text);
    let Ok(replay) = parse(&text) else { return };
    let viewable = Viewable::check(&replay).expect("a parsed replay is viewable");
    let last = viewable.last_tick();
    for tick in [0, 1, last / 2, last.saturating_sub(1), last] {
        let tick = tick.min(last);
        let plain = terminal::render_replay(&replay, Some(tick), false).expect("every tick up to the last shows");
        assert!(!plain.chars().any(|c| c.is_control() && c != '\n'), "a control character in {plain:?}");
        terminal::render_replay(&replay, Some(tick), true).expect("in colour too");
    }
    assert!(terminal::render_replay(&replay, Some(last + 1), false).is_err());
    let page = html::render(&[("fuzzed.json", viewable)]);
    assert_eq!(page.matches("</script>").count(), 2, "a name closed a script element");
});
