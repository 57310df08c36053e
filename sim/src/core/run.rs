//! Running a workload on the core: the golden model alone or in lock step with the RTL.

use grfgen_hdl::params::CoreParams;
use serde::Serialize;

use super::bound::{waves_lower_bound, LowerBound};
use super::external::ExternalUnit;
use super::figures::ProgramFigures;
use super::model::{
    element_mask, CoreModel, CoreStats, CycleInput, CycleOutput, ExternalWrite, Policy, Read,
};
use super::program::Instruction;
use super::verilated::CoreDevice;
use super::waves::{PerWave, Registers, WaveMap};
use super::workload::Workload;
use crate::check::{LockStep, Mismatch};
use crate::rng::Rng;

/// The outcome of one run of a workload under one policy.
#[derive(Clone, Debug, Serialize)]
pub struct CoreRun {
    /// Policy.
    pub policy: Policy,
    /// Workload name.
    pub workload: String,
    /// Cycles from the first instruction offered until the program is done: its last
    /// instruction through the ALU and its last long-latency result written (0 for an empty
    /// program).
    pub cycles: u64,
    /// The lower bound for this program, in cycles.
    pub lower_bound: u64,
    /// The terms the bound is the largest of.
    pub lower_bound_terms: LowerBound,
    /// What the program's text holds.
    #[serde(flatten)]
    pub program: ProgramFigures,
    /// Counts.
    #[serde(flatten)]
    pub stats: CoreStats,
    /// Whether the RTL ran in lock step, and what it found (the run stops at the first
    /// mismatch).
    #[serde(flatten)]
    pub lock_step: LockStep,
    /// Per cycle, the GPR reads (kept on request).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schedule: Option<Vec<Vec<Read>>>,
    /// Waves that ran the program, each on its own registers (`docs/core.md`, "Waves").
    pub waves: usize,
    /// Registers from one wave's start to the next's (before `--wave-base`'s stagger).
    pub footprint: usize,
    /// Instructions issued over every wave per cycle.
    pub ipc: f64,
    /// Per wave, the value of every register the program reads before writing it, per lane,
    /// as loaded before the run, keyed by the program's own names (`R5`).
    pub inputs: PerWave<Registers>,
    /// Per wave, the final value of every register the program writes, per lane, after the
    /// run, keyed by the program's own names.
    pub outputs: PerWave<Registers>,
}

impl CoreRun {
    /// Cycles over the lower bound.
    pub fn ratio(&self) -> f64 {
        self.cycles as f64 / self.lower_bound.max(1) as f64
    }
}

/// The registers a program reads before it writes them (its inputs), in order: loaded with
/// seeded random values before it runs.
pub fn inputs(program: &[Instruction]) -> Vec<usize> {
    let registers = (program.iter())
        .flat_map(|i| i.reads().chain(i.written()))
        .max()
        .map_or(0, |r| r + 1);
    let (mut written, mut read) = (vec![false; registers], vec![false; registers]);
    for i in program {
        for r in i.reads() {
            read[r] |= !written[r];
        }
        for r in i.written() {
            written[r] = true;
        }
    }
    (0..registers).filter(|&r| read[r]).collect()
}

/// The golden model and, when given, the device, one cycle in lock step.
struct Sides<'a> {
    model: CoreModel,
    device: Option<&'a mut dyn CoreDevice>,
}

impl Sides<'_> {
    /// Steps both; the model's output, or the first mismatch.
    fn step(&mut self, cycle: u64, input: &CycleInput) -> Result<CycleOutput, Mismatch> {
        let out = self.model.step(input);
        grfgen_support::interrupt::at_cycle(cycle);
        if let Some(device) = self.device.as_deref_mut() {
            crate::check::device_cycle(device, cycle, input, &out)?;
        }
        Ok(out)
    }

    /// After the run: every register of the device against the model's.
    fn final_registers(&mut self, cycle: u64, registers: usize) -> Result<(), Mismatch> {
        let Some(device) = self.device.as_deref_mut() else {
            return Ok(());
        };
        for reg in 0..registers {
            let actual = device.register(reg);
            let expected = self.model.register(reg);
            if let Some(lane) = (0..expected.len()).find(|&l| actual[l] != expected[l]) {
                let port = || format!("final R{reg} lane {lane}");
                return Err(Mismatch::new(cycle, port, expected[lane], actual[lane]));
            }
        }
        Ok(())
    }
}

