//! The lower bound on a program's cycles: a count no schedule on this core can beat.

use grfgen_hdl::params::CoreParams;
use serde::Serialize;

use super::external::UnitLatencies;
use super::program::Instruction;
use crate::bank_map::bank;

/// The lower bound and the terms it is the largest of.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LowerBound {
    /// The bound in cycles (0 for an empty program).
    pub cycles: u64,
    /// Instructions: one issues per cycle at most.
    pub instructions: u64,
    /// GPR reads (distinct source registers of every instruction, with forwarding only those
    /// whose writer is not an ALU instruction among the `read_latency + alu_latency`
    /// instructions before) / read ports, rounded up.
    pub read_ports: u64,
    /// Reads of the busiest bank over the reads a bank serves per cycle (one, two with 2R1W
    /// banks), rounded up; absent on an ideal file.
    pub busiest_bank: Option<u64>,
    /// In-order issue: the earliest cycle the last instruction can issue, given one issue per
    /// cycle in program order, each instruction's own reads of one bank (distinct cycles after
    /// it is fetched), its dependences and its sync waits.
    pub issue_chain: u64,
    /// The earliest cycle after which every long-latency result is written (0 without one):
    /// the program is done no earlier.
    pub long_results: u64,
}

/// The lower bound of `program` on the core of `params`, its long-latency results coming back
/// after `latencies`; `banked` is false for the ideal, conflict-free register file.
///
/// Timing facts it rests on (see `docs/core.md`): instruction `i` enters the window at the end
/// of cycle `i` at the earliest, so its reads happen from cycle `i + 1` on, in or before its
/// issue cycle; one bank gives one read per cycle (two with 2R1W banks) and the GPR
/// `read_ports` in all; immediates are no reads; at most one instruction issues per cycle, in
/// program order (a `nop` too); an ALU result is written back `read_latency + alu_latency`
/// cycles after its issue (`CoreParams::read_latency`: the GPR's grant and read latencies; then
/// the ALU) and can be read the cycle after, so a dependent instruction issues at least
/// `read_latency + alu_latency + 1` cycles later, or `alu_latency` cycles later with result
/// forwarding; a long-latency result leaves the ALU at the same stage, is written through the
/// external write port no earlier than its unit's latency after that and can be read the cycle
/// after (never forwarded), and an instruction waiting on the flag that guards it issues no
/// earlier than that either; the program is done when its last instruction has left the ALU
/// and its last result is written. The bound is the larger of `max(terms) + read_latency +
/// alu_latency + 1` and the long-latency results' term (cycles are counted from 0).
pub fn lower_bound(
    params: &CoreParams,
    program: &[Instruction],
    latencies: &UnitLatencies,
    banked: bool,
) -> LowerBound {
    waves_lower_bound(params, &[program], latencies, banked)
}

/// The lower bound of several waves' programs (each on its own registers) interleaved on one
/// core: the instructions, read-port and busiest-bank terms count every wave's instructions and
/// reads; the issue chain and the long results are the latest of any one wave's, which the
/// interleaving can only delay.
pub fn waves_lower_bound(
    params: &CoreParams,
    programs: &[&[Instruction]],
    latencies: &UnitLatencies,
    banked: bool,
) -> LowerBound {
    let gpr = &params.gpr;
    let mut total = Pass::new(gpr.banks);
    for program in programs.iter().filter(|p| !p.is_empty()) {
        let pass = pass(params, program, latencies, banked);
        total.instructions += pass.instructions;
        total.reads += pass.reads;
        for (sum, reads) in total.bank_reads.iter_mut().zip(&pass.bank_reads) {
            *sum += reads;
        }
        total.chain = total.chain.max(pass.chain);
        total.long = total.long.max(pass.long);
    }
    if total.instructions == 0 {
        return LowerBound {
            cycles: 0,
            instructions: 0,
            read_ports: 0,
            busiest_bank: banked.then_some(0),
            issue_chain: 0,
            long_results: 0,
        };
    }
    let per_bank = gpr.bank_kind.reads_per_bank() as u64;
    let read_ports = total.reads.div_ceil(gpr.read_ports as u64);
    let busiest = total.bank_reads.iter().copied().max().unwrap_or(0);
    let busiest_bank = banked.then(|| busiest.div_ceil(per_bank));
    let term = (total.instructions)
        .max(read_ports)
        .max(busiest_bank.unwrap_or(0))
        .max(total.chain);
    LowerBound {
        cycles: (term + params.issue_to_writeback() as u64 + 1).max(total.long),
        instructions: total.instructions,
        read_ports,
        busiest_bank,
        issue_chain: total.chain,
        long_results: total.long,
    }
}

