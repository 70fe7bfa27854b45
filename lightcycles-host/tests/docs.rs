//! The documentation checks itself: the rule book against the referee
//! contract, links and anchors, the commands shown, the runnable examples,
//! the observation page and the JSON Schemas of `docs/schema/`.
//!
//! Conventions (CONTRIBUTING.md, "Documentation"):
//! - every fenced block has an info string (`sh`, `text`, `json`, `rust`…);
//! - a `sh runnable` block is run, in order with the other runnable blocks
//!   of its page, in a temporary folder with the built `lightcycles` on the
//!   `PATH`, and must exit 0;
//! - every `lightcycles …` or `cargo run --release -- …` command in a shell
//!   or text block must be accepted by the CLI's parser.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use clap::Parser as _;
use lightcycles_core::observation::Observation;
use lightcycles_core::{space, Action, Config, Engine, FastGame};
use lightcycles_host::cli::Cli;
use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};
use serde_json::Value;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The markdown files of the repository: the root's, `docs/`'s and the
/// examples' READMEs.
fn pages() -> Vec<PathBuf> {
    let root = repo();
    let mut pages = vec![];
    for dir in [root.clone(), root.join("docs")] {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "md") {
                pages.push(path);
            }
        }
    }
    for entry in std::fs::read_dir(root.join("examples")).unwrap() {
        let readme = entry.unwrap().path().join("README.md");
        if readme.is_file() {
            pages.push(readme);
        }
    }
    pages.sort();
    pages
}

fn rel(path: &Path) -> String {
    path.strip_prefix(repo()).unwrap_or(path).display().to_string()
}

/// A fenced code block.
#[derive(Debug)]
struct Block {
    info: String,
    text: String,
    /// The line of the opening fence, from 1.
    line: usize,
    /// The index of the level-2 section it is in (0 before the first).
    section: usize,
}

/// What the tests read from one markdown page.
#[derive(Debug, Default)]
struct Page {
    /// Headings: level and text (inline code without its backticks).
    headings: Vec<(u8, String)>,
    /// Link and image destinations, with their line.
    links: Vec<(String, usize)>,
    blocks: Vec<Block>,
    /// Table rows (header rows too) by section, each cell as its source-like
    /// text (inline code in backticks).
    rows: Vec<(usize, Vec<String>)>,
    /// Inline code spans by section.
    code: Vec<(usize, String)>,
    /// Prose text (not code) by section.
    prose: Vec<(usize, String)>,
}

fn parse(text: &str) -> Page {
    let mut page = Page::default();
    let line_of = |offset: usize| text[..offset].matches('\n').count() + 1;
    let mut section = 0;
    let mut heading: Option<(u8, String)> = None;
    let mut block: Option<Block> = None;
    let mut row: Option<Vec<String>> = None;
    let mut cell: Option<String> = None;
    let opts = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    for (event, range) in Parser::new_ext(text, opts).into_offset_iter() {
        match event {
            Event::Start(Tag::Heading { level, .. }) => heading = Some((level as u8, String::new())),
            Event::End(TagEnd::Heading(_)) => {
                let h = heading.take().unwrap();
                if h.0 == 2 {
                    section += 1;
                }
                page.headings.push(h);
            }
            Event::Start(Tag::Link { dest_url, .. }) | Event::Start(Tag::Image { dest_url, .. }) => {
                page.links.push((dest_url.to_string(), line_of(range.start)))
            }
            Event::Start(Tag::CodeBlock(kind)) => {
                let info = match kind {
                    CodeBlockKind::Fenced(info) => info.to_string(),
                    CodeBlockKind::Indented => "(indented)".to_string(),
                };
                block = Some(Block { info, text: String::new(), line: line_of(range.start), section })
            }
            Event::End(TagEnd::CodeBlock) => page.blocks.push(block.take().unwrap()),
            Event::Start(Tag::TableHead) | Event::Start(Tag::TableRow) => row = Some(vec![]),
            Event::End(TagEnd::TableHead) | Event::End(TagEnd::TableRow) => {
                page.rows.push((section, row.take().unwrap()))
            }
            Event::Start(Tag::TableCell) => cell = Some(String::new()),
            Event::End(TagEnd::TableCell) => {
                let c = cell.take().unwrap();
                row.as_mut().unwrap().push(c.trim().to_string())
            }
            Event::Text(t) => {
                if let Some(b) = block.as_mut() {
                    b.text.push_str(&t);
                    continue;
                }
                if let Some(h) = heading.as_mut() {
                    // Compared as headings, not as the prose of a section.
                    h.1.push_str(&t);
                    continue;
                }
                if let Some(c) = cell.as_mut() {
                    c.push_str(&t);
                }
                page.prose.push((section, t.to_string()));
            }
            Event::Code(t) => {
                if let Some(h) = heading.as_mut() {
                    h.1.push_str(&t);
                    continue;
                }
                if let Some(c) = cell.as_mut() {
                    c.push_str(&format!("`{t}`"));
                }
                page.code.push((section, t.to_string()));
            }
            Event::InlineHtml(t) | Event::Html(t) => {
                if let Some(c) = cell.as_mut() {
                    c.push_str(&t);
                }
            }
            Event::SoftBreak | Event::HardBreak => {
                if let Some(c) = cell.as_mut() {
                    c.push(' ');
                }
                page.prose.push((section, " ".to_string()));
            }
            _ => {}
        }
    }
    page
}

