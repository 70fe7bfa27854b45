//! The names of directions, faults and fault policies in JSON: `"N"`,
//! `"timeout"`, `"straight"`, the same strings as on the command line.

use core::fmt;
use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::command::FaultKind;
use crate::config::FaultPolicy;
use crate::geometry::Dir;

macro_rules! named {
    ($ty:ty, $parse:expr, $expecting:literal) => {
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl Visitor<'_> for V {
                    type Value = $ty;
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str($expecting)
                    }
                    fn visit_str<E: de::Error>(self, v: &str) -> Result<$ty, E> {
                        let parse: fn(&str) -> Option<$ty> = $parse;
                        parse(v).ok_or_else(|| E::invalid_value(de::Unexpected::Str(v), &self))
                    }
                }
                d.deserialize_str(V)
            }
        }
    };
}

named!(Dir, Dir::from_letter, "\"N\", \"E\", \"S\" or \"W\"");
named!(FaultKind, |s| s.parse().ok(), "\"invalid\", \"timeout\" or \"crash\"");
named!(FaultPolicy, |s| s.parse().ok(), "\"straight\" or \"eliminate\"");
