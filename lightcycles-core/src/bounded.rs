//! Lists of a replay read with a ceiling on their length.
//!
//! A replay file is untrusted. Its text is capped by whoever reads it, but
//! a list of empty lists (`[[],[],…]`) costs three bytes of text and 24
//! bytes or more of memory per entry: a file of a few hundred megabytes
//! could ask for gigabytes. Every list of a replay has a length the rules
//! bound (players, cells, ticks), so a longer one is refused at its first
//! entry past the bound, and memory stays within a small multiple of the
//! text.

use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

use serde::de::{DeserializeSeed, Deserializer, Error, SeqAccess, Visitor};
use serde::Deserialize;

/// A list of at most `max` entries of `T`; `what` names it in errors.
pub(crate) struct AtMost<T> {
    max: usize,
    what: &'static str,
    entries: PhantomData<fn() -> T>,
}

impl<T> AtMost<T> {
    pub(crate) const fn new(max: usize, what: &'static str) -> Self {
        AtMost { max, what, entries: PhantomData }
    }
}

impl<T> Clone for AtMost<T> {
    fn clone(&self) -> Self {
        AtMost::new(self.max, self.what)
    }
}

/// How each entry of a list is read: plainly, or as a bounded list itself.
pub(crate) trait Entry<'de> {
    /// The entry's type.
    type Value;
    /// Reads the next entry of `seq`, if any.
    fn next<A: SeqAccess<'de>>(&self, seq: &mut A) -> Result<Option<Self::Value>, A::Error>;
}

/// Entries read with their own `Deserialize`.
pub(crate) struct Plain<T>(PhantomData<fn() -> T>);

impl<'de, T: Deserialize<'de>> Entry<'de> for Plain<T> {
    type Value = T;
    fn next<A: SeqAccess<'de>>(&self, seq: &mut A) -> Result<Option<T>, A::Error> {
        seq.next_element()
    }
}

impl<'de, T: Deserialize<'de>> Entry<'de> for AtMost<T> {
    type Value = Vec<T>;
    fn next<A: SeqAccess<'de>>(&self, seq: &mut A) -> Result<Option<Vec<T>>, A::Error> {
        seq.next_element_seed(List { bound: self.clone(), entry: Plain(PhantomData) })
    }
}

/// A list with a bound and a way to read its entries.
pub(crate) struct List<E, T> {
    bound: AtMost<T>,
    entry: E,
}

impl<'de, E: Entry<'de>, T> Visitor<'de> for List<E, T> {
    type Value = Vec<E::Value>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: a list of at most {} entries", self.bound.what, self.bound.max)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::new();
        while let Some(value) = self.entry.next(&mut seq)? {
            if out.len() == self.bound.max {
                return Err(A::Error::custom(format_args!(
                    "{}: more than {} entries",
                    self.bound.what, self.bound.max
                )));
            }
            out.push(value);
        }
        Ok(out)
    }
}

impl<'de, E: Entry<'de>, T> DeserializeSeed<'de> for List<E, T> {
    type Value = Vec<E::Value>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_seq(self)
    }
}

/// Reads a list of at most `max` entries; `what` names it in errors.
pub(crate) fn list<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
    max: usize,
    what: &'static str,
) -> Result<Vec<T>, D::Error> {
    List { bound: AtMost::<T>::new(max, what), entry: Plain(PhantomData) }.deserialize(d)
}

/// Reads a list of at most `rows` lists of at most `columns` entries each.
pub(crate) fn rows<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
    rows: usize,
    columns: usize,
    what: &'static str,
) -> Result<Vec<Vec<T>>, D::Error> {
    List { bound: AtMost::<Vec<T>>::new(rows, what), entry: AtMost::<T>::new(columns, what) }.deserialize(d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::{String, ToString};

    #[derive(Debug, Deserialize, PartialEq)]
    struct Sample {
        #[serde(deserialize_with = "three")]
        short: Vec<u32>,
        #[serde(deserialize_with = "grid")]
        grid: Vec<Vec<u32>>,
    }

    fn three<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u32>, D::Error> {
        list(d, 3, "short")
    }

    fn grid<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Vec<u32>>, D::Error> {
        rows(d, 2, 2, "grid")
    }

    fn read(text: &str) -> Result<Sample, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }

    #[test]
    fn lists_up_to_the_bound_are_read() {
        let s = read(r#"{"short": [1, 2, 3], "grid": [[1, 2], []]}"#).unwrap();
        assert_eq!(s, Sample { short: [1, 2, 3].into(), grid: [[1, 2].to_vec(), [].to_vec()].into() });
    }

    #[test]
    fn a_longer_list_is_refused_at_the_entry_past_the_bound() {
        let e = read(r#"{"short": [1, 2, 3, 4], "grid": []}"#).unwrap_err();
        assert_eq!(e, "short: more than 3 entries at line 1 column 22");
        let e = read(r#"{"short": [], "grid": [[], [], []]}"#).unwrap_err();
        assert_eq!(e, "grid: more than 2 entries at line 1 column 34");
        let e = read(r#"{"short": [], "grid": [[1, 2, 3]]}"#).unwrap_err();
        assert_eq!(e, "grid: more than 2 entries at line 1 column 32");
        // Whatever the entries hold: the bound is checked before they are kept.
        let e = read(&("{\"short\": [".to_string() + &"7,".repeat(100_000) + "7]}")).unwrap_err();
        assert!(e.starts_with("short: more than 3 entries"), "{e}");
    }

    #[test]
    fn wrong_types_still_say_what_was_expected() {
        let e = read(r#"{"short": 5, "grid": []}"#).unwrap_err();
        assert!(e.contains("expected short: a list of at most 3 entries"), "{e}");
    }
}
