//! Ctrl-C (SIGINT) and SIGTERM during a run: the run stops, the files it was writing are
//! removed, the tools it started are stopped, and one line on standard error says how far it
//! got. Only a program that calls [`install`] (the `grfgen` binary) is affected; a library
//! user keeps the default signal handling and none of this costs it more than an atomic load.
//!
//! A second Ctrl-C while the first is being handled ends the process at once.

use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

/// The exit status of an interrupted run (128 + SIGINT, as shells report it).
pub const EXIT_STATUS: i32 = 130;

/// Whether [`install`] ran.
static INSTALLED: AtomicBool = AtomicBool::new(false);
/// Whether a signal asked the run to stop.
static REQUESTED: AtomicBool = AtomicBool::new(false);
/// Cycles done by the run (the latest cycle reached, plus one).
static CYCLES: AtomicU64 = AtomicU64::new(0);
/// Whether [`State::announce`] waits for the first cycle.
static ANNOUNCE: AtomicBool = AtomicBool::new(false);
/// What to say and what to undo when a run is interrupted.
static STATE: Mutex<State> = Mutex::new(State::new());

/// The summary function: the one line to print, given the cycles done.
type Summary = Box<dyn Fn(u64) -> String + Send>;

/// What an interruption undoes and says.
struct State {
    /// The one-line summary, given the cycles done.
    summary: Option<Summary>,
    /// A line printed on standard error when the first cycle runs.
    announce: Option<String>,
    /// Files and directories being written, removed on interruption.
    partial: Vec<PathBuf>,
    /// Process groups of running tools, stopped on interruption.
    groups: Vec<i32>,
}

impl State {
    const fn new() -> Self {
        Self {
            summary: None,
            announce: None,
            partial: Vec::new(),
            groups: Vec::new(),
        }
    }
}

/// The state, whatever a panicking thread left it as.
fn state() -> MutexGuard<'static, State> {
    STATE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Takes over SIGINT and SIGTERM for the rest of the process: from now on a signal stops the
/// run as the module says.
pub fn install() {
    if INSTALLED.swap(true, Ordering::SeqCst) {
        return;
    }
    let handler = on_signal as extern "C" fn(libc::c_int);
    for signal in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: the handler only touches an atomic and may call `_exit`, both
        // async-signal-safe.
        unsafe {
            libc::signal(signal, handler as libc::sighandler_t);
        }
    }
    let watcher = std::thread::Builder::new()
        .name("interrupt".into())
        .spawn(|| loop {
            std::thread::sleep(Duration::from_millis(50));
            if REQUESTED.load(Ordering::SeqCst) {
                stop();
            }
        });
    if watcher.is_err() {
        // Without the watcher a signal could not be acted on: keep the defaults.
        for signal in [libc::SIGINT, libc::SIGTERM] {
            // SAFETY: restoring the default disposition.
            unsafe {
                libc::signal(signal, libc::SIG_DFL);
            }
        }
    }
}

/// The signal handler: the first signal asks the watcher to stop the run; a second ends the
/// process at once.
extern "C" fn on_signal(_: libc::c_int) {
    if REQUESTED.swap(true, Ordering::SeqCst) {
        // SAFETY: `_exit` is async-signal-safe.
        unsafe { libc::_exit(EXIT_STATUS) };
    }
}

/// Stops the run: stops the tools, removes the partial files, prints the summary, exits.
fn stop() -> ! {
    let state = state();
    for &group in &state.groups {
        // SAFETY: signals a process group this process started.
        unsafe { libc::kill(-group, libc::SIGTERM) };
    }
    if !state.groups.is_empty() {
        std::thread::sleep(Duration::from_millis(200));
        for &group in &state.groups {
            // SAFETY: as above; a group that is gone already makes this a no-op.
            unsafe { libc::kill(-group, libc::SIGKILL) };
        }
    }
    for path in &state.partial {
        let _ = match path.is_dir() {
            true => std::fs::remove_dir_all(path),
            false => std::fs::remove_file(path),
        };
    }
    let cycles = CYCLES.load(Ordering::SeqCst);
    let line = match &state.summary {
        Some(summary) => summary(cycles),
        None => "interrupted".to_string(),
    };
    eprintln!("{line}");
    std::process::exit(EXIT_STATUS);
}

/// Sets what an interruption prints: `summary` is given the cycles done so far.
pub fn describe(summary: impl Fn(u64) -> String + Send + 'static) {
    state().summary = Some(Box::new(summary));
}

