//! A map file of the 2010 format as a run holds it: its text, recorded in
//! every replay, and the map it describes, read once.

use alloc::string::String;

use super::format_2010::{parse_2010, MapParseError};
use super::Map;
use crate::config::{Config, FaultPolicy};

/// A map file of the 2010 Google AI Challenge (docs/RULES.md section 9), loaded
/// once for a whole run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapFile {
    /// The file's text, recorded in every replay.
    pub text: String,
    /// The map it describes.
    pub map: Map,
}

impl MapFile {
    /// Parses a map file's text.
    pub fn parse(text: String) -> Result<MapFile, MapParseError> {
        let map = parse_2010(&text)?;
        Ok(MapFile { text, map })
    }

    /// The configuration of a game on this map: its size, 2 players, no
    /// generated rocks (the map brings its own).
    pub fn config(&self, max_ticks: u32, fault_policy: FaultPolicy) -> Config {
        Config {
            width: self.map.width,
            height: self.map.height,
            players: self.map.starts.len() as u32,
            max_ticks,
            rock_density: 0,
            fault_policy,
        }
    }
}
