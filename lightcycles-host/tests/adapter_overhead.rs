//! The per-tick cost of each bot adapter, printed as a table (the figures
//! of docs/performance.md, "What an adapter costs"). Ignored by default: it
//! measures, it checks nothing that a plain test does not. Run it with
//!
//! ```sh
//! cargo test --release -p lightcycles-host --test adapter_overhead -- --ignored --nocapture
//! ```

#[test]
#[ignore = "a measurement: run with --ignored --nocapture"]
fn adapter_overhead_per_tick() {
    let ticks = std::env::var("LIGHTCYCLES_BENCH_TICKS").ok().and_then(|t| t.parse().ok()).unwrap_or(2000);
    let host = std::path::Path::new(env!("CARGO_BIN_EXE_lightcycles"));
    let figures =
        lightcycles_host::bench::adapters::measure(lightcycles_host::bench::adapters::Budget::Ticks(ticks), Some(host));
    println!("{} ticks each on the default 48 × 36 board:", ticks);
    print!("{}", lightcycles_host::bench::adapters::table(&figures));
    assert!(figures.iter().all(Result::is_ok));
}
