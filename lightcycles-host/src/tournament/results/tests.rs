//! Tests of the results file: lines, headers, resume, torn ends.

use super::*;
use lightcycles_core::{Config, FaultPolicy};

fn header(seed: u64) -> Header {
    Header {
        format: FORMAT.into(),
        bots: vec![
            HeaderBot {
                name: "a".into(),
                spec: "a=builtin:random".into(),
                time_first_ms: None,
                time_ms: None,
                time_bank_ms: None,
                time_inc_ms: None,
            },
            HeaderBot {
                name: "straight".into(),
                spec: "builtin:straight".into(),
                time_first_ms: None,
                time_ms: None,
                time_bank_ms: None,
                time_inc_ms: None,
            },
        ],
        pairing: PairingMode::RoundRobin,
        seed,
        config: Config::default(),
        map: None,
        time_first_ms: 1000,
        time_ms: 50,
        time_margin_ms: 0,
        time_bank_ms: 0,
        time_inc_ms: 0,
        fuel_per_tick: None,
        seats: 2,
        maps: None,
        league: None,
        shard: None,
        sprt_model: None,
    }
}

fn line(game: u64) -> GameLine {
    GameLine {
        game,
        round: game / 2,
        pairing: 0,
        seed: game / 2,
        seats: if game % 2 == 0 { vec![0, 1] } else { vec![1, 0] },
        bots: if game % 2 == 0 { vec!["a".into(), "straight".into()] } else { vec!["straight".into(), "a".into()] },
        winner: Some((game % 2) as usize),
        ticks: 10 + game as u32,
        placements: None,
        faults: vec![Faults::default(), Faults { invalid: 1, timeout: 2, crash: 0 }],
        map: None,
        replay: None,
        command: None,
        metrics: None,
    }
}

fn read_back(path: &Path, h: &Header) -> Result<Vec<GameLine>, ResultsError> {
    let mut games = Vec::new();
    ResultsFile::resume(path, h, |g| {
        games.push(g);
        Ok(())
    })?;
    Ok(games)
}

#[test]
fn games_written_are_read_back_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.jsonl");
    let mut file = ResultsFile::create(&path, &header(3)).unwrap();
    for g in [0, 2, 1] {
        file.append(&line(g)).unwrap();
    }
    drop(file);
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().count(), 4);
    assert!(text.starts_with("{\"format\":\"lightcycles-tournament/1\",\"bots\":[{\"name\":\"a\""), "{text}");
    assert!(text.ends_with('\n'));
    assert_eq!(read_back(&path, &header(3)).unwrap(), vec![line(0), line(2), line(1)]);
    // A resumed file appends after what it holds.
    let mut file = ResultsFile::resume(&path, &header(3), |_| Ok(())).unwrap();
    file.append(&line(3)).unwrap();
    // One writer at a time: read back once the writer is done.
    assert!(matches!(read_back(&path, &header(3)), Err(ResultsError::Busy { .. })));
    drop(file);
    assert_eq!(read_back(&path, &header(3)).unwrap().len(), 4);
}

#[test]
fn a_half_written_last_line_is_cut_off() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.jsonl");
    let mut file = ResultsFile::create(&path, &header(3)).unwrap();
    file.append(&line(0)).unwrap();
    drop(file);
    let whole = std::fs::read_to_string(&path).unwrap();
    let half = serde_json::to_string(&line(1)).unwrap();
    std::fs::write(&path, format!("{whole}{}", &half[..half.len() / 2])).unwrap();
    let mut file = ResultsFile::resume(&path, &header(3), |_| Ok(())).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), whole, "cut back to the last whole line");
    file.append(&line(1)).unwrap();
    drop(file);
    assert_eq!(read_back(&path, &header(3)).unwrap(), vec![line(0), line(1)]);
}

#[test]
fn a_file_with_only_half_a_header_starts_afresh() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.jsonl");
    std::fs::write(&path, "{\"format\":\"lightcy").unwrap();
    drop(ResultsFile::resume(&path, &header(3), |_| Ok(())).unwrap());
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text, serde_json::to_string(&header(3)).unwrap() + "\n");
}

#[test]
fn another_tournaments_file_is_refused_naming_what_differs() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.jsonl");
    drop(ResultsFile::create(&path, &header(3)).unwrap());
    let mut other = header(4);
    other.config.fault_policy = FaultPolicy::Eliminate;
    let err = read_back(&path, &other).unwrap_err().to_string();
    assert!(err.contains("the file is another tournament's"), "{err}");
    assert!(err.contains("seed is 3 in the file, 4 here"), "{err}");
    assert!(err.contains("config is {"), "{err}");
    assert!(!err.contains("bots is"), "{err}");
    let err = ResultsFile::create(&path, &header(3)).unwrap_err().to_string();
    assert!(err.contains("already holds results; add --resume"), "{err}");
    let err = read_back(&dir.path().join("none.jsonl"), &header(3)).unwrap_err().to_string();
    assert!(err.contains("no such file to resume"), "{err}");
}