/// GitHub's anchor of a heading: lower case, letters, digits, `-` and `_`
/// kept, spaces made `-`, everything else dropped.
fn slug(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a page: each heading's slug, the later ones of a name
/// with `-1`, `-2`… appended.
fn anchors(page: &Page) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = BTreeSet::new();
    for (_, text) in &page.headings {
        let base = slug(text);
        let n = seen.entry(base.clone()).or_insert(0);
        out.insert(if *n == 0 { base.clone() } else { format!("{base}-{n}") });
        *n += 1;
    }
    out
}

#[test]
fn every_relative_link_and_anchor_resolves() {
    let root = repo().canonicalize().unwrap();
    let mut problems = vec![];
    let mut checked = 0;
    for path in pages() {
        let page = parse(&read(&path));
        for (dest, line) in &page.links {
            let at = format!("{}:{line}: {dest}", rel(&path));
            if dest.starts_with("https://") {
                continue;
            }
            if dest.contains("://") || dest.starts_with("mailto:") {
                problems.push(format!("{at}: only https links to public pages are allowed"));
                continue;
            }
            checked += 1;
            let (file, anchor) = match dest.split_once('#') {
                Some((f, a)) => (f, Some(a)),
                None => (dest.as_str(), None),
            };
            let target = if file.is_empty() { path.clone() } else { path.parent().unwrap().join(file) };
            let Ok(target) = target.canonicalize() else {
                problems.push(format!("{at}: no such file"));
                continue;
            };
            if !target.starts_with(&root) || file.starts_with('/') {
                problems.push(format!("{at}: points outside the repository"));
                continue;
            }
            if let Some(anchor) = anchor {
                if target.extension().is_some_and(|e| e == "md") {
                    let there = anchors(&parse(&read(&target)));
                    if !there.contains(anchor) {
                        problems.push(format!("{at}: no heading with anchor #{anchor} (there: {there:?})"));
                    }
                }
            }
        }
    }
    assert!(problems.is_empty(), "broken links:\n{}", problems.join("\n"));
    assert!(checked > 50, "only {checked} relative links found");
    println!("{checked} relative links checked");
}

#[test]
fn the_anchor_rules_are_githubs() {
    assert_eq!(slug("`lightcycles play`: a match"), "lightcycles-play-a-match");
    assert_eq!(slug("The search bot: `builtin:search`"), "the-search-bot-builtinsearch");
    assert_eq!(slug("4.1 Start cells and directions"), "41-start-cells-and-directions");
    assert_eq!(slug("C and C++"), "c-and-c");
    let page = parse("# A\n\n## Notes\n\n## Notes\n\n## Notes\n");
    let a = anchors(&page);
    assert!(a.contains("notes") && a.contains("notes-1") && a.contains("notes-2"), "{a:?}");
}

#[test]
fn no_page_names_the_folder_beside_the_clone() {
    // Only this test may reach outside the repository: a reader's clone
    // has no `../shared`, so no page may send them there.
    for path in pages() {
        let text = read(&path);
        assert!(!text.contains("../shared"), "{} mentions ../shared", rel(&path));
    }
}

