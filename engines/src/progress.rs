//! Progress on standard error, never on standard output (where results go): on a terminal, a
//! spinner naming the step under way with its elapsed time, and a bar of points or cycles
//! with its rate and ETA; off a terminal, one line per finished step and per finished point,
//! and a heartbeat line at least every [`HEARTBEAT`] while a step runs. `--quiet` silences all
//! of it.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use grfgen_support::progress::Reporter;
use grfgen_support::text::rate;
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

/// Off a terminal, the longest a step runs without a line saying so.
pub const HEARTBEAT: Duration = Duration::from_secs(10);

/// When a line of progress was last printed off a terminal.
fn last_line() -> &'static Mutex<Instant> {
    static LAST: OnceLock<Mutex<Instant>> = OnceLock::new();
    LAST.get_or_init(|| Mutex::new(Instant::now()))
}

/// Prints `text` on standard error off a terminal, and notes when.
fn plain_line(text: &str) {
    eprintln!("{text}");
    *last_line().lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
}

/// Turns progress on for this process (a spinner or lines for every step the libraries
/// report, with a heartbeat off a terminal), or off for good with `quiet`.
pub fn install(quiet: bool) {
    QUIET.store(quiet, Ordering::SeqCst);
    if quiet {
        return;
    }
    let steps = Arc::new(Steps::default());
    grfgen_support::progress::install(Box::new(Shared(Arc::clone(&steps))));
    if !terminal() {
        let _ = std::thread::Builder::new()
            .name("heartbeat".into())
            .spawn(move || loop {
                std::thread::sleep(Duration::from_millis(500));
                steps.beat();
            });
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
        false => plain_line(text),
    }
}

/// The steps, shared by the libraries' reporter and the heartbeat.
struct Shared(Arc<Steps>);

impl Reporter for Shared {
    fn started(&self, label: &str) {
        self.0.started(label);
    }

    fn finished(&self, label: &str, seconds: f64, detail: Option<&str>) {
        self.0.finished(label, seconds, detail);
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
    /// Off a terminal: when no line was printed for [`HEARTBEAT`] while steps run, one line
    /// naming them with their time so far.
    fn beat(&self) {
        let running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        let quiet_for = last_line()
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .elapsed();
        if running.is_empty() || quiet_for < HEARTBEAT {
            return;
        }
        let steps: Vec<String> = (running.iter())
            .map(|(label, since)| format!("{label} ({:.0} s)", since.elapsed().as_secs_f64()))
            .collect();
        plain_line(&format!("still running: {}", steps.join("; ")));
    }

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
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        running.push((label.to_string(), Instant::now()));
        if terminal() {
            self.show(&running);
        }
    }

    fn finished(&self, label: &str, seconds: f64, detail: Option<&str>) {
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(at) = running.iter().rposition(|(l, _)| l == label) {
            running.remove(at);
        }
        if terminal() {
            self.show(&running);
            return;
        }
        if let Some(detail) = detail {
            let detail = match detail.is_empty() {
                true => String::new(),
                false => format!(": {detail}"),
            };
            plain_line(&format!("{label} ({seconds:.1} s){detail}"));
        }
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
            plain_line(line);
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
