//! Register allocation after partitioning ([0073]-[0074]): each cluster's local registers by
//! colouring the interference graph of its live ranges, spilling to the main file when the
//! local file is full; then the main file's registers the same way. Live ranges that do not
//! overlap share a physical register (Fig. 14).
//!
//! Live ranges of straight-line code are intervals, so their interference graph is an interval
//! graph, and colouring the ranges in order of their start with the lowest free register is an
//! optimal colouring. When a cluster's local file is full, the live range that ends last among
//! those competing is spilled: it moves to the main file (a new global register), and its
//! cluster reads and writes it there.

use std::collections::BTreeMap;

use super::partition::{live_ranges, LiveRange, Partitioned};
use super::program::{first_free, ClusterInstr, Operand, Reg, RegKind};

/// A physical register: register `n` of a cluster's local file, or of the main file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Physical {
    /// Register `n` of the executing cluster's local file.
    Local(usize),
    /// Register `n` of the main file.
    Main(usize),
}

impl std::fmt::Display for Physical {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Physical::Local(n) => write!(f, "r{n}"),
            Physical::Main(n) => write!(f, "m{n}"),
        }
    }
}

/// Where every access of a program lives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Allocation {
    /// The program after spilling (spilled local ranges renamed to new global registers).
    pub program: Vec<ClusterInstr>,
    /// Per instruction: its destination's physical register, if it writes one.
    pub dst: Vec<Option<Physical>>,
    /// Per instruction: its register sources' physical registers, in source order.
    pub src: Vec<Vec<Option<Physical>>>,
    /// Local live ranges spilled to the main file.
    pub spills: usize,
    /// Per cluster (index 0 is cluster 1): local registers used.
    pub local_used: Vec<usize>,
    /// Main registers used.
    pub main_used: usize,
    /// Where each program input starts: its register, the cluster whose local file holds it
    /// (its owner), and its physical register (in the main file if it was spilled).
    pub inputs: Vec<(usize, usize, Physical)>,
}

/// Why a program cannot be allocated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MainFileFull {
    /// Main registers the program needs at its busiest point.
    pub needed: usize,
}

/// A live range's interval on a doubled instruction axis: the write of instruction `i` is at
/// `2i + 1`, its reads at `2i`, an input is live from 0. Ranges interfere when their intervals
/// meet; a register read for the last time can be written by the same instruction.
fn interval(range: &LiveRange) -> (usize, usize) {
    let first = range.accesses[0];
    let start = if first.write { 2 * first.at + 1 } else { 0 };
    let last = range.accesses.last().expect("a range has an access");
    let end = if last.write { start } else { 2 * last.at };
    (start, end)
}

/// Colours `ranges` (indices into `all`) with `registers` registers in order of start; with
/// too few, the competing range that ends last is left out. Returns each coloured range's
/// register and the ranges left out.
fn colour(
    all: &[LiveRange],
    mut ranges: Vec<usize>,
    registers: usize,
) -> (BTreeMap<usize, usize>, Vec<usize>) {
    ranges.sort_by_key(|&r| interval(&all[r]));
    let mut active: Vec<(usize, usize)> = Vec::new(); // (range, register)
    let mut colours = BTreeMap::new();
    let mut left_out = Vec::new();
    for r in ranges {
        let (start, _) = interval(&all[r]);
        active.retain(|&(a, _)| interval(&all[a]).1 >= start);
        let free = (0..registers).find(|reg| active.iter().all(|&(_, used)| used != *reg));
        match free {
            Some(reg) => {
                active.push((r, reg));
                colours.insert(r, reg);
            }
            None if active.is_empty() => left_out.push(r),
            None => {
                // Spill whichever of the competing ranges and this one ends last.
                let (k, &(victim, reg)) = active
                    .iter()
                    .enumerate()
                    .max_by_key(|(_, &(a, _))| interval(&all[a]).1)
                    .expect("not empty");
                if interval(&all[victim]).1 > interval(&all[r]).1 {
                    colours.remove(&victim);
                    left_out.push(victim);
                    active[k] = (r, reg);
                    colours.insert(r, reg);
                } else {
                    left_out.push(r);
                }
            }
        }
    }
    (colours, left_out)
}

