//! The command a bot process runs: `/bin/sh -c`, or `exec` when nothing
//! needs the shell.

use std::process::Command;

/// `/bin/sh -c COMMAND`, in the current directory; `/bin/sh -c 'exec
/// COMMAND'` when the command is a plain program with plain arguments
/// ([`is_plain`]), so that no shell stands between the host and the bot:
/// the bot is the process the host started (it gets the parent-death
/// signal, and EOF and signals reach it).
pub fn shell(command: &str) -> Command {
    let mut c = Command::new("/bin/sh");
    if is_plain(command) {
        c.arg("-c").arg(format!("exec {command}"));
    } else {
        c.arg("-c").arg(command);
    }
    c
}

/// Whether `command` is words of letters, digits and `_-./:,+@%=` only,
/// the first of them a program (not an assignment, a keyword or a
/// builtin): then `exec COMMAND` means the same as `COMMAND`.
pub fn is_plain(command: &str) -> bool {
    const NOT_PROGRAMS: &[&str] = &[
        "exec", "if", "then", "else", "elif", "fi", "do", "done", "case", "esac", "while", "until", "for", "in",
        "exit", "cd", "read", "export", "set", "unset", "eval", ".", "source", "trap", "wait", "shift", "return",
        "break", "continue", "ulimit", "umask", "alias", "readonly", "local", "times", ":", "command", "builtin",
        "type", "hash", "getopts", "jobs", "fg", "bg", "kill",
    ];
    let words: Vec<&str> = command.split([' ', '\t']).filter(|w| !w.is_empty()).collect();
    let Some(first) = words.first() else { return false };
    words.iter().all(|w| w.chars().all(|c| c.is_ascii_alphanumeric() || "_-./:,+@%=".contains(c)))
        && !first.contains('=')
        && !NOT_PROGRAMS.contains(first)
}
