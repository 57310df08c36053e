//! A draw call on the pool allocator: the preamble, then N waves of the main shader launched
//! as the pool allows, one instruction issued per cycle, loads with a latency; the release
//! placed where the run says.

use std::collections::VecDeque;

use grfgen_hdl::params::AllocParams;
use serde::{Deserialize, Serialize};

use super::model::{Allocation, PoolInputs, PoolModel, PoolOutputs};
use super::shader::{Instr, Op, Src};
use crate::check::{end_cycle, Device, Mismatch};
use crate::compilers::release::{Analysis, Assignment};
use crate::rng::Rng;

/// Where the release runs (SPEC S5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Placement {
    /// No release: every wave gets the compile-time allocation.
    None,
    /// The command processor loads the need as the footprint before launch.
    CommandProcessor,
    /// The preamble releases the excess once, before any wave launches.
    Preamble,
    /// Each wave's first instruction releases the excess for the waves after it.
    MainShader,
}

impl Placement {
    /// Every placement with its name.
    pub const ALL: [(Placement, &'static str); 4] = [
        (Placement::None, "none"),
        (Placement::CommandProcessor, "command-processor"),
        (Placement::Preamble, "preamble"),
        (Placement::MainShader, "main-shader"),
    ];

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(p, _)| *p == self)
            .expect("listed")
            .1
    }
}

/// The value memory holds at `address`.
pub fn memory(address: u32) -> u32 {
    Rng::new(u64::from(address) ^ 0x5bd1_e995).next_u64() as u32
}

/// A source's value for `wave`, registers read through `read`.
fn value(src: &Src, wave: usize, read: &mut impl FnMut(usize) -> u32) -> u32 {
    match *src {
        Src::Reg(r) => read(r),
        Src::Imm(v) => v,
        Src::Wave => wave as u32,
    }
}

/// The result of `instr` on source values `a` and `b`.
fn result(instr: &Instr, a: u32, b: u32) -> u32 {
    match instr.op {
        Op::Alu(alu) => alu.apply(a, b),
        Op::Load => memory(a),
        Op::Out => a,
    }
}

/// The outputs of `wave` running `path` (instruction ids) on its own registers as written:
/// the reference, independent of any allocation.
pub fn reference(by_id: &[&Instr], path: &[usize], wave: usize) -> Vec<u32> {
    let mut regs = [0u32; super::shader::MAX_REGISTERS];
    let mut outputs = Vec::new();
    for &id in path {
        let i = by_id[id];
        let mut read = |r: usize| regs[r];
        let a = value(&i.src[0], wave, &mut read);
        let b = i.src.get(1).map_or(0, |s| value(s, wave, &mut read));
        let v = result(i, a, b);
        match i.dst {
            Some(d) => regs[d] = v,
            None => outputs.push(v),
        }
    }
    outputs
}

/// A wave of the draw.
struct Wave {
    slot: usize,
    alloc: Allocation,
    /// Next step: with the main-shader placement step 0 is the release.
    pc: usize,
    ready_at: u64,
    outputs: Vec<u32>,
}

/// What a draw needs to run.
pub struct Draw<'a> {
    /// The pool.
    pub params: &'a AllocParams,
    /// The shader's instructions by id.
    pub by_id: Vec<&'a Instr>,
    /// The preamble.
    pub preamble: &'a [Instr],
    /// Physical registers of every instruction.
    pub regs: &'a Assignment,
    /// The compiler's and the release's figures.
    pub analysis: &'a Analysis,
    /// Where the release runs.
    pub placement: Placement,
    /// Waves in the draw.
    pub waves: usize,
    /// Cycles a load takes.
    pub latency: u64,
}

/// What a draw did.
#[derive(Clone, Debug, Default)]
pub struct DrawResult {
    /// Cycles from the first preamble instruction to the last retire.
    pub cycles: u64,
    /// Most waves resident at once.
    pub peak_resident: usize,
    /// Waves resident, on average over the cycles.
    pub mean_resident: f64,
    /// Registers released.
    pub released: u64,
    /// Cycles a wave waited to launch.
    pub launch_stalls: u64,
    /// Per wave, in launch order: the registers it was allocated.
    pub allocations: Vec<usize>,
    /// Per wave: its outputs.
    pub outputs: Vec<Vec<u32>>,
    /// The first difference between RTL and model, or the first broken rule.
    pub mismatch: Option<Mismatch>,
}

