//! A shard: the part of a tournament one machine plays (`--shard I/N`).
//!
//! Shard `I` of `N` plays the games whose index `k` has `k mod N = I`, with
//! the seeds and seats the schedule gives those indices, so the shards
//! together play exactly the games of the unsharded run, each once. Any
//! scheduler can hand out the shards: a Slurm job array, a Kubernetes
//! Indexed Job, GNU parallel, Ray (`lightcycles.distributed`).

use std::fmt;
use std::str::FromStr;

/// Shard `index` of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    index: u64,
    count: u64,
}

/// A `--shard` value that is not `I/N` with `0 <= I < N`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("--shard {given:?}: {problem}")]
pub struct ShardError {
    given: String,
    problem: &'static str,
}

impl Shard {
    /// Shard `index` of `count`, if `index < count`.
    pub fn new(index: u64, count: u64) -> Option<Shard> {
        (index < count).then_some(Shard { index, count })
    }

    /// `I`.
    pub fn index(self) -> u64 {
        self.index
    }

    /// `N`.
    pub fn count(self) -> u64 {
        self.count
    }

    /// Whether game `game` is this shard's.
    pub fn contains(self, game: u64) -> bool {
        game % self.count == self.index
    }

    /// How many of the games `0..total` are this shard's.
    pub fn games_of(self, total: u64) -> u64 {
        if total <= self.index {
            0
        } else {
            (total - self.index - 1) / self.count + 1
        }
    }

    /// The index of this shard's `nth` game (from 0).
    pub fn game(self, nth: u64) -> u64 {
        self.index + nth * self.count
    }

    /// The shard of game `game`.
    pub fn of(game: u64, count: u64) -> u64 {
        game % count
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let problem = |problem| ShardError { given: crate::io::untrusted::clip(s, 40), problem };
        let (i, n) = s.split_once('/').ok_or_else(|| problem("not I/N (shard I of N, counted from 0)"))?;
        let parse = |t: &str| t.trim().parse::<u64>().ok();
        let (Some(index), Some(count)) = (parse(i), parse(n)) else {
            return Err(problem("I and N must be whole numbers, as in 0/4"));
        };
        if count == 0 {
            return Err(problem("N, the number of shards, must be at least 1"));
        }
        Shard::new(index, count).ok_or_else(|| problem("I counts from 0, so it must be less than N (0/4 to 3/4)"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn shards_are_read_as_i_of_n_from_0() {
        assert_eq!("0/1".parse(), Ok(Shard { index: 0, count: 1 }));
        assert_eq!("3/4".parse(), Ok(Shard { index: 3, count: 4 }));
        assert_eq!("3/4".parse::<Shard>().unwrap().to_string(), "3/4");
        for (bad, says) in [
            ("4/4", "less than N"),
            ("1/0", "at least 1"),
            ("1", "not I/N"),
            ("a/2", "whole numbers"),
            ("-1/2", "whole"),
        ] {
            let e = bad.parse::<Shard>().unwrap_err().to_string();
            assert!(e.contains(says) && e.starts_with("--shard"), "{bad}: {e}");
        }
    }

    #[test]
    fn a_shard_has_every_nth_game() {
        let s = Shard::new(1, 3).unwrap();
        let games: Vec<u64> = (0..s.games_of(10)).map(|n| s.game(n)).collect();
        assert_eq!(games, [1, 4, 7]);
        assert_eq!(Shard::new(0, 3).unwrap().games_of(10), 4);
        assert_eq!(Shard::new(5, 8).unwrap().games_of(5), 0);
        assert_eq!(Shard::new(5, 8).unwrap().games_of(6), 1);
    }

    proptest! {
        /// The shards of a tournament play its games, each exactly once.
        #[test]
        fn shards_partition_the_games(total in 0u64..500, count in 1u64..20) {
            let mut seen = vec![0u32; total as usize];
            for index in 0..count {
                let s = Shard::new(index, count).unwrap();
                for n in 0..s.games_of(total) {
                    let g = s.game(n);
                    prop_assert!(g < total && s.contains(g) && Shard::of(g, count) == index);
                    seen[g as usize] += 1;
                }
            }
            prop_assert!(seen.iter().all(|&n| n == 1));
        }
    }
}
