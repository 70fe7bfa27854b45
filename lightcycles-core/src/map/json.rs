//! A map as JSON, in the notation of the replay file, for programs (the
//! `lightcycles map --json` command, the Python package).

use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

use super::Map;
use crate::geometry::Dir;

/// The JSON of a map: `width`, `height`, `rocks` as `[x, y]` sorted by `y`
/// then `x`, and `start` as `[x, y, "DIR"]` by player, as in a replay.
pub fn to_json(map: &Map) -> String {
    #[derive(Serialize)]
    struct MapJson {
        width: u32,
        height: u32,
        rocks: Vec<[u32; 2]>,
        start: Vec<(u32, u32, Dir)>,
    }
    let view = MapJson {
        width: map.width,
        height: map.height,
        rocks: map.rock_cells().iter().map(|p| [p.x as u32, p.y as u32]).collect(),
        start: map.starts.iter().map(|s| (s.pos.x as u32, s.pos.y as u32, s.dir)).collect(),
    };
    serde_json::to_string(&view).expect("a map always serialises")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::parse_2010;

    #[test]
    fn a_map_file_as_json_lists_rocks_by_row_and_starts_by_player() {
        let rows = "#      #\n 1      \n        \n   ##   \n        \n        \n      2 \n        \n";
        let map = parse_2010(&alloc::format!("8 8\n{rows}")).unwrap();
        let j: serde_json::Value = serde_json::from_str(&to_json(&map)).unwrap();
        assert_eq!((j["width"].as_u64(), j["height"].as_u64()), (Some(8), Some(8)));
        assert_eq!(j["rocks"], serde_json::json!([[0, 0], [7, 0], [3, 3], [4, 3]]));
        let start = |i: usize, k: usize| j["start"][i][k].clone();
        assert_eq!((start(0, 0), start(0, 1), start(1, 0), start(1, 1)), (1.into(), 1.into(), 6.into(), 6.into()));
        assert!((0..2).all(|i| ["N", "E", "S", "W"].iter().any(|d| start(i, 2) == *d)));
    }
}
