//! `tournament report`: one self-contained HTML page from results files, to
//! look at instead of read: the standings with their intervals drawn, the
//! crosstable, the ratings over the games played, the SPRT's LLR against its
//! bounds, breakdowns by seat, map and board size, faults per bot, and every
//! game with a link to its replay in the viewer.
//!
//! The numbers are the JSON report's ([`Report`]), counted by the same
//! [`Standings`] in index order, plus what only the game lines hold (seats,
//! maps, head-to-head placements). The page is built on the server side:
//! plain markup and inline SVG, no script, and the content security policy
//! of [`html::STATIC_POLICY`]; every name from the file goes through
//! [`html_text`]. The report itself is embedded as JSON (`#lc-report`), for
//! tools and tests.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::report::Report;
use super::results::{self, GameLine, Header, ShardHeader};
use super::schedule::Schedule;
use super::shard::Shard;
use super::standings::Standings;
use crate::io::untrusted::{html_text, json_for_script};
use crate::stats::{signed, EloEstimate, GameScore, Sprt, Trinomial};
use crate::view::{html, palette};

/// The results files read and joined: one tournament's header and its games
/// in index order.
#[derive(Clone, Debug)]
pub struct Source {
    /// The header of the first file.
    pub header: Header,
    /// Every game, once, in index order.
    pub games: Vec<GameLine>,
    /// Files whose last line was cut off (still being written).
    pub torn: Vec<PathBuf>,
    /// The shard indices of the files read (none for an unsharded run).
    pub shards: std::collections::BTreeSet<u64>,
}

/// Reads `paths`: one results file, or several of one tournament (its
/// shards, or files that repeat games): the same header but for the shard,
/// and a game found twice must be the same line. Files still being written
/// are fine (a torn last line is left out); nothing needs to be complete.
pub fn load(paths: &[PathBuf]) -> Result<Source, String> {
    let mut header: Option<(Header, &Path)> = None;
    let mut games: BTreeMap<u64, (GameLine, &Path)> = BTreeMap::new();
    let mut torn = Vec::new();
    let mut shards = std::collections::BTreeSet::new();
    if paths.is_empty() {
        return Err("no results file given".into());
    }
    for path in paths {
        let contents = results::read(path).map_err(|e| {
            let message = e.to_string();
            message.strip_prefix("--results ").map_or(message.clone(), str::to_string)
        })?;
        let found = contents.header.clone();
        match &header {
            None => header = Some((found, path)),
            Some((first, first_path)) => {
                // Shards of one tournament differ in their index alone.
                let unsharded =
                    |h: &Header| Header { shard: h.shard.map(|s| ShardHeader { index: 0, ..s }), ..h.clone() };
                let differences = results::header_differences(&unsharded(&found), &unsharded(first));
                if !differences.is_empty() {
                    let text: Vec<String> = differences
                        .into_iter()
                        .map(|(key, have, want)| format!("{key} is {have} there, {want} in the first"))
                        .collect();
                    return Err(format!(
                        "{} is not of the same tournament as {}: {}",
                        path.display(),
                        first_path.display(),
                        text.join("; ")
                    ));
                }
            }
        }
        if contents.torn {
            torn.push(path.clone());
        }
        shards.extend(contents.header.shard.map(|s| s.index));
        for (line, game) in contents.games {
            match games.get(&game.game) {
                Some((seen, seen_path)) if *seen != game => {
                    return Err(format!(
                        "{}: line {line}: game {} differs from the same game in {}",
                        path.display(),
                        game.game,
                        seen_path.display()
                    ));
                }
                Some(_) => {}
                None => {
                    games.insert(game.game, (game, path));
                }
            }
        }
    }
    let (header, _) = header.expect("at least one file was read");
    Ok(Source { header, games: games.into_values().map(|(g, _)| g).collect(), torn, shards })
}

/// One point of the history: the standings after `games` games counted.
#[derive(Clone, Debug, Serialize)]
pub struct Point {
    /// Games counted.
    pub games: u64,
    /// Each bot's Weng-Lin rating `(mu, sigma)`.
    pub ratings: Vec<(f64, f64)>,
    /// The first pairing's Elo with its interval (two-seat games).
    pub elo: Option<EloEstimate>,
    /// The SPRT's LLR and the game pairs (sets, in a free-for-all) it counted.
    pub llr: Option<(u64, f64)>,
}

/// The most points a chart draws: a long run is sampled evenly.
const MAX_POINTS: usize = 400;

