//! Bank-aware register allocation for core programs (`grfgen allocate`, `--allocate`).
//!
//! A program's registers are taken as names of values: every write starts a new value, which
//! lives until its last read (or to the end when it is the last value of its register, an
//! output), and every register read before it is written holds an input value, live from the
//! start. A long-latency result nobody reads lives until its register is written again (its
//! write lands late). Each value gets a physical register below the external writer's 16, so
//! that values live at once never share one, and so that each instruction's sources fall in
//! different banks (at most two in one bank with 2R1W banks): a bank read beyond that costs a
//! cycle.
//!
//! The method is renaming with a bank-conflict cost, not graph colouring: a straight-line
//! program's live ranges are intervals, so a register is free for a value exactly when no
//! value on it overlaps the value's interval, and the only freedom that matters is each
//! value's bank. Values tied by a group (the registers of one multi-register write, the
//! components of an ir3 vector operand, a half register and the value it keeps) form a unit
//! that keeps the distances between their original registers and moves as a whole. Units are
//! placed in the order they start, each at the base that adds the least cost against the
//! sources already placed (and, second, against the sources of nearby instructions, which the
//! prefetch queue reads in the same cycles); then every unit is moved to a better base while
//! one exists. The cost counts each instruction once per execution (an `(rptN)` group is N+1
//! instructions). Should units leave no free base, the units of several values keep their
//! registers and the others are placed around them; should that fail too, the program keeps
//! its registers.
//!
//! The inputs are loaded into their new registers and each output is read from its new
//! register, through the map the allocation returns.

mod cost;
mod place;
mod text;
mod units;
mod values;

use std::collections::BTreeMap;

use grfgen_hdl::params::CoreParams;
use serde::Serialize;

use crate::core::program::{Instruction, Source};
use cost::excess;
use units::Units;
use values::Values;

pub use text::text;
pub use values::Slot;

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
        let values = Values::of(program, &[]);
        let originals: Vec<usize> = values.values.iter().map(|v| v.original).collect();
        Self::of(params, program, &values, program.to_vec(), &originals)
    }

    /// The allocation renaming `program` to `renamed`, every value to its register.
    fn of(
        params: &CoreParams,
        program: &[Instruction],
        values: &Values,
        renamed: Vec<Instruction>,
        register: &[usize],
    ) -> Self {
        let mut used = register.to_vec();
        used.sort_unstable();
        used.dedup();
        let map = |m: &BTreeMap<usize, usize>| m.iter().map(|(&r, &v)| (r, register[v])).collect();
        Self {
            conflicts_before: conflicts(params, program),
            conflicts_after: conflicts(params, &renamed),
            inputs: map(&values.inputs),
            outputs: map(&values.outputs),
            values: values.values.len(),
            registers_used: used.len(),
            program: renamed,
        }
    }

    /// Whether every instruction's sources fall in banks that can serve them in one cycle.
    pub fn conflict_free(&self) -> bool {
        self.conflicts_after == 0
    }
}

/// Bank reads beyond capacity over all of `program`.
pub fn conflicts(params: &CoreParams, program: &[Instruction]) -> u64 {
    let capacity = params.gpr.bank_kind.reads_per_bank();
    program
        .iter()
        .map(|i| {
            let regs: Vec<usize> = i.reads().collect();
            excess(params, &regs, params.gpr.banks, capacity)
        })
        .sum()
}

/// Allocates `program`'s registers for the GPR of `params` (see the module's description), an
/// instruction writing several registers keeping them consecutive. It never fails: where no
/// conflict-free assignment is found, the cheapest one found is returned and
/// [`Allocation::conflict_free`] says so.
pub fn allocate(params: &CoreParams, program: &[Instruction]) -> Allocation {
    allocate_with(params, program, &[])
}