#[test]
fn damaged_lines_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.jsonl");
    let head = serde_json::to_string(&header(3)).unwrap();
    let good = serde_json::to_string(&line(0)).unwrap();
    std::fs::write(&path, format!("{head}\n{good}\nnot json\n{good}\n")).unwrap();
    let err = read_back(&path, &header(3)).unwrap_err().to_string();
    assert!(err.contains("line 3: not a game record"), "{err}");
    std::fs::write(&path, "{\"format\":\"something-else/1\"}\n").unwrap();
    let err = read_back(&path, &header(3)).unwrap_err().to_string();
    assert!(err.contains("line 1: format \"something-else/1\""), "{err}");
    std::fs::write(&path, format!("{head}\n{good}\n")).unwrap();
    let err = ResultsFile::resume(&path, &header(3), |_| Err("game 0 twice".into())).unwrap_err().to_string();
    assert!(err.contains("line 2: game 0 twice"), "{err}");
}

#[test]
fn game_lines_that_disagree_with_the_header_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.jsonl");
    let head = serde_json::to_string(&header(3)).unwrap();
    type Spoil = fn(&mut GameLine);
    let cases: [(Spoil, &str); 7] = [
        (
            |g| g.bots[1] = "\u{1b}[2Jstraight".into(),
            "bots[1] is \"\\u{1b}[2Jstraight\", but bot 1 of the header is \"straight\"",
        ),
        (|g| g.seats = vec![0, 5], "seats[1] = 5 is not a bot of the header (2 bots)"),
        (|g| g.winner = Some(2), "winner = 2 is not a seat (0 to 1"),
        (|g| g.ticks = 0, "ticks = 0 is outside 1 to 2000"),
        (|g| g.ticks = 2001, "ticks = 2001 is outside 1 to 2000"),
        (|g| g.faults[0].crash = 11, "faults[0] add up to 11 in 10 ticks, more than one a tick"),
        (
            |g| g.faults[1] = Faults { invalid: u32::MAX, timeout: u32::MAX, crash: u32::MAX },
            "faults[1] add up to 12884901885 in 10 ticks, more than one a tick",
        ),
    ];
    for (spoil, expected) in cases {
        let mut game = line(0);
        spoil(&mut game);
        let text = format!("{head}\n{}\n", serde_json::to_string(&game).unwrap());
        std::fs::write(&path, &text).unwrap();
        let err = read_back(&path, &header(3)).unwrap_err().to_string();
        assert!(err.contains(&format!("line 2: {expected}")), "{err}");
        assert!(!err.contains('\u{1b}'), "{err:?}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text, "a refused file is left as it was");
    }
}

#[test]
fn a_line_past_the_cap_is_refused_without_reading_it_all() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.jsonl");
    let head = serde_json::to_string(&header(3)).unwrap() + "\n";
    std::fs::write(&path, &head).unwrap();
    // A sparse 2 GB file of zero bytes after the header: no newline.
    let file = OpenOptions::new().write(true).open(&path).unwrap();
    file.set_len(2 << 30).unwrap();
    let err = read_back(&path, &header(3)).unwrap_err().to_string();
    assert!(err.ends_with("line 2: longer than 16 MiB, the most a results line may hold"), "{err}");
    assert_eq!(std::fs::metadata(&path).unwrap().len(), 2 << 30, "a refused file is not cut");
    // The same in the first line.
    file.set_len(0).unwrap();
    file.set_len(2 << 30).unwrap();
    let err = read_back(&path, &header(3)).unwrap_err().to_string();
    assert!(err.ends_with("line 1: longer than 16 MiB, the most a results line may hold"), "{err}");
}

#[test]
fn a_first_line_without_newline_is_cut_only_when_it_starts_this_header() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.jsonl");
    std::fs::write(&path, "precious notes, no newline").unwrap();
    let err = read_back(&path, &header(3)).unwrap_err().to_string();
    assert!(err.contains("line 1: not a tournament header (and not the start of this one's)"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "precious notes, no newline");
    // Another tournament's header, half written, is not this one's start.
    let other = serde_json::to_string(&header(4)).unwrap();
    std::fs::write(&path, &other[..other.len() - 3]).unwrap();
    assert!(read_back(&path, &header(3)).is_err());
}