/// What the page shows beyond the report, from the game lines.
#[derive(Clone, Debug, Serialize)]
pub struct Extras {
    /// `cross[i][j]`: bot `i`'s games against bot `j`, by who placed ahead.
    pub cross: Vec<Vec<Trinomial>>,
    /// `by_seat[i][s]`: bot `i`'s games in seat `s`.
    pub by_seat: Vec<Vec<Trinomial>>,
    /// Per map of the pool (its name): each bot's games.
    pub by_map: BTreeMap<String, Vec<Trinomial>>,
    /// Per board size (`WxH`): each bot's games.
    pub by_size: BTreeMap<String, Vec<Trinomial>>,
    /// The standings over the games played.
    pub history: Vec<Point>,
}

/// Everything on the page.
#[derive(Clone, Debug, Serialize)]
pub struct PageData {
    /// The report, as `--report` writes it.
    pub report: Report,
    /// The rest.
    pub extras: Extras,
}

/// A game's score for the bot in `seat`, as the standings count it: a win
/// is winning, a draw is sharing first place with no winner.
fn seat_score(game: &GameLine, placements: &[u32], seat: usize) -> GameScore {
    match game.winner {
        Some(w) if w == seat => GameScore::Win,
        None if placements.get(seat).copied().unwrap_or(1) == 1 => GameScore::Draw,
        _ => GameScore::Loss,
    }
}

/// The board size of a game: its map's, from the header.
fn board_size(header: &Header, game: &GameLine) -> String {
    let of_pool = header.maps.as_ref().and_then(|pool| {
        let name = game.map.as_ref()?;
        let map = pool.maps.iter().find(|m| &m.name == name)?;
        if let Some([w, h, _]) = map.generated {
            return Some(format!("{w}x{h}"));
        }
        let first = map.text.as_ref()?.lines().next()?;
        let mut numbers = first.split_whitespace();
        Some(format!("{}x{}", numbers.next()?, numbers.next()?))
    });
    let of_map = || {
        let first = header.map.as_ref()?.lines().next()?.to_string();
        let mut numbers = first.split_whitespace();
        Some(format!("{}x{}", numbers.next()?, numbers.next()?))
    };
    of_pool.or_else(of_map).unwrap_or_else(|| format!("{}x{}", header.config.width, header.config.height))
}

/// Counts `source` as the tournament's report does, with `sprt` judged on
/// its first pairing, and everything else the page shows.
pub fn build(source: &Source, sprt: Option<Sprt>) -> Result<PageData, String> {
    let h = &source.header;
    let bots = h.bots.len();
    let names: Vec<String> = h.bots.iter().map(|b| b.name.clone()).collect();
    let specs: Vec<String> = h.bots.iter().map(|b| b.spec.clone()).collect();
    if sprt.is_some() {
        super::standings::sprt_fits(bots, h.seats, h.league.is_some())?;
    }
    // The games per pairing are not in an unsharded header: the fewest that
    // hold every game of the file (only the report's "scheduled" shows it).
    let groups = if h.league.is_some() {
        1
    } else {
        Schedule::with_seats(bots, h.seats, h.pairing, h.seats as u64, h.seed)
            .map_err(|e| format!("line 1: {e}"))?
            .pairings()
            .len()
            .max(1) as u64
    };
    let per_pairing = match h.shard {
        Some(s) => s.games_per_pairing,
        None => {
            let needed = source.games.last().map_or(1, |g| g.game / groups + 1);
            needed.div_ceil(h.seats as u64).max(1) * h.seats as u64
        }
    };
    let schedule = if h.league.is_some() {
        Schedule::with_seats(h.seats, h.seats, h.pairing, per_pairing, h.seed)
    } else {
        Schedule::with_seats(bots, h.seats, h.pairing, per_pairing, h.seed)
    }
    .map_err(|e| format!("line 1: {e}"))?;
    // One shard alone is counted as its run counts it: its own games in order.
    let shard = match (h.shard, source.shards.len()) {
        (Some(s), 1) => Shard::new(s.index, s.count),
        _ => None,
    };
    let mut standings =
        if h.league.is_some() { Standings::league(bots, h.seats) } else { Standings::new(&schedule, bots, sprt) };
    if let Some(shard) = shard {
        standings = standings.of_shard(shard);
    }
    let mut extras = Extras {
        cross: vec![vec![Trinomial::default(); bots]; bots],
        by_seat: vec![vec![Trinomial::default(); h.seats]; bots],
        by_map: BTreeMap::new(),
        by_size: BTreeMap::new(),
        history: Vec::new(),
    };
    let mut history = Vec::new();
    for game in &source.games {
        let result = game.result();
        for (s, &i) in game.seats.iter().enumerate() {
            let score = seat_score(game, &result.placements, s);
            extras.by_seat[i][s].add(score);
            if let Some(map) = &game.map {
                extras.by_map.entry(map.clone()).or_insert_with(|| vec![Trinomial::default(); bots])[i].add(score);
            }
            extras.by_size.entry(board_size(h, game)).or_insert_with(|| vec![Trinomial::default(); bots])[i].add(score);
            for (t, &j) in game.seats.iter().enumerate() {
                if s != t {
                    let (ps, pt) = (result.placements[s], result.placements[t]);
                    extras.cross[i][j].add(match ps.cmp(&pt) {
                        std::cmp::Ordering::Less => GameScore::Win,
                        std::cmp::Ordering::Equal => GameScore::Draw,
                        std::cmp::Ordering::Greater => GameScore::Loss,
                    });
                }
            }
        }
        let before = standings.counted();
        standings.add(result);
        if standings.counted() != before {
            history.push(point(&standings));
        }
    }
    standings.finish();
    if history.last().map_or(true, |p| p.games != standings.counted()) {
        history.push(point(&standings));
    }
    extras.history = sample(history);
    let mut report = Report::new(&schedule, h.pairing, &standings, &names, &specs).of_shard(shard);
    if h.league.is_some() {
        report.league = true;
        report.pairings.retain(|p| p.games.games() > 0);
    }
    Ok(PageData { report, extras })
}

