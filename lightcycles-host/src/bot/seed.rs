//! A bot's own seed, from the game's seed and its seat: the built-in bots
//! and the plugins draw from it, never from the map generator.

use lightcycles_core::SplitMix64;

/// The seed of a built-in bot's own generator: the game seed and the seat
/// mixed through SplitMix64 outputs, so that neighbouring seeds and seats
/// give unrelated streams, and none equals the map generator's stream.
pub fn bot_seed(game_seed: u64, seat: usize) -> u64 {
    // "botseed!" in ASCII: keeps the bot stream apart from the map's.
    const SALT: u64 = 0x626F_7473_6565_6421;
    let game = SplitMix64::new(game_seed ^ SALT).next_u64();
    SplitMix64::new(game ^ (seat as u64).wrapping_mul(0xD1B5_4A32_D192_ED03)).next_u64()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn bot_seeds_differ_by_seed_and_seat_and_from_the_map_stream() {
        let mut seen = HashSet::new();
        for seed in 0..200u64 {
            for seat in 0..8 {
                let s = bot_seed(seed, seat);
                assert!(seen.insert(s), "seed {seed} seat {seat} repeats a bot seed");
                assert_ne!(s, seed);
                assert_ne!(SplitMix64::new(s).next_u64(), SplitMix64::new(seed).next_u64());
            }
        }
        assert_eq!(bot_seed(5, 1), bot_seed(5, 1));
    }
}
