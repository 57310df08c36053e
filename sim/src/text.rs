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

#[cfg(test)]
mod tests {
    use super::source_lines;

    #[test]
    fn every_line_ending_counts_one_line_and_a_bom_is_dropped() {
        assert_eq!(source_lines("a\nb\n"), ["a", "b"]);
        assert_eq!(source_lines("a\r\nb\r\n"), ["a", "b"]);
        assert_eq!(source_lines("a\rb\r"), ["a", "b"]);
        assert_eq!(source_lines("\u{feff}a\n\nb"), ["a", "", "b"]);
        assert!(source_lines("").is_empty());
    }
}