fn point(standings: &Standings) -> Point {
    Point {
        games: standings.counted(),
        ratings: standings.bots().iter().map(|b| (b.rating.mu, b.rating.sigma)).collect(),
        elo: standings.pairings().first().filter(|_| standings.bots().len() == 2).and_then(|p| p.games.elo()),
        llr: standings.llr().map(|llr| (standings.sprt_sets(), llr)),
    }
}

/// At most [`MAX_POINTS`] of `points`, evenly spread, the last one kept.
fn sample(points: Vec<Point>) -> Vec<Point> {
    if points.len() <= MAX_POINTS {
        return points;
    }
    let n = points.len();
    (0..MAX_POINTS).map(|k| points[k * (n - 1) / (MAX_POINTS - 1)].clone()).collect()
}

/// `61.5%`, or `-`.
fn percent(x: Option<f64>) -> String {
    x.map_or("-".into(), |x| format!("{:.1}%", x * 100.0))
}

fn wdl(t: &Trinomial) -> String {
    format!("{}-{}-{}", t.wins, t.draws, t.losses)
}

fn colour(bot: usize) -> String {
    palette::PLAYERS[bot % palette::PLAYERS.len()].hex()
}

/// A chart's frame: data ranges mapped onto an SVG of `W × H`.
struct Frame {
    x: (f64, f64),
    y: (f64, f64),
}

const W: f64 = 720.0;
const H: f64 = 260.0;
const PAD: f64 = 44.0;

impl Frame {
    fn new(x: (f64, f64), y: (f64, f64)) -> Frame {
        let widen = |(lo, hi): (f64, f64)| if hi - lo < 1e-9 { (lo - 1.0, hi + 1.0) } else { (lo, hi) };
        Frame { x: widen(x), y: widen(y) }
    }
    fn px(&self, x: f64) -> f64 {
        PAD + (x - self.x.0) / (self.x.1 - self.x.0) * (W - 2.0 * PAD)
    }
    fn py(&self, y: f64) -> f64 {
        H - PAD + -(y.clamp(self.y.0, self.y.1) - self.y.0) / (self.y.1 - self.y.0) * (H - 2.0 * PAD)
    }
    fn open(&self, id: &str, label: &str, out: &mut String) {
        let _ = write!(
            out,
            "<svg id=\"{id}\" viewBox=\"0 0 {W} {H}\" role=\"img\" aria-label=\"{}\">\
             <rect x=\"{PAD}\" y=\"{PAD}\" width=\"{}\" height=\"{}\" class=\"plot\"/>",
            html_text(label),
            W - 2.0 * PAD,
            H - 2.0 * PAD
        );
        for (v, anchor) in [(self.y.0, "lo"), (self.y.1, "hi")] {
            let _ = write!(
                out,
                "<text x=\"{}\" y=\"{:.1}\" class=\"axis {anchor}\" text-anchor=\"end\">{:.1}</text>",
                PAD - 4.0,
                self.py(v) + 4.0,
                v
            );
        }
        let _ = write!(
            out,
            "<text x=\"{PAD}\" y=\"{}\" class=\"axis\">{:.0}</text><text x=\"{}\" y=\"{}\" class=\"axis\" text-anchor=\"end\">{:.0}</text>",
            H - PAD + 16.0,
            self.x.0,
            W - PAD,
            H - PAD + 16.0,
            self.x.1
        );
    }
    fn polyline(&self, points: &[(f64, f64)], stroke: &str, class: &str, out: &mut String) {
        let text: Vec<String> = points.iter().map(|&(x, y)| format!("{:.1},{:.1}", self.px(x), self.py(y))).collect();
        let _ = write!(out, "<polyline class=\"{class}\" stroke=\"{stroke}\" points=\"{}\"/>", text.join(" "));
    }
    fn band(&self, lower: &[(f64, f64)], upper: &[(f64, f64)], fill: &str, out: &mut String) {
        let text: Vec<String> = lower
            .iter()
            .chain(upper.iter().rev())
            .map(|&(x, y)| format!("{:.1},{:.1}", self.px(x), self.py(y)))
            .collect();
        let _ = write!(out, "<polygon class=\"band\" fill=\"{fill}\" points=\"{}\"/>", text.join(" "));
    }
}

