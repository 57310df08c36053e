//! Values: a program's registers taken as names of values, each with its live range.

use std::collections::BTreeMap;

use crate::core::program::Instruction;

/// A register operand of a micro-op, for the groups [`allocate_with`](super::allocate_with) keeps together.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Slot {
    /// Instruction `.0`'s source `.1` (an index into its `src`, a register read).
    Source(usize, usize),
    /// The `.1`-th register instruction `.0` writes, `dst + .1`.
    Written(usize, usize),
    /// The value `dst + .1` held before instruction `.0`, which a partial write (half a
    /// register) keeps: it lives on to that instruction.
    Kept(usize, usize),
}

/// One value: a register's content between a write (or the start) and its last read.
#[derive(Clone, Debug)]
pub(super) struct Value {
    /// The first moment it occupies its register: `2i + 1` when instruction `i` writes it,
    /// `0` for an input.
    pub start: usize,
    /// The last moment: `2j` when instruction `j` reads it last (or overwrites it, for a
    /// long-latency result nobody reads, whose write lands late), the end for an output.
    pub end: usize,
    /// The instructions that read it.
    pub reads: Vec<usize>,
    /// The register it had in the original program.
    pub original: usize,
    /// Whether a long-latency instruction writes it.
    long: bool,
}

/// The values of a program: for every instruction, the values of its register sources and
/// of the registers it writes; the input and output values by original register; and the
/// values a partial write keeps, each with the value that keeps it.
pub(super) struct Values {
    /// Every value.
    pub values: Vec<Value>,
    /// Per instruction, the values its register sources read, in source order.
    pub sources: Vec<Vec<usize>>,
    /// Per instruction, the values it writes, `dst` first.
    pub destinations: Vec<Vec<usize>>,
    /// Per instruction, the value each written register held just before it (if any).
    pub before: Vec<Vec<Option<usize>>>,
    /// The value of each input register.
    pub inputs: BTreeMap<usize, usize>,
    /// The last value of each register written.
    pub outputs: BTreeMap<usize, usize>,
}

impl Values {
    /// The values of `program`; each `(i, k)` of `kept` is a partial write (half a register):
    /// the value its register `k` held lives on to instruction `i`.
    pub fn of(program: &[Instruction], kept: &[(usize, usize)]) -> Self {
        let end = 2 * program.len() + 2;
        let mut this = Self {
            values: Vec::new(),
            sources: Vec::with_capacity(program.len()),
            destinations: Vec::with_capacity(program.len()),
            before: Vec::with_capacity(program.len()),
            inputs: BTreeMap::new(),
            outputs: BTreeMap::new(),
        };
        let mut current: BTreeMap<usize, usize> = BTreeMap::new();
        for (i, instruction) in program.iter().enumerate() {
            let mut here = Vec::new();
            for reg in instruction.reads() {
                let v = match current.get(&reg) {
                    Some(&v) => v,
                    None => {
                        let v = this.push(0, reg, false);
                        this.inputs.insert(reg, v);
                        current.insert(reg, v);
                        v
                    }
                };
                let value = &mut this.values[v];
                value.end = 2 * i;
                if !value.reads.contains(&i) {
                    value.reads.push(i);
                }
                here.push(v);
            }
            this.sources.push(here);
            let (mut written, mut before) = (Vec::new(), Vec::new());
            for (k, reg) in instruction.written().enumerate() {
                let old = current.get(&reg).copied();
                if let Some(old) = old {
                    let value = &mut this.values[old];
                    // A late write must not land on a later value; a kept half lives on.
                    if (value.long && value.reads.is_empty()) || kept.contains(&(i, k)) {
                        value.end = value.end.max(2 * i);
                    }
                }
                before.push(old);
                let v = this.push(2 * i + 1, reg, instruction.long_latency());
                written.push(v);
                current.insert(reg, v);
            }
            this.destinations.push(written);
            this.before.push(before);
        }
        this.outputs = (program.iter())
            .flat_map(|instruction| instruction.written())
            .map(|reg| (reg, current[&reg]))
            .collect();
        for &v in this.outputs.values() {
            this.values[v].end = end;
        }
        this
    }

    /// A new value starting at `start` in `original`.
    fn push(&mut self, start: usize, original: usize, long: bool) -> usize {
        self.values.push(Value {
            start,
            end: start,
            reads: Vec::new(),
            original,
            long,
        });
        self.values.len() - 1
    }

    /// The value `slot` names in `program`, if it names one.
    pub fn at(&self, program: &[Instruction], slot: Slot) -> Option<usize> {
        match slot {
            Slot::Source(i, s) => {
                let src = &program.get(i)?.src;
                src.get(s)?.reg()?;
                let k = src[..s].iter().filter(|x| x.reg().is_some()).count();
                self.sources[i].get(k).copied()
            }
            Slot::Written(i, k) => self.destinations.get(i)?.get(k).copied(),
            Slot::Kept(i, k) => self.before.get(i)?.get(k).copied().flatten(),
        }
    }

    /// Whether values `a` and `b` are live at the same moment.
    pub fn overlap(&self, a: usize, b: usize) -> bool {
        let (x, y) = (&self.values[a], &self.values[b]);
        x.start <= y.end && y.start <= x.end
    }
}
