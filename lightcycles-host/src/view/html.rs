//! `lightcycles view`: one self-contained HTML page that plays replays on a
//! canvas. The page's markup, style and script live beside this file and are
//! built in; the replays go in as JSON inside a `<script>` element that the
//! data can never close. The page loads nothing from the network (its
//! content security policy forbids it).

use serde::Serialize;

use super::palette;
use super::viewable::Viewable;
use crate::io::untrusted::{clip, json_for_script, terminal_text};

const PAGE: &str = include_str!("page.html");
const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");

/// The content security policy of a page without a script (the tournament
/// report): like the viewer's, nothing may be fetched, and no script runs.
pub const STATIC_POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'";

/// A self-contained page without a script: `title` (escaped here), `style`
/// and `body` (markup whose untrusted text the caller escaped with
/// [`crate::io::untrusted::html_text`]).
pub fn static_page(title: &str, style: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"{STATIC_POLICY}\">\n\
         <title>{}</title>\n<style>\n{style}</style>\n</head>\n<body>\n{body}</body>\n</html>\n",
        crate::io::untrusted::html_text(title)
    )
}

/// The colours, as the script draws them.
#[derive(Serialize)]
struct PaletteData {
    players: Vec<String>,
    empty: String,
    grid: String,
    rock: String,
}

/// One replay as the script reads it: flat number arrays to keep the page
/// small and quick to parse.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ReplayData<'a> {
    label: &'a str,
    width: u32,
    height: u32,
    max_ticks: u32,
    /// A string: a 64-bit seed does not fit a JavaScript number.
    seed: Option<String>,
    fault_policy: &'static str,
    names: &'a [String],
    /// `x, y` of every rock.
    rocks: Vec<u32>,
    /// `x, y, alive` of every player in every frame, frame after frame.
    heads: Vec<u32>,
    /// `commands[k][i]`: the line player `i` answered on tick `k + 1`.
    commands: &'a [Vec<Option<String>>],
    /// `[tick, player, kind]` of every fault.
    faults: Vec<(usize, usize, &'static str)>,
    winner: Option<usize>,
    ticks: u32,
    placements: &'a [u32],
    /// `[tick, player, lines, truncated]` of what the bots wrote
    /// ([`Replay::said`](lightcycles_core::replay::Replay)), every control
    /// character escaped, each line clipped; left out when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    said: Vec<(u32, usize, Vec<String>, bool)>,
    /// The metrics of those lines ([`crate::metric`]), a series each.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    metrics: Vec<MetricData>,
}

/// One bot's metric, tick by tick.
#[derive(Serialize)]
struct MetricData {
    player: usize,
    name: String,
    /// `tick, value` pairs, ticks rising.
    points: Vec<f64>,
}

/// The longest line of a bot's output shown in the page, in characters.
const SAID_WIDTH: usize = 240;

#[derive(Serialize)]
struct PageData<'a> {
    palette: PaletteData,
    replays: Vec<ReplayData<'a>>,
}

fn replay_data<'a>(label: &'a str, viewable: &Viewable<'a>) -> ReplayData<'a> {
    let r = viewable.replay();
    let seed = match (&r.map, r.seed) {
        (None, Some(seed)) => Some(seed.to_string()),
        _ => None,
    };
    let faults = r
        .faults
        .iter()
        .enumerate()
        .flat_map(|(k, row)| row.iter().enumerate().filter_map(move |(i, f)| f.map(|f| (k + 1, i, f.as_str()))))
        .collect();
    // Only what names a player of the game and a frame of the replay.
    let n = r.names.len().min(r.num_players as usize);
    let shown: Vec<&lightcycles_core::replay::Said> = r
        .said
        .iter()
        .flatten()
        .filter(|e| (e.player as usize) < n && e.tick >= 1 && (e.tick as usize) < r.frames.len())
        .collect();
    let said = shown
        .iter()
        .map(|e| {
            let lines = e.lines.iter().map(|l| clip(&terminal_text(l), SAID_WIDTH)).collect();
            (e.tick, e.player as usize, lines, e.truncated)
        })
        .collect();
    let owned: Vec<lightcycles_core::replay::Said> = shown.into_iter().cloned().collect();
    let metrics = crate::metric::series(&owned, n)
        .into_iter()
        .enumerate()
        .flat_map(|(player, s)| {
            s.metrics.into_iter().map(move |(name, points)| MetricData {
                player,
                name,
                points: points.into_iter().flat_map(|(t, v)| [t as f64, v]).collect(),
            })
        })
        .collect();
    ReplayData {
        label,
        width: r.width,
        height: r.height,
        max_ticks: r.max_ticks,
        seed,
        fault_policy: r.config.fault_policy.as_str(),
        names: &r.names,
        rocks: r.rocks.iter().flatten().copied().collect(),
        heads: r.frames.iter().flat_map(|f| f.heads.iter().flatten().copied()).collect(),
        commands: &r.commands,
        faults,
        winner: r.winner,
        ticks: r.result.ticks,
        placements: &r.result.placements,
        said,
        metrics,
    }
}