/// [`allocate`], keeping each of `groups` together: the registers of a group's slots keep the
/// distances they have in `program` (a vector's components stay consecutive, in order; a kept
/// half stays in the register of the write that keeps it), as `program` as written does.
pub fn allocate_with(
    params: &CoreParams,
    program: &[Instruction],
    groups: &[Vec<Slot>],
) -> Allocation {
    let kept: Vec<(usize, usize)> = (groups.iter().flatten())
        .filter_map(|s| match *s {
            Slot::Kept(i, k) => Some((i, k)),
            _ => None,
        })
        .collect();
    let values = Values::of(program, &kept);
    let units = Units::of(&values, program, groups);
    let register = place::solve(params, &values, &units, false)
        .or_else(|| place::solve(params, &values, &units, true));
    let Some(register) = register else {
        return Allocation::identity(params, program);
    };
    let renamed = (program.iter().enumerate())
        .map(|(i, instruction)| {
            let mut sources = values.sources[i].iter().map(|&v| register[v]);
            Instruction {
                dst: (values.destinations[i].first()).map_or(instruction.dst, |&v| register[v]),
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
    Allocation::of(params, program, &values, renamed, &register)
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
    fn a_program_the_banks_cannot_serve_is_not_called_conflict_free() {
        // Three sources live at once and two single-read banks: one read waits, whatever
        // the registers.
        let mut params = params();
        params.gpr.banks = 2;
        let program = parse(
            "mad.f32 R0, R1, R2, R3\nadd R4, R1, R2\nadd R5, R3, R0\n",
            240,
        );
        let allocation = allocate(&params, &program.unwrap());
        assert!(allocation.conflicts_after > 0, "{allocation:?}");
        assert!(!allocation.conflict_free(), "{allocation:?}");
    }

    #[test]
    fn a_kept_half_keeps_its_register_until_the_partial_write() {
        // R1's value is last read by instruction 1, but instruction 4 writes half of R1 and
        // keeps the other half: the value lives on to it, and the first value of R3
        // (instructions 2 to 3) may not take its register. Five registers leave no room for
        // that (R0, R4, R2, both values of R3 and the kept value at instruction 3): the
        // program keeps its registers. Were the half not kept, R3's first value would have to
        // take R1's register.
        let mut params = params();
        params.gpr.registers = CoreParams::EXTERNAL_REGISTERS + 5;
        let text = "add R1, R0, R0\nadd R2, R1, R0\nadd R3, R2, R4\nadd R3, R3, R2\n\
                    mad R1, R3, R2, R0\nadd R2, R4, R1\n";
        let program = parse(text, 240).unwrap();
        let kept = [vec![Slot::Kept(4, 0), Slot::Written(4, 0)]];
        let renamed = allocate_with(&params, &program, &kept).program;
        assert_eq!(renamed[4].dst, renamed[0].dst, "the kept half: {renamed:?}");
        assert_ne!(
            renamed[2].dst, renamed[0].dst,
            "R3 over the kept half: {renamed:?}"
        );
    }

    #[test]
    fn live_values_never_share_a_register() {
        let program = parse(
            "add R1, R2, R3\nadd R4, R1, R2\nmul R1, R4, R3\nmov R9, R1\n",
            240,
        )
        .unwrap();
        let allocation = allocate(&params(), &program);
        let values = Values::of(&program, &[]);
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
        let program = parse("(rpt1) add R10, R20, #3\n", 240).unwrap();
        assert_eq!(
            text(&program),
            "(rpt1) add R10, R20, #3\n",
            "the same immediate"
        );
        // Destinations that do not step; none written (`_`), sources that do.
        let apart = "add R10, R20, R30\nadd R15, R21, R31\nadd.sfu _, R1, R2\nadd.sfu _, R2, R3\n";
        let program = parse(apart, 240).unwrap();
        let expected = "add R10, R20, R30\nadd R15, R21, R31\n(rpt1) add.sfu _, R1, R2\n";
        assert_eq!(text(&program), expected);
    }
}
