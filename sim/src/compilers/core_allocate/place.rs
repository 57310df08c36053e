//! Placement: each unit at a base register where every one of its values is free, in the
//! banks that cost least; then moves of whole units to cheaper bases.

use std::collections::HashMap;

use grfgen_hdl::params::CoreParams;

use super::cost::{bank_of, excess};
use super::units::Units;
use super::values::Values;

/// How far, in instructions, the nearby-source cost looks (the default lookahead).
const NEARBY: usize = 3;

/// The assignment being built: each value's register, and each register's values.
pub(super) struct Assignment<'a> {
    /// The core (banks, ports, program registers).
    params: &'a CoreParams,
    /// The program's values.
    values: &'a Values,
    /// Their units.
    units: &'a Units,
    /// Each value's register, once placed.
    register: Vec<Option<usize>>,
    /// Each register's values.
    holders: Vec<Vec<usize>>,
    /// Each unit's base, once placed.
    base: Vec<Option<usize>>,
}

impl<'a> Assignment<'a> {
    /// Nothing placed yet.
    pub fn new(params: &'a CoreParams, values: &'a Values, units: &'a Units) -> Self {
        Self {
            params,
            values,
            units,
            register: vec![None; values.values.len()],
            holders: vec![Vec::new(); params.program_registers()],
            base: vec![None; units.members.len()],
        }
    }

    /// Each value's register, when every unit is placed.
    pub fn registers(&self) -> Option<Vec<usize>> {
        self.register.iter().copied().collect()
    }

    /// Places unit `u` at its base in the program as written.
    pub fn pin(&mut self, u: usize) -> bool {
        let base = self.units.original[u];
        let free = self.fits(u, base);
        if free {
            self.place(u, base);
        }
        free
    }

    /// Places unit `u` at its best base; false when no base is free.
    pub fn put(&mut self, u: usize) -> bool {
        match self.best(u) {
            Some(base) => {
                self.place(u, base);
                true
            }
            None => false,
        }
    }

    /// Moves unit `u` to a cheaper base if one is free; whether it moved.
    pub fn improve(&mut self, u: usize) -> bool {
        let Some(before) = self.base[u] else {
            return false;
        };
        self.remove(u);
        let cost = self.cost(u, before);
        let better = self.best(u).filter(|&b| self.cost(u, b) < cost);
        self.place(u, better.unwrap_or(before));
        better.is_some()
    }

    /// Whether `reg` is free for value `v` (no other value on it overlaps `v`).
    fn free(&self, reg: usize, v: usize) -> bool {
        (self.holders[reg].iter()).all(|&w| w == v || !self.values.overlap(v, w))
    }

    /// Whether every value of unit `u` is free at base `base`.
    fn fits(&self, u: usize, base: usize) -> bool {
        let registers = self.holders.len();
        base + self.units.span[u] <= registers
            && (self.units.members[u].iter()).all(|&v| self.free(base + self.units.offset[v], v))
    }

    /// The register of value `w` if unit `u` sat at `base`: its own, else as placed.
    fn at(&self, w: usize, u: usize, base: usize) -> Option<usize> {
        match self.units.unit[w] == u {
            true => Some(base + self.units.offset[w]),
            false => self.register[w],
        }
    }

    /// What unit `u` at `base` costs: the reads beyond the banks' ports of the instructions
    /// reading its values (against the sources placed), and second the placed sources of
    /// nearby instructions in its values' banks (which the prefetch queue reads then too).
    fn cost(&self, u: usize, base: usize) -> (u64, u64) {
        let banks = self.params.gpr.banks;
        let capacity = self.params.gpr.bank_kind.reads_per_bank();
        let sources = &self.values.sources;
        let mut readers: Vec<usize> = (self.units.members[u].iter())
            .flat_map(|&v| self.values.values[v].reads.iter().copied())
            .collect();
        readers.sort_unstable();
        readers.dedup();
        let own = (readers.iter())
            .map(|&i| {
                let regs: Vec<usize> = sources[i]
                    .iter()
                    .filter_map(|&w| self.at(w, u, base))
                    .collect();
                excess(self.params, &regs, banks, capacity)
            })
            .sum();
        let mut nearby = 0;
        for &v in &self.units.members[u] {
            let bank = bank_of(self.params, base + self.units.offset[v]);
            for &i in &self.values.values[v].reads {
                let near = i.saturating_sub(NEARBY)..(i + NEARBY + 1).min(sources.len());
                for j in near.filter(|&j| j != i) {
                    let mut regs: Vec<usize> = (sources[j].iter())
                        .filter(|&&w| w != v)
                        .filter_map(|&w| self.at(w, u, base))
                        .filter(|&r| bank_of(self.params, r) == bank)
                        .collect();
                    regs.sort_unstable();
                    regs.dedup();
                    nearby += regs.len() as u64;
                }
            }
        }
        (own, nearby)
    }