/// The page that plays `replays`, each shown in the list under its label
/// (the file name, say). The first one is shown when the page opens.
pub fn render(replays: &[(&str, Viewable<'_>)]) -> String {
    let data = PageData {
        palette: PaletteData {
            players: palette::PLAYERS.iter().map(|c| c.hex()).collect(),
            empty: palette::EMPTY.hex(),
            grid: palette::GRID.hex(),
            rock: palette::ROCK.hex(),
        },
        replays: replays.iter().map(|(label, v)| replay_data(label, v)).collect(),
    };
    // The data goes in last, so that nothing in it is ever taken for a slot.
    PAGE.replacen("{{style}}", STYLE, 1).replacen("{{script}}", SCRIPT, 1).replacen(
        "{{data}}",
        &json_for_script(&data),
        1,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::parse;
    use lightcycles_core::replay::Replay;

    fn golden(name: &str) -> Replay {
        let path = format!("{}/../lightcycles-core/tests/golden-replays/{name}", env!("CARGO_MANIFEST_DIR"));
        parse(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    /// The JSON between the data element's tags.
    fn embedded(page: &str) -> serde_json::Value {
        let open = "<script type=\"application/json\" id=\"lc-data\">";
        let start = page.find(open).unwrap() + open.len();
        let end = start + page[start..].find("</script>").unwrap();
        serde_json::from_str(&page[start..end]).unwrap()
    }

    #[test]
    fn a_static_page_runs_nothing_and_fetches_nothing() {
        let page = static_page("</title><script>", "p{}", "<p>body</p>\n");
        assert!(page.starts_with("<!DOCTYPE html>"));
        assert!(page.contains("content=\"default-src 'none'; style-src 'unsafe-inline'\""));
        assert!(!page.contains("script-src"), "no script may run");
        assert!(page.contains("<title>&lt;/title&gt;&lt;script&gt;</title>"), "the title is escaped");
        assert!(page.ends_with("<p>body</p>\n</body>\n</html>\n"));
    }

    #[test]
    fn the_page_is_self_contained() {
        let r = golden("sim_0.json");
        let page = render(&[("sim_0.json", Viewable::check(&r).unwrap())]);
        assert!(page.starts_with("<!DOCTYPE html>"));
        for slot in ["{{style}}", "{{script}}", "{{data}}"] {
            assert!(!page.contains(slot), "{slot} was filled");
        }
        for remote in ["http://", "https://", "src=", "<link", "@import", "url("] {
            assert!(!page.contains(remote), "the page must not load anything: found {remote}");
        }
        assert!(page.contains("default-src 'none'"), "the content security policy forbids network access");
    }

    #[test]
    fn the_data_holds_every_frame_and_fault() {
        let r = golden("sim_0.json");
        let page = render(&[("sim_0.json", Viewable::check(&r).unwrap())]);
        let data = embedded(&page);
        let d = &data["replays"][0];
        assert_eq!(d["label"], "sim_0.json");
        assert_eq!(d["seed"], "500");
        assert_eq!(d["heads"].as_array().unwrap().len(), r.frames.len() * 2 * 3);
        assert_eq!(d["heads"].as_array().unwrap()[0..3], [21, 25, 1], "player 0 starts at (21, 25)");
        assert_eq!(d["rocks"].as_array().unwrap()[0..2], [39, 0]);
        assert_eq!(d["faults"][0], serde_json::json!([2, 0, "invalid"]), "faults[1][0] is on tick 2");
        assert_eq!(d["commands"][1][0], "n");
        assert_eq!(data["palette"]["players"].as_array().unwrap().len(), 8);
        assert_eq!(d["winner"], 0);
        assert_eq!(d["ticks"], 26);
    }

    #[test]
    fn what_bots_said_is_escaped_and_only_for_players_and_ticks_of_the_game() {
        use lightcycles_core::replay::Said;
        let mut r = golden("sim_0.json");
        let said =
            |tick: u32, player: u32, line: &str| Said { tick, player, lines: vec![line.into()], truncated: false };
        r.said = Some(vec![
            said(0, 0, "before the start"),
            said(1, 0, "</script><script>alert(1)</script>\u{1b}[2J[metric] x=1"),
            said(1, 1, "[metric] depth=4"),
            said(2, 9, "no such player"),
            said(999, 0, "no such tick"),
            said(2, 1, &"y".repeat(1000)),
        ]);
        let page = render(&[("said.json", Viewable::check(&r).unwrap())]);
        assert_eq!(page.matches("</script>").count(), 2, "only the page's own two script elements close");
        let data = embedded(&page);
        let shown = &data["replays"][0]["said"];
        assert_eq!(shown.as_array().unwrap().len(), 3, "only ticks played and players of the game: {shown}");
        assert_eq!(shown[0][2][0], "</script><script>alert(1)</script>\\u{1b}[2J[metric] x=1");
        assert_eq!(shown[2][2][0].as_str().unwrap().chars().count(), SAID_WIDTH, "clipped");
        let metrics = &data["replays"][0]["metrics"];
        assert_eq!(metrics, &serde_json::json!([{"player": 1, "name": "depth", "points": [1.0, 4.0]}]));
        // And on a terminal.
        let text = crate::view::terminal::said_text(&r, 2);
        assert!(!text.contains("no such player") && text.starts_with("said on tick 2:\n  1  fuzz1: yyy"), "{text}");
        assert_eq!(crate::view::terminal::said_text(&r, 0), "", "nothing is shown before tick 1");
        assert!(!crate::view::terminal::said_text(&r, 1).contains('\u{1b}'));
        // A replay of silent bots: the data is as it was.
        let silent = golden("sim_0.json");
        let page = render(&[("sim_0.json", Viewable::check(&silent).unwrap())]);
        let data = embedded(&page);
        assert!(data["replays"][0].get("said").is_none() && data["replays"][0].get("metrics").is_none());
    }

    #[test]
    fn hostile_names_and_lines_cannot_leave_the_data_element() {
        let mut r = golden("sim_0.json");
        r.names[0] = "</script><script>alert(1)</script>".into();
        r.names[1] = "<!-- \u{2028} & <img src=x onerror=alert(2)>".into();
        r.commands[0][0] = Some("</SCRIPT>".into());
        let page = render(&[("</script>.json", Viewable::check(&r).unwrap())]);
        assert_eq!(page.matches("</script>").count(), 2, "only the page's own two script elements close");
        assert!(!page.to_lowercase().contains("</script><script>alert"));
        let data = embedded(&page);
        assert_eq!(data["replays"][0]["names"][0], r.names[0].as_str(), "the names arrive unchanged");
        assert_eq!(data["replays"][0]["names"][1], r.names[1].as_str());
        assert_eq!(data["replays"][0]["label"], "</script>.json");
    }

    #[test]
    fn several_replays_share_one_page() {
        let a = golden("sim_0.json");
        let b = golden("eight_players.json");
        let page = render(&[("a", Viewable::check(&a).unwrap()), ("b", Viewable::check(&b).unwrap())]);
        let data = embedded(&page);
        assert_eq!(data["replays"].as_array().unwrap().len(), 2);
        assert_eq!(data["replays"][1]["names"].as_array().unwrap().len(), 8);
        let custom = golden("map_headon_draw.json");
        let page = render(&[("m", Viewable::check(&custom).unwrap())]);
        assert_eq!(embedded(&page)["replays"][0]["seed"], serde_json::Value::Null);
    }
}
