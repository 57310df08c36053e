//! Progress on standard error, never on standard output (where results go): on a terminal, a
//! spinner naming the step under way with its elapsed time, and a bar of points or cycles
//! with its rate and ETA; off a terminal, one line per finished step and per finished point.
//! `--quiet` silences all of it.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use grfgen_sim::progress::Reporter;
use grfgen_sim::text::rate;
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Whether `--quiet` was given.
static QUIET: AtomicBool = AtomicBool::new(false);

/// Every bar and spinner of the process, drawn together on standard error.
fn bars() -> &'static MultiProgress {
    static BARS: OnceLock<MultiProgress> = OnceLock::new();
    BARS.get_or_init(|| MultiProgress::with_draw_target(ProgressDrawTarget::stderr()))
}

/// Whether standard error is a terminal (bars) or not (lines).
fn terminal() -> bool {
    std::io::stderr().is_terminal()
}

/// Turns progress on for this process (a spinner or lines for every step the libraries
/// report), or off for good with `quiet`.
pub fn install(quiet: bool) {
    QUIET.store(quiet, Ordering::SeqCst);
    if !quiet {
        grfgen_sim::progress::install(Box::new(Steps::default()));
    }
}

/// Prints a line of progress on standard error, above any bar, unless `--quiet`.
pub fn line(text: &str) {
    if QUIET.load(Ordering::SeqCst) {
        return;
    }
    match terminal() {
        true => {
            let _ = bars().println(text);
        }
        false => eprintln!("{text}"),
    }
}

/// The steps under way, shown as a spinner on a terminal (the latest started, and how many
/// others run beside it), and as one line each when they finish off a terminal.
#[derive(Default)]
struct Steps {
    running: Mutex<Vec<(String, Instant)>>,
    spinner: Mutex<Option<ProgressBar>>,
}

impl Steps {
    /// Redraws the spinner from the steps under way, or removes it when none is.
    fn show(&self, running: &[(String, Instant)]) {
        let mut spinner = self.spinner.lock().unwrap_or_else(|e| e.into_inner());
        let Some((label, since)) = running.last() else {
            if let Some(bar) = spinner.take() {
                bar.finish_and_clear();
            }
            return;
        };
        let bar = spinner.get_or_insert_with(|| {
            let style = ProgressStyle::with_template("{spinner} {wide_msg} {prefix}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner());
            let bar = bars().add(ProgressBar::new_spinner().with_style(style));
            bar.enable_steady_tick(Duration::from_millis(120));
            bar
        });
        let others = match running.len() - 1 {
            0 => String::new(),
            1 => " (and 1 more step)".into(),
            n => format!(" (and {n} more steps)"),
        };
        bar.set_message(format!("{label}{others}"));
        bar.set_prefix(format!("{:.0} s", since.elapsed().as_secs_f64()));
    }
}

impl Reporter for Steps {
    fn started(&self, label: &str) {
        if !terminal() {
            return;
        }
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        running.push((label.to_string(), Instant::now()));
        self.show(&running);
    }

    fn finished(&self, label: &str, seconds: f64, detail: Option<&str>) {
        if !terminal() {
            if let Some(detail) = detail {
                let detail = match detail.is_empty() {
                    true => String::new(),
                    false => format!(": {detail}"),
                };
                eprintln!("{label} ({seconds:.1} s){detail}");
            }
            return;
        }
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(at) = running.iter().rposition(|(l, _)| l == label) {
            running.remove(at);
        }
        self.show(&running);
    }
}

/// Reports progress of a run (cycles) or a sweep (points).
pub struct Progress {
    bar: Option<ProgressBar>,
    /// Print a plain line per point (off a terminal).
    plain: bool,
}

impl Progress {
    /// A bar for `total` cycles of `label`, on a terminal and for long runs only.
    pub fn new(label: impl Into<String>, total: u64) -> Self {
        let show = total >= 500_000 && terminal() && !QUIET.load(Ordering::SeqCst);
        Self {
            bar: show.then(|| bar(label.into(), total, "cycles")),
            plain: false,
        }
    }

    /// Progress of `total` points of `label`: a bar on a terminal, plain lines off one,
    /// nothing when `quiet` (or `--quiet`).
    pub fn points(label: impl Into<String>, total: u64, quiet: bool) -> Self {
        let quiet = quiet || QUIET.load(Ordering::SeqCst);
        Self {
            bar: (!quiet && terminal()).then(|| bar(label.into(), total, "points")),
            plain: !quiet && !terminal(),
        }
    }

    /// Shows `done` cycles.
    pub fn update(&self, done: u64) {
        if let Some(bar) = &self.bar {
            bar.set_position(done);
            bar.set_message(rate(done as f64 / bar.elapsed().as_secs_f64().max(1e-3)));
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
    let template = format!("{{prefix}} [{{bar:30}}] {{pos}}/{{len}} {unit}, {{msg}} ETA {{eta}}");
    let style = ProgressStyle::with_template(&template)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ");
    let bar = bars().add(ProgressBar::new(total).with_style(style).with_prefix(label));
    bar.set_message(match unit {
        "points" => "0 failed".to_string(),
        _ => String::new(),
    });
    bar
}
