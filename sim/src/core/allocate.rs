//! Bank-aware register allocation for core programs (`grfgen allocate`, `--allocate`).
//!
//! A program's registers are taken as names of values: every write starts a new value, which
//! lives until its last read (or to the end when it is the last value of its register, an
//! output), and every register read before it is written holds an input value, live from the
//! start. Each value gets a physical register below the external writer's 16, so that values
//! live at once never share one, and so that each instruction's sources fall in different
//! banks (at most two in one bank with 2R1W banks): a bank read beyond that costs a cycle.
//!
//! The method is renaming with a bank-conflict cost, not graph colouring: a straight-line
//! program's live ranges are intervals, so a register is free for a value exactly when no
//! value on it overlaps the value's interval, and the only freedom that matters is each
//! value's bank. Values are placed in the order they start, each in the bank that adds the
//! least cost against the sources already placed (and, second, against the sources of nearby
//! instructions, which the prefetch queue reads in the same cycles); then every value is moved
//! to a better bank while one exists. The cost counts each instruction once per execution (an
//! `(rptN)` group is N+1 instructions).
//!
//! The inputs are loaded into their new registers and each output is read from its new
//! register, through the map the allocation returns.

use std::collections::BTreeMap;

use grfgen_hdl::params::{CoreParams, GprParams};
use serde::Serialize;

use super::model::Policy;
use super::program::{Instruction, Source};
use super::run::{run, CoreRun};
use super::workload::Workload;
use crate::bank_map::bank;

/// How far, in instructions, the nearby-source cost looks (the default lookahead).
const NEARBY: usize = 3;

/// A renamed program and where its inputs and outputs went.
#[derive(Clone, Debug, Serialize)]
pub struct Allocation {
    /// The renamed program, instruction for instruction.
    #[serde(skip)]
    pub program: Vec<Instruction>,
    /// Each input register of the original program, and the register its value is loaded into
    /// (written `"R5": "R12"`).
    #[serde(serialize_with = "register_map")]
    pub inputs: BTreeMap<usize, usize>,
    /// Each register the original program writes, and the register its final value is in.
    #[serde(serialize_with = "register_map")]
    pub outputs: BTreeMap<usize, usize>,
    /// Bank reads beyond a bank's ports, summed over instructions, before allocation.
    pub conflicts_before: u64,
    /// The same after allocation.
    pub conflicts_after: u64,
    /// Values (live ranges) allocated.
    pub values: usize,
    /// Physical registers the renamed program uses.
    pub registers_used: usize,
}

/// A map of registers as the program format names them: `{"R5": "R12"}`.
fn register_map<S: serde::Serializer>(
    map: &BTreeMap<usize, usize>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_map(map.iter().map(|(a, b)| (format!("R{a}"), format!("R{b}"))))
}

impl Allocation {
    /// The program as written, every register mapped to itself: what is kept when allocation
    /// would not pay.
    pub fn identity(params: &CoreParams, program: &[Instruction]) -> Self {
        let values = Values::of(program);
        let conflicts = conflicts(params, program);
        let mut used: Vec<usize> = (values.values.iter()).map(|v| v.original).collect();
        used.sort_unstable();
        used.dedup();
        Self {
            program: program.to_vec(),
            inputs: values.inputs.keys().map(|&r| (r, r)).collect(),
            outputs: values.outputs.keys().map(|&r| (r, r)).collect(),
            conflicts_before: conflicts,
            conflicts_after: conflicts,
            values: values.values.len(),
            registers_used: used.len(),
        }
    }

    /// Whether every instruction's sources fall in banks that can serve them in one cycle.
    pub fn conflict_free(&self) -> bool {
        self.conflicts_after == 0
    }
}

/// One value: a register's content between a write (or the start) and its last read.
#[derive(Clone, Debug)]
struct Value {
    /// The first moment it occupies its register: `2i + 1` when instruction `i` writes it,
    /// `0` for an input.
    start: usize,
    /// The last moment: `2j` when instruction `j` reads it last, the end for an output.
    end: usize,
    /// The instructions that read it.
    reads: Vec<usize>,
    /// The register it had in the original program.
    original: usize,
}

/// The values of `program`: for every instruction, the values of its sources and of the
/// registers it writes; and the input and output values by original register.
struct Values {
    values: Vec<Value>,
    sources: Vec<Vec<usize>>,
    destinations: Vec<Vec<usize>>,
    inputs: BTreeMap<usize, usize>,
    outputs: BTreeMap<usize, usize>,
}

