//! `lightcycles bench`: the engines side by side, then what each bot
//! adapter costs per tick.

use std::io::Write;
use std::time::Duration;

use crate::bench::adapters::{self, Budget};
use crate::cli::{stdout_failure, write_out, BenchArgs, Failure};

pub(crate) fn run(args: &BenchArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let time = Duration::from_millis(args.measure_ms);
    crate::bench::run(out, time).map_err(stdout_failure)?;
    let host = std::env::current_exe().ok();
    let figures = adapters::measure(Budget::Time(time), host.as_deref());
    let text = format!(
        "\nBot adapters: the time of one tick through each, against a bot that answers at once (48 × 36):\n\n{}",
        adapters::table(&figures)
    );
    write_out(out, &text).map_err(stdout_failure)
}
