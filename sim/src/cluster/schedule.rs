//! From an allocated program to what the hardware is offered: every instruction with its
//! physical operands, the program's inputs loaded first, grouped into bundles that may issue
//! in the same cycle.

use super::interpret::input_value;
use super::machine::{Issue, Source};
use super::program::{ClusterOp, Operand};
use crate::compilers::cluster::allocate::{Allocation, Physical};

/// An instruction for cluster `.0` (from 0).
pub type Placed = (usize, Issue);

/// The instructions of `alloc` as the hardware takes them, in program order, in `stream`
/// (emptied first): first one `mov <reg>, #<value>` per program input (values from `seed`) on
/// the cluster whose file holds it, then the program.
pub fn lower(alloc: &Allocation, seed: u64, stream: &mut Vec<Placed>) {
    let loads = alloc.inputs.iter().map(|&(vr, cluster, reg)| {
        let value = Source::Immediate(input_value(seed, vr));
        let issue = Issue {
            op: ClusterOp::Mov,
            dst: Some(reg),
            src: [value, Source::Immediate(0)],
        };
        (cluster - 1, issue)
    });
    let placed = alloc.program.iter().zip(&alloc.src).zip(&alloc.dst);
    let program = placed.map(|((instr, placed), &dst)| {
        let mut src = [Source::Immediate(0); 2];
        for ((s, operand), placed) in src.iter_mut().zip(instr.src.iter()).zip(placed) {
            *s = match (operand, placed) {
                (Operand::Imm(v), _) => Source::Immediate(*v),
                (_, Some(Physical::Local(r))) => Source::Local(*r),
                (_, Some(Physical::Main(r))) => Source::Main(*r),
                (Operand::Reg(_), None) => unreachable!("the allocation places every source"),
            };
        }
        let issue = Issue {
            op: instr.op,
            dst,
            src,
        };
        (instr.cluster - 1, issue)
    });
    stream.clear();
    stream.extend(loads);
    stream.extend(program);
}

/// Whether an instruction reads main register `r`.
fn reads_main(issue: &Issue, r: usize) -> bool {
    issue.src.contains(&Source::Main(r))
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
    Bundles::new(stream).map(<[Placed]>::to_vec).collect()
}

/// The bundles of a stream, as [`bundles`] groups them, each a slice of the stream.
pub struct Bundles<'a> {
    /// The stream not yet grouped.
    rest: &'a [Placed],
}

impl<'a> Bundles<'a> {
    /// The bundles of `stream`.
    pub fn new(stream: &'a [Placed]) -> Self {
        Self { rest: stream }
    }
}

impl<'a> Iterator for Bundles<'a> {
    type Item = &'a [Placed];

    fn next(&mut self) -> Option<&'a [Placed]> {
        if self.rest.is_empty() {
            return None;
        }
        let mut len = 1;
        while len < self.rest.len() && fits(&self.rest[..len], &self.rest[len]) {
            len += 1;
        }
        let (bundle, rest) = self.rest.split_at(len);
        self.rest = rest;
        Some(bundle)
    }
}

/// Whether instruction `(cluster, issue)` can join `bundle` (see [`bundles`]).
fn fits(bundle: &[Placed], (cluster, issue): &Placed) -> bool {
    let write = main_write(issue);
    bundle.iter().all(|(c, other)| {
        let outs_in_order =
            !(issue.op == ClusterOp::Out && other.op == ClusterOp::Out) || c < cluster;
        let writes_read = main_write(other).is_some_and(|w| reads_main(issue, w));
        let reads_written =
            write.is_some_and(|w| reads_main(other, w) || main_write(other) == Some(w));
        c != cluster && outs_in_order && !writes_read && !reads_written
    })
}
