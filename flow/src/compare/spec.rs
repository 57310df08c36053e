//! What `grfgen compare gpr` compares: its spec, checked, and the parameters it derives.

use grfgen_hdl::params::{
    BankKind, BankMap, CoreParams, GprParams, Memory, MultiportParams, Params, Waves,
};
use grfgen_sim::core::options::ProgramFiles;
use grfgen_sim::core::{workload, CoreOptions, Policy, UnitLatencies};
use serde::Serialize;

use super::files::file_rows;
use crate::steps::PnrRequest;
use crate::FlowError;

/// What `grfgen compare gpr` compares.
#[derive(Clone, Debug, Serialize)]
pub struct GprComparisonSpec {
    /// The register file every design implements: depth, lanes, element bits, ports.
    pub file: MultiportParams,
    /// Banks of the banked GPR.
    pub banks: usize,
    /// The banked GPR's bank kinds to compare.
    pub bank_kinds: Vec<BankKind>,
    /// The banked GPR's pipeline options to compare (the deepest alone unless asked).
    pub pipelines: Vec<usize>,
    /// Every pipeline option of the multi-ported files; without it, the deepest alone.
    pub all_options: bool,
    /// The banked GPR's bank maps to compare.
    pub bank_maps: Vec<BankMap>,
    /// The banked GPR's block RAM in the Verilog.
    pub memory: Memory,
    /// The core workloads to run.
    pub workloads: Vec<String>,
    /// The program files to run after them.
    pub programs: ProgramFiles,
    /// Place and route (device and seed); without it, synthesis only.
    #[serde(skip)]
    pub pnr: Option<PnrRequest>,
    /// Seed of the workloads' random programs and initial values.
    pub seed: u64,
    /// Run the banked rows' workloads after bank-aware register allocation (the multi-ported
    /// files need none).
    pub allocate: bool,
    /// Waves the core interleaves on every row (`auto`: as many as each program's registers
    /// allow).
    pub waves: Waves,
}

impl GprComparisonSpec {
    /// Checks every design's parameters and every workload name.
    pub fn validate(&self) -> Result<(), FlowError> {
        self.file.validate()?;
        if let Some(pnr) = self.pnr {
            pnr.device
                .check_memory(self.memory)
                .map_err(FlowError::Input)?;
        }
        for &kind in &self.bank_kinds {
            for &pipeline in &self.pipelines {
                for &map in &self.bank_maps {
                    self.gpr(kind, pipeline, map).validate()?;
                }
            }
        }
        if let Some(bad) = self
            .workloads
            .iter()
            .find(|w| !workload::NAMES.contains(&w.as_str()))
        {
            return Err(FlowError::Input(format!(
                "invalid value {bad} for --workloads: allowed {}",
                workload::NAMES.join(", ")
            )));
        }
        for row in file_rows(&self.file, self.memory, &self.file_pipelines()).0 {
            row.params.validate()?;
        }
        // Every workload must fit the core's registers and every program file read (when the
        // core runs at all).
        if let Ok(core) = self.core(&self.gpr(BankKind::OneReadOneWrite, 0, BankMap::Mod)) {
            for run in self.runs() {
                run.program(&core, self.seed).map_err(|e| {
                    FlowError::Input(e.to_string().replace("--workload:", "--workloads:"))
                })?;
            }
        }
        Ok(())
    }

    /// The core runs: each workload, then each program file.
    pub(super) fn runs(&self) -> Vec<CoreOptions> {
        let workloads = (self.workloads.iter()).map(|w| CoreOptions::workload(w, Policy::CqPq));
        (workloads.chain(self.programs.runs(&UnitLatencies::default()))).collect()
    }

    /// The names the runs' figures are listed by: the workloads', then the files'.
    pub(super) fn run_names(&self) -> Vec<String> {
        (self.workloads.iter().chain(&self.programs.program))
            .cloned()
            .collect()
    }

    /// The banked GPR of `kind` with `pipeline` stages and bank map `map`.
    pub(super) fn gpr(&self, kind: BankKind, pipeline: usize, map: BankMap) -> GprParams {
        let f = &self.file;
        GprParams {
            banks: self.banks,
            registers: f.registers,
            lanes: f.lanes,
            element_bits: f.element_bits,
            read_ports: f.read_ports,
            write_ports: f.write_ports,
            pipeline,
            bank_kind: kind,
            memory: self.memory,
            bank_map: map,
        }
    }

    /// The multi-ported files' pipeline options compared: all with `all_options`, else the
    /// deepest.
    pub(super) fn file_pipelines(&self) -> Vec<usize> {
        match self.all_options {
            true => (0..=MultiportParams::MAX_PIPELINE).collect(),
            false => vec![MultiportParams::MAX_PIPELINE],
        }
    }

    /// The core slice an ideal file of `file`'s stages runs on: a GPR whose read latency is the
    /// file's, `1 + pipeline` (the GPR's own for pipeline options 0..=2), the reads never
    /// conflicting under the `ideal` policy.
    pub(super) fn ideal_core(&self, file: &MultiportParams) -> Result<CoreParams, String> {
        self.core(&self.gpr(BankKind::OneReadOneWrite, file.pipeline, BankMap::Mod))
    }

    /// The core slice on `gpr`, its pipeline stages included (each a cycle more from a read to
    /// its data, which the core's RTL and golden model both follow). Why not, when the core
    /// cannot run here.
    pub(super) fn core(&self, gpr: &GprParams) -> Result<CoreParams, String> {
        let core = CoreParams {
            gpr: gpr.clone(),
            waves: self.waves,
            ..CoreParams::default()
        };
        core.validate()
            .map_err(|e| format!("the core slice cannot run: {e}"))?;
        Ok(core)
    }
}
