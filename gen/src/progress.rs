//! Progress on standard error: a bar (points or cycles done, rate, ETA) on a terminal, plain
//! lines per point off one, nothing with `--json`.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};

/// Reports progress of a run (cycles) or a sweep (points).
pub struct Progress {
    bar: Option<ProgressBar>,
    /// Print a plain line per point (off a terminal).
    plain: bool,
}

impl Progress {
    /// A bar for `total` cycles of `label`, on a terminal and for long runs only.
    pub fn new(label: impl Into<String>, total: u64) -> Self {
        let show = total >= 500_000 && std::io::stderr().is_terminal();
        Self {
            bar: show.then(|| bar(label.into(), total, "cycles")),
            plain: false,
        }
    }

    /// Progress of `total` points of `label`: a bar on a terminal, plain lines off one,
    /// nothing when `quiet`.
    pub fn points(label: impl Into<String>, total: u64, quiet: bool) -> Self {
        let terminal = std::io::stderr().is_terminal();
        Self {
            bar: (!quiet && terminal).then(|| bar(label.into(), total, "points")),
            plain: !quiet && !terminal,
        }
    }

    /// Shows `done` cycles.
    pub fn update(&self, done: u64) {
        if let Some(bar) = &self.bar {
            bar.set_position(done);
        }
    }

    /// One more point done: `line` says what it was; `failed` points have failed so far.
    pub fn point(&self, line: &str, failed: usize) {
        if let Some(bar) = &self.bar {
            bar.inc(1);
            bar.set_message(format!("{failed} failed"));
        }
        if self.plain {
            eprintln!("{line}");
        }
    }

    /// Clears the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// A bar of `total` `unit` for `label`.
fn bar(label: String, total: u64, unit: &str) -> ProgressBar {
    let template =
        format!("{{prefix}} [{{bar:30}}] {{pos}}/{{len}} {unit}, {{msg}} {{per_sec}} ETA {{eta}}");
    let style = ProgressStyle::with_template(&template)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ");
    let bar = ProgressBar::new(total).with_style(style).with_prefix(label);
    bar.set_message("0 failed");
    bar
}
