//! Tests of the ir3 reader, on small hand-written snippets.

mod errors;
mod lowering;
mod source;
mod syntax;
mod units;

use grfgen_hdl::params::{CoreOp, CoreUnit};

use super::{read, Ir3Options, Ir3Program};
use crate::core::program::{Instruction, ParseError, Source, Wait};

/// The program registers the tests read for (r0.x..r59.w).
const REGISTERS: usize = 240;

/// `text` read, which must succeed.
fn program(text: &str) -> Ir3Program {
    read(text, REGISTERS, &Ir3Options::default()).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// `text` read with nops kept.
fn with_nops(text: &str) -> Ir3Program {
    let options = Ir3Options { keep_nops: true };
    read(text, REGISTERS, &options).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// The micro-ops of `text`.
fn micro(text: &str) -> Vec<Instruction> {
    program(text).instructions
}

/// The one micro-op of `text`.
fn only(text: &str) -> Instruction {
    let mut ops = micro(text);
    assert_eq!(ops.len(), 1, "{text}: {ops:?}");
    ops.remove(0)
}

/// The error reading `text` gives.
fn failure(text: &str) -> ParseError {
    match read(text, REGISTERS, &Ir3Options::default()) {
        Ok(p) => panic!("{text} read: {:?}", p.instructions),
        Err(e) => e,
    }
}

/// The index of full register `rN.c`.
fn r(n: usize, c: usize) -> usize {
    4 * n + c
}

/// The full register holding half register `hrN.c`.
fn hr(n: usize, c: usize) -> usize {
    (4 * n + c) / 2
}

/// The registers a micro-op reads.
fn regs(op: &Instruction) -> Vec<usize> {
    op.reads().collect()
}

/// Register sources.
fn sources(regs: &[usize]) -> Vec<Source> {
    regs.iter().map(|&r| Source::Reg(r)).collect()
}
