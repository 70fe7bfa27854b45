//! Map pools, the opening books of a tournament: 2010 map files (`--maps
//! DIR|FILE|builtin:NAME…`), the named maps shipped with LightCycles, or
//! generated boards of several sizes and rock densities (`--sizes`,
//! `--densities`). Round `r` of the schedule is played on one map of the
//! pool ([`super::schedule::MapOrder`]), every game of the round on the same
//! one, so each map is played in every seat like a seed.

use std::path::{Path, PathBuf};

use lightcycles_core::{Config, FaultPolicy};

use super::results::{HeaderMap, HeaderMaps, POOL_INLINE};
use super::schedule::MapOrder;
use crate::game::match_loop::MapFile;
use crate::game::run::GameOptions;
use crate::io::input;

/// The named maps shipped with LightCycles (2010 format, two players),
/// each symmetric under a half turn so neither start is favoured.
pub const BUILTIN: [(&str, &str, &str); 6] = [
    ("open", "an empty walled room", include_str!("../../maps/open.txt")),
    ("rooms", "four rooms joined by doorways", include_str!("../../maps/rooms.txt")),
    ("corridors", "one long corridor folded back and forth", include_str!("../../maps/corridors.txt")),
    ("doors", "two halves joined by three doors", include_str!("../../maps/doors.txt")),
    ("ring", "a ring road around a block", include_str!("../../maps/ring.txt")),
    ("quadrants", "four quadrants joined at the centre", include_str!("../../maps/quadrants.txt")),
];

/// The text of the named map `name`.
pub fn builtin(name: &str) -> Option<&'static str> {
    BUILTIN.iter().find(|(n, _, _)| *n == name).map(|(_, _, text)| *text)
}

/// Reads a map argument: `builtin:NAME` or a 2010 map file. `flag` names
/// the flag in errors.
pub fn load_one(spec: &str, flag: &str) -> Result<MapFile, String> {
    if let Some(name) = spec.strip_prefix("builtin:") {
        let text = builtin(name).ok_or_else(|| {
            let names: Vec<&str> = BUILTIN.iter().map(|(n, _, _)| *n).collect();
            format!("{flag} {spec}: no such built-in map; the built-in maps are {}", names.join(", "))
        })?;
        return MapFile::parse(text.to_string()).map_err(|e| format!("{flag} {spec}: {e}"));
    }
    let path = Path::new(spec);
    let text = input::read_text(path, &input::MAP).map_err(|e| format!("{flag} {}: {e}", path.display()))?;
    MapFile::parse(text).map_err(|e| format!("{flag} {}: {e}", path.display()))
}

/// How rounds take the maps of a pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Order {
    /// In the order given.
    Sequential,
    /// Shuffled once, with the tournament's seed.
    Random,
}

impl std::str::FromStr for Order {
    type Err = String;

    /// `sequential` or `random`, as `--map-order` takes them.
    fn from_str(text: &str) -> Result<Order, String> {
        <Order as clap::ValueEnum>::from_str(text, false)
            .map_err(|_| format!("--map-order is sequential or random, not {text:?}"))
    }
}

/// One map of a pool: a 2010 map file, or a generated board.
#[derive(Clone, Debug)]
pub struct PoolMap {
    /// Its name: `builtin:NAME`, the file's path, or `WxH@D`.
    pub name: String,
    /// The configuration of a game on it.
    pub config: Config,
    /// The map file, or `None` for a board generated from each game's seed.
    pub map_file: Option<MapFile>,
}

/// A map pool and its order.
#[derive(Clone, Debug)]
pub struct MapPool {
    /// The maps, in the order given (a folder's files by name).
    pub maps: Vec<PoolMap>,
    /// How rounds take them.
    pub order: Order,
    /// Where in that order round 0 starts.
    pub start: usize,
}