    /// The best free base for unit `u`: the least cost, then its base as written, then the
    /// lowest. The cost depends on the base only through its values' banks, so it is counted
    /// once per combination of banks.
    fn best(&self, u: usize) -> Option<usize> {
        let registers = self.holders.len();
        let original = self.units.original[u];
        let mut costs: HashMap<Vec<usize>, (u64, u64)> = HashMap::new();
        let members = &self.units.members[u];
        (0..registers)
            .filter(|&base| self.fits(u, base))
            .min_by_key(|&base| {
                let banks: Vec<usize> = (members.iter())
                    .map(|&v| bank_of(self.params, base + self.units.offset[v]))
                    .collect();
                let cost = *costs.entry(banks).or_insert_with(|| self.cost(u, base));
                (cost, base != original, base)
            })
    }

    /// Puts unit `u` at `base`.
    fn place(&mut self, u: usize, base: usize) {
        self.base[u] = Some(base);
        for &v in &self.units.members[u] {
            let reg = base + self.units.offset[v];
            self.register[v] = Some(reg);
            self.holders[reg].push(v);
        }
    }

    /// Takes unit `u` off its base.
    fn remove(&mut self, u: usize) {
        self.base[u] = None;
        for &v in &self.units.members[u] {
            if let Some(reg) = self.register[v].take() {
                self.holders[reg].retain(|&w| w != v);
            }
        }
    }
}

