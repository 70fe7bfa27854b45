//! A map shown to people (a picture of the board) and to programs (JSON in
//! the notation of the replay file).

use std::fmt::Write;

use lightcycles_core::{Map, Pos};

/// The JSON of a map, as the core writes it.
pub use lightcycles_core::map::to_json as json;

/// A picture of the board in a frame: `.` empty, `#` rock, a digit the start
/// of that player; then each start and its direction.
pub fn picture(map: &Map) -> String {
    let mut out = String::new();
    let border = format!("+{}+\n", "-".repeat(map.width as usize));
    out.push_str(&border);
    for y in 0..map.height {
        out.push('|');
        for x in 0..map.width {
            let pos = Pos::new(x as u8, y as u8);
            let ch = match map.starts.iter().position(|s| s.pos == pos) {
                Some(id) => char::from_digit(id as u32, 10).unwrap_or('?'),
                None if map.is_rock(pos) => '#',
                None => '.',
            };
            out.push(ch);
        }
        out.push_str("|\n");
    }
    out.push_str(&border);
    for (id, s) in map.starts.iter().enumerate() {
        let _ = writeln!(out, "player {id}: ({}, {}) facing {}", s.pos.x, s.pos.y, s.dir);
    }
    let _ = writeln!(out, "rocks: {}", map.rock_cells().len());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use lightcycles_core::map::generate;
    use lightcycles_core::Config;

    #[test]
    fn the_golden_map_of_seed_123_as_a_picture() {
        let config = Config { width: 8, height: 8, rock_density: 25, ..Config::default() };
        let map = generate(&config, 123).unwrap();
        let p = picture(&map);
        let rows: Vec<&str> = p.lines().collect();
        assert_eq!(rows[0], "+--------+");
        assert_eq!(&rows[1][7..9], "##", "rocks at (6, 0) and (7, 0)");
        assert_eq!(rows[3].chars().nth(3), Some('0'));
        assert_eq!(rows[6].chars().nth(6), Some('1'));
        assert_eq!(p.matches('#').count(), 16);
        assert!(p.contains("player 0: (2, 2) facing N\nplayer 1: (5, 5) facing S\nrocks: 16\n"));
    }
}
