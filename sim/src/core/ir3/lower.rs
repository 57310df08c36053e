//! Lowering: `(rptN)` expansion, the core micro-ops each copy becomes, the register checks and
//! the statistics.

use grfgen_hdl::params::{CoreOp, CoreUnit};

use super::line::{Line, Statement};
use super::opcodes::Kind;
use super::operand::{Atom, Inner, Reg};
use super::roles::{self, Plan, Value, Write};
use super::text::{register_name, span, Ir3Source, RegisterToken};
use super::{const_value, Ir3Program, Ir3Stats};
use crate::core::program::{Instruction, ParseError, Source, Wait};

/// The sources of a micro-op that reads nothing.
const NOTHING: [Source; 1] = [Source::Imm(0)];

/// The message for a register component past the file.
fn above_file(half: bool, component: u64, registers: usize) -> String {
    let full = if half { component / 2 } else { component };
    let per_register = if half { 2 } else { 1 };
    let range = match (registers as u64).saturating_mul(per_register) {
        0 => "the file has no program registers".to_string(),
        last => format!(
            "the program registers are {}..{}",
            register_name(half, 0),
            register_name(half, last - 1)
        ),
    };
    format!(
        "register {} (index {full}) is above the file: {range}",
        register_name(half, component)
    )
}

/// The core op for a micro-op of `count` operands of an instruction with base `base`.
fn op_for(base: &str, count: usize) -> CoreOp {
    match count {
        0 | 1 => CoreOp::Mov,
        2 if base.starts_with("sub") => CoreOp::Sub,
        2 if base.starts_with("mul") => CoreOp::Mul,
        2 => CoreOp::Add,
        _ => CoreOp::Mad,
    }
}

