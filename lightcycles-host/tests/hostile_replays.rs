//! A replay file of any content must not crash the viewer: it is shown, or
//! refused with a message. Damaged bytes, numbers changed anywhere and
//! lists cut short are thrown at the checks, the board, the terminal view
//! and the page.

use lightcycles_host::view::{html, parse, terminal, Viewable};
use proptest::prelude::*;
use serde_json::Value;

const SIM: &str = include_str!("../../lightcycles-core/tests/golden-replays/sim_7.json");
const EIGHT: &str = include_str!("../../lightcycles-core/tests/golden-replays/eight_players.json");

/// Everything the viewer can do with `text`; whatever happens, no panic.
fn view_everything(text: &str) -> bool {
    let Ok(replay) = parse(text) else { return false };
    let viewable = Viewable::check(&replay).expect("a parsed replay is viewable");
    let last = viewable.last_tick();
    for tick in [0, last / 2, last] {
        let plain = terminal::render_replay(&replay, Some(tick), false).expect("every tick up to the last shows");
        assert!(!plain.chars().any(|c| c.is_control() && c != '\n'));
        terminal::render_replay(&replay, Some(tick), true).unwrap();
    }
    assert!(terminal::render_replay(&replay, Some(last + 1), false).is_err());
    let page = html::render(&[("damaged.json", viewable)]);
    assert_eq!(page.matches("</script>").count(), 2);
    true
}

/// Every numeric leaf and every array of `v`, as JSON pointers.
fn leaves(v: &Value, at: String, numbers: &mut Vec<String>, arrays: &mut Vec<String>) {
    match v {
        Value::Number(_) => numbers.push(at),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                leaves(item, format!("{at}/{i}"), numbers, arrays);
            }
            arrays.push(at);
        }
        Value::Object(map) => {
            for (k, item) in map {
                leaves(item, format!("{at}/{k}"), numbers, arrays);
            }
        }
        _ => {}
    }
}

#[derive(Clone, Debug)]
enum Damage {
    Number(prop::sample::Index, i64),
    Cut(prop::sample::Index, usize),
}

fn damage() -> impl Strategy<Value = Damage> {
    let number = prop_oneof![0i64..300, Just(u32::MAX as i64), Just(-1i64), any::<i64>()];
    prop_oneof![
        (any::<prop::sample::Index>(), number).prop_map(|(i, v)| Damage::Number(i, v)),
        (any::<prop::sample::Index>(), 0usize..3).prop_map(|(i, n)| Damage::Cut(i, n)),
    ]
}

fn apply(text: &str, damages: &[Damage]) -> String {
    let mut v: Value = serde_json::from_str(text).unwrap();
    for d in damages {
        let (mut numbers, mut arrays) = (Vec::new(), Vec::new());
        leaves(&v, String::new(), &mut numbers, &mut arrays);
        match d {
            Damage::Number(i, n) => {
                let at: &String = i.get(&numbers);
                *v.pointer_mut(at).unwrap() = (*n).into();
            }
            Damage::Cut(i, len) => {
                let at: &String = i.get(&arrays);
                if let Some(Value::Array(items)) = v.pointer_mut(at) {
                    items.truncate(*len);
                }
            }
        }
    }
    v.to_string()
}

#[test]
fn the_undamaged_files_are_shown() {
    assert!(view_everything(SIM));
    assert!(view_everything(EIGHT));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn changed_numbers_and_cut_lists_are_shown_or_refused(
        eight in any::<bool>(),
        damages in prop::collection::vec(damage(), 1..4),
    ) {
        view_everything(&apply(if eight { EIGHT } else { SIM }, &damages));
    }

    #[test]
    fn damaged_bytes_are_shown_or_refused(at in any::<prop::sample::Index>(), byte in any::<u8>(), cut in 0usize..200) {
        let mut bytes = SIM.as_bytes().to_vec();
        let at = at.index(bytes.len());
        bytes[at] = byte;
        bytes.truncate(bytes.len() - cut.min(bytes.len()));
        view_everything(&String::from_utf8_lossy(&bytes));
    }
}
