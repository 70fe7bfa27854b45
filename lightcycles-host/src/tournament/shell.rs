//! Commands as a shell reads them: the command that resumes an
//! interrupted tournament, and the hosting flags of the command that plays
//! one of its games again.

use crate::bot::adapter::Hosting;
use crate::bot::process::sandbox;

/// `words` as one shell command line, each word quoted when a shell would
/// change it, with `--resume` added when it is not there.
pub fn resume_command(words: &[String]) -> String {
    let mut quoted: Vec<String> = words.iter().map(|w| shell_quote(w)).collect();
    if !words.iter().any(|w| w == "--resume") {
        quoted.push("--resume".into());
    }
    quoted.join(" ")
}

/// A word as a POSIX shell reads it back: as it is when it holds only
/// characters no shell treats specially, else in single quotes (a quote
/// inside written `'\''`).
pub fn shell_quote(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-.,:/=@%+".contains(c);
    if !word.is_empty() && word.chars().all(plain) && !word.starts_with('=') {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// The hosting flags of `lightcycles play` for a run hosted as `hosting`,
/// leaving out those at their defaults (and the hosting of plugins when no
/// bot is a plugin).
pub fn hosting_flags(hosting: &Hosting, plugins: bool) -> Vec<String> {
    let mut flags = Vec::new();
    if hosting.sandbox.memory_mb != sandbox::DEFAULT_MEMORY_MB {
        flags.extend(["--bot-memory-mb".to_string(), hosting.sandbox.memory_mb.to_string()]);
    }
    if hosting.sandbox.processes != sandbox::DEFAULT_PROCESSES {
        flags.extend(["--bot-processes".to_string(), hosting.sandbox.processes.to_string()]);
    }
    if !hosting.isolate && plugins {
        flags.push("--in-process".to_string());
    }
    if let Some(fuel) = hosting.wasm.fuel_per_tick {
        flags.extend(["--fuel-per-tick".to_string(), fuel.to_string()]);
    }
    flags
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_quoted_only_when_a_shell_would_change_them() {
        assert_eq!(shell_quote("f=builtin:fuzz"), "f=builtin:fuzz");
        assert_eq!(shell_quote("--map=maps/a-1.txt"), "--map=maps/a-1.txt");
        assert_eq!(shell_quote("b=cmd:./bot --depth 3"), "'b=cmd:./bot --depth 3'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote(""), "''");
        assert_eq!(shell_quote("=x"), "'=x'");
        assert_eq!(shell_quote("a$b"), "'a$b'");
    }
}
