//! Test-only faults: deliberate bugs in the golden models, switched on by name.

/// Whether the test-only fault `name` is switched on (`GRFGEN_FAULT=<name>`): a deliberate bug
/// in a golden model, so that the tests can show a regression run catches one. Never set
/// outside the tests.
pub fn fault(name: &str) -> bool {
    std::env::var("GRFGEN_FAULT").is_ok_and(|v| v == name)
}