impl Values {
    fn of(program: &[Instruction]) -> Self {
        let end = 2 * program.len() + 2;
        let mut values: Vec<Value> = Vec::new();
        let mut current: BTreeMap<usize, usize> = BTreeMap::new();
        let mut inputs = BTreeMap::new();
        let mut sources = Vec::with_capacity(program.len());
        let mut destinations = Vec::with_capacity(program.len());
        for (i, instruction) in program.iter().enumerate() {
            let mut here = Vec::new();
            for reg in instruction.reads() {
                let v = *current.entry(reg).or_insert_with(|| {
                    values.push(Value {
                        start: 0,
                        end: 0,
                        reads: Vec::new(),
                        original: reg,
                    });
                    inputs.insert(reg, values.len() - 1);
                    values.len() - 1
                });
                values[v].end = 2 * i;
                if !values[v].reads.contains(&i) {
                    values[v].reads.push(i);
                }
                here.push(v);
            }
            sources.push(here);
            let mut written = Vec::new();
            for reg in instruction.written() {
                values.push(Value {
                    start: 2 * i + 1,
                    end: 2 * i + 1,
                    reads: Vec::new(),
                    original: reg,
                });
                written.push(values.len() - 1);
                current.insert(reg, values.len() - 1);
            }
            destinations.push(written);
        }
        let outputs: BTreeMap<usize, usize> = (program.iter())
            .flat_map(|instruction| instruction.written())
            .map(|reg| (reg, current[&reg]))
            .collect();
        for &v in outputs.values() {
            values[v].end = end;
        }
        Self {
            values,
            sources,
            destinations,
            inputs,
            outputs,
        }
    }
}

/// The bank of register `reg` in `gpr`, under its bank map: every bank the allocator reasons
/// about is this one's.
fn bank_of(gpr: &GprParams, reg: usize) -> usize {
    bank(gpr.bank_map, reg, gpr.banks)
}

/// Bank reads beyond capacity of one instruction whose distinct source registers are `regs`.
fn excess(regs: &[usize], gpr: &GprParams, capacity: usize) -> u64 {
    let mut distinct = regs.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    let mut per_bank = vec![0usize; gpr.banks];
    for r in distinct {
        per_bank[bank_of(gpr, r)] += 1;
    }
    per_bank
        .iter()
        .map(|&n| n.saturating_sub(capacity) as u64)
        .sum()
}

/// Bank reads beyond capacity over all of `program`.
pub fn conflicts(params: &CoreParams, program: &[Instruction]) -> u64 {
    let capacity = params.gpr.bank_kind.reads_per_bank();
    program
        .iter()
        .map(|i| excess(&i.reads().collect::<Vec<_>>(), &params.gpr, capacity))
        .sum()
}

/// The assignment being built: each value's register, and each register's values.
struct Assignment<'a> {
    values: &'a Values,
    gpr: &'a GprParams,
    capacity: usize,
    register: Vec<Option<usize>>,
    holders: Vec<Vec<usize>>,
}

impl<'a> Assignment<'a> {
    /// Whether `reg` is free for value `v` (no other value on it overlaps `v`).
    fn free(&self, reg: usize, v: usize) -> bool {
        let value = &self.values.values[v];
        self.holders[reg].iter().all(|&w| {
            let other = &self.values.values[w];
            w == v || other.end < value.start || value.end < other.start
        })
    }

    /// What putting value `v` in `bank` costs: the reads beyond capacity it adds against the
    /// sources already placed, and (second) the placed sources of nearby instructions in
    /// that bank.
    fn cost(&self, v: usize, bank: usize) -> (u64, u64) {
        let (mut own, mut nearby) = (0, 0);
        for &i in &self.values.values[v].reads {
            let in_bank = |j: usize| {
                let mut others: Vec<usize> = (self.values.sources[j].iter())
                    .filter(|&&w| w != v)
                    .filter_map(|&w| self.register[w])
                    .filter(|&r| bank_of(self.gpr, r) == bank)
                    .collect();
                others.sort_unstable();
                others.dedup();
                others.len()
            };
            own += u64::from(in_bank(i) >= self.capacity);
            let near = i.saturating_sub(NEARBY)..(i + NEARBY + 1).min(self.values.sources.len());
            nearby += near
                .filter(|&j| j != i)
                .map(|j| in_bank(j) as u64)
                .sum::<u64>();
        }
        (own, nearby)
    }