#[test]
fn every_fenced_block_says_what_it_holds() {
    // A block without an info string is Rust to rustdoc (the pages are
    // doctests of lightcycles-host) and plain to GitHub: say which.
    for path in pages() {
        for b in parse(&read(&path)).blocks {
            assert!(
                !b.info.trim().is_empty() && b.info != "(indented)",
                "{}:{}: a code block without an info string (sh, text, json, rust…)",
                rel(&path),
                b.line
            );
        }
    }
}

#[test]
fn every_page_with_rust_is_a_doctest() {
    let lib = read(&repo().join("lightcycles-host/src/lib.rs"));
    for path in pages() {
        let page = parse(&read(&path));
        let has_rust = page.blocks.iter().any(|b| b.info.split([',', ' ']).next() == Some("rust"));
        let name = rel(&path);
        if has_rust {
            assert!(
                lib.contains(&format!("include_str!(\"../../{name}\")")),
                "{name} has Rust blocks: include it among the doctests of lightcycles-host/src/lib.rs"
            );
        }
    }
}

// ---------------------------------------------------------------------------
// The rule book.

/// Numbers in a text: runs of digits, with `_`, `.` or `,` between digits.
fn numbers(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = vec![];
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_ascii_digit() {
            let mut s = String::new();
            while i < chars.len()
                && (chars[i].is_ascii_digit()
                    || (matches!(chars[i], '_' | '.' | ',') && chars.get(i + 1).is_some_and(|c| c.is_ascii_digit())))
            {
                s.push(chars[i]);
                i += 1;
            }
            out.push(s);
        } else {
            i += 1;
        }
    }
    out
}

/// Per section: the numbers of its prose (each with how often it occurs), its inline code, its table rows,
/// its code blocks.
type Facts = BTreeMap<usize, (BTreeMap<String, usize>, BTreeSet<String>, BTreeSet<Vec<String>>, BTreeSet<String>)>;

fn facts(page: &Page) -> Facts {
    let mut f: Facts = BTreeMap::new();
    let mut prose: BTreeMap<usize, String> = BTreeMap::new();
    for (s, t) in &page.prose {
        // Apart, so that the numbers of two pieces of text never run together.
        let text = prose.entry(*s).or_default();
        text.push(' ');
        text.push_str(t);
    }
    for (s, t) in prose {
        let counts = &mut f.entry(s).or_default().0;
        for n in numbers(&t) {
            *counts.entry(n).or_default() += 1;
        }
    }
    for (s, c) in &page.code {
        f.entry(*s).or_default().1.insert(c.clone());
    }
    for (s, r) in &page.rows {
        f.entry(*s).or_default().2.insert(r.clone());
    }
    for b in &page.blocks {
        f.entry(b.section).or_default().3.insert(b.text.clone());
    }
    f
}

/// The sections of `docs/RULES.md` after the contract's own.
const OWN_SECTIONS: [&str; 1] = ["Reading of the rule book"];

