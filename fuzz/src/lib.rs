//! What the fuzz targets share: the golden replays as seeds for
//! structure-aware damage, so that a mutated replay still reaches deep into
//! the verifier and the viewer instead of stopping at the first brace.

use std::sync::OnceLock;

use arbitrary::{Result, Unstructured};
use serde_json::Value;

/// The golden replays of the core's tests.
pub const GOLDEN: &[&str] = &[
    include_str!("../../lightcycles-core/tests/golden-replays/sim_0.json"),
    include_str!("../../lightcycles-core/tests/golden-replays/sim_7.json"),
    include_str!("../../lightcycles-core/tests/golden-replays/sim_11.json"),
    include_str!("../../lightcycles-core/tests/golden-replays/cap_draw.json"),
    include_str!("../../lightcycles-core/tests/golden-replays/map_headon_draw.json"),
    include_str!("../../lightcycles-core/tests/golden-replays/eight_players.json"),
    include_str!("../../lightcycles-core/tests/golden-replays/reversal_and_long_line.json"),
];

/// The golden replays, parsed once.
fn golden() -> &'static [Value] {
    static PARSED: OnceLock<Vec<Value>> = OnceLock::new();
    PARSED.get_or_init(|| GOLDEN.iter().map(|t| serde_json::from_str(t).expect("golden replays are JSON")).collect())
}

/// The text a fuzz input stands for: its own bytes when the first byte is
/// below 64, else a golden replay damaged as the rest of the input says.
pub fn replay_text(data: &[u8]) -> Result<String> {
    match data.split_first() {
        None => Ok(String::new()),
        Some((&first, rest)) if first < 64 => Ok(String::from_utf8_lossy(rest).into_owned()),
        Some((_, rest)) => {
            let mut u = Unstructured::new(rest);
            let mut replay = u.choose(golden())?.clone();
            for _ in 0..u.int_in_range(1..=4)? {
                damage(&mut u, &mut replay)?;
            }
            Ok(replay.to_string())
        }
    }
}

/// A place in `v` reached by random steps down its objects and arrays:
/// a leaf, or (with `stop_at_array`) an array on the way.
fn walk<'v>(u: &mut Unstructured, mut v: &'v mut Value, stop_at_array: bool) -> Result<&'v mut Value> {
    loop {
        let len = match &*v {
            Value::Array(items) if stop_at_array && (items.is_empty() || u.ratio(1, 3)?) => return Ok(v),
            Value::Array(items) => items.len(),
            Value::Object(map) => map.len(),
            _ => return Ok(v),
        };
        if len == 0 {
            return Ok(v);
        }
        let k = u.choose_index(len)?;
        v = match v {
            Value::Array(items) => &mut items[k],
            Value::Object(map) => map.values_mut().nth(k).expect("k < len"),
            _ => unreachable!(),
        };
    }
}

/// A value of any JSON type, biased to the values that sit on bounds.
fn any_value(u: &mut Unstructured) -> Result<Value> {
    Ok(match u.int_in_range(0..=11)? {
        0 => Value::Null,
        1 => Value::Bool(u.arbitrary()?),
        2 => u.int_in_range(0u32..=300)?.into(),
        3 => (-1).into(),
        4 => u32::MAX.into(),
        5 => (u32::MAX as u64 + 1).into(),
        6 => u.arbitrary::<i64>()?.into(),
        7 => u.arbitrary::<u64>()?.into(),
        8 => serde_json::Number::from_f64(u.arbitrary::<f64>()?).map_or(Value::Null, Value::Number),
        9 => Value::String(u.choose(&["N", "E", "S", "W", "n", "", "invalid", "timeout", "crash", "…"])?.to_string()),
        10 => Value::String(u.arbitrary()?),
        _ => Value::Array(Vec::new()),
    })
}

/// One change to `replay`: a leaf set to another value, a list cut or
/// grown, or a command changed to another move.
fn damage(u: &mut Unstructured, replay: &mut Value) -> Result<()> {
    match u.int_in_range(0..=3)? {
        0 => {
            let value = any_value(u)?;
            *walk(u, replay, false)? = value;
        }
        1 => {
            let len = u.int_in_range(0..=3)?;
            if let Value::Array(items) = walk(u, replay, true)? {
                items.truncate(len);
            }
        }
        2 => {
            let copy_last = u.arbitrary()?;
            let fresh = any_value(u)?;
            if let Value::Array(items) = walk(u, replay, true)? {
                let copy = match items.last() {
                    Some(last) if copy_last => last.clone(),
                    _ => fresh,
                };
                items.push(copy);
            }
        }
        _ => {
            // Another move on one tick: the game goes another way from there.
            let rows = replay.pointer("/commands").and_then(Value::as_array).map_or(0, Vec::len);
            if rows > 0 {
                let k = u.choose_index(rows)?;
                let i = u.int_in_range(0..=7)?;
                let line = Value::String(u.choose(&["N", "E", "S", "W"])?.to_string());
                if let Some(slot) = replay.pointer_mut(&format!("/commands/{k}/{i}")) {
                    *slot = line;
                    if let Some(fault) = replay.pointer_mut(&format!("/faults/{k}/{i}")) {
                        *fault = Value::Null;
                    }
                }
            }
        }
    }
    Ok(())
}
