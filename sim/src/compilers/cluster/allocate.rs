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

use super::partition::{scan_ranges, Partitioned};
use crate::cluster::program::{ClusterInstr, Operand, Reg, RegKind, Sources};

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

/// A live range as the allocator sees it.
struct Span {
    /// Its interval on a doubled instruction axis: the write of instruction `i` is at
    /// `2i + 1`, its reads at `2i`, an input is live from 0. Ranges interfere when their
    /// intervals meet; a register read for the last time can be written by the same
    /// instruction.
    interval: (usize, usize),
    /// The cluster of its first access.
    cluster: usize,
    /// Its register's number.
    vr: usize,
    /// Whether it holds a program input.
    input: bool,
}

/// The live ranges of the registers of one kind in a program, in order of their start, and
/// which range each register operand belongs to.
struct Ranges {
    /// The ranges.
    spans: Vec<Span>,
    /// Per instruction: its destination's range, if of this kind.
    dst: Vec<Option<usize>>,
    /// Per instruction: each register source's range, if of this kind.
    src: Vec<[Option<usize>; Sources::MAX]>,
}

impl Ranges {
    /// The live ranges of the virtual registers of `program` and of its global registers, in
    /// this order (those of [`live_ranges_of`](super::partition::live_ranges_of)); those of a
    /// kind not in `kinds` are left empty.
    fn of(program: &[ClusterInstr], kinds: &[RegKind]) -> [Ranges; 2] {
        let mut all = [RegKind::Virtual, RegKind::Main].map(|kind| {
            let n = match kinds.contains(&kind) {
                true => program.len(),
                false => 0,
            };
            Ranges {
                spans: Vec::with_capacity(n),
                dst: vec![None; n],
                src: vec![[None; Sources::MAX]; n],
            }
        });
        scan_ranges(program, kinds, |kind, range, vr, access| {
            let (ranges, at) = (&mut all[kind as usize], access.at);
            if range == ranges.spans.len() {
                let start = if access.write { 2 * at + 1 } else { 0 };
                ranges.spans.push(Span {
                    interval: (start, start),
                    cluster: access.cluster,
                    vr,
                    input: !access.write,
                });
            }
            if access.write {
                ranges.dst[at] = Some(range);
                return;
            }
            ranges.spans[range].interval.1 = 2 * at;
            for (k, s) in program[at].src.iter().enumerate() {
                if matches!(s, Operand::Reg(r) if r.number(kind) == Some(vr)) {
                    ranges.src[at][k] = Some(range);
                }
            }
        });
        all
    }

    /// The ranges whose first access `cluster` makes, in order.
    fn of_cluster(&self, cluster: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.spans.len()).filter(move |&r| self.spans[r].cluster == cluster)
    }
}

/// Colours `ranges` (indices into `spans`) with `registers` registers in order of start,
/// recording each range's register in `colours`; with too few, the competing range that ends
/// last is left out, with none. Returns the ranges left out.
fn colour(
    spans: &[Span],
    ranges: impl Iterator<Item = usize>,
    registers: usize,
    colours: &mut [Option<usize>],
) -> Vec<usize> {
    // (interval, range), in order of start.
    let mut order: Vec<((usize, usize), usize)> = ranges.map(|r| (spans[r].interval, r)).collect();
    order.sort_unstable();
    // (range, register, end) of the ranges live at the current start.
    let mut active: Vec<(usize, usize, usize)> = Vec::new();
    // Whether each register is in `active`: the lowest free one is at most `active.len()`.
    let mut taken = vec![false; registers.min(order.len() + 1)];
    let mut left_out = Vec::new();
    for ((start, end), r) in order {
        active.retain(|&(_, reg, e)| {
            let live = e >= start;
            if !live {
                taken[reg] = false;
            }
            live
        });
        let candidates = registers.min(active.len() + 1);
        match taken[..candidates].iter().position(|&t| !t) {
            Some(reg) => {
                active.push((r, reg, end));
                taken[reg] = true;
                colours[r] = Some(reg);
            }
            None if active.is_empty() => {
                colours[r] = None;
                left_out.push(r);
            }
            None => {
                // Spill whichever of the competing ranges and this one ends last.
                let (k, &(victim, reg, last)) = active
                    .iter()
                    .enumerate()
                    .max_by_key(|(_, &(_, _, e))| e)
                    .expect("not empty");
                if last > end {
                    colours[victim] = None;
                    left_out.push(victim);
                    active[k] = (r, reg, end);
                    colours[r] = Some(reg);
                } else {
                    colours[r] = None;
                    left_out.push(r);
                }
            }
        }
    }
    left_out
}

/// A partitioned program after spilling, its local files coloured.
struct Spilled {
    /// The program, spilled local ranges renamed to new global registers.
    program: Vec<ClusterInstr>,
    /// The live ranges of the virtual registers before spilling.
    ranges: Ranges,
    /// Per range of `ranges`: its local register; none for a range spilled.
    locals: Vec<Option<usize>>,
    /// The live ranges of the program's global registers.
    main_ranges: Ranges,
    /// The global registers that hold a program input, with the input's virtual register.
    main_inputs: BTreeMap<usize, usize>,
    /// Local live ranges spilled.
    spills: usize,
}