/// Horizontal intervals, one a row: `(label, colour, low, mid, high)`.
fn interval_chart(id: &str, caption: &str, label: &str, rows: &[(String, String, f64, f64, f64)], out: &mut String) {
    let finite = |x: f64| x.is_finite();
    let values: Vec<f64> = rows.iter().flat_map(|r| [r.2, r.3, r.4]).filter(|x| finite(*x)).collect();
    if values.is_empty() {
        return;
    }
    let _ = write!(out, "<p class=\"caption\">{caption}</p>");
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = if hi - lo < 1e-9 { (lo - 1.0, hi + 1.0) } else { (lo, hi) };
    let left = PAD + 120.0;
    let px = |x: f64| {
        let x = if x.is_finite() {
            x.clamp(lo, hi)
        } else if x > 0.0 {
            hi
        } else {
            lo
        };
        left + (x - lo) / (hi - lo) * (W - PAD - left)
    };
    let height = 30.0 * rows.len() as f64 + 40.0;
    let _ =
        write!(out, "<svg id=\"{id}\" viewBox=\"0 0 {W} {height}\" role=\"img\" aria-label=\"{}\">", html_text(label));
    for (k, (name, stroke, low, mid, high)) in rows.iter().enumerate() {
        let y = 24.0 + 30.0 * k as f64;
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{:.1}\" class=\"axis\" text-anchor=\"end\">{}</text>\
             <line x1=\"{:.1}\" x2=\"{:.1}\" y1=\"{y:.1}\" y2=\"{y:.1}\" stroke=\"{stroke}\" class=\"interval\"/>\
             <circle cx=\"{:.1}\" cy=\"{y:.1}\" r=\"4\" fill=\"{stroke}\"/>",
            left - 8.0,
            y + 4.0,
            html_text(name),
            px(*low),
            px(*high),
            px(*mid),
        );
    }
    let bottom = height - 8.0;
    let _ = write!(
        out,
        "<text x=\"{}\" y=\"{bottom}\" class=\"axis\">{:.1}</text><text x=\"{}\" y=\"{bottom}\" class=\"axis\" text-anchor=\"end\">{:.1}</text></svg>",
        left,
        lo,
        W - PAD,
        hi
    );
}