/// `docs/RULES.md` says what the referee contract says. "The same" here:
/// - the same headings of level 2 and below, in the same order (so "RULES.md
///   section 6" means the same section in both), then the project's own
///   sections, `OWN_SECTIONS`;
/// - section by section, the same code blocks, the same table rows (golden
///   values included) and the same numbers in the prose, as often, both
///   ways: nothing of the contract is missing, nothing is added;
/// - section by section, every inline code span of the contract (names,
///   values, formulas) is there too.
///
/// The wording of the prose may differ; its numbers and names may not.
#[test]
fn the_rule_book_says_what_the_contract_says() {
    let contract_path = repo().join("../shared/RULES.md");
    let ours = parse(&read(&repo().join("docs/RULES.md")));
    let Ok(contract) = std::fs::read_to_string(&contract_path) else {
        println!(
            "skipped: {} is not there (a clone without the referee contract beside it); docs/RULES.md not compared",
            contract_path.display()
        );
        return;
    };
    let contract = parse(&contract);

    let sub = |p: &Page| p.headings.iter().filter(|h| h.0 >= 2).cloned().collect::<Vec<_>>();
    let (theirs_h, ours_h) = (sub(&contract), sub(&ours));
    let mut expected = theirs_h.clone();
    expected.extend(OWN_SECTIONS.iter().map(|s| (2, s.to_string())));
    assert_eq!(ours_h, expected, "docs/RULES.md must keep the contract's headings, then {OWN_SECTIONS:?}");

    let (theirs, mine) = (facts(&contract), facts(&ours));
    let names: Vec<String> = ["(before section 1)".to_string()]
        .into_iter()
        .chain(contract.headings.iter().filter(|h| h.0 == 2).map(|h| h.1.clone()))
        .collect();
    let mut problems = vec![];
    let empty = Default::default();
    for (s, name) in names.iter().enumerate().skip(1) {
        let (tn, tc, tr, tb) = theirs.get(&s).unwrap_or(&empty);
        let (on, oc, or, ob) = mine.get(&s).unwrap_or(&empty);
        for (n, &k) in tn {
            if on.get(n).copied().unwrap_or(0) < k {
                problems.push(format!("{name}: the contract's number {n} ({k} times) is missing"));
            }
        }
        for (n, &k) in on {
            if tn.get(n).copied().unwrap_or(0) < k {
                problems
                    .push(format!("{name}: the number {n} ({k} times) is more often than in the contract's section"));
            }
        }
        for c in tc.difference(oc) {
            problems.push(format!("{name}: the contract's `{c}` is missing"));
        }
        for r in tr.difference(or) {
            problems.push(format!("{name}: the contract's table row {r:?} is missing"));
        }
        for r in or.difference(tr) {
            problems.push(format!("{name}: the table row {r:?} is not in the contract"));
        }
        for b in tb.difference(ob) {
            problems.push(format!("{name}: the contract's code block is missing:\n{b}"));
        }
        for b in ob.difference(tb) {
            problems.push(format!("{name}: a code block not in the contract:\n{b}"));
        }
    }
    assert!(problems.is_empty(), "docs/RULES.md and the contract differ:\n{}", problems.join("\n"));
    let values: usize = theirs.values().map(|f| f.0.len() + f.1.len() + f.2.len() + f.3.len()).sum();
    println!(
        "docs/RULES.md agrees with {}: {} sections, {values} numbers, names, rows and blocks",
        contract_path.display(),
        names.len() - 1
    );
}

#[test]
fn the_rule_book_check_sees_a_changed_golden_value() {
    let ours = read(&repo().join("docs/RULES.md"));
    let changed = ours.replace("16294208416658607535", "16294208416658607536");
    assert_ne!(ours, changed, "the golden value is in docs/RULES.md");
    let (a, b) = (facts(&parse(&ours)), facts(&parse(&changed)));
    assert_ne!(a, b);
    let moved = ours.replace("`W ≥ 16`", "`W ≥ 17`");
    assert_ne!(facts(&parse(&ours)), facts(&parse(&moved)));
}

// ---------------------------------------------------------------------------
// Commands shown in the docs.

/// `text` with its comment (an unquoted `#` at a word's start) removed.
fn strip_comment(text: &str) -> &str {
    let (mut single, mut double, mut prev) = (false, false, ' ');
    for (i, c) in text.char_indices() {
        match c {
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '#' if !single && !double && prev.is_whitespace() => return &text[..i],
            _ => {}
        }
        prev = c;
    }
    text
}

/// The `lightcycles` commands of a shell or text block, as argument lists,
/// with the line each starts on.
fn commands(block: &Block) -> Vec<(usize, Vec<String>)> {
    let mut out = vec![];
    let mut logical = String::new();
    let mut start = 0;
    for (i, raw) in block.text.lines().enumerate() {
        if logical.is_empty() {
            start = i;
        }
        let line = raw.trim_start();
        let line = line.strip_prefix("$ ").unwrap_or(line);
        if let Some(cont) = line.strip_suffix('\\') {
            logical.push_str(cont);
            logical.push(' ');
            continue;
        }
        logical.push_str(line);
        let text = std::mem::take(&mut logical);
        let text = strip_comment(&text).trim();
        if text.is_empty() {
            continue;
        }
        let Some(words) = shlex::split(text) else { continue };
        for segment in words.split(|w| matches!(w.as_str(), "&&" | "||" | "|" | ";")) {
            let mut args: Vec<String> = vec![];
            let mut skip = false;
            for w in segment {
                if skip {
                    skip = false;
                } else if matches!(w.as_str(), ">" | ">>" | "2>" | "2>>" | "<" | "&>") {
                    skip = true;
                } else if !(w.starts_with('>') || w.starts_with("2>") || w.starts_with('<')) {
                    args.push(w.clone());
                }
            }
            let cargo = ["cargo", "run", "--release", "--"];
            let found = if args.len() > 4 && args[..4] == cargo {
                Some(4)
            } else {
                args.iter().position(|w| w == "lightcycles").map(|p| p + 1)
            };
            if let Some(p) = found {
                let mut argv = vec!["lightcycles".to_string()];
                argv.extend(args[p..].iter().cloned());
                out.push((block.line + 1 + start, argv));
            }
        }
    }
    out
}