/// Spills, per cluster, the local live ranges its `local_regs` registers cannot hold (see
/// [`colour`]) to new global registers, and colours the local ranges left.
fn spill(partitioned: &Partitioned, clusters: usize, local_regs: usize) -> Spilled {
    let [ranges, main_ranges] =
        Ranges::of(&partitioned.program, &[RegKind::Virtual, RegKind::Main]);
    let mut program = partitioned.program.clone();
    // Every global register the program names has a range.
    let numbers = main_ranges.spans.iter().map(|s| s.vr + 1);
    let mut next_main = numbers.max().unwrap_or(0);
    let mut main_inputs = partitioned.main_inputs.clone();
    let mut spills = 0;
    let mut locals = vec![None; ranges.spans.len()];
    // The global register each spilled range moves to.
    let mut moved = vec![None; ranges.spans.len()];
    for c in 1..=clusters {
        let left_out = colour(&ranges.spans, ranges.of_cluster(c), local_regs, &mut locals);
        if left_out.is_empty() {
            continue;
        }
        for r in left_out {
            moved[r] = Some(next_main);
            if ranges.spans[r].input {
                main_inputs.insert(next_main, ranges.spans[r].vr);
            }
            next_main += 1;
            spills += 1;
        }
        // Renaming ends the ranges spilled and leaves the others as they are: the
        // cluster's ranges left are coloured again, as the spilled program's.
        let kept = ranges.of_cluster(c).filter(|&r| moved[r].is_none());
        let left_out = colour(&ranges.spans, kept, local_regs, &mut locals);
        debug_assert!(
            left_out.is_empty(),
            "spilling left every cluster colourable"
        );
    }
    let main_ranges = match spills {
        0 => main_ranges,
        _ => {
            rename(&mut program, &ranges, &moved);
            let [_, main_ranges] = Ranges::of(&program, &[RegKind::Main]);
            main_ranges
        }
    };
    Spilled {
        program,
        ranges,
        locals,
        main_ranges,
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
    // Spilling colours the local files; the main file is coloured last.
    let Spilled {
        program,
        ranges,
        locals,
        main_ranges,
        main_inputs,
        spills,
    } = spill(partitioned, clusters, local_regs);
    let mut local_used = vec![0; clusters];
    let mut inputs = Vec::new();
    for c in 1..=clusters {
        for r in ranges.of_cluster(c) {
            let Some(reg) = locals[r] else { continue };
            local_used[c - 1] = local_used[c - 1].max(reg + 1);
            if ranges.spans[r].input {
                inputs.push((ranges.spans[r].vr, c, Physical::Local(reg)));
            }
        }
    }
    let all = 0..main_ranges.spans.len();
    let mut mains = vec![None; all.len()];
    if !colour(&main_ranges.spans, all.clone(), main_regs, &mut mains).is_empty() {
        let mut unbounded = vec![None; all.len()];
        colour(&main_ranges.spans, all, usize::MAX, &mut unbounded);
        let needed = unbounded.iter().flatten().map(|r| r + 1).max().unwrap_or(0);
        return Err(MainFileFull { needed });
    }
    let mut main_used = 0;
    for (span, reg) in main_ranges.spans.iter().zip(&mains) {
        let Some(reg) = *reg else { continue };
        main_used = main_used.max(reg + 1);
        let input = main_inputs.get(&span.vr).filter(|_| span.input);
        if let Some(&vr) = input {
            inputs.push((vr, span.cluster, Physical::Main(reg)));
        }
    }
    let (dst, src) = place(&ranges, &locals, &main_ranges, &mains);
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

/// Renames every access of each range of `ranges` (of virtual registers) that `moved` gives a
/// global register to that register.
fn rename(program: &mut [ClusterInstr], ranges: &Ranges, moved: &[Option<usize>]) {
    for (at, instr) in program.iter_mut().enumerate() {
        if let Some(m) = ranges.dst[at].and_then(|r| moved[r]) {
            instr.dst = Some(Reg::Main(m));
        }
        for (s, range) in instr.src.iter_mut().zip(ranges.src[at]) {
            if let Some(m) = range.and_then(|r| moved[r]) {
                *s = Operand::Reg(Reg::Main(m));
            }
        }
    }
}

/// Each instruction's destination and sources' physical registers: those of their ranges, as
/// coloured in `locals` (of the virtual registers' `ranges`) and `mains` (of `main_ranges`).
fn place(
    ranges: &Ranges,
    locals: &[Option<usize>],
    main_ranges: &Ranges,
    mains: &[Option<usize>],
) -> (Vec<Option<Physical>>, Vec<[Option<Physical>; Sources::MAX]>) {
    let physical = |local: Option<usize>, main: Option<usize>| {
        let local = local.and_then(|r| locals[r]).map(Physical::Local);
        local.or_else(|| main.and_then(|r| mains[r]).map(Physical::Main))
    };
    let dst = ranges
        .dst
        .iter()
        .zip(&main_ranges.dst)
        .map(|(&local, &main)| physical(local, main))
        .collect();
    let src = ranges
        .src
        .iter()
        .zip(&main_ranges.src)
        .map(|(local, main)| std::array::from_fn(|k| physical(local[k], main[k])))
        .collect();
    (dst, src)
}