/// The page of `data`; `links[k]` is the viewer link of game `k` of `games`
/// (or `None`), `title` names the files read.
pub fn render(data: &PageData, source: &Source, links: &[Option<String>], title: &str) -> String {
    let r = &data.report;
    let x = &data.extras;
    let names: Vec<String> = r.bots.iter().map(|b| html_text(&b.name)).collect();
    let mut body = String::new();
    let kind = match (r.league, r.pairing) {
        (true, _) => "league",
        (false, super::schedule::PairingMode::RoundRobin) => "round robin",
        (false, super::schedule::PairingMode::Gauntlet) => "gauntlet",
    };
    let seats = if r.seats > 2 { format!(", free-for-all of {} seats", r.seats) } else { String::new() };
    let _ = write!(
        body,
        "<header><h1>Tournament report</h1><p id=\"summary\">{} bots ({kind}{seats}), \
         <span id=\"games-played\">{}</span> games played, seeds from {}. From {}.</p>",
        r.bots.len(),
        r.games_played,
        r.seed,
        html_text(title)
    );
    for path in &source.torn {
        let _ = write!(
            body,
            "<p class=\"note\">{} is still being written: its last line is not complete and is left out.</p>",
            html_text(&path.display().to_string())
        );
    }
    body.push_str("</header>\n");

    // Standings.
    let rated = r.bots.len() > 2 || r.seats > 2 || r.league;
    let mut order: Vec<usize> = (0..r.bots.len()).collect();
    // As the terminal ranks: a free-for-all or league by mu - 3 sigma, a
    // round robin of three or more by mu.
    let key = |i: usize| if r.seats > 2 || r.league { r.bots[i].conservative } else { r.bots[i].rating.mu };
    if rated {
        order.sort_by(|&a, &b| key(b).total_cmp(&key(a)).then(a.cmp(&b)));
    }
    body.push_str(
        "<section><h2>Standings</h2><table id=\"standings\"><thead><tr><th>rank</th><th>bot</th><th>games</th>\
         <th>wins</th><th>draws</th><th>losses</th><th>score</th><th>rating (mu ± sigma)</th>\
         <th>mu - 3 sigma</th><th>mean place</th></tr></thead><tbody>",
    );
    for (rank, &i) in order.iter().enumerate() {
        let b = &r.bots[i];
        let _ = write!(
            body,
            "<tr data-bot=\"{i}\"><td>{}</td><td class=\"name\"><span class=\"swatch\" style=\"background:{}\"></span>{}</td>\
             <td class=\"games\">{}</td><td class=\"wins\">{}</td><td class=\"draws\">{}</td><td class=\"losses\">{}</td>\
             <td class=\"score\">{}</td><td class=\"rating\">{:.2} ± {:.2}</td><td class=\"conservative\">{:.2}</td>\
             <td class=\"place\">{}</td></tr>",
            rank + 1,
            colour(i),
            names[i],
            b.games.games(),
            b.games.wins,
            b.games.draws,
            b.games.losses,
            percent(b.score),
            b.rating.mu,
            b.rating.sigma,
            b.conservative,
            b.mean_place.map_or("-".into(), |p| format!("{p:.2}"))
        );
    }
    body.push_str("</tbody></table>");
    let rows: Vec<(String, String, f64, f64, f64)> = order
        .iter()
        .map(|&i| {
            let b = &r.bots[i];
            (
                b.name.clone(),
                colour(i),
                b.rating.mu - 2.0 * b.rating.sigma,
                b.rating.mu,
                b.rating.mu + 2.0 * b.rating.sigma,
            )
        })
        .collect();
    interval_chart(
        "rating-intervals",
        "Weng-Lin rating, mu ± 2 sigma:",
        "ratings with their intervals",
        &rows,
        &mut body,
    );
    body.push_str("</section>\n");

    // Pairings.
    if !r.pairings.is_empty() {
        body.push_str(
            "<section><h2>Pairings</h2><table id=\"pairings\"><thead><tr><th>bots</th><th>games</th><th>W-D-L</th>\
             <th>score</th><th>Elo</th><th>95% interval</th><th>LOS</th><th>pairs LL, LD, DD/WL, WD, WW</th>\
             <th>pair Elo</th></tr></thead><tbody>",
        );
        let mut rows = Vec::new();
        for (k, p) in r.pairings.iter().enumerate() {
            let interval =
                |e: Option<EloEstimate>| e.map_or("-".into(), |e| format!("{} … {}", signed(e.lower), signed(e.upper)));
            let _ = write!(
                body,
                "<tr data-pairing=\"{k}\"><td>{} vs {}</td><td class=\"games\">{}</td><td class=\"wdl\">{}</td>\
                 <td class=\"score\">{}</td><td class=\"elo\">{}</td><td class=\"interval\">{}</td><td class=\"los\">{}</td>\
                 <td class=\"penta\">{}</td><td class=\"penta-elo\">{}</td></tr>",
                html_text(&p.bots[0]),
                html_text(&p.bots[1]),
                p.games.games(),
                wdl(&p.games),
                percent(p.score),
                p.elo.map_or("-".into(), |e| signed(e.elo)),
                interval(p.elo),
                percent(p.los),
                p.pentanomial.map(|n| n.to_string()).join(", "),
                p.pentanomial_elo.map_or("-".into(), |e| e.to_string())
            );
            if let Some(e) = p.pentanomial_elo.or(p.elo) {
                rows.push((format!("{} vs {}", p.bots[0], p.bots[1]), colour(k), e.lower, e.elo, e.upper));
            }
        }
        body.push_str("</tbody></table>");
        let caption = "Elo of each pairing's first bot, 95% interval (from the pairs where there are any):";
        interval_chart("elo-intervals", caption, "Elo of each pairing with its interval", &rows, &mut body);
        body.push_str("</section>\n");
    }

    // Crosstable.
    body.push_str("<section><h2>Crosstable</h2><p class=\"caption\">Each row's bot against each column's: wins-draws-losses by who placed ahead, and the row's score.</p><table id=\"crosstable\"><thead><tr><th></th>");
    for &j in &order {
        let _ = write!(body, "<th>{}</th>", names[j]);
    }
    body.push_str("</tr></thead><tbody>");
    for &i in &order {
        let _ = write!(body, "<tr data-bot=\"{i}\"><th>{}</th>", names[i]);
        for &j in &order {
            let t = &x.cross[i][j];
            if i == j || t.games() == 0 {
                let _ = write!(body, "<td data-against=\"{j}\" class=\"empty\"></td>");
            } else {
                let _ = write!(body, "<td data-against=\"{j}\">{} <small>{}</small></td>", wdl(t), percent(t.score()));
            }
        }
        body.push_str("</tr>");
    }
    body.push_str("</tbody></table></section>\n");

    // Ratings over the games.
    history_charts(r, x, &mut body);

    // Breakdowns.
    body.push_str("<section><h2>By seat</h2><table id=\"by-seat\"><thead><tr><th>bot</th>");
    for s in 0..r.seats {
        let _ = write!(body, "<th>seat {s}</th>");
    }
    body.push_str("</tr></thead><tbody>");
    for &i in &order {
        let _ = write!(body, "<tr data-bot=\"{i}\"><td>{}</td>", names[i]);
        for t in &x.by_seat[i] {
            let _ = write!(body, "<td>{} <small>{}</small></td>", wdl(t), percent(t.score()));
        }
        body.push_str("</tr>");
    }
    body.push_str("</tbody></table></section>\n");
    let tables =
        [("by-map", "By map of the pool", "map", &x.by_map), ("by-size", "By board size", "board", &x.by_size)];
    for (id, title, key_name, table) in tables {
        if table.is_empty() {
            continue;
        }
        let _ = write!(body, "<section><h2>{title}</h2><table id=\"{id}\"><thead><tr><th>{key_name}</th>");
        for &i in &order {
            let _ = write!(body, "<th>{}</th>", names[i]);
        }
        body.push_str("</tr></thead><tbody>");
        for (key, bots) in table {
            let _ = write!(body, "<tr><td>{}</td>", html_text(key));
            for &i in &order {
                let t = &bots[i];
                if t.games() == 0 {
                    body.push_str("<td class=\"empty\"></td>");
                } else {
                    let _ = write!(body, "<td>{} <small>{}</small></td>", wdl(t), percent(t.score()));
                }
            }
            body.push_str("</tr>");
        }
        body.push_str("</tbody></table></section>\n");
    }

    // Faults.
    body.push_str(
        "<section><h2>Faults</h2><table id=\"faults\"><thead><tr><th>bot</th><th>invalid</th><th>timeout</th>\
         <th>crash</th><th>games with a fault</th></tr></thead><tbody>",
    );
    let mut faulty = vec![0u64; r.bots.len()];
    for g in &source.games {
        for (s, &i) in g.seats.iter().enumerate() {
            if g.faults.get(s).is_some_and(|f| f.total() > 0) {
                faulty[i] += 1;
            }
        }
    }
    for &i in &order {
        let f = &r.bots[i].faults;
        let _ = write!(
            body,
            "<tr data-bot=\"{i}\"><td>{}</td><td class=\"invalid\">{}</td><td class=\"timeout\">{}</td>\
             <td class=\"crash\">{}</td><td>{}</td></tr>",
            names[i], f.invalid, f.timeout, f.crash, faulty[i]
        );
    }
    body.push_str(
        "</tbody></table><p class=\"caption\">The results file does not record answer times, so the slowest \
         answers are not shown here; the games with faults are marked below.</p></section>\n",
    );

    // Metrics, when a bot reported any.
    if r.bots.iter().any(|b| !b.metrics.is_empty()) {
        body.push_str(
            "<section><h2>Metrics</h2><table id=\"metrics\"><thead><tr><th>bot</th><th>metric</th>\
             <th>ticks</th><th>mean</th><th>max</th></tr></thead><tbody>",
        );
        for &i in &order {
            for (name, m) in &r.bots[i].metrics {
                let _ = write!(
                    body,
                    "<tr data-bot=\"{i}\"><td>{}</td><td class=\"metric\">{}</td><td>{}</td><td class=\"mean\">{}</td>\
                     <td class=\"max\">{}</td></tr>",
                    names[i],
                    html_text(name),
                    m.ticks,
                    super::report::number(m.mean),
                    super::report::number(m.max)
                );
            }
        }
        body.push_str(
            "</tbody></table><p class=\"caption\">What the bots reported on <code>[metric]</code> lines: \
             over the ticks that reported each, its mean and maximum.</p></section>\n",
        );
    }

    // Games.
    let _ = write!(
        body,
        "<section><h2>Games</h2><table id=\"games\"><thead><tr><th>game</th><th>round</th><th>map</th>\
         <th>seats</th><th>result</th><th>ticks</th><th>faults</th><th>replay</th></tr></thead><tbody>"
    );
    for (g, link) in source.games.iter().zip(links) {
        let seat_names: Vec<String> = g.bots.iter().map(|n| html_text(n)).collect();
        let result = match g.winner {
            Some(w) => format!("{} wins", g.bots.get(w).map_or(String::new(), |n| html_text(n))),
            None => "draw".into(),
        };
        let faults: u32 = g.faults.iter().map(|f| f.total()).sum();
        let replay = link.as_ref().map_or(String::new(), |href| format!("<a href=\"{}\">view</a>", html_text(href)));
        let _ = write!(
            body,
            "<tr data-game=\"{}\"{}><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{result}</td><td>{}</td><td>{faults}</td><td>{replay}</td></tr>",
            g.game,
            if faults > 0 { " class=\"faulty\"" } else { "" },
            g.game,
            g.round,
            g.map.as_deref().map_or(String::new(), html_text),
            seat_names.join(" · "),
            g.ticks
        );
    }
    body.push_str("</tbody></table></section>\n");
    let _ = writeln!(body, "<script type=\"application/json\" id=\"lc-report\">{}</script>", json_for_script(data));
    html::static_page("LightCycles tournament report", STYLE, &body)
}

