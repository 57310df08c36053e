//! Reading the text of an input file the way every parser here does.

/// The lines of `text`, ended by `\n`, `\r\n` or a lone `\r` (old Mac files), without a
/// leading UTF-8 byte-order mark: line `k` of what a user's editor shows is element `k - 1`.
pub fn source_lines(text: &str) -> Vec<&str> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        match rest.find(['\n', '\r']) {
            Some(end) => {
                lines.push(&rest[..end]);
                let width = match rest[end..].starts_with("\r\n") {
                    true => 2,
                    false => 1,
                };
                rest = &rest[end + width..];
            }
            None => {
                lines.push(rest);
                rest = "";
            }
        }
    }
    lines
}

/// Characters of input text an error message quotes at most; a longer text is cut, `...` after.
pub const QUOTE_LIMIT: usize = 40;

/// Whether `c` must not reach a terminal as it is: a control character (tab, carriage return,
/// escape, ...), or an invisible one that reorders or hides text (zero-width, bidirectional
/// overrides, line and paragraph separators, the byte-order mark).
fn unprintable(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2060}'..='\u{206f}' | '\u{feff}')
}

/// `text` fit to be echoed on a terminal whole: every unprintable character escaped the way
/// Rust writes it (`\t`, `\u{7}`, `\u{202e}`), so that it cannot split a line or drive the
/// terminal.
pub fn shown(text: &str) -> String {
    shown_keeping(text, &[])
}

/// [`shown`], but the characters in `kept` stay as they are (a tool's log keeps its `\n` and
/// `\t`).
pub fn shown_keeping(text: &str, kept: &[char]) -> String {
    text.chars()
        .map(|c| match unprintable(c) && !kept.contains(&c) {
            true => c.escape_default().to_string(),
            false => c.to_string(),
        })
        .collect()
}

/// `text` as an error message quotes it: [`shown`], cut after [`QUOTE_LIMIT`] characters; an
/// empty text as `''`.
pub fn quoted(text: &str) -> String {
    if text.is_empty() {
        // An empty value is shown, not left as a gap between two spaces.
        return "''".into();
    }
    let cut: String = text.chars().take(QUOTE_LIMIT).collect();
    match text.chars().nth(QUOTE_LIMIT) {
        Some(_) => shown(&cut) + "...",
        None => shown(&cut),
    }
}

/// The column, from 1 and counted in characters, where `part` starts in `line`, when `part` is
/// a slice of `line` (a part at the very end of the line is one past its last character); a
/// part from elsewhere counts as the line's start.
pub fn column(line: &str, part: &str) -> usize {
    let start = line.as_ptr() as usize;
    let at = part.as_ptr() as usize;
    match at.checked_sub(start) {
        Some(offset) if offset <= line.len() && line.is_char_boundary(offset) => {
            line[..offset].chars().count() + 1
        }
        _ => 1,
    }
}

/// `count` and `noun`, plural when `count` is not one: `1 point`, `2 points`.
pub fn plural(count: impl Into<u64>, noun: &str) -> String {
    match count.into() {
        1 => format!("1 {noun}"),
        n => format!("{n} {noun}s"),
    }
}

/// A rate per second rounded for people: `2.7/s`, `193 k/s`, `1.53 M/s`.
pub fn rate(per_second: f64) -> String {
    let (value, unit) = match per_second {
        r if r >= 1e6 => (r / 1e6, " M"),
        r if r >= 1e4 => (r / 1e3, " k"),
        r => (r, ""),
    };
    let digits = match value {
        v if v >= 100.0 => 0,
        v if v >= 10.0 => 1,
        _ => 2,
    };
    format!("{value:.digits$}{unit}/s")
}

#[cfg(test)]
mod tests {
    use super::{column, plural, quoted, rate, source_lines, QUOTE_LIMIT};

    #[test]
    fn every_line_ending_counts_one_line_and_a_bom_is_dropped() {
        assert_eq!(source_lines("a\nb\n"), ["a", "b"]);
        assert_eq!(source_lines("a\r\nb\r\n"), ["a", "b"]);
        assert_eq!(source_lines("a\rb\r"), ["a", "b"]);
        assert_eq!(source_lines("\u{feff}a\n\nb"), ["a", "", "b"]);
        assert!(source_lines("").is_empty());
    }

    #[test]
    fn quoting_escapes_what_a_terminal_would_obey_and_cuts_long_text() {
        assert_eq!(quoted("r5"), "r5");
        assert_eq!(quoted("a\tb\u{7}\u{1b}[31m"), "a\\tb\\u{7}\\u{1b}[31m");
        assert_eq!(quoted("x\u{202e}y\u{feff}é"), "x\\u{202e}y\\u{feff}é");
        let long = "9".repeat(1000);
        assert_eq!(quoted(&long), format!("{}...", "9".repeat(QUOTE_LIMIT)));
    }

    #[test]
    fn columns_count_characters_from_one() {
        let line = "é\tc1: mov".to_string();
        assert_eq!(column(&line, &line[3..]), 3);
        assert_eq!(column(&line, &line[line.len()..]), line.chars().count() + 1);
        assert_eq!(column(&line[2..], &line[..2]), 1, "a part before the line");
    }

    #[test]
    fn plurals_and_rates_read_as_people_write_them() {
        assert_eq!(plural(1u64, "point"), "1 point");
        assert_eq!(plural(3u64, "point"), "3 points");
        assert_eq!(rate(2.7494), "2.75/s");
        assert_eq!(rate(193_412.0), "193 k/s");
        assert_eq!(rate(1_530_000.0), "1.53 M/s");
    }
}