/// Runs `workload` under `policy` from `seed` (initial register values and external traffic),
/// with `device` in lock step when given, on `params.waves` waves (settled: see
/// [`settle`](super::waves::settle)), each on its own registers. Registers the program reads are first loaded through
/// the external write port (not counted in the cycles).
pub fn run(
    params: &CoreParams,
    policy: Policy,
    workload: &Workload,
    seed: u64,
    device: Option<&mut dyn CoreDevice>,
    keep_schedule: bool,
) -> CoreRun {
    let banked = policy != Policy::Ideal;
    let map = WaveMap::new(
        params,
        &workload.program,
        params.wave_count(),
        workload.wave_base,
    );
    let programs: Vec<Vec<Instruction>> = (0..map.waves)
        .map(|w| map.program(&workload.program, w))
        .collect();
    let views: Vec<&[Instruction]> = programs.iter().map(Vec::as_slice).collect();
    let bound = waves_lower_bound(params, &views, &workload.latencies, banked);
    let mut report = CoreRun {
        policy,
        workload: workload.name.clone(),
        cycles: 0,
        lower_bound: bound.cycles,
        lower_bound_terms: bound,
        program: workload.figures.clone(),
        stats: CoreStats::default(),
        lock_step: LockStep {
            rtl: device.is_some(),
            ..LockStep::default()
        },
        schedule: keep_schedule.then(Vec::new),
        waves: map.waves,
        footprint: map.footprint,
        ipc: 0.0,
        inputs: PerWave::default(),
        outputs: PerWave::default(),
    };
    let mut lock = Sides {
        model: CoreModel::new(params, policy),
        device,
    };
    let run = Stream {
        workload,
        programs: &programs,
        map: &map,
    };
    let outcome = execute(params, &run, seed, &mut lock, &mut report)
        .and_then(|cycle| lock.final_registers(cycle, params.gpr.registers));
    if let Err(mismatch) = outcome {
        report.lock_step.mismatches = 1;
        report.lock_step.first_mismatch = Some(mismatch);
    }
    report.ipc = report.stats.instructions as f64 / report.cycles.max(1) as f64;
    let written: std::collections::BTreeSet<usize> =
        workload.program.iter().flat_map(|i| i.written()).collect();
    report.outputs = PerWave(
        (0..map.waves)
            .map(|w| {
                (written.iter())
                    .map(|&dst| {
                        let values = lock.model.register(dst + map.base(w)).to_vec();
                        (format!("R{dst}"), values)
                    })
                    .collect()
            })
            .collect(),
    );
    report
}

/// What a run offers the core: the workload, and each wave's program on its registers.
struct Stream<'a> {
    workload: &'a Workload,
    programs: &'a [Vec<Instruction>],
    map: &'a WaveMap,
}

/// The seed of wave `wave`'s input values (wave 0's come from the run's own generator, so that
/// one wave runs as it always has).
fn wave_seed(seed: u64, wave: usize) -> u64 {
    seed ^ (0x7761_7665 << 32 | wave as u64)
}

