//! The 2010 Google AI Challenge map format (docs/RULES.md section 9).

use alloc::vec;
use alloc::vec::Vec;

use super::{Map, Start};
use crate::config::{MAX_SIDE, MIN_SIDE};
use crate::geometry::{Dir, Pos};

/// A 2010 map file that does not follow docs/RULES.md section 9.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: expected {expected}")]
pub struct MapParseError {
    /// Line, counted from 1.
    pub line: usize,
    /// Column, counted from 1.
    pub column: usize,
    /// What was expected there, and what was found.
    pub expected: alloc::string::String,
}

fn parse_error(line: usize, column: usize, expected: impl Into<alloc::string::String>) -> MapParseError {
    MapParseError { line, column, expected: expected.into() }
}

/// Parses a map of the 2010 Google AI Challenge (docs/RULES.md section 9): two
/// players, `#` rocks, starts facing the longest straight run of empty cells.
pub fn parse_2010(text: &str) -> Result<Map, MapParseError> {
    use alloc::format;
    // A final newline ends the last line; it does not start another one.
    let body = text.strip_suffix('\n').unwrap_or(text);
    let mut lines = body.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
    let header = lines.next().unwrap_or("");
    let (width, height) = parse_header(header)?;
    let (w, h) = (width as usize, height as usize);
    let mut rocks = vec![false; w * h];
    let mut ones: Vec<Pos> = Vec::new();
    let mut twos: Vec<Pos> = Vec::new();
    for y in 0..h {
        let line_no = y + 2;
        let Some(row) = lines.next() else {
            return Err(parse_error(line_no, 1, format!("a map row of {w} characters, found the end of the file")));
        };
        let mut count = 0;
        for (x, ch) in row.chars().enumerate() {
            count = x + 1;
            if x >= w {
                return Err(parse_error(
                    line_no,
                    x + 1,
                    format!("the end of the row after {w} characters, found {ch:?}"),
                ));
            }
            let pos = Pos::new(x as u8, y as u8);
            match ch {
                '#' => rocks[y * w + x] = true,
                ' ' => {}
                '1' => ones.push(pos),
                '2' => twos.push(pos),
                other => return Err(parse_error(line_no, x + 1, format!("'#', ' ', '1' or '2', found {other:?}"))),
            }
            let seen = if ch == '1' { &ones } else { &twos };
            if (ch == '1' || ch == '2') && seen.len() > 1 {
                return Err(parse_error(line_no, x + 1, format!("only one '{ch}' in the map, found a second one")));
            }
        }
        if count < w {
            return Err(parse_error(line_no, count + 1, format!("{w} characters in the row, found {count}")));
        }
    }
    for (k, rest) in lines.enumerate() {
        if !rest.is_empty() {
            return Err(parse_error(h + 2 + k, 1, format!("nothing after the {h} map rows, found {}", shown(rest))));
        }
    }
    let end = h + 1;
    let one = *ones.first().ok_or_else(|| parse_error(end, w, "a '1' (player 0's start) in the map, found none"))?;
    let two = *twos.first().ok_or_else(|| parse_error(end, w, "a '2' (player 1's start) in the map, found none"))?;
    let mut map =
        Map { width, height, rocks, starts: vec![Start { pos: one, dir: Dir::N }, Start { pos: two, dir: Dir::N }] };
    let facing: Vec<Dir> = map.starts.iter().map(|s| longest_run(&map, s.pos)).collect();
    for (start, dir) in map.starts.iter_mut().zip(facing) {
        start.dir = dir;
    }
    Ok(map)
}

/// Text of the map file quoted in an error: at most 24 characters of it, so
/// that a message stays a line whatever the file holds.
fn shown(text: &str) -> alloc::string::String {
    use alloc::format;
    match text.char_indices().nth(24) {
        Some((cut, _)) => format!("{:?}…", &text[..cut]),
        None => format!("{text:?}"),
    }
}

fn parse_header(header: &str) -> Result<(u32, u32), MapParseError> {
    use alloc::format;
    let mut fields = Vec::new();
    let mut start = None;
    for (i, ch) in header.char_indices().chain(core::iter::once((header.len(), ' '))) {
        match (ch, start) {
            (' ', Some(s)) => {
                fields.push((s, &header[s..i]));
                start = None;
            }
            (' ', None) => {}
            (_, None) => start = Some(i),
            _ => {}
        }
    }
    // Columns count characters, as in the rows, not bytes.
    let column = |byte: usize| header[..byte].chars().count() + 1;
    if fields.len() != 2 {
        let at = fields.get(2).map_or(column(header.len()), |f| column(f.0));
        return Err(parse_error(1, at, format!("\"W H\": two integers separated by spaces, found {}", shown(header))));
    }
    let mut out = [0u32; 2];
    for (k, (at, text)) in fields.into_iter().enumerate() {
        let name = ["width", "height"][k];
        if let Some(bad) = text.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
            return Err(parse_error(
                1,
                column(at + bad.0),
                format!("a decimal digit in the {name}, found {:?}", bad.1),
            ));
        }
        let value: u64 = text.parse().unwrap_or(u64::MAX);
        if !(MIN_SIDE as u64..=MAX_SIDE as u64).contains(&value) {
            let found = if text.len() > 20 { format!("{}…", &text[..20]) } else { text.into() };
            return Err(parse_error(1, column(at), format!("a {name} from {MIN_SIDE} to {MAX_SIDE}, found {found}")));
        }
        out[k] = value as u32;
    }
    Ok((out[0], out[1]))
}