/// The rating history and the SPRT's LLR, drawn.
fn history_charts(r: &Report, x: &Extras, body: &mut String) {
    let points = &x.history;
    if points.len() < 2 {
        return;
    }
    let games = (points[0].games as f64, points[points.len() - 1].games as f64);
    body.push_str("<section><h2>Ratings over the games played</h2>");
    if r.bots.len() == 2 && r.seats == 2 && !r.league {
        let elo: Vec<(f64, EloEstimate)> = points
            .iter()
            .filter_map(|p| p.elo.map(|e| (p.games as f64, e)))
            .filter(|(_, e)| e.elo.is_finite())
            .collect();
        if elo.len() >= 2 {
            let finite = |v: f64| v.is_finite();
            let ys: Vec<f64> = elo.iter().flat_map(|(_, e)| [e.lower, e.upper, e.elo]).filter(|v| finite(*v)).collect();
            let lo = ys.iter().copied().fold(0.0, f64::min).max(-800.0);
            let hi = ys.iter().copied().fold(0.0, f64::max).min(800.0);
            let frame = Frame::new(games, (lo, hi));
            let _ = write!(
                body,
                "<p class=\"caption\">Elo of {} against {} after each game, and its 95% interval:</p>",
                html_text(&r.bots[0].name),
                html_text(&r.bots[1].name)
            );
            frame.open("elo-history", "Elo over the games", body);
            let end = |v: f64, up: bool| {
                if v.is_finite() {
                    v
                } else if up {
                    hi
                } else {
                    lo
                }
            };
            let lower: Vec<(f64, f64)> = elo.iter().map(|(g, e)| (*g, end(e.lower, false))).collect();
            let upper: Vec<(f64, f64)> = elo.iter().map(|(g, e)| (*g, end(e.upper, true))).collect();
            frame.band(&lower, &upper, &colour(0), body);
            frame.polyline(&[(games.0, 0.0), (games.1, 0.0)], "#888", "zero", body);
            frame.polyline(&elo.iter().map(|(g, e)| (*g, e.elo)).collect::<Vec<_>>(), &colour(0), "line", body);
            body.push_str("</svg>");
        }
    }
    let lo = points.iter().flat_map(|p| p.ratings.iter().map(|(mu, s)| mu - 2.0 * s)).fold(f64::INFINITY, f64::min);
    let hi = points.iter().flat_map(|p| p.ratings.iter().map(|(mu, s)| mu + 2.0 * s)).fold(f64::NEG_INFINITY, f64::max);
    let frame = Frame::new(games, (lo, hi));
    body.push_str("<p class=\"caption\">Weng-Lin rating of each bot after each game, mu ± 2 sigma");
    if r.league {
        body.push_str(" (the league's rating history)");
    }
    body.push_str(":</p>");
    frame.open("rating-history", "ratings over the games", body);
    for i in 0..r.bots.len() {
        let line: Vec<(f64, f64)> = points.iter().map(|p| (p.games as f64, p.ratings[i].0)).collect();
        let lower: Vec<(f64, f64)> =
            points.iter().map(|p| (p.games as f64, p.ratings[i].0 - 2.0 * p.ratings[i].1)).collect();
        let upper: Vec<(f64, f64)> =
            points.iter().map(|p| (p.games as f64, p.ratings[i].0 + 2.0 * p.ratings[i].1)).collect();
        frame.band(&lower, &upper, &colour(i), body);
        frame.polyline(&line, &colour(i), "line", body);
    }
    body.push_str("</svg><p class=\"legend\">");
    for (i, b) in r.bots.iter().enumerate() {
        let _ = write!(
            body,
            "<span><span class=\"swatch\" style=\"background:{}\"></span>{}</span> ",
            colour(i),
            html_text(&b.name)
        );
    }
    body.push_str("</p></section>\n");
    if let Some(s) = &r.sprt {
        let sets = if r.seats > 2 { format!("game sets of {}", r.seats) } else { "game pairs".to_string() };
        let _ = write!(
            body,
            "<section><h2>SPRT</h2><p id=\"sprt\">elo0 {}, elo1 {}, alpha {}, beta {} ({}): LLR \
             <span id=\"llr\">{:.2}</span>, bounds <span id=\"lower-bound\">{:.2}</span> and \
             <span id=\"upper-bound\">{:.2}</span>; {}.</p>",
            s.elo0,
            s.elo1,
            s.alpha,
            s.beta,
            s.model,
            s.llr,
            s.lower_bound,
            s.upper_bound,
            match s.decision {
                Some(d) => format!(
                    "<span id=\"decision\">{} accepted</span> after {} {sets}",
                    match d.accepted {
                        crate::stats::Hypothesis::H0 => "H0",
                        crate::stats::Hypothesis::H1 => "H1",
                    },
                    d.pairs
                ),
                None => "<span id=\"decision\">no decision</span> yet".into(),
            }
        );
        if let Some(f) = &s.field {
            let elo = f.elo.map_or("-".to_string(), |e| e.to_string());
            let _ = write!(
                body,
                "<p id=\"field\">{} against the field: {} {sets}, score {}, Elo {}.</p>",
                html_text(&f.bot),
                f.sets,
                f.score.map_or("-".to_string(), |x| format!("{:.1}%", 100.0 * x)),
                html_text(&elo)
            );
        }
        let llr: Vec<(f64, f64)> = points.iter().filter_map(|p| p.llr.map(|(n, l)| (n as f64, l))).collect();
        if llr.len() >= 2 {
            let lo = llr.iter().map(|p| p.1).fold(s.lower_bound, f64::min);
            let hi = llr.iter().map(|p| p.1).fold(s.upper_bound, f64::max);
            let pairs = (llr[0].0, llr[llr.len() - 1].0);
            let frame = Frame::new(pairs, (lo, hi));
            let _ = write!(body, "<p class=\"caption\">LLR after each of the {sets}, and the bounds:</p>");
            frame.open("llr-history", "the LLR against its bounds", body);
            frame.polyline(&[(pairs.0, s.upper_bound), (pairs.1, s.upper_bound)], "#5bd75b", "bound", body);
            frame.polyline(&[(pairs.0, s.lower_bound), (pairs.1, s.lower_bound)], "#ff5c5c", "bound", body);
            frame.polyline(&llr, "#e6e6e6", "line", body);
            body.push_str("</svg>");
        }
        body.push_str("</section>\n");
    }
}

