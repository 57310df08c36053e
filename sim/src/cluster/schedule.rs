//! From an allocated program to what the hardware is offered: every instruction with its
//! physical operands, the program's inputs loaded first, grouped into bundles that may issue
//! in the same cycle.

use super::interpret::input_value;
use super::machine::{Issue, Source};
use super::program::{ClusterOp, Operand};
use crate::compilers::cluster::allocate::{Allocation, Physical};

/// An instruction for cluster `.0` (from 0).
pub type Placed = (usize, Issue);

/// The instructions of `alloc` as the hardware takes them, in program order: first one
/// `mov <reg>, #<value>` per program input (values from `seed`) on the cluster whose file
/// holds it, then the program.
pub fn lower(alloc: &Allocation, seed: u64) -> Vec<Placed> {
    let loads = alloc.inputs.iter().map(|&(vr, cluster, reg)| {
        let value = Source::Immediate(input_value(seed, vr));
        let issue = Issue {
            op: ClusterOp::Mov,
            dst: Some(reg),
            src: [value, Source::Immediate(0)],
        };
        (cluster - 1, issue)
    });
    let program = alloc.program.iter().enumerate().map(|(at, instr)| {
        let mut src = [Source::Immediate(0); 2];
        for (k, operand) in instr.src.iter().enumerate() {
            src[k] = match (operand, alloc.src[at][k]) {
                (Operand::Imm(v), _) => Source::Immediate(*v),
                (_, Some(Physical::Local(r))) => Source::Local(r),
                (_, Some(Physical::Main(r))) => Source::Main(r),
                (Operand::Reg(_), None) => unreachable!("the allocation places every source"),
            };
        }
        let issue = Issue {
            op: instr.op,
            dst: alloc.dst[at],
            src,
        };
        (instr.cluster - 1, issue)
    });
    loads.chain(program).collect()
}

/// The main registers an instruction reads.
fn main_reads(issue: &Issue) -> impl Iterator<Item = usize> + '_ {
    issue.src.iter().filter_map(|s| match s {
        Source::Main(r) => Some(*r),
        _ => None,
    })
}

/// The main register an instruction writes.
fn main_write(issue: &Issue) -> Option<usize> {
    match issue.dst {
        Some(Physical::Main(r)) => Some(r),
        _ => None,
    }
}

/// Groups `stream` greedily, in program order, into bundles that can issue together: at most
/// one instruction per cluster, no main register that one member writes and another reads or
/// writes, and `out`s in cluster order (the hardware shows a cycle's outputs in cluster
/// order). Locals cannot clash: each cluster's files are its own.
pub fn bundles(stream: &[Placed]) -> Vec<Vec<Placed>> {
    let mut bundles: Vec<Vec<Placed>> = Vec::new();
    let mut current: Vec<Placed> = Vec::new();
    for &(cluster, issue) in stream {
        let fits = current.iter().all(|(c, other)| {
            let writes_read = main_write(other).is_some_and(|w| main_reads(&issue).any(|r| r == w));
            let reads_written = main_write(&issue)
                .is_some_and(|w| main_reads(other).any(|r| r == w) || main_write(other) == Some(w));
            let outs_in_order =
                !(issue.op == ClusterOp::Out && other.op == ClusterOp::Out) || *c < cluster;
            *c != cluster && !writes_read && !reads_written && outs_in_order
        });
        if !fits {
            bundles.push(std::mem::take(&mut current));
        }
        current.push((cluster, issue));
    }
    if !current.is_empty() {
        bundles.push(current);
    }
    bundles
}
