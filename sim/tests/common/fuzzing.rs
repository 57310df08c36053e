//! What the fuzz tests of every crate share: the case count (`GRFGEN_FUZZ_CASES`), proptest's
//! configuration, and running one case under a time limit. Included by `sim/tests/parser_fuzz.rs` and
//! `gen/tests/flag_fuzz.rs`.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::test_runner::{FileFailurePersistence, TestCaseError, TestRunner};

/// Cases per parser when `GRFGEN_FUZZ_CASES` is not set.
pub const DEFAULT_CASES: u32 = 2_000;

/// The longest one parse (with what follows it) may take: the parsers are linear.
pub const LIMIT: Duration = Duration::from_secs(2);

/// Cases per parser: `GRFGEN_FUZZ_CASES`, or [`DEFAULT_CASES`].
pub fn cases() -> u32 {
    std::env::var("GRFGEN_FUZZ_CASES")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(DEFAULT_CASES)
}

/// The proptest configuration of every fuzz test; failures are kept beside the test file.
pub fn config() -> ProptestConfig {
    ProptestConfig {
        cases: cases(),
        max_shrink_iters: 4_096,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        ..ProptestConfig::default()
    }
}

/// Runs `work` in its own thread: its result, or a failure when it panics or runs past
/// [`LIMIT`] (the thread is then left behind, and the test fails instead of hanging).
pub fn timed<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, TestCaseError> {
    let (send, receive) = mpsc::channel();
    let thread = std::thread::spawn(move || {
        let start = Instant::now();
        let value = work();
        let _ = send.send((value, start.elapsed()));
    });
    match receive.recv_timeout(LIMIT) {
        Ok((value, took)) => {
            let _ = thread.join();
            prop_assert!(took < LIMIT, "took {took:?}");
            Ok(value)
        }
        Err(mpsc::RecvTimeoutError::Timeout) => Err(TestCaseError::fail(format!(
            "no answer within {LIMIT:?}: a hang"
        ))),
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            let payload = thread.join().err();
            let message = payload
                .as_ref()
                .and_then(|p| {
                    p.downcast_ref::<String>()
                        .cloned()
                        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                })
                .unwrap_or_default();
            Err(TestCaseError::fail(format!("panicked: {message}")))
        }
    }
}

/// Runs `case` on [`cases`] inputs from `inputs` (proptest shrinks a failing one and keeps its
/// seed in the `proptest-regressions` file beside `source`, the test's `file!()`), then prints
/// how many `parser` accepted and the time. Fails when under a fifth were accepted: a parser
/// that refused every input would leave the checks on accepted ones untested.
pub fn fuzz<S: Strategy>(
    source: &'static str,
    parser: &str,
    inputs: S,
    case: impl Fn(S::Value) -> Result<bool, TestCaseError>,
) {
    let config = ProptestConfig {
        source_file: Some(source),
        ..config()
    };
    let mut runner = TestRunner::new(config);
    let (ran, accepted) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let start = Instant::now();
    let outcome = runner.run(&inputs, |input| {
        ran.fetch_add(1, Ordering::Relaxed);
        if case(input)? {
            accepted.fetch_add(1, Ordering::Relaxed);
        }
        Ok(())
    });
    let took = start.elapsed();
    if let Err(e) = outcome {
        panic!("{parser}: {e}");
    }
    // The cases, and before them the seeds of past failures kept beside the test.
    let (ran, accepted) = (ran.into_inner(), accepted.into_inner());
    assert!(
        cases() < 100 || accepted * 5 >= ran,
        "{parser}: {accepted} of {ran} cases accepted, under 20%"
    );
    println!(
        "{parser}: {ran} cases in {took:.2?} ({:.0} a second), {:.0}% accepted",
        ran as f64 / took.as_secs_f64(),
        100.0 * accepted as f64 / ran.max(1) as f64,
    );
}