/// The viewer links of `games` for a page written to `page`: a game whose
/// replay file lies in the page's folder links to `replays.html#FILE`, the
/// page `lightcycles view DIR/*.json` writes there, opened at that replay.
pub fn replay_links(games: &[GameLine], page: &Path) -> Vec<Option<String>> {
    let dir = page.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    games
        .iter()
        .map(|g| {
            let file = Path::new(g.replay.as_ref()?).file_name()?.to_str()?.to_string();
            dir.join(&file).is_file().then(|| format!("replays.html#{file}"))
        })
        .collect()
}

const STYLE: &str = "body{background:#0b0e14;color:#e6e6e6;font:14px/1.4 system-ui,sans-serif;margin:0 24px 40px}\
h1{font-size:22px;margin:16px 0 4px}h2{font-size:17px;margin:28px 0 8px}\
table{border-collapse:collapse;margin:6px 0}th,td{padding:3px 10px;border-bottom:1px solid #232a36;text-align:right}\
th{color:#9aa4b5;font-weight:600}td.name,td:first-child{text-align:left}small{color:#9aa4b5}\
td.empty{background:#131822}tr.faulty td{color:#ffb347}a{color:#56b6ff}\
.swatch{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:6px}\
.note{color:#ffb347}.caption{color:#9aa4b5;margin:10px 0 2px}.legend span{margin-right:14px}\
svg{width:100%;max-width:760px;display:block}svg .plot{fill:#131822;stroke:#232a36}\
svg .axis{fill:#9aa4b5;font-size:11px}svg polyline{fill:none;stroke-width:2}svg .band{opacity:.10}\
svg .bound{stroke-dasharray:6 4;stroke-width:1.5}svg .zero{stroke-width:1}svg .interval{stroke-width:3}\n";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sampling_keeps_the_ends_and_at_most_the_cap() {
        let points: Vec<Point> =
            (1..=1000).map(|g| Point { games: g, ratings: vec![], elo: None, llr: None }).collect();
        let kept = sample(points);
        assert_eq!(kept.len(), MAX_POINTS);
        assert_eq!(kept[0].games, 1);
        assert_eq!(kept[MAX_POINTS - 1].games, 1000);
        assert!(kept.windows(2).all(|w| w[0].games < w[1].games));
    }
}
