//! The failed assertions of the Verilated models running on this thread.

thread_local! {
    /// The first failed assertion of the RTL running on this thread, not yet reported.
    static FAILED_ASSERTION: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Records what a Verilated model printed when one of its assertions failed: the first
/// `%Error` line, without Verilator's time, file and line prefix.
pub(crate) fn record_assertion(printed: &str) {
    let line = printed
        .lines()
        .find(|l| l.contains("%Error"))
        .unwrap_or("an assertion failed");
    let message = match line.find("Assertion failed") {
        Some(at) => &line[at..],
        None => line.split("%Error: ").nth(1).unwrap_or(line),
    };
    FAILED_ASSERTION.with(|f| {
        f.borrow_mut()
            .get_or_insert_with(|| message.trim().to_string());
    });
}

/// The failed assertion recorded on this thread since the last call, if any.
pub fn take_assertion() -> Option<String> {
    FAILED_ASSERTION.with(|f| f.borrow_mut().take())
}