impl MapPool {
    /// The pool of `specs` (each `builtin:NAME`, `builtin:all`, a 2010 map
    /// file, or a folder whose files are all 2010 maps, taken by name),
    /// games capped at `max_ticks` with `policy`.
    pub fn of_files(
        specs: &[String],
        order: Order,
        start: usize,
        max_ticks: u32,
        policy: FaultPolicy,
    ) -> Result<MapPool, String> {
        let mut maps = Vec::new();
        let mut add = |name: String, file: MapFile| {
            maps.push(PoolMap { config: file.config(max_ticks, policy), map_file: Some(file), name });
        };
        for spec in specs {
            if spec == "builtin:all" {
                for (name, _, _) in BUILTIN {
                    let spec = format!("builtin:{name}");
                    add(spec.clone(), load_one(&spec, "--maps")?);
                }
            } else if Path::new(spec).is_dir() {
                let mut files: Vec<PathBuf> = std::fs::read_dir(spec)
                    .map_err(|e| format!("--maps {spec}: cannot list the folder: {e}"))?
                    .filter_map(|entry| entry.ok().map(|e| e.path()))
                    .filter(|p| p.is_file())
                    .collect();
                files.sort();
                if files.is_empty() {
                    return Err(format!("--maps {spec}: the folder holds no map files"));
                }
                for file in files {
                    let name = file.display().to_string();
                    add(name.clone(), load_one(&name, "--maps")?);
                }
            } else {
                add(spec.clone(), load_one(spec, "--maps")?);
            }
        }
        MapPool::new(maps, order, start)
    }

    /// The pool of generated boards: every size of `sizes` with every
    /// density of `densities`, sizes first, on the rules of `base`.
    pub fn generated(
        sizes: &[(u32, u32)],
        densities: &[u32],
        base: Config,
        order: Order,
        start: usize,
    ) -> Result<MapPool, String> {
        let mut maps = Vec::new();
        for &(width, height) in sizes {
            for &rock_density in densities {
                let config = Config { width, height, rock_density, ..base };
                config.validate().map_err(|e| format!("--sizes/--densities {width}x{height}@{rock_density}: {e}"))?;
                maps.push(PoolMap { name: format!("{width}x{height}@{rock_density}"), config, map_file: None });
            }
        }
        MapPool::new(maps, order, start)
    }

    fn new(maps: Vec<PoolMap>, order: Order, start: usize) -> Result<MapPool, String> {
        if maps.is_empty() {
            return Err("the map pool is empty".into());
        }
        Ok(MapPool { maps, order, start })
    }

    /// Refuses a pool whose maps have fewer or more starts than `players`.
    pub fn check_players(&self, players: usize) -> Result<(), String> {
        for m in &self.maps {
            if m.config.players as usize != players {
                return Err(format!(
                    "--maps {}: the map has starts for {} bots, but the games have {players} seats",
                    m.name, m.config.players
                ));
            }
        }
        Ok(())
    }

    /// The order rounds take the maps in, for a tournament seeded `seed`.
    pub fn map_order(&self, seed: u64) -> MapOrder {
        order_of_header(&self.header(), seed)
    }

    /// The pool as the results header records it.
    /// A pool whose files hold more than [`POOL_INLINE`] bytes of text is
    /// recorded by name and SHA-256, not text.
    pub fn header(&self) -> HeaderMaps {
        let text: usize = self.maps.iter().filter_map(|m| m.map_file.as_ref()).map(|f| f.text.len()).sum();
        let inline = text <= POOL_INLINE;
        HeaderMaps {
            maps: self
                .maps
                .iter()
                .map(|m| HeaderMap {
                    name: m.name.clone(),
                    text: m.map_file.as_ref().filter(|_| inline).map(|f| f.text.clone()),
                    sha256: m.map_file.as_ref().filter(|_| !inline).map(|f| sha256_hex(&f.text)),
                    generated: m.map_file.is_none().then_some([m.config.width, m.config.height, m.config.rock_density]),
                })
                .collect(),
            order: match self.order {
                Order::Sequential => "sequential".into(),
                Order::Random => "random".into(),
            },
            start: self.start,
        }
    }

    /// `base` with the board of map `index`.
    pub fn options(&self, base: &GameOptions, index: usize) -> GameOptions {
        let m = &self.maps[index];
        GameOptions { config: m.config, map_file: m.map_file.clone(), ..base.clone() }
    }

    /// The flags of `lightcycles play` that play on map `index`.
    pub fn flags(&self, index: usize) -> Vec<String> {
        let m = &self.maps[index];
        match &m.map_file {
            Some(_) => vec!["--map".into(), m.name.clone()],
            None => vec![
                "--width".into(),
                m.config.width.to_string(),
                "--height".into(),
                m.config.height.to_string(),
                "--rock-density".into(),
                m.config.rock_density.to_string(),
            ],
        }
    }
}