/// One program's counts towards the bound.
struct Pass {
    /// Instructions.
    instructions: u64,
    /// GPR reads (with forwarding, less those that may be forwarded).
    reads: u64,
    /// Those reads per bank.
    bank_reads: Vec<u64>,
    /// The issue chain.
    chain: u64,
    /// When the last long-latency result is readable.
    long: u64,
}

impl Pass {
    /// Nothing counted, over `banks` banks.
    fn new(banks: usize) -> Self {
        Self {
            instructions: 0,
            reads: 0,
            bank_reads: vec![0; banks],
            chain: 0,
            long: 0,
        }
    }
}

/// The counts of `program` (not empty) alone on the core of `params` (`banked`: the banked
/// file, else the ideal one).
fn pass(
    params: &CoreParams,
    program: &[Instruction],
    latencies: &UnitLatencies,
    banked: bool,
) -> Pass {
    let gpr = &params.gpr;
    let ports = gpr.read_ports as u64;
    let per_bank = gpr.bank_kind.reads_per_bank() as u64;
    let to_writeback = params.issue_to_writeback() as u64;
    let mut bank_reads = vec![0u64; gpr.banks];
    let mut reads = 0u64;
    let mut earliest = vec![0u64; program.len()];
    let mut last_writer: Vec<Option<usize>> = vec![None; gpr.registers];
    // The cycle from which the result of instruction `w` (issued at `earliest[w]`) is readable,
    // or may be forwarded.
    let readable = |w: &Instruction, issue: u64| match w.long_latency() {
        true => issue + to_writeback + latencies.of(w.unit) as u64 + 1,
        false if params.forward => issue + params.alu_latency as u64,
        false => issue + to_writeback + 1,
    };
    // The last long-latency results guarded by (ss) and by (sy): when they are readable.
    let mut guarded = [0u64; 2];
    // One instruction's distinct sources, and its reads per bank (kept to reuse their storage).
    let mut distinct: Vec<usize> = Vec::new();
    let mut own = vec![0u64; gpr.banks];
    // With forwarding, a source may skip its read when its ALU writer is still in flight at
    // the issue: one of the `issue_to_writeback` instructions before (one issue per cycle).
    let reach = if params.forward {
        params.issue_to_writeback()
    } else {
        0
    };
    for (i, instruction) in program.iter().enumerate() {
        distinct.clear();
        distinct.extend(instruction.reads());
        distinct.sort_unstable();
        distinct.dedup();
        // Its dependences: the cycle each writer's result can reach it; its sync waits.
        let waits = [instruction.wait.ss, instruction.wait.sy];
        let ready = (distinct.iter())
            .filter_map(|&reg| last_writer[reg])
            .map(|w| readable(&program[w], earliest[w]))
            .chain((0..2).filter(|&k| waits[k]).map(|k| guarded[k]))
            .max()
            .unwrap_or(0);
        distinct.retain(|&reg| {
            last_writer[reg].is_none_or(|w| program[w].long_latency() || i - w > reach)
        });
        reads += distinct.len() as u64;
        // Cycles this instruction's own reads need, all after it is fetched.
        own.fill(0);
        for &reg in &distinct {
            let b = bank(gpr.bank_map, reg, gpr.banks);
            bank_reads[b] += 1;
            own[b] += 1;
        }
        let own_cycles = if banked {
            own.iter().copied().max().unwrap_or(0).div_ceil(per_bank)
        } else {
            0
        }
        .max((distinct.len() as u64).div_ceil(ports))
        .max(1);
        let mut start = i as u64 + own_cycles;
        if i > 0 {
            start = start.max(earliest[i - 1] + 1);
        }
        start = start.max(ready);
        earliest[i] = start;
        for reg in instruction.written() {
            last_writer[reg] = Some(i);
        }
        if instruction.long_latency() && instruction.writes > 0 {
            let sy = usize::from(instruction.unit.guarded_by_sy());
            guarded[sy] = guarded[sy].max(readable(instruction, start));
        }
    }
    Pass {
        instructions: program.len() as u64,
        reads,
        bank_reads,
        chain: earliest[program.len() - 1],
        long: guarded[0].max(guarded[1]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::program::{parse, Source, Wait};
    use grfgen_hdl::params::{CoreOp, CoreUnit};

    #[test]
    fn the_documents_example_is_bound_by_its_busiest_bank() {
        let params = CoreParams::document();
        let program = parse("(rpt3) mad R0, R0, R4, R8", 256).unwrap();
        let bound = lower_bound(&params, &program, &UnitLatencies::default(), true);
        assert_eq!(bound.instructions, 4);
        assert_eq!(bound.read_ports, 3); // 12 reads / 4 ports
        assert_eq!(bound.busiest_bank, Some(3));
        // MAD0's three bank-0 reads take cycles 1..3, so it issues at 3 at the earliest; the
        // others follow one per cycle.
        assert_eq!(bound.issue_chain, 6);
        assert_eq!(bound.cycles, 6 + 2 + 2);
        let ideal = lower_bound(&params, &program, &UnitLatencies::default(), false);
        assert_eq!(ideal.issue_chain, 4);
    }

    /// The bank map decides which reads share a bank: R0, R4, R8 are all in bank 0 under
    /// `mod` and in banks 0, 1, 2 under `row` and `xor`; R0, R1, R2 the other way round under
    /// `row` (one vec4 in one bank).
    #[test]
    fn the_bank_map_decides_the_busiest_bank() {
        use grfgen_hdl::params::BankMap;
        let busiest = |map: BankMap, source: &str| {
            let mut params = CoreParams::document();
            params.gpr.bank_map = map;
            let program = parse(source, 256).unwrap();
            lower_bound(&params, &program, &UnitLatencies::default(), true).busiest_bank
        };
        let strided = "mad R12, R0, R4, R8";
        let packed = "mad R12, R0, R1, R2";
        assert_eq!(busiest(BankMap::Mod, strided), Some(3));
        assert_eq!(busiest(BankMap::Row, strided), Some(1));
        assert_eq!(busiest(BankMap::Xor, strided), Some(1));
        assert_eq!(busiest(BankMap::Mod, packed), Some(1));
        assert_eq!(busiest(BankMap::Row, packed), Some(3));
        assert_eq!(busiest(BankMap::Xor, packed), Some(1));
    }

    #[test]
    fn a_chain_costs_alu_latency_plus_two_per_hop() {
        // One cycle from a read to its data: a hop is the read, the ALU and the write-back.
        let params = CoreParams::document();
        let program = parse("add R1, R0, R0\nadd R2, R1, R1\nadd R3, R2, R2", 256).unwrap();
        let bound = lower_bound(&params, &program, &UnitLatencies::default(), true);
        assert_eq!(bound.issue_chain, 1 + 4 + 4);
        assert_eq!(bound.cycles, 9 + 4);
    }

    /// Issue is in order: an instruction that depends on nothing still issues a cycle after
    /// the one before it, however late that one issued.
    #[test]
    fn an_independent_instruction_issues_after_the_one_before() {
        let params = CoreParams::document();
        let chain = "add R1, R0, R0\nadd R2, R1, R1\nadd R3, R2, R2\n";
        let latencies = UnitLatencies::default();
        let alone = lower_bound(&params, &parse(chain, 256).unwrap(), &latencies, true);
        let after = parse(&format!("{chain}add R5, R4, R4"), 256).unwrap();
        let bound = lower_bound(&params, &after, &latencies, true);
        assert_eq!(alone.issue_chain, 9);
        assert_eq!(bound.issue_chain, alone.issue_chain + 1);
    }

    /// An instruction on `unit` writing `writes` registers from `dst`, from `src`.
    fn on(unit: CoreUnit, dst: usize, writes: usize, src: Vec<Source>) -> Instruction {
        Instruction {
            op: CoreOp::Mov,
            dst,
            writes,
            src,
            unit,
            wait: Wait::default(),
        }
    }

    #[test]
    fn long_results_reach_readers_and_sync_waits_after_their_units_latency() {
        // One cycle from a read to its data, two ALU stages: a hand-over 3 cycles after the
        // issue, readable 1 cycle after the write.
        let params = CoreParams::document();
        let latencies = UnitLatencies::default();
        let sfu = on(CoreUnit::Sfu, 0, 1, vec![Source::Reg(8)]);
        let reader = Instruction::alu(CoreOp::Add, 1, &[0, 9]);
        let bound = lower_bound(&params, &[sfu.clone(), reader], &latencies, true);
        // The SFU issues at 1, its result is readable at 1 + 3 + 8 + 1.
        assert_eq!(bound.issue_chain, 13);
        assert_eq!(bound.cycles, 13 + 3 + 1);
        // A (sy) wait does not wait on the SFU, an (ss) one does; a long result alone ends the
        // program when it is readable.
        let mut waiting = Instruction::alu(CoreOp::Add, 4, &[9, 10]);
        waiting.wait.sy = true;
        let sy = lower_bound(&params, &[sfu.clone(), waiting.clone()], &latencies, true);
        assert_eq!((sy.issue_chain, sy.long_results, sy.cycles), (2, 13, 13));
        waiting.wait = Wait {
            ss: true,
            sy: false,
        };
        let ss = lower_bound(&params, &[sfu, waiting], &latencies, true);
        assert_eq!((ss.issue_chain, ss.cycles), (13, 17));
    }

    #[test]
    fn immediates_are_no_reads_and_nops_take_an_issue_cycle_each() {
        let params = CoreParams::document();
        let latencies = UnitLatencies::default();
        let mut program = vec![Instruction::alu(CoreOp::Nop, 0, &[]); 5];
        program.push(on(CoreUnit::Alu, 1, 1, vec![Source::Imm(3)]));
        let bound = lower_bound(&params, &program, &latencies, true);
        assert_eq!(
            (bound.instructions, bound.read_ports, bound.issue_chain),
            (6, 0, 6)
        );
        assert_eq!(bound.cycles, 6 + 3 + 1);
    }

    /// The document's core with forwarding and one read port, so that the read-port term
    /// counts the reads.
    fn forwarding_on_one_port() -> CoreParams {
        let document = CoreParams::document();
        CoreParams {
            forward: true,
            gpr: grfgen_hdl::params::GprParams {
                read_ports: 1,
                ..document.gpr
            },
            ..document
        }
    }

    #[test]
    fn forwarding_makes_a_hop_the_alus_latency_and_skips_near_reads() {
        let params = forwarding_on_one_port();
        let program = parse("add R1, R0, R0\nadd R2, R1, R1\nadd R3, R2, R2", 256).unwrap();
        let bound = lower_bound(&params, &program, &UnitLatencies::default(), true);
        assert_eq!(bound.issue_chain, 1 + 2 + 2);
        // R0 alone is read: R1 and R2 may come from the ALU.
        assert_eq!(bound.read_ports, 1);
        // R1 is read when its writer is further back than read_latency + alu_latency
        // instructions, and may be forwarded when it is that far.
        let reach = params.issue_to_writeback();
        for (fillers, reads) in [(reach, reach + 2), (reach - 1, reach)] {
            let mut source = String::from("add R1, R0, R0\n");
            for r in 0..fillers {
                source += &format!("add R{}, R20, R20\n", 30 + r);
            }
            source += "add R2, R1, R1\n";
            let program = parse(&source, 256).unwrap();
            let bound = lower_bound(&params, &program, &UnitLatencies::default(), true);
            assert_eq!(bound.read_ports, reads as u64, "{fillers} between");
        }
    }

    /// A forwarded source is no read wherever the pair stands: the distance counts from its
    /// writer, not from the program's start.
    #[test]
    fn a_forwarded_source_late_in_a_program_is_no_read() {
        let params = forwarding_on_one_port();
        let reach = params.issue_to_writeback();
        let mut source = String::new();
        for r in 0..=reach {
            source += &format!("add R{}, R20, R20\n", 30 + r);
        }
        source += "add R1, R0, R0\nadd R2, R1, R1\n";
        let program = parse(&source, 256).unwrap();
        let bound = lower_bound(&params, &program, &UnitLatencies::default(), true);
        // R20 once per filler, R0 once; R1 comes from the ALU.
        assert_eq!(bound.read_ports, reach as u64 + 2);
    }

    /// Only a long-latency result that writes a register is waited for: ALU results and
    /// stores leave the sync waits and the long-result term alone.
    #[test]
    fn only_long_results_that_write_are_waited_for() {
        let params = CoreParams::document();
        let latencies = UnitLatencies::default();
        let store = on(CoreUnit::GlobalMem, 0, 0, vec![Source::Reg(8)]);
        let sfu_store = on(CoreUnit::Sfu, 0, 0, vec![Source::Reg(8)]);
        let alu = Instruction::alu(CoreOp::Add, 1, &[8, 9]);
        for first in [store, sfu_store, alu] {
            for wait in [
                Wait {
                    ss: true,
                    sy: false,
                },
                Wait {
                    ss: false,
                    sy: true,
                },
            ] {
                let mut waiting = Instruction::alu(CoreOp::Add, 4, &[9, 10]);
                let alone =
                    lower_bound(&params, &[first.clone(), waiting.clone()], &latencies, true);
                waiting.wait = wait;
                let bound = lower_bound(&params, &[first.clone(), waiting], &latencies, true);
                assert_eq!(bound.long_results, 0, "{first:?} then {wait:?}");
                assert_eq!(
                    bound.issue_chain, alone.issue_chain,
                    "{first:?} then {wait:?}"
                );
            }
        }
    }
}