/// Prints `line` on standard error when the run's first cycle starts (after every input is
/// read and checked, so that a bad input still gives exactly one line).
pub fn announce(line: String) {
    if !INSTALLED.load(Ordering::Relaxed) {
        return;
    }
    state().announce = Some(line);
    ANNOUNCE.store(true, Ordering::SeqCst);
}

/// A lock-step loop reached `cycle`.
#[inline]
pub fn at_cycle(cycle: u64) {
    if !INSTALLED.load(Ordering::Relaxed) {
        return;
    }
    CYCLES.store(cycle + 1, Ordering::Relaxed);
    if ANNOUNCE.load(Ordering::Relaxed) && ANNOUNCE.swap(false, Ordering::SeqCst) {
        if let Some(line) = state().announce.take() {
            eprintln!("{line}");
        }
    }
}

/// A file or directory being written: removed if the run is interrupted before this is
/// dropped.
pub struct Partial(PathBuf);

impl Partial {
    /// Registers `path`.
    pub fn new(path: &Path) -> Self {
        state().partial.push(path.to_path_buf());
        Self(path.to_path_buf())
    }
}

impl Drop for Partial {
    fn drop(&mut self) {
        let mut state = state();
        if let Some(at) = state.partial.iter().rposition(|p| *p == self.0) {
            state.partial.remove(at);
        }
    }
}

/// A scratch directory in the system's temporary directory: removed when dropped, and when
/// the run is interrupted, so that no staged design outlives the run.
pub struct Scratch {
    /// The directory, removed when dropped.
    dir: tempfile::TempDir,
    /// Its registration, for an interruption.
    _partial: Partial,
}

impl Scratch {
    /// A new scratch directory, its name starting with `prefix`.
    pub fn new(prefix: &str) -> io::Result<Self> {
        let dir = tempfile::Builder::new().prefix(prefix).tempdir()?;
        let partial = Partial::new(dir.path());
        Ok(Self {
            dir,
            _partial: partial,
        })
    }

    /// Where it is.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }
}

/// Runs `command` to completion and collects its output, as [`Command::output`] does. Once
/// [`install`] ran, the tool runs in a process group of its own, which an interruption stops
/// (the tool and everything it started), so that no compiler outlives the run.
pub fn output(command: &mut Command) -> io::Result<Output> {
    run(command, None)
}

/// [`output`], the tool and everything it started stopped after `limit`: then an error of kind
/// [`io::ErrorKind::TimedOut`]. For tools whose own limits do not bound their whole run (Yosys's
/// SAT solver has a time limit, building its problem has none).
pub fn output_within(command: &mut Command, limit: Duration) -> io::Result<Output> {
    run(command, Some(limit))
}

/// Runs `command` in a process group of its own (once [`install`] ran, or with a `limit`),
/// stopped on interruption and after `limit`.
fn run(command: &mut Command, limit: Option<Duration>) -> io::Result<Output> {
    if !INSTALLED.load(Ordering::Relaxed) && limit.is_none() {
        return command.output();
    }
    use std::os::unix::process::CommandExt;
    use std::process::Stdio;
    command
        .process_group(0)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let child = {
        // Holding the state while spawning: an interruption cannot miss the new group.
        let mut state = state();
        let child = command.spawn()?;
        state.groups.push(child.id() as i32);
        child
    };
    let group = child.id() as i32;
    let (done, finished) = std::sync::mpsc::channel::<()>();
    let timed_out = std::sync::Arc::new(AtomicBool::new(false));
    let watcher = limit.map(|limit| {
        let timed_out = timed_out.clone();
        std::thread::spawn(move || {
            if finished.recv_timeout(limit).is_err() {
                timed_out.store(true, Ordering::SeqCst);
                // SAFETY: a plain system call on the group this run started.
                unsafe { libc::kill(-group, libc::SIGKILL) };
            }
        })
    });
    let result = child.wait_with_output();
    drop(done);
    if let Some(watcher) = watcher {
        let _ = watcher.join();
    }
    let mut state = state();
    if let Some(at) = state.groups.iter().position(|&g| g == group) {
        state.groups.remove(at);
    }
    match timed_out.load(Ordering::SeqCst) {
        true => Err(io::Error::new(
            io::ErrorKind::TimedOut,
            format!("stopped after {} s", limit.unwrap_or_default().as_secs()),
        )),
        false => result,
    }
}
