//! Running a clustered program three ways: as written on the reference interpreter, compiled
//! on the golden model of the hardware, and on the Verilated hardware in lock step with it.

use std::collections::BTreeMap;

use grfgen_hdl::params::ClusterParams;
use serde::Serialize;

use super::interpret::FlatRegisters;
use super::kernels::random;
use super::machine::{ClusterMachine, Cycle, Issue};
use super::options::{ClusterOptions, Programs};
use super::program::ClusterInstr;
use super::schedule::{lower, Bundles, Placed};
use super::verilated::ClusterRtl;
use crate::block::{Report, Setup, SimError};
use crate::check::{end_cycle, LockStep, Mismatch};
use crate::compilers::cluster::Compiler;
use crate::rng::Rng;

/// What a clustered run reports.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ClusterReport {
    /// The program's name (or file).
    pub program: String,
    /// Whether it was compiled with the baseline instead of partitioning.
    pub baseline: bool,
    /// Programs run back to back.
    pub programs: u64,
    /// Instructions issued, the loads of the programs' inputs included.
    pub instructions: u64,
    /// Cycles, from the first issue to the last write-back.
    pub cycles: u64,
    /// The first program's outputs on the clustered hardware, in order.
    pub outputs: Vec<u32>,
    /// The first program's outputs as written, on one flat register space.
    pub reference_outputs: Vec<u32>,
    /// Whether every program's outputs equal its reference outputs.
    pub outputs_equal: bool,
    /// Local-file reads and writes.
    pub local_accesses: u64,
    /// Main-file reads and writes.
    pub main_accesses: u64,
    /// Local accesses over all register accesses.
    pub local_fraction: f64,
    /// MOVs the partitioning inserted.
    pub movs: u64,
    /// Local live ranges spilled to the main file.
    pub spills: u64,
    /// Offers not issued because a main port was taken.
    pub main_conflicts: u64,
    /// Cycles with an offer not issued.
    pub stall_cycles: u64,
    /// Register-file energy from the per-access energies of the options, pJ.
    pub energy_pj: f64,
    /// The lock step: whether the RTL ran, its mismatches (the run stops at the first).
    #[serde(flatten)]
    pub lock_step: LockStep,
    /// The first output that differs from the reference (`cycle` is the program's index,
    /// `port` names the program and output), if any.
    pub output_difference: Option<Mismatch>,
}

impl Report for ClusterReport {
    /// The programs' cycles, from the first issue to the last write-back.
    fn work_cycles(&self) -> Option<f64> {
        Some(self.cycles as f64)
    }

    fn lock_step(&self) -> Option<&LockStep> {
        Some(&self.lock_step)
    }

    fn mismatch(&self) -> Option<&Mismatch> {
        (self.lock_step.first_mismatch.as_ref()).or(self.output_difference.as_ref())
    }

    fn text(&self) -> String {
        let mut text = format!(
            "{} ({}): {} program(s), {} instructions, {} cycles; outputs {} the reference\n\
             local accesses {}  main accesses {}  local fraction {:.1}%  MOVs {}  spills {}\n\
             main-port conflicts {}  stall cycles {}  energy {:.1} pJ\nmismatches {}",
            self.program,
            if self.baseline {
                "baseline"
            } else {
                "partitioned"
            },
            self.programs,
            self.instructions,
            self.cycles,
            if self.outputs_equal {
                "equal"
            } else {
                "DIFFER FROM"
            },
            self.local_accesses,
            self.main_accesses,
            100.0 * self.local_fraction,
            self.movs,
            self.spills,
            self.main_conflicts,
            self.stall_cycles,
            self.energy_pj,
            self.lock_step.mismatches,
        );
        if self.programs == 1 {
            text += &format!("\noutputs {:?}", self.outputs);
        }
        text
    }

    fn metrics(&self) -> Vec<(&'static str, f64)> {
        vec![
            ("run_cycles", self.cycles as f64),
            ("local_fraction", self.local_fraction),
            ("main_accesses", self.main_accesses as f64),
            ("movs", self.movs as f64),
            ("energy_pj", self.energy_pj),
            ("mismatches", self.lock_step.mismatches as f64),
        ]
    }
}