/// Allocates a partitioned program (every local live range within one cluster) on
/// `clusters` clusters of `local_regs` local registers each and a main file of `main_regs`.
pub fn allocate(
    partitioned: &Partitioned,
    clusters: usize,
    local_regs: usize,
    main_regs: usize,
) -> Result<Allocation, MainFileFull> {
    let program = &partitioned.program;
    // Spill: per cluster, colour its local ranges; rename the ranges left out.
    let ranges = live_ranges(program);
    let mut program = program.to_vec();
    let mut next_main = first_free(&program, RegKind::Main);
    let mut main_inputs = partitioned.main_inputs.clone();
    let mut spills = 0;
    for c in 1..=clusters {
        let mine = (0..ranges.len()).filter(|&r| ranges[r].accesses[0].cluster == c);
        let (_, left_out) = colour(&ranges, mine.collect(), local_regs);
        for r in left_out {
            rename(&mut program, &ranges[r], Reg::Main(next_main));
            if ranges[r].input {
                main_inputs.insert(next_main, ranges[r].vr);
            }
            next_main += 1;
            spills += 1;
        }
    }
    // Colour the local files, then the main file, of the spilled program.
    let ranges = live_ranges(&program);
    let main_ranges = main_live_ranges(&program);
    let mut dst = vec![None; program.len()];
    let mut src: Vec<Vec<Option<Physical>>> =
        program.iter().map(|i| vec![None; i.src.len()]).collect();
    let mut local_used = vec![0; clusters];
    let mut inputs = Vec::new();
    for c in 1..=clusters {
        let mine: Vec<usize> = (0..ranges.len())
            .filter(|&r| ranges[r].accesses[0].cluster == c)
            .collect();
        let (colours, left_out) = colour(&ranges, mine, local_regs);
        debug_assert!(
            left_out.is_empty(),
            "spilling left every cluster colourable"
        );
        for (&r, &reg) in &colours {
            local_used[c - 1] = local_used[c - 1].max(reg + 1);
            if ranges[r].input {
                inputs.push((ranges[r].vr, c, Physical::Local(reg)));
            }
            place(
                &program,
                &ranges[r],
                Reg::Virtual(ranges[r].vr),
                Physical::Local(reg),
                &mut dst,
                &mut src,
            );
        }
    }
    let all: Vec<usize> = (0..main_ranges.len()).collect();
    let (colours, left_out) = colour(&main_ranges, all.clone(), main_regs);
    if !left_out.is_empty() {
        let (colours, _) = colour(&main_ranges, all, usize::MAX);
        let needed = colours.values().map(|r| r + 1).max().unwrap_or(0);
        return Err(MainFileFull { needed });
    }
    let mut main_used = 0;
    for (&r, &reg) in &colours {
        main_used = main_used.max(reg + 1);
        let input = main_inputs
            .get(&main_ranges[r].vr)
            .filter(|_| main_ranges[r].input);
        if let Some(&vr) = input {
            inputs.push((vr, main_ranges[r].accesses[0].cluster, Physical::Main(reg)));
        }
        let name = Reg::Main(main_ranges[r].vr);
        place(
            &program,
            &main_ranges[r],
            name,
            Physical::Main(reg),
            &mut dst,
            &mut src,
        );
    }
    Ok(Allocation {
        program,
        dst,
        src,
        spills,
        local_used,
        main_used,
        inputs,
    })
}

/// The live ranges of the global registers of `program` (`vr` holds the `mvr` number).
fn main_live_ranges(program: &[ClusterInstr]) -> Vec<LiveRange> {
    // Swap the two kinds of register and reuse the virtual registers' analysis.
    let swapped: Vec<ClusterInstr> = program.iter().map(swap_kinds).collect();
    live_ranges(&swapped)
}

/// `instr` with `v<N>` and `mvr<N>` exchanged.
fn swap_kinds(instr: &ClusterInstr) -> ClusterInstr {
    let swap = |r: Reg| match r {
        Reg::Virtual(n) => Reg::Main(n),
        Reg::Main(n) => Reg::Virtual(n),
    };
    ClusterInstr {
        dst: instr.dst.map(swap),
        src: instr
            .src
            .iter()
            .map(|s| match s {
                Operand::Reg(r) => Operand::Reg(swap(*r)),
                imm => *imm,
            })
            .collect(),
        ..instr.clone()
    }
}

/// Renames every access of `range` (of `v<range.vr>`) in `program` to `to`.
fn rename(program: &mut [ClusterInstr], range: &LiveRange, to: Reg) {
    let from = Reg::Virtual(range.vr);
    for a in &range.accesses {
        let instr = &mut program[a.at];
        if a.write {
            instr.dst = Some(to);
        } else {
            for s in &mut instr.src {
                if *s == Operand::Reg(from) {
                    *s = Operand::Reg(to);
                }
            }
        }
    }
}

/// Records that the accesses of `range` (to `name`) use physical register `reg`.
fn place(
    program: &[ClusterInstr],
    range: &LiveRange,
    name: Reg,
    reg: Physical,
    dst: &mut [Option<Physical>],
    src: &mut [Vec<Option<Physical>>],
) {
    for a in &range.accesses {
        if a.write {
            dst[a.at] = Some(reg);
        } else {
            for (k, s) in program[a.at].src.iter().enumerate() {
                if *s == Operand::Reg(name) {
                    src[a.at][k] = Some(reg);
                }
            }
        }
    }
}