    /// The best free register for `v`: the least cost, then the register the original program
    /// gave it, then the lowest.
    fn best(&self, v: usize, registers: usize) -> usize {
        let original = self.values.values[v].original;
        let costs: Vec<(u64, u64)> = (0..self.gpr.banks).map(|b| self.cost(v, b)).collect();
        (0..registers)
            .filter(|&r| self.free(r, v))
            .min_by_key(|&r| (costs[bank_of(self.gpr, r)], r != original, r))
            .expect("a free register: no more values are live at once than the original used")
    }

    fn place(&mut self, v: usize, reg: usize) {
        self.register[v] = Some(reg);
        self.holders[reg].push(v);
    }

    fn remove(&mut self, v: usize) {
        if let Some(reg) = self.register[v].take() {
            self.holders[reg].retain(|&w| w != v);
        }
    }
}

/// Allocates `program`'s registers for the GPR of `params` (see the module's description). It
/// never fails: where no conflict-free assignment is found, the cheapest one found is returned
/// and [`Allocation::conflict_free`] says so. A program with an instruction writing several
/// registers (a long-latency result in consecutive registers) keeps its registers.
pub fn allocate(params: &CoreParams, program: &[Instruction]) -> Allocation {
    if program.iter().any(|i| i.writes > 1) {
        return Allocation::identity(params, program);
    }
    let values = Values::of(program);
    let registers = params.program_registers();
    let mut assignment = Assignment {
        values: &values,
        gpr: &params.gpr,
        capacity: params.gpr.bank_kind.reads_per_bank(),
        register: vec![None; values.values.len()],
        holders: vec![Vec::new(); registers],
    };
    let mut order: Vec<usize> = (0..values.values.len()).collect();
    order.sort_by_key(|&v| (values.values[v].start, v));
    for &v in &order {
        let reg = assignment.best(v, registers);
        assignment.place(v, reg);
    }
    // Move each value to a better bank while one exists (a few passes settle it).
    for _ in 0..4 {
        let mut moved = false;
        for &v in &order {
            let before = assignment.register[v].expect("placed");
            let cost = assignment.cost(v, bank_of(assignment.gpr, before));
            assignment.remove(v);
            let reg = assignment.best(v, registers);
            let better = assignment.cost(v, bank_of(assignment.gpr, reg)) < cost;
            assignment.place(v, if better { reg } else { before });
            moved |= better;
        }
        if !moved {
            break;
        }
    }
    let register = |v: usize| assignment.register[v].expect("placed");
    let renamed: Vec<Instruction> = program
        .iter()
        .enumerate()
        .map(|(i, instruction)| {
            let mut sources = values.sources[i].iter().map(|&v| register(v));
            Instruction {
                dst: (values.destinations[i].first()).map_or(instruction.dst, |&v| register(v)),
                src: (instruction.src.iter())
                    .map(|s| match s {
                        Source::Reg(_) => Source::Reg(sources.next().expect("one value a read")),
                        Source::Imm(_) => *s,
                    })
                    .collect(),
                ..instruction.clone()
            }
        })
        .collect();
    let mut used: Vec<usize> = (0..values.values.len()).map(register).collect();
    used.sort_unstable();
    used.dedup();
    Allocation {
        conflicts_before: conflicts(params, program),
        conflicts_after: conflicts(params, &renamed),
        inputs: (values.inputs.iter())
            .map(|(&r, &v)| (r, register(v)))
            .collect(),
        outputs: (values.outputs.iter())
            .map(|(&r, &v)| (r, register(v)))
            .collect(),
        values: values.values.len(),
        registers_used: used.len(),
        program: renamed,
    }
}

/// The workload that runs `allocation` of `workload`: the renamed program, the same external
/// traffic, and each input register loaded with the value `original` (a run of `workload`)
/// loaded into the register it renames.
pub fn renamed(workload: &Workload, allocation: &Allocation, original: &CoreRun) -> Workload {
    let input_values = (allocation.inputs.iter())
        .filter_map(|(from, to)| Some((*to, original.inputs.get(&format!("R{from}"))?.clone())))
        .collect();
    Workload {
        external_rate: workload.external_rate,
        input_values,
        latencies: workload.latencies.clone(),
        figures: workload.figures.clone(),
        ..Workload::new(
            &format!("{} (allocated)", workload.name),
            allocation.program.clone(),
        )
    }
}