/// Each value's register: units placed in the order they start (with `pinned`, every unit of
/// several values first, at its base as written), then moved to cheaper bases while one
/// exists. `None` when some unit finds no free base.
pub(super) fn solve(
    params: &CoreParams,
    values: &Values,
    units: &Units,
    pinned: bool,
) -> Option<Vec<usize>> {
    let mut assignment = Assignment::new(params, values, units);
    let fixed = |u: usize| pinned && units.members[u].len() > 1;
    let mut order: Vec<usize> = (0..units.members.len()).collect();
    let start = |u: usize| {
        (units.members[u].iter())
            .map(|&v| values.values[v].start)
            .min()
    };
    order.sort_by_key(|&u| (start(u), u));
    for &u in order.iter().filter(|&&u| fixed(u)) {
        if !assignment.pin(u) {
            return None;
        }
    }
    for &u in order.iter().filter(|&&u| !fixed(u)) {
        if !assignment.put(u) {
            return None;
        }
    }
    // Move each unit to a cheaper base while one exists (a few passes settle it).
    for _ in 0..4 {
        let mut moved = false;
        for &u in order.iter().filter(|&&u| !fixed(u)) {
            moved |= assignment.improve(u);
        }
        if !moved {
            break;
        }
    }
    assignment.registers()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compilers::core_allocate::Slot;
    use crate::core::program::{parse, Instruction};

    /// Program `text`, its values and units, and the unit of the value each of `slots` names.
    fn built(text: &str, slots: &[Slot]) -> (Values, Units, Vec<usize>) {
        let program: Vec<Instruction> = parse(text, 240).unwrap();
        let values = Values::of(&program, &[]);
        let units = Units::of(&values, &program, &[]);
        let found = (slots.iter())
            .map(|&slot| {
                let v = values.at(&program, slot).unwrap();
                (units.members.iter()).position(|m| m.contains(&v)).unwrap()
            })
            .collect();
        (values, units, found)
    }

    /// The second cost of the unit R0 is read from by instruction 0 at register 0 (bank 0)
    /// and 1 (bank 1), in program `text` whose instruction `reader` reads R4, placed in R4
    /// (bank 0: four banks, a register's bank its number mod 4); no other unit placed.
    fn nearby(text: &str, reader: usize) -> (u64, u64) {
        let params = CoreParams::default();
        let (values, units, found) = built(text, &[Slot::Source(0, 0), Slot::Source(reader, 0)]);
        let mut assignment = Assignment::new(&params, &values, &units);
        assignment.place(found[1], 4);
        assert_eq!(assignment.cost(found[0], 0).0, 0);
        (
            assignment.cost(found[0], 0).1,
            assignment.cost(found[0], 1).1,
        )
    }

    #[test]
    fn the_second_cost_counts_placed_sources_up_to_three_instructions_away() {
        let three = "add R1, R0, R0\nadd R2, R1, R1\nadd R3, R2, R2\nadd R5, R4, R4\n";
        assert_eq!(
            nearby(three, 3),
            (1, 0),
            "R4 three instructions on, in bank 0 only"
        );
        let four = "add R1, R0, R0\nadd R2, R1, R1\nadd R3, R2, R2\nadd R6, R3, R3\n\
                    add R5, R4, R4\n";
        assert_eq!(nearby(four, 4), (0, 0), "R4 four instructions on");
    }

    #[test]
    fn a_pinned_unit_takes_its_register_as_written_unless_it_is_taken() {
        let params = CoreParams::default();
        let text = "add R1, R0, R0\nadd R2, R1, R0\n";
        let (values, units, found) = built(text, &[Slot::Source(0, 0), Slot::Written(0, 0)]);
        let (r0, r1) = (found[0], found[1]);
        let mut assignment = Assignment::new(&params, &values, &units);
        assert!(assignment.pin(r1));
        assert_eq!(assignment.base[r1], Some(1));
        // R0's value is live with R1's: R1's register is not free for it.
        let mut assignment = Assignment::new(&params, &values, &units);
        assignment.place(r0, 1);
        assert!(!assignment.pin(r1));
        assert_eq!(assignment.base[r1], None);
    }

    #[test]
    fn a_unit_at_its_best_base_does_not_move() {
        let params = CoreParams::default();
        let (values, units, found) = built("add R7, R5, R5\n", &[Slot::Written(0, 0)]);
        let mut assignment = Assignment::new(&params, &values, &units);
        assert!(assignment.put(found[0]));
        assert!(!assignment.improve(found[0]), "no base is cheaper than R7");
        assert_eq!(assignment.base[found[0]], Some(7));
    }

    #[test]
    fn values_whose_lives_do_not_overlap_share_a_register() {
        let params = CoreParams::default();
        let text = "add R1, R0, R0\nadd R2, R1, R1\n";
        let (values, units, found) = built(text, &[Slot::Source(0, 0), Slot::Written(1, 0)]);
        let mut assignment = Assignment::new(&params, &values, &units);
        assignment.place(found[0], 9);
        assert!(
            assignment.fits(found[1], 9),
            "R0's value ends before R2's starts"
        );
    }

    #[test]
    fn a_unit_of_several_registers_fits_up_to_the_last_register() {
        let params = CoreParams::default();
        let text = "mov.tex R238..R239, R5\nadd R0, R238, R239\n";
        let (values, units, found) = built(text, &[Slot::Written(0, 0)]);
        let assignment = Assignment::new(&params, &values, &units);
        assert!(assignment.fits(found[0], 238));
        assert!(
            !assignment.fits(found[0], 239),
            "R240 is the external writer's"
        );
        assert_eq!(assignment.best(found[0]), Some(238));
    }

    #[test]
    fn a_removed_unit_leaves_its_registers_free() {
        let params = CoreParams::default();
        let (values, units, found) = built("add R7, R5, R5\n", &[Slot::Written(0, 0)]);
        let mut assignment = Assignment::new(&params, &values, &units);
        assignment.place(found[0], 9);
        assignment.remove(found[0]);
        assert_eq!(assignment.base[found[0]], None);
        assert!(assignment.holders[9].is_empty());
        assert_eq!(assignment.registers(), None, "R7's value has no register");
    }

    /// Pinned, the unit of several registers keeps its base as written and the single values
    /// move around it: R12 leaves R8's bank, where it would clash with R8 in `add`.
    #[test]
    fn pinned_only_the_units_of_several_values_keep_their_registers() {
        let params = CoreParams::default();
        let program: Vec<Instruction> =
            parse("mov.tex R8..R9, R5\nadd R0, R8, R12\n", 240).unwrap();
        let values = Values::of(&program, &[]);
        let units = Units::of(&values, &program, &[]);
        let value = |slot| values.at(&program, slot).unwrap();
        let (r8, r12) = (value(Slot::Written(0, 0)), value(Slot::Source(1, 1)));
        let registers = solve(&params, &values, &units, true).expect("every unit placed");
        assert_eq!(registers[r8], 8);
        assert_ne!(
            registers[r12] % 4,
            0,
            "R12's value in R8's bank: {registers:?}"
        );
        let free = solve(&params, &values, &units, false).expect("every unit placed");
        assert_ne!(free[r8] % 4, free[r12] % 4, "{free:?}");
    }

    /// A program (found by search) whose first pass of moves leaves a unit a cheaper base.
    #[test]
    fn the_moves_go_on_until_no_unit_has_a_cheaper_base() {
        let params = CoreParams::default();
        let text = "mad R6, R4, R5, R2\nsub R2, R7, R4\nmad R7, R7, R6, R4\n\
                    mad R1, R1, R5, R6\nadd R2, R6, R5\nmov R5, R2\n";
        let (values, units, _) = built(text, &[]);
        let registers = solve(&params, &values, &units, false).expect("every unit placed");
        let mut assignment = Assignment::new(&params, &values, &units);
        for (u, members) in units.members.iter().enumerate() {
            assignment.place(u, registers[members[0]] - units.offset[members[0]]);
        }
        for u in 0..units.members.len() {
            assert!(!assignment.improve(u), "unit {u} moves: {registers:?}");
        }
    }

    #[test]
    fn among_bases_of_equal_cost_the_best_is_the_register_as_written() {
        let params = CoreParams::default();
        let (values, units, found) = built("add R7, R5, R5\n", &[Slot::Written(0, 0)]);
        let assignment = Assignment::new(&params, &values, &units);
        assert_eq!(assignment.best(found[0]), Some(7));
    }
}
