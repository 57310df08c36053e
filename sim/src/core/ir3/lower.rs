//! Lowering: `(rptN)` expansion, the core micro-ops each copy becomes, the register checks and
//! the statistics.

use grfgen_hdl::params::{CoreOp, CoreUnit};

use super::line::Statement;
use super::opcodes::Kind;
use super::operand::{Atom, Inner, Reg};
use super::roles::{self, Plan, Value, Write};
use super::source_line::Line;
use super::text::{register_name, span, Advance, Edit, Ir3Source, RegisterToken, RepeatLine};
use super::{const_value, Ir3Program, Ir3Stats, Place, Places};
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
    /// Each micro-op's registers' places in the text.
    places: Vec<Places>,
    /// The current instruction's register tokens: where each is written (its address), its
    /// index among the text's tokens and its operand.
    tokens: Vec<(usize, usize, usize)>,
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
            places: Vec::new(),
            tokens: Vec::new(),
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
        let plan = roles::plan(line, st)?;
        self.record(line, st, source, base, plan.is_none())?;
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
        match plan {
            Some(plan) => {
                for k in 0..copies {
                    self.copy(line, st, &plan, k, std::mem::take(&mut wait))?;
                }
            }
            None => self.drop(st.kind, copies, wait),
        }
        self.stats.figures.nops += st.flags.nop as u64;
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
            places: self.places,
            stats: self.stats,
            source,
        }
    }

    /// Keeps the register tokens of `st` in `source`, each checked against the file (but the
    /// destination sentinel `r63.x`), and an `(rptN)` line's parts that change in its copies.
    fn record(
        &mut self,
        line: &Line,
        st: &Statement,
        source: &mut Ir3Source,
        base: &str,
        dropped: bool,
    ) -> Result<(), ParseError> {
        let destination = roles::destination(st.kind);
        self.tokens.clear();
        if st.flags.rpt > 0 {
            source.repeats.push(RepeatLine {
                instruction: self.next,
                edits: repeat_edits(st, base),
            });
        }
        for (position, op) in st.operands.iter().enumerate() {
            for reg in named(&op.atom) {
                let destination = destination == Some(position);
                if !(destination && matches!(reg.text, "r63.x" | "hr63.x")) {
                    self.full(line, &reg, reg.index)?;
                }
                let at = (reg.text.as_ptr() as usize, source.registers.len(), position);
                self.tokens.push(at);
                source.registers.push(RegisterToken {
                    span: span(base, reg.text),
                    half: reg.half,
                    index: usize::try_from(reg.index).unwrap_or(usize::MAX),
                    repeat: op.repeat,
                    instruction: self.next,
                    copies: st.flags.rpt + 1,
                    operand: position,
                    destination,
                    dropped,
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

    /// The place of component `component` (from the token as copy `k` names it) of `reg`.
    fn place(&self, reg: &Reg, k: usize, component: u64) -> Place {
        let address = reg.text.as_ptr() as usize;
        let &(_, token, operand) = (self.tokens.iter())
            .find(|t| t.0 == address)
            .expect("every register of the instruction is recorded");
        Place {
            instruction: self.next + k,
            operand,
            token,
            component: component as usize,
        }
    }

    /// The places of the full registers `dst..dst + writes` copy `k` of `write` writes (each
    /// from its first component), and whether each receives only half of its halves.
    fn written_places(
        &self,
        write: &Write,
        k: usize,
        dst: usize,
        writes: usize,
    ) -> (Vec<Place>, Vec<bool>) {
        let token = write.reg.index + k as u64;
        let start = token + write.first;
        let components: Vec<u64> = (start..start.saturating_add(write.count)).collect();
        let full = |c: u64| if write.reg.half { c / 2 } else { c } as usize;
        (dst..dst + writes)
            .map(|f| {
                let inside: Vec<u64> = components
                    .iter()
                    .copied()
                    .filter(|&c| full(c) == f)
                    .collect();
                let first = inside.first().copied().unwrap_or(start);
                let place = self.place(&write.reg, k, first - token);
                (place, write.reg.half && inside.len() < 2)
            })
            .unzip()
    }

    /// Appends the sources copy `k` of `value` reads, with their places, and counts them.
    fn read(
        &mut self,
        line: &Line,
        value: &Value,
        k: u64,
        src: &mut Vec<(Source, Option<Place>)>,
    ) -> Result<(), ParseError> {
        let imm = |v: u32| (Source::Imm(v), None);
        match *value {
            Value::Reg { reg, count, repeat } => {
                let from = reg.index.saturating_add(if repeat { k } else { 0 });
                for (c, component) in (from..from.saturating_add(count)).enumerate() {
                    let place = self.place(&reg, k as usize, c as u64);
                    src.push((Source::Reg(self.full(line, &reg, component)?), Some(place)));
                    self.stats.figures.gpr_reads += 1;
                    self.stats.figures.half_reads += u64::from(reg.half);
                }
            }
            Value::Const { c, repeat } => {
                let index = c.index.wrapping_add(if repeat { k as i64 } else { 0 });
                let index = if c.half { index.div_euclid(2) } else { index };
                src.push(imm(const_value(index as u32)));
                self.stats.figures.const_reads += 1;
            }
            Value::Imm { value, repeat } => {
                src.push(imm(value.wrapping_add(if repeat { k as u32 } else { 0 })));
                self.stats.figures.imm_reads += 1;
            }
            Value::Fixed(value) => src.push(imm(value)),
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
        let (written, partial) = match &plan.dst {
            Some(write) => self.written_places(write, k, dst, writes),
            None => Default::default(),
        };
        let nothing = [(NOTHING[0], None)];
        let chunks: Vec<&[(Source, Option<Place>)]> = match src.is_empty() {
            true => vec![&nothing],
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
                src: chunk.iter().map(|s| s.0).collect(),
                unit: plan.unit,
                wait: wait.take().unwrap_or_default(),
            });
            self.places.push(Places {
                sources: chunk.iter().map(|s| s.1).collect(),
                written: if i == last {
                    written.clone()
                } else {
                    Vec::new()
                },
                partial: if i == last {
                    partial.clone()
                } else {
                    Vec::new()
                },
            });
            self.origin.push(self.next + k);
        }
        self.stats.figures.instructions += 1;
        *match plan.unit {
            CoreUnit::Alu => &mut self.stats.figures.alu,
            CoreUnit::Sfu => &mut self.stats.figures.sfu,
            CoreUnit::Tex => &mut self.stats.figures.tex,
            CoreUnit::Varying => &mut self.stats.figures.varying,
            CoreUnit::LocalMem | CoreUnit::GlobalMem => &mut self.stats.figures.mem,
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
                    self.stats.figures.nops += 1;
                    self.nop(self.next + k);
                }
                _ => self.stats.figures.flow_dropped += 1,
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
            self.places.push(Places::default());
            self.origin.push(origin);
        }
    }
}

/// The parts of `st`, an `(rptN)` line, that change when it is written as its copies: the
/// flags but those kept on every copy, the `(r)` marks, and the constants and immediates that
/// advance.
fn repeat_edits(st: &Statement, base: &str) -> Vec<(std::ops::Range<usize>, Edit)> {
    let mut edits = Vec::new();
    for &flag in &st.flags.written {
        let edit = match flag {
            _ if flag.starts_with("(rpt") => Edit::Drop,
            "(ss)" | "(sy)" | "(jp)" => Edit::First,
            _ if flag.starts_with("(nop") => Edit::Last,
            _ => continue,
        };
        edits.push((span(base, flag), edit));
    }
    for op in st.operands.iter().filter(|op| op.repeat) {
        if let Some(mark) = op.repeat_mark {
            edits.push((span(base, mark), Edit::Drop));
        }
        let text = op.atom_text;
        let advance = match &op.atom {
            Atom::Const(c) => Advance::Const {
                half: c.half,
                index: c.index,
                named: !text.contains(['[', '<']),
                address: text.starts_with("c<").then(|| match text.contains("a1.x") {
                    true => "a1.x",
                    false => "a0.x",
                }),
            },
            Atom::Int(v) => Advance::Int(*v),
            Atom::Float(bits) => Advance::Bits(*bits),
            _ => continue,
        };
        edits.push((span(base, text), Edit::Advance(advance)));
    }
    edits.sort_by_key(|e| e.0.start);
    edits
}
