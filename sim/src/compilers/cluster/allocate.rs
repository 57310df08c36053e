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

use super::partition::{live_ranges, live_ranges_of, LiveRange, Partitioned};
use crate::cluster::program::{first_free, ClusterInstr, Operand, Reg, RegKind, Sources};

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
    /// Per instruction: its register sources' physical registers, in source order (`None`
    /// for an immediate and past its last source).
    pub src: Vec<[Option<Physical>; Sources::MAX]>,
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
    // (interval, range), in order of start.
    let mut order: Vec<((usize, usize), usize)> =
        ranges.drain(..).map(|r| (interval(&all[r]), r)).collect();
    order.sort_unstable();
    let mut active: Vec<(usize, usize, usize)> = Vec::new(); // (range, register, end)
    let mut colours = BTreeMap::new();
    let mut left_out = Vec::new();
    for ((start, end), r) in order {
        active.retain(|&(_, _, e)| e >= start);
        let free = (0..registers).find(|reg| active.iter().all(|&(_, used, _)| used != *reg));
        match free {
            Some(reg) => {
                active.push((r, reg, end));
                colours.insert(r, reg);
            }
            None if active.is_empty() => left_out.push(r),
            None => {
                // Spill whichever of the competing ranges and this one ends last.
                let (k, &(victim, reg, last)) = active
                    .iter()
                    .enumerate()
                    .max_by_key(|(_, &(_, _, e))| e)
                    .expect("not empty");
                if last > end {
                    colours.remove(&victim);
                    left_out.push(victim);
                    active[k] = (r, reg, end);
                    colours.insert(r, reg);
                } else {
                    left_out.push(r);
                }
            }
        }
    }
    (colours, left_out)
}

/// A partitioned program after spilling.
struct Spilled {
    /// The program, spilled local ranges renamed to new global registers.
    program: Vec<ClusterInstr>,
    /// Its virtual registers' live ranges.
    ranges: Vec<LiveRange>,
    /// The global registers that hold a program input, with the input's virtual register.
    main_inputs: BTreeMap<usize, usize>,
    /// Local live ranges spilled.
    spills: usize,
}

/// Spills, per cluster, the local live ranges its `local_regs` registers cannot hold (see
/// [`colour`]) to new global registers.
fn spill(partitioned: &Partitioned, clusters: usize, local_regs: usize) -> Spilled {
    let ranges = live_ranges(&partitioned.program);
    let mut program = partitioned.program.clone();
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
    // Renaming ends ranges: without it, the ranges are the program's still.
    let ranges = match spills {
        0 => ranges,
        _ => live_ranges(&program),
    };
    Spilled {
        program,
        ranges,
        main_inputs,
        spills,
    }
}

/// Allocates a partitioned program (every local live range within one cluster) on
/// `clusters` clusters of `local_regs` local registers each and a main file of `main_regs`.
pub fn allocate(
    partitioned: &Partitioned,
    clusters: usize,
    local_regs: usize,
    main_regs: usize,
) -> Result<Allocation, MainFileFull> {
    let Spilled {
        program,
        ranges,
        main_inputs,
        spills,
    } = spill(partitioned, clusters, local_regs);
    // Colour the local files, then the main file, of the spilled program.
    let main_ranges = live_ranges_of(&program, RegKind::Main);
    let mut dst = vec![None; program.len()];
    let mut src = vec![[None; Sources::MAX]; program.len()];
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

/// Renames every access of `range` (of `v<range.vr>`) in `program` to `to`.
fn rename(program: &mut [ClusterInstr], range: &LiveRange, to: Reg) {
    let from = Reg::Virtual(range.vr);
    for a in &range.accesses {
        let instr = &mut program[a.at];
        if a.write {
            instr.dst = Some(to);
        } else {
            for s in instr.src.iter_mut() {
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
    src: &mut [[Option<Physical>; Sources::MAX]],
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
