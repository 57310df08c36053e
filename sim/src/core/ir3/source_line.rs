//! A source line of ir3 text and its number, for errors.

use crate::core::program::ParseError;
use grfgen_support::text::column;

/// A source line and its number, for errors.
#[derive(Clone, Copy, Debug)]
pub(super) struct Line<'a> {
    /// The line's number, from 1.
    pub number: usize,
    /// The whole line as written, prefix included.
    pub text: &'a str,
}

impl Line<'_> {
    /// An error at `at`, a slice of the line (its column counts from the line's start).
    pub(super) fn error(&self, at: &str, message: String) -> ParseError {
        ParseError {
            line: self.number,
            column: column(self.text, at),
            message,
        }
    }
}
