//! Reading an input file (a program, a trace, a shader, a configuration): bounded in size,
//! UTF-8 text, and every failure one line naming the flag and the file.

use std::io::Read;

pub use crate::text::{shown, shown_keeping};

/// The largest input file read, in bytes (64 MiB: ten times the longest program a run
/// accepts). Larger files are refused before they are read.
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

/// The text of the file `path` given to `flag`, or the one-line error
/// `invalid value <path> for <flag>: <why>`.
pub fn read_text(path: &str, flag: &str) -> Result<String, String> {
    let bad = |why: String| format!("invalid value {} for {flag}: {why}", shown(path));
    let file = std::fs::File::open(path).map_err(|e| bad(e.to_string()))?;
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(bad("it is a directory, not a file".into()));
    }
    let mut bytes = Vec::new();
    // One byte more than allowed tells a file at the limit from one past it, whatever the
    // file is (a pipe, a device that never ends).
    file.take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| bad(e.to_string()))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(bad(format!(
            "larger than {} MiB, the most an input file may be",
            MAX_INPUT_BYTES >> 20
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        bad(format!(
            "not UTF-8 text (byte {} is not valid UTF-8)",
            e.utf8_error().valid_up_to()
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::{read_text, shown};

    #[test]
    fn a_directory_binary_or_missing_file_is_one_line_naming_flag_and_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().to_str().unwrap();
        let e = read_text(path, "--trace").unwrap_err();
        assert!(e.contains("--trace") && e.contains("directory"), "{e}");
        let binary = dir.path().join("b");
        std::fs::write(&binary, [b'a', 0xff, 0xfe]).unwrap();
        let e = read_text(binary.to_str().unwrap(), "--program").unwrap_err();
        assert!(e.contains("byte 1") && !e.contains('\n'), "{e}");
        let e = read_text("/nonexistent/x\u{1b}[31m", "--shader").unwrap_err();
        assert!(!e.contains('\u{1b}') && e.contains("--shader"), "{e}");
    }

    #[test]
    fn control_characters_are_escaped_and_the_rest_kept() {
        assert_eq!(shown("a\tb\u{1b}é"), "a\\tb\\u{1b}é");
        assert_eq!(super::shown_keeping("a\tb\n", &['\n']), "a\\tb\n");
    }
}