/// The direction with the most empty cells straight ahead (ties: lower code).
fn longest_run(map: &Map, from: Pos) -> Dir {
    let mut best = (0usize, Dir::N);
    for d in Dir::ALL {
        let mut run = 0;
        let mut at = from;
        while let Some(next) = at.step(d, map.width, map.height) {
            if map.rocks[next.index(map.width)] || map.starts.iter().any(|s| s.pos == next) {
                break;
            }
            run += 1;
            at = next;
        }
        if run > best.0 {
            best = (run, d);
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    const SAMPLE: &str = "10 9\n##########\n#        #\n#        #\n#        #\n#1      2#\n#        #\n#        #\n#        #\n##########\n";

    #[test]
    fn loads_a_2010_map() {
        let map = parse_2010(SAMPLE).unwrap();
        assert_eq!((map.width, map.height), (10, 9));
        assert_eq!(map.starts[0], Start { pos: Pos::new(1, 4), dir: Dir::E });
        assert_eq!(map.starts[1], Start { pos: Pos::new(8, 4), dir: Dir::W });
        assert_eq!(map.rock_cells().len(), 34);
        let crlf = SAMPLE.replace('\n', "\r\n");
        assert_eq!(parse_2010(&crlf).unwrap(), map);
        assert_eq!(parse_2010(&format!("  10   9  {}\n\n\n", &SAMPLE[4..SAMPLE.len() - 1])).unwrap(), map);
    }

    #[test]
    fn start_direction_ties_take_the_lower_code() {
        // Player 0 in an open corner region: N run 0, E run 6, S run 6, W run 0 → E.
        let text = "8 8\n        \n        \n        \n        \n        \n        \n       2\n 1      \n";
        let map = parse_2010(text).unwrap();
        assert_eq!(map.starts[0].pos, Pos::new(1, 7));
        // N: 7 empty, E: 6 empty, S: 0, W: 1 → N.
        assert_eq!(map.starts[0].dir, Dir::N);
        // Player 1 at (7, 6): N 6, E 0, S 1, W 7 → W.
        assert_eq!(map.starts[1].dir, Dir::W);
        let tie = "8 8\n########\n#      #\n#      #\n#  1   #\n#      #\n#      #\n#     2#\n########\n";
        // Player 0 at (3, 3): N 2, E 3, S 3, W 2 → E (lower code of the tie E/S).
        assert_eq!(parse_2010(tie).unwrap().starts[0].dir, Dir::E);
    }

    use alloc::format;

    #[test]
    fn map_errors_name_line_and_column() {
        let cases: &[(&str, &str)] = &[
            ("", "line 1, column 1: expected \"W H\""),
            ("10\n", "line 1, column 3: expected \"W H\""),
            ("10 9 3\n", "line 1, column 6: expected \"W H\""),
            ("1x 9\n", "line 1, column 2: expected a decimal digit in the width, found 'x'"),
            ("7 9\n", "line 1, column 1: expected a width from 8 to 255, found 7"),
            ("10 99999999999999999999999\n", "line 1, column 4: expected a height from 8 to 255"),
            ("10 9\n##########\n", "line 3, column 1: expected a map row of 10 characters, found the end of the file"),
            ("10 9\n#########\n", "line 2, column 10: expected 10 characters in the row, found 9"),
            ("10 9\n###########\n", "line 2, column 11: expected the end of the row after 10 characters"),
            ("10 9\n####x#####\n", "line 2, column 5: expected '#', ' ', '1' or '2', found 'x'"),
        ];
        for (text, prefix) in cases {
            let err = parse_2010(text).unwrap_err().to_string();
            assert!(err.starts_with(prefix), "{text:?}: {err}");
        }
        let two_ones = SAMPLE.replace("#        #\n#1", "# 1      #\n#1");
        assert_eq!(
            parse_2010(&two_ones).unwrap_err().to_string(),
            "line 6, column 2: expected only one '1' in the map, found a second one"
        );
        let no_two = SAMPLE.replace('2', " ");
        assert!(parse_2010(&no_two).unwrap_err().to_string().starts_with("line 10, column 10: expected a '2'"));
        let trailing = format!("{SAMPLE}x\n");
        assert_eq!(
            parse_2010(&trailing).unwrap_err().to_string(),
            "line 11, column 1: expected nothing after the 9 map rows, found \"x\""
        );
    }

    #[test]
    fn map_errors_quote_little_of_the_file_and_count_columns_in_characters() {
        let long_tail = format!("{SAMPLE}{}\n", "x".repeat(100_000));
        assert_eq!(
            parse_2010(&long_tail).unwrap_err().to_string(),
            "line 11, column 1: expected nothing after the 9 map rows, found \"xxxxxxxxxxxxxxxxxxxxxxxx\"…"
        );
        let long_header = "#".repeat(1 << 20);
        let err = parse_2010(&long_header).unwrap_err().to_string();
        assert!(err.starts_with("line 1, column 1048577: expected \"W H\""), "{}", &err[..80]);
        assert!(err.len() < 200, "{} bytes", err.len());
        let digits = format!("10 {}\n", "9".repeat(1 << 20));
        let err = parse_2010(&digits).unwrap_err().to_string();
        assert_eq!(err, "line 1, column 4: expected a height from 8 to 255, found 99999999999999999999…");
        assert_eq!(
            parse_2010("éé 1x\n").unwrap_err().to_string(),
            "line 1, column 1: expected a decimal digit in the width, found 'é'"
        );
        assert_eq!(
            parse_2010("10 1x\n").unwrap_err().to_string(),
            "line 1, column 5: expected a decimal digit in the height, found 'x'"
        );
        assert!(parse_2010("é 9 ü\n").unwrap_err().to_string().starts_with("line 1, column 5: expected \"W H\""));
    }
}