fn is_shell(block: &Block) -> bool {
    matches!(block.info.split_whitespace().next(), Some("sh" | "bash" | "console" | "shell" | "text") | None)
}

#[test]
fn every_command_shown_is_accepted_by_the_cli() {
    let mut problems = vec![];
    let mut count = 0;
    for path in pages() {
        for block in parse(&read(&path)).blocks.iter().filter(|b| is_shell(b)) {
            for (line, argv) in commands(block) {
                count += 1;
                if let Err(e) = Cli::try_parse_from(&argv) {
                    use clap::error::ErrorKind::{DisplayHelp, DisplayVersion};
                    if !matches!(e.kind(), DisplayHelp | DisplayVersion) {
                        problems.push(format!("{}:{line}: {}\n{}", rel(&path), argv.join(" "), e.render()));
                    }
                }
            }
        }
    }
    assert!(problems.is_empty(), "commands the CLI refuses:\n{}", problems.join("\n"));
    assert!(count >= 25, "only {count} commands found in the docs");
    println!("{count} commands shown in the docs parse");
}

#[test]
fn the_command_reader_splits_as_a_shell_does() {
    let block = |text: &str| Block { info: "sh".into(), text: text.into(), line: 1, section: 0 };
    let got = commands(&block(
        "$ lightcycles play a b \\\n    -r 2   # two rounds\n\
         /usr/bin/time -f \"%e s\" lightcycles map --json >/dev/null\n\
         cc x.c -o x && cargo run --release -- play \"cmd:./x --y\" builtin:random 2> err\n\
         # lightcycles not a command\n",
    ));
    let argv = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
    assert_eq!(got[0], (2, argv("lightcycles play a b -r 2")));
    assert_eq!(got[1], (4, argv("lightcycles map --json")));
    assert_eq!(got[2].1, vec!["lightcycles", "play", "cmd:./x --y", "builtin:random"]);
    assert_eq!(got.len(), 3);
    assert!(Cli::try_parse_from(argv("lightcycles play a")).is_err(), "a refused command is seen");
}