#[test]
fn headers_of_any_shape_are_refused_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.jsonl");
    let deep = format!("{{\"format\":\"lightcycles-tournament/1\",\"bots\":{}\n", "[".repeat(100_000));
    let closed = format!(
        "{{\"format\":\"lightcycles-tournament/1\",\"bots\":{}{}}}\n",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let cases = [
        (
            "[1, 2]\n".to_string(),
            "line 1: not a tournament header: invalid type: integer `1`, expected a string at line 1 column 2",
        ),
        (
            "{\"format\": 7}\n".to_string(),
            "line 1: not a tournament header: invalid type: integer `7`, expected a string",
        ),
        ("{}\n".to_string(), "line 1: format missing is not \"lightcycles-tournament/1\""),
        (deep, "line 1: not a tournament header: EOF while parsing a list at line 1 column 100044"),
        (closed, "line 1: not a tournament header: invalid type: sequence, expected a string at line 1 column 46"),
        ("\u{feff}{}\n".to_string(), "line 1: not a tournament header: expected value"),
        (
            "{\"format\":\"lightcycles-tournament/1\",\"seed\":-1}\n".to_string(),
            "line 1: not a tournament header: invalid value: integer `-1`, expected u64",
        ),
        ("{\"format\":\"lightcycles-tournament/1\",\"seed\":1e400}\n".to_string(), "number out of range at line 1"),
        (
            "{\"format\":\"lightcycles-tournament/1\"}\n".to_string(),
            "line 1: not a tournament header: missing field `bots`",
        ),
    ];
    for (text, expected) in cases {
        std::fs::write(&path, &text).unwrap();
        let err = read_back(&path, &header(3)).unwrap_err().to_string();
        assert!(err.contains(expected), "{expected} not in {err}");
    }
    let mut seed = serde_json::to_value(header(3)).unwrap();
    seed["seed"] = (-1).into();
    std::fs::write(&path, format!("{seed}\n")).unwrap();
    let err = read_back(&path, &header(3)).unwrap_err().to_string();
    assert!(err.contains("invalid value: integer `-1`, expected u64"), "{err}");
    std::fs::write(&path, b"\xff\xfe\n").unwrap();
    let err = read_back(&path, &header(3)).unwrap_err().to_string();
    assert!(err.contains("line 1: not UTF-8 text"), "{err}");
}

#[test]
fn only_regular_files_hold_results() {
    let dir = tempfile::tempdir().unwrap();
    let err = read_back(dir.path(), &header(3)).unwrap_err().to_string();
    assert!(err.ends_with("is a directory, not a file to read"), "{err}");
    let err = ResultsFile::create(dir.path(), &header(3)).unwrap_err().to_string();
    assert!(err.ends_with("is a directory, not a file to read"), "{err}");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]
    /// Any damage to a results file is read back, or refused naming a
    /// line or the header fields that differ, never a panic; a refused file is left as it was, and one
    /// read back keeps its whole lines.
    #[test]
    fn damaged_results_files_are_read_or_refused(
        edits in proptest::collection::vec((proptest::prelude::any::<proptest::sample::Index>(), proptest::prelude::any::<u8>()), 0..4),
        cut in 0usize..400,
    ) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.jsonl");
        let mut file = ResultsFile::create(&path, &header(3)).unwrap();
        for g in 0..4 {
            file.append(&line(g)).unwrap();
        }
        drop(file);
        let mut bytes = std::fs::read(&path).unwrap();
        for (at, byte) in &edits {
            let at = at.index(bytes.len());
            bytes[at] = *byte;
        }
        bytes.truncate(bytes.len().saturating_sub(cut));
        std::fs::write(&path, &bytes).unwrap();
        match read_back(&path, &header(3)) {
            Ok(games) => {
                let kept = std::fs::read(&path).unwrap();
                proptest::prop_assert!(bytes.starts_with(&kept));
                proptest::prop_assert!(kept.is_empty() || kept.ends_with(b"\n"));
                proptest::prop_assert!(games.len() <= 4);
            }
            Err(e) => {
                proptest::prop_assert!(matches!(e, ResultsError::Damaged { .. } | ResultsError::Mismatch { .. }), "{}", e);
                proptest::prop_assert_eq!(std::fs::read(&path).unwrap(), bytes);
            }
        }
    }
}

