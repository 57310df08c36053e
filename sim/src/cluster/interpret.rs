//! The reference: a program run on one flat register space, and the checks a partitioned
//! program must pass.

use std::collections::BTreeMap;

use super::program::{ClusterInstr, Operand, Reg};
use super::regmap::RegisterMap;
use crate::compilers::cluster::allocate::{Allocation, Physical};
use crate::compilers::cluster::partition::{live_ranges, Partitioned};
use crate::rng::Rng;

/// The seeded value of program input `v<vr>`.
pub fn input_value(seed: u64, vr: usize) -> u32 {
    Rng::new(seed ^ (vr as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)).next_u64() as u32
}

/// Runs `program` on one flat register space, inputs from `seed`; returns the outputs in
/// order, or the first global register read before it is written.
pub fn interpret(program: &[ClusterInstr], seed: u64) -> Result<Vec<u32>, String> {
    let mut outputs = Vec::new();
    FlatRegisters::default().run(program, &BTreeMap::new(), seed, &mut outputs)?;
    Ok(outputs)
}

/// Runs a partitioned program on one flat register space (its global registers that start
/// with an input included), inputs from `seed`.
pub fn interpret_partitioned(partitioned: &Partitioned, seed: u64) -> Result<Vec<u32>, String> {
    let mut outputs = Vec::new();
    let main_inputs = &partitioned.main_inputs;
    FlatRegisters::default().run(&partitioned.program, main_inputs, seed, &mut outputs)?;
    Ok(outputs)
}

/// One flat register space, kept across programs to reuse its storage.
#[derive(Default)]
pub struct FlatRegisters {
    /// The virtual registers' values.
    virtuals: RegisterMap<u32>,
    /// The global registers' values.
    mains: RegisterMap<u32>,
}

impl FlatRegisters {
    /// Runs `program` on these registers, emptied first, global registers `main_inputs`
    /// starting with the input they name and inputs from `seed`; its outputs, in order, in
    /// `outputs` (emptied first). Fails on the first global register read before any write.
    pub fn run(
        &mut self,
        program: &[ClusterInstr],
        main_inputs: &BTreeMap<usize, usize>,
        seed: u64,
        outputs: &mut Vec<u32>,
    ) -> Result<(), String> {
        self.virtuals.clear(program.len());
        self.mains.clear(program.len());
        for (&m, &vr) in main_inputs {
            self.mains.insert(m, input_value(seed, vr));
        }
        outputs.clear();
        for (at, instr) in program.iter().enumerate() {
            let mut value = |operand: &Operand| {
                self.value(operand, seed)
                    .ok_or_else(|| unwritten(at, instr, operand))
            };
            let a = value(&instr.src[0])?;
            let b = match instr.src.get(1) {
                Some(s) => value(s)?,
                None => 0,
            };
            let result = instr.op.apply(a, b);
            match instr.dst {
                Some(Reg::Virtual(n)) => self.virtuals.insert(n, result),
                Some(Reg::Main(n)) => self.mains.insert(n, result),
                None => outputs.push(result),
            }
        }
        Ok(())
    }

    /// The value of `operand`, none for a global register read before any write: a virtual
    /// register read before any write holds its input from `seed` from then on.
    fn value(&mut self, operand: &Operand, seed: u64) -> Option<u32> {
        match *operand {
            Operand::Imm(v) => Some(v),
            Operand::Reg(Reg::Virtual(vr)) => Some(self.virtuals.get(vr).unwrap_or_else(|| {
                let input = input_value(seed, vr);
                self.virtuals.insert(vr, input);
                input
            })),
            Operand::Reg(Reg::Main(m)) => self.mains.get(m),
        }
    }
}

/// Why instruction `at`, `instr`, cannot read `operand`: a global register nothing wrote.
#[cold]
fn unwritten(at: usize, instr: &ClusterInstr, operand: &Operand) -> String {
    format!("instruction {at} ({instr}) reads {operand} before any write")
}

/// The first live range of a local (virtual) register of `program` that more than one
/// cluster touches, as a message; none when every cluster keeps to its own local file.
pub fn foreign_local_access(program: &[ClusterInstr]) -> Option<String> {
    live_ranges(program).into_iter().find_map(|range| {
        let first = range.accesses[0];
        let other = range.accesses.iter().find(|a| a.cluster != first.cluster)?;
        Some(format!(
            "v{} is touched by c{} (instruction {}) and c{} (instruction {})",
            range.vr, first.cluster, first.at, other.cluster, other.at
        ))
    })
}

/// Runs an allocated program on the clustered files: `clusters` local files and the main file,
/// physical registers only, inputs placed where the allocation put them (values from `seed`).
/// Returns the outputs, or the first read of a register nothing wrote.
pub fn run_allocated(alloc: &Allocation, clusters: usize, seed: u64) -> Result<Vec<u32>, String> {
    let mut local: Vec<BTreeMap<usize, u32>> = vec![BTreeMap::new(); clusters];
    let mut main: BTreeMap<usize, u32> = BTreeMap::new();
    for &(vr, cluster, reg) in &alloc.inputs {
        let value = input_value(seed, vr);
        match reg {
            Physical::Local(r) => local[cluster - 1].insert(r, value),
            Physical::Main(r) => main.insert(r, value),
        };
    }
    let mut outputs = Vec::new();
    for (at, instr) in alloc.program.iter().enumerate() {
        let c = instr.cluster - 1;
        let mut values = Vec::new();
        for (k, s) in instr.src.iter().enumerate() {
            values.push(match (s, alloc.src[at][k]) {
                (Operand::Imm(v), _) => *v,
                (_, Some(Physical::Local(r))) => *local[c]
                    .get(&r)
                    .ok_or_else(|| format!("instruction {at} ({instr}) reads r{r} unwritten"))?,
                (_, Some(Physical::Main(r))) => *main
                    .get(&r)
                    .ok_or_else(|| format!("instruction {at} ({instr}) reads m{r} unwritten"))?,
                (_, None) => return Err(format!("instruction {at} ({instr}): source unplaced")),
            });
        }
        let result = instr
            .op
            .apply(values[0], values.get(1).copied().unwrap_or(0));
        match (instr.dst, alloc.dst[at]) {
            (None, _) => outputs.push(result),
            (Some(_), Some(Physical::Local(r))) => {
                local[c].insert(r, result);
            }
            (Some(_), Some(Physical::Main(r))) => {
                main.insert(r, result);
            }
            (Some(_), None) => return Err(format!("instruction {at} ({instr}): result unplaced")),
        }
    }
    Ok(outputs)
}