/// Loads every wave's inputs, one external write per cycle (the core is idle: always granted):
/// wave 0's drawn from `rng`, the others' from their own seeds, the workload's fixed values in
/// place of drawn ones. Records them in `report`.
fn load_inputs(
    params: &CoreParams,
    stream: &Stream,
    seed: u64,
    rng: &mut Rng,
    lock: &mut Sides,
    report: &mut CoreRun,
) -> Result<(), Mismatch> {
    let lanes = params.gpr.lanes;
    let registers = inputs(&stream.workload.program);
    for wave in 0..stream.map.waves {
        let mut own = Rng::new(wave_seed(seed, wave));
        let draws = if wave == 0 { &mut *rng } else { &mut own };
        let mut loaded = Registers::new();
        for &reg in &registers {
            let drawn: Vec<u64> = (0..lanes)
                .map(|_| draws.next_u64() & element_mask())
                .collect();
            let values = (stream.workload.input_values.get(&reg).cloned()).unwrap_or(drawn);
            loaded.insert(format!("R{reg}"), values.clone());
            let input = CycleInput {
                instructions: Vec::new(),
                external: Some(ExternalWrite {
                    reg: reg + stream.map.base(wave),
                    values,
                    result: false,
                }),
            };
            lock.step(0, &input)?;
        }
        report.inputs.0.push(loaded);
    }
    Ok(())
}

/// Loads the program's inputs, then runs it until it is done: every instruction issued and
/// through the ALU, every long-latency result written back by the external unit. Counts into
/// `report`; the cycles taken.
fn execute(
    params: &CoreParams,
    stream: &Stream,
    seed: u64,
    lock: &mut Sides,
    report: &mut CoreRun,
) -> Result<u64, Mismatch> {
    let (lanes, workload, programs) = (params.gpr.lanes, stream.workload, stream.programs);
    let mut rng = Rng::new(seed);
    let random_lanes = |rng: &mut Rng| -> Vec<u64> {
        (0..lanes)
            .map(|_| rng.next_u64() & element_mask())
            .collect()
    };
    load_inputs(params, stream, seed, &mut rng, lock, report)?;
    let warmup = lock.model.stats().external_writes;
    let external_base = params.program_registers();
    let external_registers = CoreParams::EXTERNAL_REGISTERS.min(params.gpr.registers);
    let mut unit = ExternalUnit::new(&workload.latencies);
    // The texture-return traffic's write, presented until granted when no long-latency write is
    // ready; each wave's next instruction, fetched again only when its stream moves on.
    let mut traffic: Option<ExternalWrite> = None;
    let mut input = CycleInput {
        instructions: programs.iter().map(|p| p.first().cloned()).collect(),
        external: None,
    };
    let mut next = vec![0; programs.len()];
    let finished = |next: &[usize]| next.iter().zip(programs).all(|(&n, p)| n == p.len());
    let (mut cycle, mut done) = (0u64, finished(&next));
    loop {
        if traffic.is_none()
            && workload.external_rate > 0
            && !done
            && rng.chance(workload.external_rate, 100)
        {
            traffic = Some(ExternalWrite {
                reg: external_base + rng.below(external_registers),
                values: random_lanes(&mut rng),
                result: false,
            });
        }
        let busy = !lock.model.idle();
        let long_write = unit.offer(cycle);
        input.external = long_write.clone().or_else(|| traffic.clone());
        let out = lock.step(cycle, &input)?;
        for (w, &taken) in out.ready.iter().enumerate() {
            if taken && input.instructions[w].is_some() {
                next[w] += 1;
                input.instructions[w] = programs[w].get(next[w]).cloned();
            }
        }
        match (out.external_granted, &long_write) {
            (true, Some(_)) => unit.performed(),
            (true, None) => traffic = None,
            (false, _) => {}
        }
        if let Some(long) = &out.long {
            unit.hand_over(cycle, long);
        }
        if busy {
            report.cycles = cycle + 1;
        }
        done = finished(&next) && lock.model.idle() && unit.idle();
        if let (Some(schedule), false) = (report.schedule.as_mut(), done) {
            schedule.push(out.reads.iter().flatten().copied().collect());
        }
        cycle += 1;
        if done && traffic.is_none() {
            break;
        }
    }
    report.stats = lock.model.stats().clone();
    report.stats.external_writes -= warmup;
    Ok(cycle)
}
