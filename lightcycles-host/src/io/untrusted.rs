//! Text that comes from a replay file (bot names, answer lines, file names),
//! from a bot (its spec, its errors, its stderr) or from a file a user names
//! is untrusted: it must never steer a terminal nor escape its place in a
//! page. This module is the one place where it is escaped: every message
//! printed to the terminal goes through [`terminal_lines`] (or
//! [`terminal_text`]), every line written to a bot's log through
//! [`log_bytes`], every name put in a page's markup through [`html_text`].

use serde::Serialize;

/// Whether `c` could move the cursor, change colours, reorder text or hide
/// itself on a terminal: control characters (C0, DEL, C1), bidirectional
/// controls, zero-width and line/paragraph separators.
fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}')
}

/// `s` with every unsafe character written as `\u{…}`, so that it prints as
/// visible text and nothing else.
pub fn terminal_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if is_unsafe(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// `s` line by line through [`terminal_text`]: its own line breaks are
/// kept, every other control character is shown as an escape. For messages
/// that quote files, names and lines from anyone.
pub fn terminal_lines(s: &str) -> String {
    s.split('\n').map(terminal_text).collect::<Vec<_>>().join("\n")
}

/// Bytes a bot wrote (its stderr), as they may be kept in its log and later
/// shown by `cat`: read as UTF-8 (a byte that is not is shown as U+FFFD),
/// line breaks and tabs kept, every other unsafe character escaped.
pub fn log_bytes(bytes: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(bytes);
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c != '\n' && c != '\t' && is_unsafe(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out.into_bytes()
}

/// `s` quoted, with quotes and backslashes escaped as well: an answer line
/// shown exactly, even when it is empty or all spaces.
pub fn terminal_quoted(s: &str) -> String {
    let mut out = String::from("\"");
    for c in terminal_text(s).chars() {
        if c == '"' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// `s` cut to at most `max` characters, with `…` marking a cut.
pub fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// `s` as HTML text, safe inside an element or a quoted attribute: `&`,
/// `<`, `>`, `"` and `'` are written as character references, and unsafe
/// characters as visible `\u{…}` (as on a terminal), so a name can neither
/// open markup nor reorder the text around it.
pub fn html_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if is_unsafe(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// `value` as JSON that can sit inside a `<script>` element: `<`, `>` and
/// `&` are written as `\u` escapes so the text can neither close the element
/// nor open a comment, and U+2028/U+2029 as well for older script parsers.
/// These characters only occur inside JSON strings, where the escapes mean
/// the same characters.
pub fn json_for_script<T: Serialize + ?Sized>(value: &T) -> String {
    let json = serde_json::to_string(value).expect("view data always serialises");
    let mut out = String::with_capacity(json.len() + json.len() / 16);
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_text_cannot_open_markup_or_leave_an_attribute() {
        assert_eq!(html_text("<b a=\"1\" c='2'>&</b>"), "&lt;b a=&quot;1&quot; c=&#39;2&#39;&gt;&amp;&lt;/b&gt;");
        assert_eq!(html_text("a\u{202e}b\u{1b}"), "a\\u{202e}b\\u{1b}");
        assert_eq!(html_text("floodfill ± é"), "floodfill ± é");
    }

    #[test]
    fn control_characters_become_visible_escapes() {
        assert_eq!(terminal_text("bot_a"), "bot_a");
        assert_eq!(terminal_text("é漢字 ok"), "é漢字 ok");
        assert_eq!(terminal_text("\x1b[2J\x07"), "\\u{1b}[2J\\u{7}");
        assert_eq!(terminal_text("a\u{9b}31m"), "a\\u{9b}31m", "C1 CSI");
        assert_eq!(terminal_text("abc\u{202e}fed"), "abc\\u{202e}fed", "right-to-left override");
        assert_eq!(terminal_text("a\nb\rc\td\u{7f}"), "a\\u{a}b\\u{d}c\\u{9}d\\u{7f}");
        assert_eq!(terminal_text("x\u{2028}y\u{200b}z"), "x\\u{2028}y\\u{200b}z");
        for s in ["\x1b]0;title\x07", "\u{85}\u{9d}", "\u{2066}\u{feff}"] {
            assert!(terminal_text(s).chars().all(|c| !is_unsafe(c)), "{s:?}");
        }
    }

    #[test]
    fn lines_keep_their_breaks_and_nothing_else() {
        assert_eq!(terminal_lines("a\x1b]0;t\x07\nb\rc"), "a\\u{1b}]0;t\\u{7}\nb\\u{d}c");
        assert_eq!(log_bytes(b"x\x1b[2J\ty\n\xc2\x9b\xff"), "x\\u{1b}[2J\ty\n\\u{9b}\u{fffd}".as_bytes());
    }

    #[test]
    fn quoted_lines_show_their_edges_and_quotes() {
        assert_eq!(terminal_quoted("n"), "\"n\"");
        assert_eq!(terminal_quoted(""), "\"\"");
        assert_eq!(terminal_quoted("say \"N\"\x1b"), "\"say \\\"N\\\"\\u{1b}\"");
    }

    #[test]
    fn clip_cuts_on_characters() {
        assert_eq!(clip("short", 10), "short");
        assert_eq!(clip("ééééé", 5), "ééééé");
        assert_eq!(clip("éééééé", 5), "éééé…");
    }

    #[test]
    fn json_in_a_script_cannot_close_it() {
        let hostile = ["</script><script>alert(1)</script>", "<!--", "a & b > c", "\u{2028}\u{2029}"];
        let json = json_for_script(&hostile);
        for bad in ["<", ">", "&", "\u{2028}", "\u{2029}"] {
            assert!(!json.contains(bad), "{bad:?} in {json}");
        }
        let back: Vec<String> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, hostile, "the escapes mean the same text");
    }
}
