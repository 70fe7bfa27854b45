//! The probe of every bot before game 0 of `play`, reported as it is made.

/// Probes every bot once before game 0 ([`crate::game::preflight`]) and
/// reports each that cannot play on stderr, at once; returns their names.
pub(crate) fn preflight(
    args: &[String],
    entrants: &[crate::bot::spec::Entrant],
    hosting: &crate::bot::adapter::Hosting,
    config: &lightcycles_core::Config,
    seed: u64,
    map_file: Option<&crate::game::match_loop::MapFile>,
    limits: &crate::game::match_loop::Limits,
) -> Vec<String> {
    use crate::game::preflight;
    let Some(position) = preflight::first_position(config, seed, map_file) else { return Vec::new() };
    let names: Vec<String> = entrants.iter().map(|e| e.name.clone()).collect();
    let broken = preflight::probe(args, &names, hosting, &position, limits);
    for bot in &broken {
        eprint!("error: {}", bot.report());
    }
    broken.into_iter().map(|b| crate::io::untrusted::terminal_text(&b.name)).collect()
}
