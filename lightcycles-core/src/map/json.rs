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
        let map = parse_2010("8 8\n#      #\n 1      \n        \n   ##   \n        \n        \n      2 \n        \n").unwrap();
        let j: serde_json::Value = serde_json::from_str(&to_json(&map)).unwrap();
        assert_eq!((j["width"].as_u64(), j["height"].as_u64()), (Some(8), Some(8)));
        assert_eq!(j["rocks"], serde_json::json!([[0, 0], [7, 0], [3, 3], [4, 3]]));
        let starts: Vec<(u64, u64, &str)> = (0..2)
            .map(|i| (j["start"][i][0].as_u64().unwrap(), j["start"][i][1].as_u64().unwrap(), j["start"][i][2].as_str().unwrap()))
            .collect();
        assert_eq!((starts[0].0, starts[0].1, starts[1].0, starts[1].1), (1, 1, 6, 6));
        assert!(starts.iter().all(|s| ["N", "E", "S", "W"].contains(&s.2)));
    }
}