#[test]
fn a_file_written_before_the_new_header_fields_still_resumes() {
    // Lines as a host without time per bot, map pools, free-for-all or
    // leagues wrote them.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.jsonl");
    let old = concat!(
        r#"{"format":"lightcycles-tournament/1","bots":[{"name":"a","spec":"a=builtin:random"},"#,
        r#"{"name":"straight","spec":"builtin:straight"}],"pairing":"round-robin","seed":3,"#,
        r#""config":{"width":48,"height":36,"players":2,"max_ticks":2000,"rock_density":4,"fault_policy":"straight"},"#,
        r#""map":null,"time_first_ms":1000,"time_ms":50}"#,
        "\n",
        r#"{"game":1,"round":0,"pairing":0,"seed":0,"seats":[1,0],"bots":["straight","a"],"winner":1,"ticks":11,"#,
        r#""faults":[{"invalid":0,"timeout":0,"crash":0},{"invalid":1,"timeout":2,"crash":0}],"replay":null}"#,
        "\n"
    );
    std::fs::write(&path, old).unwrap();
    assert_eq!(read_back(&path, &header(3)).unwrap(), vec![line(1)]);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), old, "nothing rewritten");
    // And a header at its defaults is written as before, field for field.
    assert_eq!(serde_json::to_string(&header(3)).unwrap() + "\n", old.lines().next().unwrap().to_string() + "\n");
    let line_1 = serde_json::to_string(&line(1)).unwrap();
    assert_eq!(line_1, old.lines().nth(1).unwrap());
}

#[test]
fn free_for_all_lines_are_checked_against_the_seats_of_the_header() {
    let mut h = header(0);
    h.seats = 3;
    h.bots.push(HeaderBot {
        name: "c".into(),
        spec: "c=builtin:random".into(),
        time_first_ms: None,
        time_ms: None,
        time_bank_ms: None,
        time_inc_ms: None,
    });
    let mut g = line(0);
    g.seats = vec![0, 1, 2];
    g.bots = vec!["a".into(), "straight".into(), "c".into()];
    g.faults = vec![Faults::default(); 3];
    g.placements = Some(vec![2, 1, 3]);
    assert_eq!(g.check(&h), Ok(()));
    let mut two = line(0);
    two.placements = None;
    assert!(two.check(&h).unwrap_err().contains("must each list 3 seats"));
    let mut bad = g.clone();
    bad.placements = Some(vec![0, 1, 3]);
    assert!(bad.check(&h).unwrap_err().contains("placements must be 3 places from 1 to 3"));
    bad.placements = Some(vec![1, 2]);
    assert!(bad.check(&h).is_err());
    let mut winner = g.clone();
    winner.winner = Some(3);
    assert!(winner.check(&h).unwrap_err().contains("winner = 3 is not a seat (0 to 2"));
    assert_eq!(g.result().placements, [2, 1, 3]);
    assert_eq!(line(1).result().placements, [2, 1], "two seats: the winner first");
}

#[test]
fn metrics_are_an_optional_key_of_a_game_line_checked_against_its_seats() {
    use crate::metric::Summary;
    let h = header(0);
    // A line written before metrics existed reads back as none and is
    // written again byte for byte.
    let old = r#"{"game":0,"round":0,"pairing":0,"seed":0,"seats":[0,1],"bots":["a","straight"],"winner":0,"ticks":10,"faults":[{"invalid":0,"timeout":0,"crash":0},{"invalid":0,"timeout":0,"crash":0}],"replay":null}"#;
    let read: GameLine = serde_json::from_str(old).unwrap();
    assert_eq!(read.metrics, None);
    assert_eq!(serde_json::to_string(&read).unwrap(), old);
    read.check(&h).unwrap();
    // With metrics: one map a seat, written and read back the same.
    let mut with = line(0);
    let depth = Summary { n: 3, sum: 12.5, max: 5.25 };
    with.metrics = Some(vec![[("depth".to_string(), depth)].into(), Default::default()]);
    with.check(&h).unwrap();
    let text = serde_json::to_string(&with).unwrap();
    assert!(text.ends_with(r#""metrics":[{"depth":{"n":3,"sum":12.5,"max":5.25}},{}]}"#), "{text}");
    let back: GameLine = serde_json::from_str(&text).unwrap();
    assert_eq!(back, with);
    assert_eq!(back.result().metrics, with.metrics);
    // Checked: a map a seat, names, counts within the ticks.
    let bad = |metrics: Vec<crate::metric::Summaries>| {
        let mut l = line(0);
        l.metrics = Some(metrics);
        l.check(&h).unwrap_err()
    };
    assert!(bad(vec![Default::default()]).contains("metrics must list 2 seats"));
    let name = |n: &str, s: Summary| vec![[(n.to_string(), s)].into(), Default::default()];
    assert!(bad(name("no spaces", depth)).contains("not a metric name"));
    assert!(bad(name("d", Summary { n: 0, ..depth })).contains("not a metric name"));
    assert!(bad(name("d", Summary { n: 11, ..depth })).contains("1 to 10 ticks"));
}
