//! A progress line on standard error, shown only on a terminal.

use std::io::{IsTerminal, Write};

/// Reports cycles done out of a total, in place, when standard error is a terminal.
pub struct Progress {
    label: String,
    total: u64,
    enabled: bool,
}

impl Progress {
    /// A progress line for `total` cycles of `label`; silent off a terminal or for short runs.
    pub fn new(label: impl Into<String>, total: u64) -> Self {
        Self {
            label: label.into(),
            total,
            enabled: total >= 500_000 && std::io::stderr().is_terminal(),
        }
    }

    /// Shows `done` cycles.
    pub fn update(&self, done: u64) {
        if self.enabled {
            let percent = done * 100 / self.total.max(1);
            eprint!(
                "\r{}: {done}/{} cycles ({percent}%)",
                self.label, self.total
            );
            let _ = std::io::stderr().flush();
        }
    }

    /// Clears the line.
    pub fn finish(&self) {
        if self.enabled {
            eprint!("\r\x1b[K");
        }
    }
}