/// The order rounds take the maps of a results header's pool in, for a
/// tournament seeded `seed` (what `tournament merge` reads back).
pub fn order_of_header(maps: &HeaderMaps, seed: u64) -> MapOrder {
    if maps.order == "random" {
        MapOrder::random(maps.maps.len(), maps.start, seed)
    } else {
        MapOrder::sequential(maps.maps.len(), maps.start)
    }
}

/// Reads `WxH` sizes separated by commas.
pub fn parse_sizes(text: &str) -> Result<Vec<(u32, u32)>, String> {
    text.split(',')
        .map(|part| {
            let (w, h) = part.trim().split_once(['x', 'X']).ok_or_else(|| format!("--sizes: {part:?} is not WxH"))?;
            let n = |s: &str| s.trim().parse::<u32>().map_err(|_| format!("--sizes: {part:?} is not WxH"));
            Ok((n(w)?, n(h)?))
        })
        .collect()
}

/// The SHA-256 of `text`, in lower-case hex.
fn sha256_hex(text: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `b` can be reached from `a` over empty cells (a plain BFS).
    fn joined(m: &lightcycles_core::Map, a: (usize, usize), b: (usize, usize)) -> bool {
        let (w, h) = (m.width as usize, m.height as usize);
        let mut seen = vec![false; w * h];
        let mut queue = std::collections::VecDeque::from([a]);
        seen[a.1 * w + a.0] = true;
        while let Some((x, y)) = queue.pop_front() {
            if (x, y) == b {
                return true;
            }
            let next = [(x.wrapping_sub(1), y), (x + 1, y), (x, y.wrapping_sub(1)), (x, y + 1)];
            for (nx, ny) in next {
                if nx < w && ny < h && !m.rocks[ny * w + nx] && !seen[ny * w + nx] {
                    seen[ny * w + nx] = true;
                    queue.push_back((nx, ny));
                }
            }
        }
        false
    }

    #[test]
    fn a_map_hash_is_the_sha256_of_its_text() {
        assert_eq!(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    #[test]
    fn every_builtin_map_parses_is_symmetric_and_joins_its_starts() {
        for (name, _, text) in BUILTIN {
            let file = load_one(&format!("builtin:{name}"), "--maps").unwrap();
            let m = &file.map;
            assert_eq!(m.starts.len(), 2, "{name}");
            let (w, h) = (m.width as usize, m.height as usize);
            for y in 0..h {
                for x in 0..w {
                    assert_eq!(m.rocks[y * w + x], m.rocks[(h - 1 - y) * w + (w - 1 - x)], "{name} at {x},{y}");
                }
            }
            let (a, b) = (m.starts[0].pos, m.starts[1].pos);
            assert_eq!((a.x as usize, a.y as usize), (w - 1 - b.x as usize, h - 1 - b.y as usize), "{name}");
            assert!(joined(m, (a.x as usize, a.y as usize), (b.x as usize, b.y as usize)), "{name}: starts apart");
            assert!(text.ends_with('\n'));
        }
    }

    #[test]
    fn unknown_names_and_bad_sizes_say_what_is_wrong() {
        let e = load_one("builtin:nope", "--maps").unwrap_err();
        assert!(e.contains("no such built-in map") && e.contains("quadrants"), "{e}");
        assert_eq!(parse_sizes("32x24, 48X36").unwrap(), [(32, 24), (48, 36)]);
        assert!(parse_sizes("32").unwrap_err().contains("not WxH"));
        let e = MapPool::generated(&[(7, 7)], &[0], Config::default(), Order::Sequential, 0).unwrap_err();
        assert!(e.contains("7x7@0"), "{e}");
    }

    #[test]
    fn a_generated_pool_takes_every_size_with_every_density() {
        let pool = MapPool::generated(&[(20, 16), (32, 24)], &[0, 8], Config::default(), Order::Sequential, 1).unwrap();
        let names: Vec<&str> = pool.maps.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["20x16@0", "20x16@8", "32x24@0", "32x24@8"]);
        assert_eq!(pool.map_order(0).map_of(0), 1);
        assert_eq!(pool.flags(3), ["--width", "32", "--height", "24", "--rock-density", "8"]);
    }
}
