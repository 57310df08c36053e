//! Progress of long steps (a Verilator build, a synthesis, a place and route, a flow's steps),
//! told to whatever the program installed: the `grfgen` binary shows a spinner on a terminal
//! and a line per finished step off one. A library user installs nothing and pays for an
//! atomic load per step.

use std::sync::OnceLock;
use std::time::Instant;

/// What a program does with progress.
pub trait Reporter: Send + Sync {
    /// A step called `label` started.
    fn started(&self, label: &str);
    /// The step `label` ended after `seconds`: `Some(detail)` when it finished (`detail` says
    /// what it found, or is empty), `None` when it failed or was abandoned (its error says why).
    fn finished(&self, label: &str, seconds: f64, detail: Option<&str>);
}

/// The reporter [`install`]ed, if any.
static REPORTER: OnceLock<Box<dyn Reporter>> = OnceLock::new();

/// Sends every step of this process to `reporter` (once; later calls are ignored).
pub fn install(reporter: Box<dyn Reporter>) {
    let _ = REPORTER.set(reporter);
}

/// A step under way: [`Step::done`] reports it finished; dropped without it, it reports the
/// step failed (its error says why).
pub struct Step {
    label: String,
    started: Instant,
    reported: bool,
}

/// Starts the step `label`.
pub fn step(label: impl Into<String>) -> Step {
    let label = label.into();
    if let Some(reporter) = REPORTER.get() {
        reporter.started(&label);
    }
    Step {
        label,
        started: Instant::now(),
        reported: false,
    }
}

impl Step {
    /// The step finished; `detail` says what it found (may be empty).
    pub fn done(mut self, detail: &str) {
        self.report(Some(detail));
    }

    fn report(&mut self, detail: Option<&str>) {
        if let (Some(reporter), false) = (REPORTER.get(), self.reported) {
            reporter.finished(&self.label, self.started.elapsed().as_secs_f64(), detail);
        }
        self.reported = true;
    }
}

impl Drop for Step {
    fn drop(&mut self) {
        self.report(None);
    }
}
