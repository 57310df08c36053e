//! The reference: a program run on one flat register space, and the checks a partitioned
//! program must pass.

use std::collections::BTreeMap;

use super::partition::live_ranges;
use super::program::{ClusterInstr, Operand, Reg};
use crate::rng::Rng;

/// The seeded value of program input `v<vr>`.
pub fn input_value(seed: u64, vr: usize) -> u32 {
    Rng::new(seed ^ (vr as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)).next_u64() as u32
}

/// Runs `program` on one flat register space, inputs from `seed`; returns the outputs in
/// order, or the first global register read before it is written.
pub fn interpret(program: &[ClusterInstr], seed: u64) -> Result<Vec<u32>, String> {
    let mut regs: BTreeMap<Reg, u32> = BTreeMap::new();
    let mut outputs = Vec::new();
    for (at, instr) in program.iter().enumerate() {
        let mut value = |operand: &Operand| -> Result<u32, String> {
            match operand {
                Operand::Imm(v) => Ok(*v),
                Operand::Reg(r @ Reg::Virtual(vr)) => {
                    Ok(*regs.entry(*r).or_insert_with(|| input_value(seed, *vr)))
                }
                Operand::Reg(r @ Reg::Main(_)) => regs.get(r).copied().ok_or_else(|| {
                    format!("instruction {at} ({instr}) reads {r} before any write")
                }),
            }
        };
        let a = value(&instr.src[0])?;
        let b = match instr.src.get(1) {
            Some(s) => value(s)?,
            None => 0,
        };
        let result = instr.op.apply(a, b);
        match instr.dst {
            Some(d) => {
                regs.insert(d, result);
            }
            None => outputs.push(result),
        }
    }
    Ok(outputs)
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