/// Proves by execution that `allocation` keeps `workload`'s meaning: both run on the golden
/// model from `seed`, the renamed program's inputs loaded with the original's values, and every
/// output read back through the map must equal the original's, lane for lane. The error names
/// the register, the lane and both values.
pub fn prove(
    params: &CoreParams,
    workload: &Workload,
    allocation: &Allocation,
    seed: u64,
) -> Result<(), String> {
    let original = run(params, Policy::Ideal, workload, seed, None, false);
    let allocated = run(
        params,
        Policy::Ideal,
        &renamed(workload, allocation, &original),
        seed,
        None,
        false,
    );
    for (from, to) in &allocation.outputs {
        let expected = &original.outputs[&format!("R{from}")];
        let got = &allocated.outputs[&format!("R{to}")];
        if let Some(lane) = (0..expected.len()).find(|&l| expected[l] != got[l]) {
            return Err(format!(
                "the allocated program computes another R{from}: lane {lane} is {:#x} in the \
                 original and {:#x} in its new register R{to}",
                expected[lane], got[lane]
            ));
        }
    }
    Ok(())
}

/// `program` as text in the documented format, consecutive instructions whose every register
/// is one above the last's written as one `(rptN)` group.
pub fn text(program: &[Instruction]) -> String {
    let step = |a: &Instruction, b: &Instruction| {
        a.op == b.op
            && b.dst == a.dst + 1
            && a.src.len() == b.src.len()
            && a.reads().zip(b.reads()).all(|(x, y)| y == x + 1)
    };
    let mut lines = Vec::new();
    let mut i = 0;
    while i < program.len() {
        let mut n = 0;
        while i + n + 1 < program.len() && step(&program[i + n], &program[i + n + 1]) {
            n += 1;
        }
        let prefix = match n {
            0 => String::new(),
            n => format!("(rpt{n}) "),
        };
        lines.push(format!("{prefix}{}", program[i]));
        i += n + 1;
    }
    lines.join("\n") + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::program::parse;

    fn params() -> CoreParams {
        CoreParams::default()
    }

    #[test]
    fn the_documents_example_is_spread_over_the_banks_and_keeps_its_meaning() {
        let program = parse("(rpt3) mad.f32 R0, R0, R4, R8\n", 240).unwrap();
        let allocation = allocate(&params(), &program);
        assert_eq!(allocation.conflicts_before, 8);
        assert!(allocation.conflict_free(), "{allocation:?}");
        // R0..R3 are read and written: each output is where the input's successor went.
        assert_eq!(allocation.inputs.len(), 12);
        assert_eq!(allocation.outputs.len(), 4);
        for i in &allocation.program {
            let mut banks: Vec<usize> = i.reads().map(|r| r % 4).collect();
            banks.sort_unstable();
            banks.dedup();
            assert_eq!(banks.len(), 3, "{i}");
        }
    }

    #[test]
    fn live_values_never_share_a_register() {
        let program = parse(
            "add R1, R2, R3\nadd R4, R1, R2\nmul R1, R4, R3\nmov R9, R1\n",
            240,
        )
        .unwrap();
        let allocation = allocate(&params(), &program);
        let values = Values::of(&program);
        let reg_of = |v: usize| -> usize {
            // Find the value's register through the renamed program.
            for (i, s) in values.sources.iter().enumerate() {
                if let Some(k) = s.iter().position(|&w| w == v) {
                    return allocation.program[i].reads().nth(k).unwrap();
                }
            }
            let i = values
                .destinations
                .iter()
                .position(|w| w.contains(&v))
                .unwrap();
            allocation.program[i].dst
        };
        for a in 0..values.values.len() {
            for b in a + 1..values.values.len() {
                let (x, y) = (&values.values[a], &values.values[b]);
                if x.start <= y.end && y.start <= x.end {
                    assert_ne!(reg_of(a), reg_of(b), "values {a} and {b} overlap");
                }
            }
        }
    }

    #[test]
    fn groups_whose_registers_still_step_by_one_are_written_as_rpt() {
        let program = parse("(rpt2) add R10, R20, R30\nmov R1, R2\n", 240).unwrap();
        assert_eq!(text(&program), "(rpt2) add R10, R20, R30\nmov R1, R2\n");
    }
}