/// The storage a program's run needs, kept across programs to reuse it.
#[derive(Default)]
struct Work {
    /// The reference's flat register space.
    flat: FlatRegisters,
    /// The reference outputs.
    reference: Vec<u32>,
    /// The compiled program as the hardware takes it.
    stream: Vec<Placed>,
    /// Per cluster: the instruction offered, until it issues.
    offers: Vec<Option<Issue>>,
    /// The outputs on the golden model.
    outputs: Vec<u32>,
}

/// A run in progress: the golden model, the RTL beside it, the report so far.
struct Runner<'a> {
    params: &'a ClusterParams,
    options: &'a ClusterOptions,
    machine: ClusterMachine,
    device: Option<ClusterRtl>,
    progress: &'a dyn Fn(u64),
    /// The counters of the last cycle both sides agreed on (its `issued` and `outputs` unused).
    last: Cycle,
    /// The cycle being stepped (its storage reused).
    cycle: Cycle,
    /// The storage of a program's run.
    work: Work,
    report: ClusterReport,
}

impl Runner<'_> {
    /// Runs `program`, as `compiler` compiled it last, with inputs from `seed`, and compares
    /// its outputs with the reference. `Ok(false)` when the RTL disagreed (the run stops).
    fn program(
        &mut self,
        program: &[ClusterInstr],
        compiler: &Compiler,
        seed: u64,
    ) -> Result<bool, SimError> {
        // The storage is lent to this program's run, and kept for the next.
        let mut work = std::mem::take(&mut self.work);
        let agreed = self.program_with(program, compiler, seed, &mut work);
        self.work = work;
        agreed
    }

    /// [`Runner::program`] with the storage `work`.
    fn program_with(
        &mut self,
        program: &[ClusterInstr],
        compiler: &Compiler,
        seed: u64,
        work: &mut Work,
    ) -> Result<bool, SimError> {
        let Work {
            flat,
            reference,
            stream,
            offers,
            outputs,
        } = work;
        (flat.run(program, &BTreeMap::new(), seed, reference)).map_err(SimError::Input)?;
        outputs.clear();
        offers.clear();
        offers.resize(self.params.clusters, None);
        lower(compiler.allocation(), seed, stream);
        for bundle in Bundles::new(stream) {
            for &(c, issue) in bundle {
                offers[c] = Some(issue);
            }
            // One instruction per cluster: the bundle has issued when as many have.
            let mut waiting = bundle.len();
            while waiting > 0 {
                let Some(issued) = self.cycle(offers, outputs) else {
                    return Ok(false);
                };
                waiting -= issued;
            }
        }
        self.record(compiler, seed, outputs, reference);
        Ok(true)
    }

    /// Counts a program run with inputs from `seed`, as `compiler` compiled it last, and
    /// compares its `outputs` with its `reference` outputs.
    fn record(&mut self, compiler: &Compiler, seed: u64, outputs: &[u32], reference: &[u32]) {
        let index = self.report.programs;
        self.report.programs += 1;
        self.report.movs += compiler.partitioned().movs as u64;
        self.report.spills += compiler.allocation().spills as u64;
        if index == 0 {
            self.report.outputs = outputs.to_vec();
            self.report.reference_outputs = reference.to_vec();
        }
        if outputs != reference && self.report.output_difference.is_none() {
            let k = (0..outputs.len().max(reference.len()))
                .find(|&k| outputs.get(k) != reference.get(k))
                .unwrap_or(0);
            let value = |v: Option<&u32>| v.map_or(u64::MAX, |&v| u64::from(v));
            self.report.output_difference = Some(Mismatch::new(
                index,
                || format!("program {index} (seed {seed}) output {k}"),
                value(reference.get(k)),
                value(outputs.get(k)),
            ));
        }
    }

    /// One cycle offering `offers`: the issued ones leave `offers`, `out`s join `outputs`.
    /// Returns how many issued; none when the RTL disagreed.
    fn cycle(&mut self, offers: &mut Vec<Option<Issue>>, outputs: &mut Vec<u32>) -> Option<usize> {
        self.machine.step_into(offers, &mut self.cycle);
        let cycle = &self.cycle;
        let at = self.report.cycles;
        self.report.cycles += 1;
        let issued = cycle.issued.iter().filter(|&&i| i).count();
        self.report.instructions += issued as u64;
        outputs.extend(cycle.outputs.iter().flatten());
        let device = self.device.as_mut().map(|d| d as _);
        if let Err(mismatch) = end_cycle(device, at, offers, cycle, self.progress) {
            self.report.lock_step.mismatches = 1;
            self.report.lock_step.first_mismatch = Some(mismatch);
            return None;
        }
        for (offer, &issued) in offers.iter_mut().zip(&cycle.issued) {
            if issued {
                *offer = None;
            }
        }
        self.last.copy_counters(cycle);
        Some(issued)
    }

    /// The report, with the counters of the last cycle.
    fn finish(mut self) -> ClusterReport {
        let r = &mut self.report;
        r.local_accesses = self.last.local_accesses;
        r.main_accesses = self.last.main_accesses;
        r.main_conflicts = self.last.main_conflicts;
        r.stall_cycles = self.last.stall_cycles;
        let accesses = (r.local_accesses + r.main_accesses).max(1);
        r.local_fraction = r.local_accesses as f64 / accesses as f64;
        r.energy_pj = self.options.energy_pj(r.local_accesses, r.main_accesses);
        // The last instruction writes back in the cycle after it issues.
        r.cycles += u64::from(r.cycles > 0);
        r.outputs_equal = r.output_difference.is_none();
        self.report
    }
}

