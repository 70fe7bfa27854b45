//! How the bench times an operation: batches calibrated to the time given,
//! the median of several.

use std::hint::black_box;
use std::time::{Duration, Instant};

/// How long each measure runs by default (per engine).
pub const DEFAULT_TIME: Duration = Duration::from_millis(1500);

/// Nanoseconds per call of `op`: batches sized to about a tenth of `time`,
/// the median of them.
pub(crate) fn per_op<T>(time: Duration, mut op: impl FnMut() -> T) -> f64 {
    per_op_seeded(time, |_| op())
}

/// As [`per_op`], passing a fresh seed (0, 1, 2, …) to each call.
pub(crate) fn per_op_seeded<T>(time: Duration, mut op: impl FnMut(u64) -> T) -> f64 {
    let mut seed = 0u64;
    let mut batch = |iterations: u64| {
        let start = Instant::now();
        for _ in 0..iterations {
            black_box(op(seed));
            seed = seed.wrapping_add(1);
        }
        start.elapsed()
    };
    // Calibrate: double until a batch takes a tenth of the time.
    let slice = time / 10;
    let mut iterations = 1u64;
    loop {
        let took = batch(iterations);
        if took >= slice / 4 || iterations >= 1 << 40 {
            let per = took.as_secs_f64() / iterations as f64;
            iterations = ((slice.as_secs_f64() / per.max(1e-12)) as u64).max(1);
            break;
        }
        iterations *= 2;
    }
    let mut samples: Vec<f64> = (0..7).map(|_| batch(iterations).as_nanos() as f64 / iterations as f64).collect();
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}
