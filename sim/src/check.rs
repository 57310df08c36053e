//! Comparing the RTL with a golden model: what a mismatch says.

use std::fmt;

use serde::Serialize;

use crate::verilator::{take_assertion, OutputVector, VerilatedModel};

/// The first difference between RTL and golden model in a lock-step run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Mismatch {
    /// Cycle number, from 0.
    pub cycle: u64,
    /// The RTL port (or model quantity) that differs.
    pub port: String,
    /// The golden model's value.
    pub expected: u64,
    /// The RTL's value.
    pub actual: u64,
    /// The message of the simulation-only assertion that failed, when that is the difference
    /// (then `port` is `assertion` and the values are 0).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assertion: Option<String>,
}

/// What a lock-step run found: whether the RTL ran, and its mismatches.
#[derive(Clone, Debug, Default, Serialize)]
pub struct LockStep {
    /// Whether the RTL ran in lock step.
    pub rtl: bool,
    /// Mismatches found (the run stops at the first).
    pub mismatches: u64,
    /// The first mismatch, if any.
    pub first_mismatch: Option<Mismatch>,
}

impl Mismatch {
    /// A mismatch at `cycle` on the port `port()` names (built only when there is one).
    pub fn new(cycle: u64, port: impl FnOnce() -> String, expected: u64, actual: u64) -> Self {
        Self {
            cycle,
            port: port(),
            expected,
            actual,
            assertion: None,
        }
    }

    /// An assertion of the RTL that failed at `cycle`, saying `message`.
    pub fn assertion(cycle: u64, message: String) -> Self {
        Self {
            cycle,
            port: "assertion".into(),
            expected: 0,
            actual: 0,
            assertion: Some(message),
        }
    }
}

/// Runs one cycle of `device` (see [`Device::cycle`]); a failed assertion of the RTL in that
/// cycle is the mismatch, before any difference in its outputs.
pub fn device_cycle<I, E>(
    device: &mut (dyn Device<Input = I, Expected = E> + '_),
    cycle: u64,
    input: &I,
    expected: &E,
) -> Result<(), Mismatch> {
    let compared = device.cycle(cycle, input, expected);
    match take_assertion() {
        Some(message) => Err(Mismatch::assertion(cycle, message)),
        None => compared,
    }
}

/// Fails with a mismatch at `cycle` on the port `port()` names if `expected` and `actual`
/// differ.
pub fn compare(
    cycle: u64,
    port: impl FnOnce() -> String,
    expected: u64,
    actual: u64,
) -> Result<(), Mismatch> {
    match expected == actual {
        true => Ok(()),
        false => Err(Mismatch::new(cycle, port, expected, actual)),
    }
}

/// Reads output vector `vector` of `model` into `actual` and fails with a mismatch at `cycle`
/// on `name[k]` for the first element `k` that differs from `expected`.
pub(crate) fn compare_vector(
    model: &VerilatedModel,
    vector: &OutputVector,
    actual: &mut [u64],
    cycle: u64,
    name: &str,
    expected: impl ExactSizeIterator<Item = u64>,
) -> Result<(), Mismatch> {
    let actual = &mut actual[..expected.len()];
    model.read_vector(vector, actual);
    for (k, (expected, &actual)) in expected.zip(actual.iter()).enumerate() {
        compare(cycle, || format!("{name}[{k}]"), expected, actual)?;
    }
    Ok(())
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(message) = &self.assertion {
            return write!(f, "RTL assertion at cycle {}: {message}", self.cycle);
        }
        write!(
            f,
            "mismatch at cycle {} on {}: expected {:#x}, got {:#x}",
            self.cycle, self.port, self.expected, self.actual
        )
    }
}

/// How often a lock-step loop tells its progress, in cycles.
const PROGRESS_EVERY: u64 = 65_536;

/// The end of one lock-step cycle: `device`, when there is one, is driven with `input` and
/// must show `expected`; `progress` hears of every 65,536th cycle.
pub fn end_cycle<I, E>(
    device: Option<&mut (dyn Device<Input = I, Expected = E> + '_)>,
    cycle: u64,
    input: &I,
    expected: &E,
    progress: &dyn Fn(u64),
) -> Result<(), Mismatch> {
    if let Some(device) = device {
        device_cycle(device, cycle, input, expected)?;
    }
    grfgen_support::interrupt::at_cycle(cycle);
    if cycle % PROGRESS_EVERY == PROGRESS_EVERY - 1 {
        progress(cycle + 1);
    }
    Ok(())
}

/// A Verilated design driven in lock step with a golden model: every cycle it gets the inputs
/// the model got and must show what the model showed.
pub trait Device {
    /// What drives one cycle.
    type Input;
    /// What the golden model showed in that cycle.
    type Expected;
    /// Runs cycle `cycle` with `input` and compares what the design shows with `expected`.
    fn cycle(
        &mut self,
        cycle: u64,
        input: &Self::Input,
        expected: &Self::Expected,
    ) -> Result<(), Mismatch>;
}
