//! The options of a GRF run: the requests (a built-in workload or a trace file), the L3
//! behind the GRF, the energy model and the flat comparison.

use grfgen_hdl::param;
use grfgen_hdl::params::{Allowed, GrfParams, Param, Params};
use serde::{Deserialize, Serialize};

use super::energy::Energy;
use super::trace::{parse, Trace};
use super::workload::{builtin, NAMES};
use crate::block::{missing_workload, SimError};

/// The options of a GRF run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GrfOptions {
    /// A built-in workload (or `trace`).
    pub workload: Option<String>,
    /// A request trace in the documented text format (or `workload`).
    pub trace: Option<String>,
    /// Length of a built-in workload (steps per EU grow with it).
    pub rounds: usize,
    /// Cycles from an L3 read to its answer (the test bench's L3).
    pub l3_latency: u64,
    /// A run that has not finished after this many cycles stops.
    pub max_cycles: u64,
    /// Energy per access.
    #[serde(flatten)]
    pub energy: Energy,
    /// Whether the flat design (no fast GRFs) runs beside, for comparison.
    pub flat: bool,
}

impl Default for GrfOptions {
    fn default() -> Self {
        Self {
            workload: None,
            trace: None,
            rounds: 8,
            l3_latency: 10,
            max_cycles: 10_000_000,
            energy: Energy::default(),
            flat: false,
        }
    }
}

impl Params for GrfOptions {
    fn table() -> Vec<Param<Self>> {
        let mut table = vec![
            param!(workload, "a built-in workload (or --trace)", "NAME", |o| {
                Allowed::name_or_file(&NAMES, "--workload", "--trace", o.trace.is_some())
            }),
            param!(
                trace,
                "a request trace in the documented text format (docs/grf.md)",
                "FILE",
                |_| Allowed::any("a file path")
            ),
            param!(
                rounds,
                "length of a built-in workload (steps per EU grow with it)",
                "N",
                |_| Allowed::range(1, 10_000)
            ),
            param!(
                l3_latency,
                "cycles from an L3 read to its answer (the test bench's L3)",
                "N",
                |_| Allowed::range(1, 64)
            ),
            param!(
                max_cycles,
                "stop a run that has not finished after this many cycles",
                "N",
                |_| Allowed::range(1, 10_000_000_000)
            ),
        ];
        table.extend(
            Energy::table()
                .into_iter()
                .map(|p| p.nested(|o: &Self| &o.energy, |o| &mut o.energy)),
        );
        table.push(param!(
            flat,
            "also run the flat design (no fast GRFs) and show both",
            "BOOL",
            |_| Allowed::any("true or false")
        ));
        table
    }
}

impl GrfOptions {
    /// The options running built-in workload `name` for `rounds`, everything else default.
    pub fn workload(name: &str, rounds: usize) -> Self {
        Self {
            workload: Some(name.to_string()),
            rounds,
            ..Self::default()
        }
    }

    /// The requests to run, with their name: the built-in workload (from `seed`) or the file.
    pub fn trace(&self, params: &GrfParams, seed: u64) -> Result<(String, Trace), SimError> {
        if let Some(name) = &self.workload {
            let trace = builtin(name, params, seed, self.rounds).map_err(SimError::Input)?;
            return Ok((name.clone(), trace));
        }
        let Some(path) = self.trace.as_deref() else {
            return Err(missing_workload(&NAMES, "--trace"));
        };
        let text = grfgen_support::input::read_text(path, "--trace").map_err(SimError::Input)?;
        let bad = |why: String| {
            SimError::Input(format!(
                "invalid value {} for --trace: {why}",
                grfgen_support::input::shown(path)
            ))
        };
        let trace = parse(&text, params).map_err(|e| bad(e.to_string()))?;
        // A file that parses but holds no requests has nothing to run.
        if trace.iter().all(Vec::is_empty) {
            return Err(bad("no requests in it".into()));
        }
        Ok((path.to_string(), trace))
    }

    /// The conditions of a run from `seed`.
    pub fn conditions(&self, seed: u64) -> Conditions {
        Conditions {
            flat: false,
            l3_latency: self.l3_latency,
            seed,
            energy: self.energy,
            max_cycles: self.max_cycles,
        }
    }
}

/// How a trace runs: with or without the fast GRFs, the L3 behind the GRF, the energy model
/// and the cycle limit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Conditions {
    /// The flat design: no fast GRFs, every access to the shared slow GRF (golden model only).
    pub flat: bool,
    /// Cycles from an L3 read to its answer.
    pub l3_latency: u64,
    /// Seed of the L3 contents.
    pub seed: u64,
    /// Energy per access.
    pub energy: Energy,
    /// The run gives up after this many cycles.
    pub max_cycles: u64,
}

impl Conditions {
    /// The hierarchical design, an L3 of latency 10 filled from `seed`, the default energies,
    /// at most 10 million cycles.
    pub fn new(seed: u64) -> Self {
        Self {
            flat: false,
            l3_latency: 10,
            seed,
            energy: Energy::default(),
            max_cycles: 10_000_000,
        }
    }
}