impl Draw<'_> {
    /// Cycles the preamble takes: one per instruction, the latency per load.
    fn preamble_cycles(&self) -> u64 {
        self.preamble
            .iter()
            .map(|i| if i.op == Op::Load { self.latency } else { 1 })
            .sum()
    }

    /// The most cycles the draw can take: every wave after the previous one, each instruction
    /// of its path taking the latency (one cycle more for the main-shader release), after the
    /// preamble.
    pub fn serial_cycles(&self) -> u64 {
        let path = &self.analysis.paths[self.analysis.selected].instructions;
        let wave = (path.len() as u64 + 2).saturating_mul(self.latency.max(1));
        self.preamble_cycles()
            .saturating_add(2)
            .saturating_add((self.waves as u64).saturating_mul(wave + 2))
    }

    /// The pool's inputs at `cycle` before a wave issues: a `launch`, a `retire`, the
    /// footprint loaded at the start, and the release at the end of a `preamble`-cycle
    /// preamble when the draw releases there.
    fn inputs(&self, cycle: u64, preamble: u64, launch: bool, retire: Option<usize>) -> PoolInputs {
        let mut inputs = PoolInputs {
            launch,
            retire,
            ..Default::default()
        };
        if cycle == 0 {
            inputs.set_footprint = Some(match self.placement {
                Placement::CommandProcessor => self.analysis.needed as u32,
                _ => self.analysis.allocated as u32,
            });
        }
        if self.placement == Placement::Preamble && cycle == preamble {
            inputs.release = Some(self.analysis.released as u32);
        }
        inputs
    }

    /// Runs the draw, with `device` in lock step when given.
    pub fn run(
        &self,
        mut device: Option<&mut dyn Device<Input = PoolInputs, Expected = PoolOutputs>>,
        progress: &dyn Fn(u64),
    ) -> DrawResult {
        let path = &self.analysis.paths[self.analysis.selected].instructions;
        let steps = path.len() + usize::from(self.placement == Placement::MainShader);
        let preamble = self.preamble_cycles();
        let launch_from = match self.placement {
            Placement::Preamble => preamble + 1,
            _ => preamble.max(1),
        };
        let mut pool = PoolModel::new(self.params);
        let mut regs = vec![0u32; self.params.pool];
        let mut waves: Vec<Wave> = Vec::new();
        // Launched waves not yet retiring, oldest first: the only ones that can issue.
        let mut live: Vec<usize> = Vec::new();
        let mut retires: VecDeque<usize> = VecDeque::new();
        let (mut out, mut resident_sum, mut retired) = (DrawResult::default(), 0u64, 0);
        let mut cycle = 0;
        while retired < self.waves {
            let launch = waves.len() < self.waves && cycle >= launch_from;
            let retire = retires.pop_front().map(|w| waves[w].slot);
            let mut inputs = self.inputs(cycle, preamble, launch, retire);
            retired += usize::from(inputs.retire.is_some());
            // The oldest resident wave that is ready issues.
            let issuing = (cycle >= launch_from)
                .then(|| {
                    live.iter()
                        .copied()
                        .find(|&w| waves[w].pc < steps && waves[w].ready_at <= cycle)
                })
                .flatten();
            if let (Some(w), Placement::MainShader) = (issuing, self.placement) {
                if waves[w].pc == 0 {
                    let n = (pool.footprint() as usize).saturating_sub(self.analysis.needed);
                    inputs.release = (n > 0).then_some(n as u32);
                }
            }
            let shown = pool.step(&inputs);
            if let Err(m) = end_cycle(device.as_deref_mut(), cycle, &inputs, &shown, progress) {
                out.mismatch = Some(m);
                break;
            }
            if let Err(m) = pool.check() {
                out.mismatch = Some(Mismatch::new(cycle, || format!("invariant: {m}"), 0, 1));
                break;
            }
            resident_sum += shown.resident as u64;
            out.peak_resident = out.peak_resident.max(shown.resident);
            if let Some((slot, alloc)) = shown.launched {
                if alloc.size < self.analysis.needed {
                    out.mismatch = Some(Mismatch::new(
                        cycle,
                        || {
                            format!(
                                "invariant: wave {} allocated less than its path needs",
                                waves.len()
                            )
                        },
                        self.analysis.needed as u64,
                        alloc.size as u64,
                    ));
                    break;
                }
                out.allocations.push(alloc.size);
                waves.push(Wave {
                    slot,
                    alloc,
                    pc: 0,
                    ready_at: cycle + 1,
                    outputs: Vec::new(),
                });
                live.push(waves.len() - 1);
            }
            if let Some(w) = issuing {
                if let Err(m) = self.step(&mut waves[w], w, path, &mut regs, cycle) {
                    out.mismatch = Some(m);
                    break;
                }
            }
            live.retain(|&k| {
                let done = waves[k].pc == steps && waves[k].ready_at <= cycle + 1;
                if done {
                    retires.push_back(k);
                }
                !done
            });
            cycle += 1;
        }
        out.cycles = cycle;
        out.mean_resident = resident_sum as f64 / cycle.max(1) as f64;
        out.released = pool.released();
        out.launch_stalls = pool.launch_stalls();
        out.outputs = waves.into_iter().map(|w| w.outputs).collect();
        out
    }

    /// Wave `w` issues its next step at `cycle`: its registers are `base + r` of the pool, and
    /// a register at or beyond its allocation is a broken rule.
    fn step(
        &self,
        wave: &mut Wave,
        w: usize,
        path: &[usize],
        regs: &mut [u32],
        cycle: u64,
    ) -> Result<(), Mismatch> {
        let k = wave.pc - usize::from(self.placement == Placement::MainShader);
        wave.pc += 1;
        wave.ready_at = cycle + 1;
        if wave.pc == 1 && self.placement == Placement::MainShader {
            return Ok(());
        }
        let id = path[k];
        let instr = self.by_id[id];
        let alloc = wave.alloc;
        let check = |r: usize| match r < alloc.size {
            true => Ok(alloc.base + r),
            false => Err(Mismatch::new(
                cycle,
                || format!("wave {w} register r{r} (allocation {})", alloc.size),
                alloc.size as u64,
                r as u64,
            )),
        };
        let mut values = [0u32; 2];
        for (s, src) in instr.src.iter().enumerate() {
            values[s] = match (src, self.regs.src[id][s]) {
                (Src::Reg(_), Some(phys)) => regs[check(phys)?],
                (other, _) => value(other, w, &mut |_| 0),
            };
        }
        let v = result(instr, values[0], values[1]);
        match self.regs.dst[id] {
            Some(phys) => regs[check(phys)?] = v,
            None => wave.outputs.push(v),
        }
        if instr.op == Op::Load {
            wave.ready_at = cycle + self.latency;
        }
        Ok(())
    }
}
