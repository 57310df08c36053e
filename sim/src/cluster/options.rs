//! The options of a clustered run: the program (a named one or a file), partitioned or the
//! baseline, how long, and the energy of an access.

use grfgen_hdl::param;
use grfgen_hdl::params::{Allowed, ClusterParams, Param, Params};
use serde::{Deserialize, Serialize};

use super::kernels::{named, NAMES};
use super::program::{parse, ClusterInstr};
use crate::block::{SimError, MAX_CYCLES};
use crate::rng::Rng;

/// Energy of one local-file access (read or write of a 32-bit register), in pJ: ours, for a
/// small 2R1W file (`docs/cluster.md`, "Energy").
pub const LOCAL_PJ: f64 = 0.5;
/// Energy of one main-file access, in pJ: ours, four times a local access.
pub const MAIN_PJ: f64 = 2.0;

/// The options of a clustered run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClusterOptions {
    /// A named program (or `program`).
    pub example: Option<String>,
    /// A program file in the documented text format (or `example`).
    pub program: Option<String>,
    /// Compile with the baseline (shared registers in the main file) instead of partitioning.
    pub baseline: bool,
    /// Run programs back to back until at least this many cycles (0: one program).
    pub cycles: u64,
    /// Energy of a local-file access, pJ.
    pub local_pj: f64,
    /// Energy of a main-file access, pJ.
    pub main_pj: f64,
}

impl Default for ClusterOptions {
    fn default() -> Self {
        Self {
            example: None,
            program: None,
            baseline: false,
            cycles: 0,
            local_pj: LOCAL_PJ,
            main_pj: MAIN_PJ,
        }
    }
}

impl Params for ClusterOptions {
    fn table() -> Vec<Param<Self>> {
        vec![
            param!(example, "a named program (or --program)", "NAME", |o| {
                Allowed::name_or_file(&NAMES, "--example", "--program", o.program.is_some())
            }),
            param!(
                program,
                "a program file in the documented text format (docs/cluster.md)",
                "FILE",
                |_| Allowed::any("a file path")
            ),
            param!(
                baseline,
                "keep every register more than one cluster uses in the main file",
                "BOOL",
                |_| Allowed::any("true or false")
            ),
            param!(
                cycles,
                "run programs back to back until this many cycles (0: one program)",
                "N",
                |_| Allowed::range(0, MAX_CYCLES)
            ),
            param!(local_pj, "energy of a local-file access, pJ", "PJ", |_| {
                Allowed::range(0.0, 1000.0)
            }),
            param!(main_pj, "energy of a main-file access, pJ", "PJ", |_| {
                Allowed::range(0.0, 1000.0)
            }),
        ]
    }
}

/// Where a run's programs come from.
pub enum Programs {
    /// One program, run as many times as the cycles ask.
    Fixed(String, Vec<ClusterInstr>),
    /// A new random program each time.
    Random,
}

impl ClusterOptions {
    /// The options running the named program.
    pub fn example(name: &str) -> Self {
        Self {
            example: Some(name.to_string()),
            ..Self::default()
        }
    }

    /// The programs of this run, for `params`.
    pub fn programs(&self, params: &ClusterParams) -> Result<Programs, SimError> {
        if let Some(name) = &self.example {
            if name == "random" {
                return Ok(Programs::Random);
            }
            let program = named(name, params.clusters, params.local_regs, &mut Rng::new(0))
                .map_err(SimError::Input)?;
            return Ok(Programs::Fixed(name.clone(), program));
        }
        let Some(path) = self.program.as_deref() else {
            return Err(SimError::Input(format!(
                "missing --example: allowed {}; or --program FILE instead",
                NAMES.join(", ")
            )));
        };
        let text = grfgen_support::input::read_text(path, "--program").map_err(SimError::Input)?;
        let bad = |why: String| {
            SimError::Input(format!(
                "invalid value {} for --program: {why}",
                grfgen_support::input::shown(path)
            ))
        };
        let program = parse(&text, params.clusters).map_err(|e| bad(e.to_string()))?;
        // A file that parses but holds no instructions has nothing to run.
        if program.is_empty() {
            return Err(bad("no instructions in it".into()));
        }
        Ok(Programs::Fixed(path.to_string(), program))
    }

    /// The energy of `local` and `main` accesses, pJ.
    pub fn energy_pj(&self, local: u64, main: u64) -> f64 {
        local as f64 * self.local_pj + main as f64 * self.main_pj
    }
}