/// The runnable blocks: `sh runnable`. Each page's run in order in one
/// temporary folder, `lightcycles` on the `PATH` (and `cargo run --release
/// --` read as `lightcycles`); each must exit 0 within two minutes.
#[test]
fn runnable_examples_run() {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_lightcycles"));
    let path_var = format!("{}:{}", bin.parent().unwrap().display(), std::env::var("PATH").unwrap_or_default());
    let mut ran = 0;
    for path in pages() {
        let blocks: Vec<Block> = parse(&read(&path))
            .blocks
            .into_iter()
            .filter(|b| b.info.split_whitespace().any(|w| w == "runnable"))
            .collect();
        if blocks.is_empty() {
            continue;
        }
        let dir = tempfile::tempdir().unwrap();
        for b in blocks {
            assert!(b.info.starts_with("sh"), "{}:{}: a runnable block is `sh runnable`", rel(&path), b.line);
            let script = b.text.replace("cargo run --release -- ", "lightcycles ");
            // Output to files, not pipes: nobody reads a pipe while it runs.
            let logs = tempfile::tempdir().unwrap();
            let (out_path, err_path) = (logs.path().join("stdout"), logs.path().join("stderr"));
            let mut child = Command::new("sh")
                .args(["-e", "-c", &script])
                .current_dir(dir.path())
                .env("PATH", &path_var)
                .env("NO_COLOR", "1")
                .stdin(Stdio::null())
                .stdout(std::fs::File::create(&out_path).unwrap())
                .stderr(std::fs::File::create(&err_path).unwrap())
                .spawn()
                .unwrap();
            let started = Instant::now();
            while child.try_wait().unwrap().is_none() {
                if started.elapsed() > Duration::from_secs(120) {
                    child.kill().unwrap();
                    panic!("{}:{}: still running after 120 s:\n{script}", rel(&path), b.line);
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            let status = child.wait().unwrap();
            assert!(
                status.success(),
                "{}:{}: exited with {}:\n{script}\nstdout:\n{}\nstderr:\n{}",
                rel(&path),
                b.line,
                status,
                read(&out_path),
                read(&err_path)
            );
            ran += 1;
            println!("ran {}:{} in {:.1} s", rel(&path), b.line, started.elapsed().as_secs_f64());
        }
    }
    assert!(ran >= 5, "only {ran} runnable blocks");
}

// ---------------------------------------------------------------------------
// The observation page and the JSON Schemas.

/// A named change that makes a document invalid.
type Mutation = (&'static str, Box<dyn Fn(&mut Value)>);

fn schema(name: &str) -> jsonschema::Validator {
    let text = read(&repo().join("docs/schema").join(name));
    let value: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    jsonschema::validator_for(&value).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn check(validator: &jsonschema::Validator, what: &str, value: &Value) {
    let errors: Vec<String> = validator.iter_errors(value).map(|e| format!("{e} at {}", e.instance_path)).collect();
    assert!(errors.is_empty(), "{what} is refused by its schema:\n{}", errors.join("\n"));
}

/// The game of `docs/OBSERVATION.md`: three players on 16 × 16, seed 5,
/// each keeping its direction while that is safe, else taking its first
/// safe move (N, E, S, W), played until one player is out; the observation
/// of player 0 then.
fn page_observation() -> Observation {
    let config = Config { width: 16, height: 16, players: 3, ..Config::default() };
    let mut game = FastGame::seeded(&config, 5).unwrap();
    while (0..3).all(|i| game.player(i).alive) {
        let actions: Vec<Action> = (0..3)
            .map(|i| {
                let safe = space::safe_moves(&game, i);
                let dir = game.player(i).dir;
                match safe.iter().next() {
                    _ if safe.contains(dir) => Action::Keep,
                    Some(d) => Action::Move(d),
                    None => Action::Keep,
                }
            })
            .collect();
        game.step(&actions).unwrap();
    }
    assert!(!game.is_over(), "two players still ride");
    Observation::new(&game, 0)
}

#[test]
fn the_observation_page_shows_a_real_observation() {
    let page = parse(&read(&repo().join("docs/OBSERVATION.md")));
    let shown = page.blocks.iter().find(|b| b.info == "json").expect("a json block in docs/OBSERVATION.md");
    let shown: Value = serde_json::from_str(&shown.text).expect("the page's observation is JSON");
    let real = page_observation();
    let real_value: Value = serde_json::from_str(&real.to_json()).unwrap();
    if shown != real_value {
        // What the page should show, laid out one grid row a line.
        let mut s = format!(
            "{{\"tick\": {}, \"max_ticks\": {}, \"width\": {}, \"height\": {}, \"you\": {},\n \"players\": [",
            real.tick, real.max_ticks, real.width, real.height, real.you
        );
        for (i, p) in real.players.iter().enumerate() {
            let sep = if i == 0 { "" } else { ",\n             " };
            s += &format!(
                "{sep}{{\"id\": {}, \"x\": {}, \"y\": {}, \"dir\": \"{}\", \"alive\": {}}}",
                p.id, p.x, p.y, p.dir, p.alive
            );
        }
        s += "],\n \"grid\": [";
        for (y, row) in real.grid.iter().enumerate() {
            let cells: Vec<String> = row.iter().map(|c| format!("{c:>2}")).collect();
            let sep = if y == 0 { "" } else { ",\n          " };
            s += &format!("{sep}[{}]", cells.join(", "));
        }
        s += "]}\n";
        panic!("docs/OBSERVATION.md shows another observation; the real one:\n{s}");
    }
    check(&schema("observation.schema.json"), "the observation of docs/OBSERVATION.md", &shown);
    // The page's observation shows what the page says it shows.
    assert_eq!(real.players.iter().filter(|p| !p.alive).count(), 1);
}

/// Observations of many games, on several boards, as a bot gets them.
fn observations() -> Vec<Value> {
    let mut out = vec![];
    let configs = [
        Config::default(),
        Config { width: 8, height: 8, rock_density: 25, ..Config::default() },
        Config { width: 16, height: 16, players: 3, rock_density: 10, ..Config::default() },
        Config { width: 32, height: 32, players: 8, rock_density: 0, ..Config::default() },
        Config { width: 255, height: 8, players: 2, max_ticks: 30, ..Config::default() },
    ];
    for (k, config) in configs.iter().enumerate() {
        for seed in 0..3u64 {
            let mut game = FastGame::seeded(config, seed).unwrap();
            let n = config.players as usize;
            let mut t = 0u64;
            while !game.is_over() {
                for you in 0..n {
                    if you == 0 || game.player(you).alive {
                        out.push(serde_json::from_str(&Observation::new(&game, you).to_json()).unwrap());
                    }
                }
                let actions: Vec<Action> = (0..n)
                    .map(|i| {
                        let safe: Vec<_> = space::safe_moves(&game, i).iter().collect();
                        t = t.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407 + k as u64);
                        match safe.len() {
                            0 => Action::Keep,
                            len => Action::Move(safe[(t >> 33) as usize % len]),
                        }
                    })
                    .collect();
                game.step(&actions).unwrap();
            }
        }
    }
    out
}

#[test]
fn observations_fit_their_schema() {
    let validator = schema("observation.schema.json");
    let all = observations();
    for (i, obs) in all.iter().enumerate() {
        check(&validator, &format!("observation {i}"), obs);
    }
    println!("{} observations fit docs/schema/observation.schema.json", all.len());
}

#[test]
fn the_observation_schema_refuses_what_no_bot_is_sent() {
    let validator = schema("observation.schema.json");
    let good: Value = serde_json::from_str(&page_observation().to_json()).unwrap();
    let mutations: Vec<Mutation> = vec![
        (
            "no you",
            Box::new(|v| {
                v.as_object_mut().unwrap().remove("you");
            }),
        ),
        ("an extra key", Box::new(|v| v["score"] = 3.into())),
        ("tick 0", Box::new(|v| v["tick"] = 0.into())),
        ("a board 7 wide", Box::new(|v| v["width"] = 7.into())),
        ("a cell of -3", Box::new(|v| v["grid"][0][0] = (-3).into())),
        ("a cell of 8", Box::new(|v| v["grid"][0][0] = 8.into())),
        ("a lower-case direction", Box::new(|v| v["players"][0]["dir"] = "n".into())),
        ("alive as 1", Box::new(|v| v["players"][0]["alive"] = 1.into())),
        (
            "a player without x",
            Box::new(|v| {
                v["players"][1].as_object_mut().unwrap().remove("x");
            }),
        ),
        (
            "one player",
            Box::new(|v| {
                v["players"].as_array_mut().unwrap().truncate(1);
            }),
        ),
        (
            "a row of 7 cells",
            Box::new(|v| {
                v["grid"][0].as_array_mut().unwrap().truncate(7);
            }),
        ),
    ];
    for (what, mutate) in mutations {
        let mut bad = good.clone();
        mutate(&mut bad);
        assert!(!validator.is_valid(&bad), "the observation schema accepts {what}");
    }
}

fn run_cli(args: &[&str], dir: &Path) {
    let out = Command::new(env!("CARGO_BIN_EXE_lightcycles")).args(args).current_dir(dir).output().unwrap();
    assert!(out.status.success(), "lightcycles {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

fn replays_in(dir: &Path) -> Vec<(String, Value)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files.iter().map(|p| (rel(p), serde_json::from_str(&read(p)).unwrap())).collect()
}

/// Replays the host writes: two, three, four and eight players, both fault
/// policies, a 2010 map, a tick cap; and the golden replays.
fn replays() -> Vec<(String, Value)> {
    let tmp = tempfile::tempdir().unwrap();
    let map = "10 9\n##########\n#        #\n#   #    #\n#        #\n#1      2#\n#        #\n#    #   #\n#        #\n##########\n";
    std::fs::write(tmp.path().join("arena.txt"), map).unwrap();
    let runs: [&[&str]; 6] = [
        &["play", "builtin:random", "builtin:fuzz", "-r", "4", "-o", "two"],
        &[
            "play",
            "builtin:fuzz",
            "builtin:random",
            "builtin:wallhug",
            "--width",
            "16",
            "--height",
            "16",
            "--fault-policy",
            "eliminate",
            "-r",
            "3",
            "-o",
            "three",
        ],
        &[
            "play",
            "builtin:floodfill",
            "builtin:fuzz",
            "builtin:random",
            "builtin:straight",
            "--width",
            "20",
            "--height",
            "16",
            "-r",
            "2",
            "-o",
            "four",
        ],
        &[
            "play",
            "builtin:random",
            "builtin:random",
            "builtin:random",
            "builtin:random",
            "builtin:fuzz",
            "builtin:fuzz",
            "builtin:wallhug",
            "builtin:straight",
            "--width",
            "32",
            "--height",
            "32",
            "-r",
            "1",
            "-o",
            "eight",
        ],
        &["play", "builtin:fuzz", "builtin:floodfill", "--map", "arena.txt", "-r", "2", "-o", "map"],
        &[
            "play",
            "builtin:wallhug",
            "builtin:wallhug",
            "--max-ticks",
            "5",
            "--rock-density",
            "0",
            "-r",
            "1",
            "-o",
            "cap",
        ],
    ];
    let mut out = vec![];
    for args in runs {
        run_cli(args, tmp.path());
        out.extend(replays_in(&tmp.path().join(args.last().unwrap())));
    }
    out.extend(replays_in(&repo().join("lightcycles-core/tests/golden-replays")));
    out
}

#[test]
fn replays_fit_their_schema_and_damaged_ones_do_not() {
    let validator = schema("replay.schema.json");
    let all = replays();
    assert!(all.len() >= 30, "{} replays", all.len());
    for (name, replay) in &all {
        check(&validator, name, replay);
    }
    println!("{} replays fit docs/schema/replay.schema.json", all.len());

    let good = all[0].1.clone();
    let long = "x".repeat(65);
    let mutations: Vec<Mutation> = vec![
        (
            "no winner",
            Box::new(|v| {
                v.as_object_mut().unwrap().remove("winner");
            }),
        ),
        ("an extra key", Box::new(|v| v["comment"] = "hi".into())),
        ("another format", Box::new(|v| v["format"] = "lightcycles-replay/2".into())),
        ("a board 7 wide", Box::new(|v| v["width"] = 7.into())),
        ("9 players", Box::new(|v| v["num_players"] = 9.into())),
        ("a negative seed", Box::new(|v| v["seed"] = (-1).into())),
        ("rock density 26", Box::new(|v| v["config"]["rock_density"] = 26.into())),
        ("an unknown fault policy", Box::new(|v| v["config"]["fault_policy"] = "forgive".into())),
        ("a rock of three numbers", Box::new(|v| v["rocks"][0] = serde_json::json!([1, 2, 3]))),
        ("a start facing X", Box::new(|v| v["start"][0][2] = "X".into())),
        ("an unknown fault", Box::new(|v| v["faults"][0][1] = "late".into())),
        ("a line of 65 characters", Box::new(move |v| v["commands"][0][0] = long.clone().into())),
        ("alive as 2", Box::new(|v| v["frames"][0]["heads"][0][2] = 2.into())),
        (
            "a frame without dirs",
            Box::new(|v| {
                v["frames"][0].as_object_mut().unwrap().remove("dirs");
            }),
        ),
        ("no frames", Box::new(|v| v["frames"] = serde_json::json!([]))),
        ("placement 0", Box::new(|v| v["result"]["placements"][0] = 0.into())),
        ("a result with a score", Box::new(|v| v["result"]["score"] = 1.into())),
    ];
    for (what, mutate) in mutations {
        let mut bad = good.clone();
        mutate(&mut bad);
        assert_ne!(bad, good, "{what} changed nothing");
        assert!(!validator.is_valid(&bad), "the replay schema accepts a replay with {what}");
    }
}
