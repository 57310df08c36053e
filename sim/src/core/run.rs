//! Running a workload on the core: the golden model alone or in lock step with the RTL.

use grfgen_hdl::params::CoreParams;
use serde::Serialize;

use super::bound::{lower_bound, LowerBound};
use super::model::{element_mask, CoreModel, CoreStats, CycleInput, CycleOutput, Policy, Read};
use super::workload::{program_registers, Workload, EXTERNAL_REGISTERS};
use crate::check::Mismatch;
use crate::rng::Rng;

/// The other side of a lock-step run: the RTL, stepped with the same inputs.
pub trait Device {
    /// Runs one cycle with `input` and compares what the device did with `expected`
    /// (the golden model's cycle `cycle`).
    fn cycle(&mut self, cycle: u64, input: &CycleInput, expected: &CycleOutput)
        -> Option<Mismatch>;
    /// Reads register `n` after the run.
    fn register(&mut self, n: usize) -> Vec<u64>;
}

/// The outcome of one run.
#[derive(Clone, Debug, Serialize)]
pub struct CoreRun {
    /// Policy.
    pub policy: Policy,
    /// Workload name.
    pub workload: String,
    /// Cycles from the first instruction offered to the last result written (0 for an empty
    /// program).
    pub cycles: u64,
    /// The lower bound for this program.
    pub lower_bound: LowerBound,
    /// Counts.
    #[serde(flatten)]
    pub stats: CoreStats,
    /// Mismatches found against the RTL (the run stops at the first).
    pub mismatches: u64,
    /// The first mismatch.
    pub first_mismatch: Option<Mismatch>,
    /// Per cycle, the GPR reads (kept on request).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schedule: Option<Vec<Vec<Read>>>,
}

/// The registers a program reads: loaded with random values before it runs.
fn inputs(workload: &Workload) -> Vec<usize> {
    let mut regs: Vec<usize> = workload
        .program
        .iter()
        .flat_map(|i| i.src.clone())
        .collect();
    regs.sort_unstable();
    regs.dedup();
    regs
}

/// Runs `workload` under `policy` from `seed` (initial register values and external traffic),
/// with `device` in lock step when given. Registers the program reads are first loaded through
/// the external write port (not counted in the cycles).
pub fn run(
    params: &CoreParams,
    policy: Policy,
    workload: &Workload,
    seed: u64,
    mut device: Option<&mut dyn Device>,
    keep_schedule: bool,
) -> CoreRun {
    let lanes = params.gpr.lanes;
    let mut rng = Rng::new(seed);
    let mut model = CoreModel::new(params, policy);
    let random_lanes = |rng: &mut Rng| -> Vec<u64> {
        (0..lanes)
            .map(|_| rng.next_u64() & element_mask())
            .collect()
    };
    let mut report = CoreRun {
        policy,
        workload: workload.name.clone(),
        cycles: 0,
        lower_bound: lower_bound(params, &workload.program, policy != Policy::Ideal),
        stats: CoreStats::default(),
        mismatches: 0,
        first_mismatch: None,
        schedule: keep_schedule.then(Vec::new),
    };
    let step = |model: &mut CoreModel,
                device: &mut Option<&mut dyn Device>,
                cycle: u64,
                input: &CycleInput,
                report: &mut CoreRun|
     -> Option<CycleOutput> {
        let out = model.step(input);
        if let Some(device) = device.as_deref_mut() {
            if let Some(m) = device.cycle(cycle, input, &out) {
                report.mismatches = 1;
                report.first_mismatch = Some(m);
                return None;
            }
        }
        Some(out)
    };

    // Load the program's inputs, one external write per cycle (the core is idle: always granted).
    for reg in inputs(workload) {
        let input = CycleInput {
            instruction: None,
            external: Some((reg, random_lanes(&mut rng))),
        };
        if step(&mut model, &mut device, 0, &input, &mut report).is_none() {
            return report;
        }
    }
    let warmup = model.stats().clone();

    let external_base = program_registers(params);
    let mut next = 0;
    let mut external: Option<(usize, Vec<u64>)> = None;
    let mut retired = 0;
    let mut cycle = 0u64;
    let n = workload.program.len();
    loop {
        if external.is_none() && workload.external_rate > 0 && retired < n {
            if rng.chance(workload.external_rate, 100) {
                let reg = external_base + rng.below(EXTERNAL_REGISTERS.min(params.gpr.registers));
                external = Some((reg, random_lanes(&mut rng)));
            }
        }
        let input = CycleInput {
            instruction: workload.program.get(next).cloned(),
            external: external.clone(),
        };
        let Some(out) = step(&mut model, &mut device, cycle, &input, &mut report) else {
            return report;
        };
        if out.ready && input.instruction.is_some() {
            next += 1;
        }
        if out.external_granted {
            external = None;
        }
        if out.retire.is_some() {
            retired += 1;
            report.cycles = cycle + 1;
        }
        if let Some(schedule) = report.schedule.as_mut() {
            if retired < n {
                schedule.push(out.reads.iter().flatten().copied().collect());
            }
        }
        cycle += 1;
        if next == n && model.idle() && external.is_none() {
            break;
        }
    }

    let mut stats = model.stats().clone();
    stats.external_writes -= warmup.external_writes;
    report.stats = stats;
    if let Some(device) = device.as_deref_mut() {
        for reg in 0..params.gpr.registers {
            let actual = device.register(reg);
            let expected = model.register(reg);
            if let Some(lane) = (0..lanes).find(|&l| actual[l] != expected[l]) {
                report.mismatches = 1;
                report.first_mismatch = Some(Mismatch::new(
                    cycle,
                    || format!("final R{reg} lane {lane}"),
                    expected[lane],
                    actual[lane],
                ));
                break;
            }
        }
    }
    report
}