/// Random programs drawn, at most, for one that fits the main file.
const MAX_DRAWS: usize = 100;

/// One clustered run: the programs of `options`, back to back until `options.cycles`, each
/// drawn or fed its inputs from a seed derived from `setup.seed`.
pub fn run(
    params: &ClusterParams,
    options: &ClusterOptions,
    setup: &Setup,
) -> Result<ClusterReport, SimError> {
    let programs = options.programs(params)?;
    let device = setup.device(|| ClusterRtl::build(params, setup))?;
    let mut runner = Runner {
        params,
        options,
        machine: ClusterMachine::new(params),
        device,
        progress: setup.progress,
        last: Cycle::default(),
        cycle: Cycle::default(),
        work: Work::default(),
        report: ClusterReport {
            baseline: options.baseline,
            ..Default::default()
        },
    };
    runner.report.lock_step.rtl = runner.device.is_some();
    let mut compiler = Compiler::default();
    // A fixed program compiles the same every time: once is enough.
    match &programs {
        Programs::Fixed(name, program) => {
            runner.report.program = name.clone();
            compiler
                .compile(program, params, options.baseline)
                .map_err(|full| {
                    SimError::Input(format!(
                        "invalid value {} for --main-regs: allowed at least {} for this program",
                        params.main_regs, full.needed
                    ))
                })?;
        }
        Programs::Random => runner.report.program = "random".into(),
    }
    let mut rng = Rng::new(setup.seed);
    loop {
        let seed = rng.next_u64();
        let before = runner.report.cycles;
        let agreed = match &programs {
            Programs::Fixed(_, program) => runner.program(program, &compiler, seed)?,
            Programs::Random => {
                let program = draw(params, options.baseline, &mut compiler, seed)?;
                runner.program(&program, &compiler, seed)?
            }
        };
        let stuck = runner.report.cycles == before;
        if !agreed || stuck || runner.report.cycles >= options.cycles {
            break;
        }
    }
    Ok(runner.finish())
}

/// The random program of `seed`, compiled by `compiler` (partitioned or the baseline): one
/// that needs more main registers than there are is drawn again.
fn draw(
    params: &ClusterParams,
    baseline: bool,
    compiler: &mut Compiler,
    seed: u64,
) -> Result<Vec<ClusterInstr>, SimError> {
    let mut draw = Rng::new(seed);
    let mut tries = 0;
    loop {
        let program = random(params.clusters, params.local_regs, &mut draw);
        match compiler.compile(&program, params, baseline) {
            Ok(()) => return Ok(program),
            Err(full) if tries == MAX_DRAWS => {
                return Err(SimError::Input(format!(
                    "invalid value {} for --main-regs: random programs need at least {} here",
                    params.main_regs, full.needed
                )))
            }
            Err(_) => tries += 1,
        }
    }
}