/// The registers named by an operand's atom (itself, or inside a memory operand).
fn named<'a>(atom: &Atom<'a>) -> Vec<Reg<'a>> {
    match atom {
        Atom::Reg(reg) => vec![*reg],
        Atom::Memory(inner) => inner
            .iter()
            .filter_map(|named| match named {
                Inner::Reg(reg) => Some(*reg),
                Inner::Const(_) => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The program being lowered, instruction by instruction.
pub(super) struct Lowering {
    /// The program registers.
    registers: usize,
    /// Whether nops become micro-ops.
    keep_nops: bool,
    /// The micro-ops so far.
    instructions: Vec<Instruction>,
    /// Each micro-op's ir3 instruction.
    origin: Vec<usize>,
    /// The statistics so far.
    stats: Ir3Stats,
    /// The index of the next ir3 instruction.
    next: usize,
    /// The waits of dropped instructions, for the next micro-op.
    pending: Wait,
}

impl Lowering {
    /// An empty program for `registers` program registers.
    pub(super) fn new(registers: usize, keep_nops: bool) -> Self {
        Self {
            registers,
            keep_nops,
            instructions: Vec::new(),
            origin: Vec::new(),
            stats: Ir3Stats::default(),
            next: 0,
            pending: Wait::default(),
        }
    }

    /// The index the next ir3 instruction gets.
    pub(super) fn next(&self) -> usize {
        self.next
    }

    /// Adds one instruction line (`base` being the whole text, for the tokens' spans).
    pub(super) fn add(
        &mut self,
        line: &Line,
        st: &Statement,
        source: &mut Ir3Source,
        base: &str,
    ) -> Result<(), ParseError> {
        let copies = st.flags.rpt + 1;
        self.record(line, st, source, base)?;
        let ignored = st.operands.iter().flat_map(|op| op.ignored.iter());
        for flag in st.flags.ignored.iter().chain(ignored) {
            *self
                .stats
                .flags_ignored
                .entry(flag.to_string())
                .or_default() += 1;
        }
        let mut wait = Wait {
            ss: st.flags.ss,
            sy: st.flags.sy,
        };
        match roles::plan(line, st)? {
            Some(plan) => {
                for k in 0..copies {
                    self.copy(line, st, &plan, k, std::mem::take(&mut wait))?;
                }
            }
            None => self.drop(st.kind, copies, wait),
        }
        self.stats.nops += st.flags.nop as u64;
        for _ in 0..st.flags.nop {
            self.nop(self.next + copies - 1);
        }
        self.next += copies;
        Ok(())
    }

    /// The statistics and micro-ops, with `source`.
    pub(super) fn finish(mut self, source: Ir3Source) -> Ir3Program {
        self.stats.micro_ops = self.instructions.len() as u64;
        Ir3Program {
            instructions: self.instructions,
            origin: self.origin,
            stats: self.stats,
            source,
        }
    }

    /// Keeps the register tokens of `st` in `source`, each checked against the file (but the
    /// destination sentinel `r63.x`).
    fn record(
        &self,
        line: &Line,
        st: &Statement,
        source: &mut Ir3Source,
        base: &str,
    ) -> Result<(), ParseError> {
        let destination = roles::destination(st.kind);
        for (position, op) in st.operands.iter().enumerate() {
            for reg in named(&op.atom) {
                let destination = destination == Some(position);
                if !(destination && matches!(reg.text, "r63.x" | "hr63.x")) {
                    self.full(line, &reg, reg.index)?;
                }
                source.registers.push(RegisterToken {
                    span: span(base, reg.text),
                    half: reg.half,
                    index: usize::try_from(reg.index).unwrap_or(usize::MAX),
                    repeat: op.repeat,
                    instruction: self.next,
                    copies: st.flags.rpt + 1,
                    operand: position,
                    destination,
                });
            }
        }
        Ok(())
    }

    /// The full register that component `component` of `reg`'s kind lives in, checked.
    fn full(&self, line: &Line, reg: &Reg, component: u64) -> Result<usize, ParseError> {
        let full = if reg.half { component / 2 } else { component };
        match usize::try_from(full) {
            Ok(full) if full < self.registers => Ok(full),
            _ => {
                let message = above_file(reg.half, component, self.registers);
                Err(line.error(reg.text, message))
            }
        }
    }

    /// The first register and the count copy `k` of `write` writes.
    fn written(
        &self,
        line: &Line,
        st: &Statement,
        write: &Write,
        k: u64,
    ) -> Result<(usize, usize), ParseError> {
        if write.count == 0 {
            return Ok((0, 0));
        }
        let start = write.reg.index.saturating_add(write.first + k);
        let mut low = None;
        for component in start..start.saturating_add(write.count) {
            let full = self.full(line, &write.reg, component)?;
            low = low.or(Some(full));
        }
        let last = start.saturating_add(write.count - 1);
        let (low, high) = (low.unwrap_or(0), self.full(line, &write.reg, last)?);
        let writes = high - low + 1;
        if writes > Instruction::MAX_WRITES {
            let message = format!(
                "`{}` writes {writes} registers from {}: an instruction writes at most {}",
                st.mnemonic,
                write.reg.text,
                Instruction::MAX_WRITES
            );
            return Err(line.error(write.reg.text, message));
        }
        Ok((low, writes))
    }

    /// Appends the sources copy `k` of `value` reads, and counts them.
    fn read(
        &mut self,
        line: &Line,
        value: &Value,
        k: u64,
        src: &mut Vec<Source>,
    ) -> Result<(), ParseError> {
        match *value {
            Value::Reg { reg, count, repeat } => {
                let from = reg.index.saturating_add(if repeat { k } else { 0 });
                for component in from..from.saturating_add(count) {
                    src.push(Source::Reg(self.full(line, &reg, component)?));
                    self.stats.gpr_reads += 1;
                    self.stats.half_reads += u64::from(reg.half);
                }
            }
            Value::Const { c, repeat } => {
                let index = c.index.wrapping_add(if repeat { k as i64 } else { 0 });
                let index = if c.half { index.div_euclid(2) } else { index };
                src.push(Source::Imm(const_value(index as u32)));
                self.stats.const_reads += 1;
            }
            Value::Imm { value, repeat } => {
                src.push(Source::Imm(value.wrapping_add(if repeat {
                    k as u32
                } else {
                    0
                })));
                self.stats.imm_reads += 1;
            }
            Value::Fixed(value) => src.push(Source::Imm(value)),
        }
        Ok(())
    }

    /// Lowers copy `k` of an instruction that runs on a unit.
    fn copy(
        &mut self,
        line: &Line,
        st: &Statement,
        plan: &Plan,
        k: usize,
        wait: Wait,
    ) -> Result<(), ParseError> {
        let (dst, writes) = match &plan.dst {
            Some(write) => self.written(line, st, write, k as u64)?,
            None => (0, 0),
        };
        let mut src = Vec::new();
        for value in &plan.values {
            self.read(line, value, k as u64, &mut src)?;
        }
        let chunks: Vec<&[Source]> = match src.is_empty() {
            true => vec![&NOTHING],
            false => src.chunks(3).collect(),
        };
        let last = chunks.len() - 1;
        let mut wait = Some(self.take_pending(wait));
        for (i, chunk) in chunks.into_iter().enumerate() {
            let (dst, writes) = if i == last { (dst, writes) } else { (0, 0) };
            self.instructions.push(Instruction {
                op: op_for(st.base, chunk.len()),
                dst,
                writes,
                src: chunk.to_vec(),
                unit: plan.unit,
                wait: wait.take().unwrap_or_default(),
            });
            self.origin.push(self.next + k);
        }
        self.stats.instructions += 1;
        *match plan.unit {
            CoreUnit::Alu => &mut self.stats.alu,
            CoreUnit::Sfu => &mut self.stats.sfu,
            CoreUnit::Tex => &mut self.stats.tex,
            CoreUnit::Varying => &mut self.stats.varying,
            CoreUnit::LocalMem | CoreUnit::GlobalMem => &mut self.stats.mem,
        } += 1;
        Ok(())
    }

    /// `wait` with the pending waits of dropped instructions, which it takes.
    fn take_pending(&mut self, wait: Wait) -> Wait {
        let pending = std::mem::take(&mut self.pending);
        Wait {
            ss: wait.ss || pending.ss,
            sy: wait.sy || pending.sy,
        }
    }

    /// Counts the copies of a dropped instruction; its waits pass to the next micro-op.
    fn drop(&mut self, kind: Kind, copies: usize, wait: Wait) {
        self.pending = self.take_pending(wait);
        for k in 0..copies {
            match kind {
                Kind::Nop => {
                    self.stats.nops += 1;
                    self.nop(self.next + k);
                }
                _ => self.stats.flow_dropped += 1,
            }
        }
    }

    /// A nop of instruction `origin`: a micro-op when nops are kept.
    fn nop(&mut self, origin: usize) {
        if self.keep_nops {
            let wait = self.take_pending(Wait::default());
            self.instructions.push(Instruction {
                wait,
                ..Instruction::alu(CoreOp::Nop, 0, &[])
            });
            self.origin.push(origin);
        }
    }
}
