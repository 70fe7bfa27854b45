//! `lightcycles`: play bots, verify replays, show maps. See `lightcycles --help`.

fn main() -> std::process::ExitCode {
    lightcycles_host::cli::main()
}
