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

use super::partition::{scan_ranges, Partitioned, Scan};
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
#[derive(Clone, Debug, Default, PartialEq, Eq)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Span {
    /// Its interval on a doubled instruction axis: the write of instruction `i` is at
    /// `2i + 1`, its reads at `2i`, an input is live from 0. Ranges interfere when their
    /// intervals meet; a register read for the last time can be written by the same
    /// instruction.
    interval: (usize, usize),
    /// The cluster of its first access.
    cluster: usize,
    /// Where it starts: the instruction of its first access, and the access's place there
    /// (the index of the first source naming the register for a read, `Sources::MAX` for the
    /// write). Ranges start in order of this.
    first: (usize, usize),
    /// Its register's number.
    vr: usize,
    /// Whether it holds a program input.
    input: bool,
}

/// The live ranges of the registers of one kind in a program, in order of their start, and
/// which range each register operand belongs to.
#[derive(Default)]
struct Ranges {
    /// The ranges.
    spans: Vec<Span>,
    /// Per instruction: its destination's range, if of this kind.
    dst: Vec<Option<usize>>,
    /// Per instruction: each register source's range, if of this kind.
    src: Vec<[Option<usize>; Sources::MAX]>,
}

impl Ranges {
    /// Finds the live ranges of the virtual registers of `program` and of its global registers,
    /// in this order (those of [`live_ranges_of`](super::partition::live_ranges_of)), in `all`
    /// (its storage reused).
    fn find(all: &mut [Ranges; 2], program: &[ClusterInstr], scan: &mut Scan) {
        for ranges in all.iter_mut() {
            ranges.spans.clear();
            refill(&mut ranges.dst, program.len(), None);
            refill(&mut ranges.src, program.len(), [None; Sources::MAX]);
        }
        let kinds = [RegKind::Virtual, RegKind::Main];
        scan_ranges(program, &kinds, scan, |kind, range, vr, access| {
            let (ranges, at) = (&mut all[kind as usize], access.at);
            let names = |s: &Operand| matches!(s, Operand::Reg(r) if r.number(kind) == Some(vr));
            if range == ranges.spans.len() {
                let (start, place) = match access.write {
                    true => (2 * at + 1, Sources::MAX),
                    false => (0, program[at].src.iter().position(names).expect("read")),
                };
                ranges.spans.push(Span {
                    interval: (start, start),
                    cluster: access.cluster,
                    first: (at, place),
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
                if names(s) {
                    ranges.src[at][k] = Some(range);
                }
            }
        });
    }
}

/// The live ranges of each cluster (those whose first access it makes), in order.
#[derive(Default)]
struct ByCluster {
    /// The ranges, cluster after cluster.
    ranges: Vec<usize>,
    /// Per cluster (from 1): where its ranges start in `ranges`.
    starts: Vec<usize>,
    /// Per cluster (from 1): where its ranges end in `ranges`.
    ends: Vec<usize>,
}

impl ByCluster {
    /// Groups the ranges of `spans` by cluster, for clusters 1 to `clusters`.
    fn group(&mut self, spans: &[Span], clusters: usize) {
        let ours = |span: &Span| (1..=clusters).contains(&span.cluster);
        // Each cluster's count of ranges, then where its ranges end.
        refill(&mut self.ends, clusters + 1, 0);
        for span in spans.iter().filter(|s| ours(s)) {
            self.ends[span.cluster] += 1;
        }
        for c in 1..=clusters {
            self.ends[c] += self.ends[c - 1];
        }
        // Placed from the last, each cluster's ranges end up starting where the previous
        // cluster's end.
        self.starts.clone_from(&self.ends);
        refill(&mut self.ranges, self.ends[clusters], 0);
        for (r, span) in spans.iter().enumerate().rev().filter(|(_, s)| ours(s)) {
            self.starts[span.cluster] -= 1;
            self.ranges[self.starts[span.cluster]] = r;
        }
    }

    /// The ranges of `cluster`, in order.
    fn of(&self, cluster: usize) -> impl Iterator<Item = usize> + '_ {
        self.ranges[self.starts[cluster]..self.ends[cluster]]
            .iter()
            .copied()
    }
}

/// Empties `list` and fills it with `len` copies of `value`, its storage reused.
fn refill<T: Clone>(list: &mut Vec<T>, len: usize, value: T) {
    list.clear();
    list.resize(len, value);
}

/// The storage of [`Colouring::colour`], kept to reuse it, and the ranges it left out last.
#[derive(Default)]
struct Colouring {
    /// (interval, range) of the ranges to colour that hold an input, in order of interval.
    inputs: Vec<((usize, usize), usize)>,
    /// (interval, range) of the others, in order of interval.
    others: Vec<((usize, usize), usize)>,
    /// (range, register, end) of the ranges live at the current start.
    active: Vec<(usize, usize, usize)>,
    /// Whether each register is in `active`: the lowest free one is at most `active.len()`.
    taken: Vec<bool>,
    /// The ranges left out.
    left_out: Vec<usize>,
}

impl Colouring {
    /// Sorts `ranges` (indices into `spans`, increasing) into `inputs` and `others`. Spans are
    /// in order of start but for the inputs, which all start at 0: the others are in order as
    /// they come.
    fn order(&mut self, spans: &[Span], ranges: impl Iterator<Item = usize>) {
        self.inputs.clear();
        self.others.clear();
        for r in ranges {
            let entry = (spans[r].interval, r);
            match spans[r].input {
                true => self.inputs.push(entry),
                false => self.others.push(entry),
            }
        }
        self.inputs.sort_unstable();
        debug_assert!(self.others.is_sorted(), "spans in order of start");
    }

    /// Colours `ranges` (indices into `spans`, increasing) with `registers` registers in order
    /// of start, recording each range's register in `colours`; with too few, the competing
    /// range that ends last is left out, with none. Returns the ranges left out.
    fn colour(
        &mut self,
        spans: &[Span],
        ranges: impl Iterator<Item = usize>,
        registers: usize,
        colours: &mut [Option<usize>],
    ) -> &[usize] {
        self.order(spans, ranges);
        let Colouring {
            inputs,
            others,
            active,
            taken,
            left_out,
        } = self;
        refill(taken, registers.min(inputs.len() + others.len() + 1), false);
        active.clear();
        left_out.clear();
        // At most the earliest end in `active`: no range there ends before it.
        let mut earliest_end = usize::MAX;
        for &((start, end), r) in inputs.iter().chain(others.iter()) {
            if earliest_end < start {
                earliest_end = end_before(active, taken, start);
            }
            earliest_end = earliest_end.min(end);
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
}

/// Ends the ranges of `active` (range, register, end) that end before `start`, in order,
/// freeing their registers in `taken`. Returns the earliest end left (none: the most).
fn end_before(active: &mut Vec<(usize, usize, usize)>, taken: &mut [bool], start: usize) -> usize {
    let mut earliest_end = usize::MAX;
    let mut kept = 0;
    for k in 0..active.len() {
        let (_, reg, end) = active[k];
        if end < start {
            taken[reg] = false;
        } else {
            earliest_end = earliest_end.min(end);
            active[kept] = active[k];
            kept += 1;
        }
    }
    active.truncate(kept);
    earliest_end
}

/// The live ranges of the global registers once the spilled ranges are renamed, as a scan of
/// the renamed program finds them: those of the program's own global registers and the
/// spilled ranges, merged in order of start.
#[derive(Default)]
struct Renamed {
    /// The ranges.
    spans: Vec<Span>,
    /// Per range of the program's own global registers: its index in `spans`.
    of_main: Vec<usize>,
    /// Per range of the virtual registers: its index in `spans`, if spilled.
    of_virtual: Vec<Option<usize>>,
}

impl Renamed {
    /// Merges the ranges of the global registers `mains` and those of the virtual registers
    /// `virtuals` that `moved` gives a global register (renamed to it).
    fn merge(&mut self, virtuals: &Ranges, mains: &Ranges, moved: &[Option<usize>]) {
        self.spans.clear();
        self.of_main.clear();
        refill(&mut self.of_virtual, virtuals.spans.len(), None);
        let spilled = (0..virtuals.spans.len()).filter_map(|r| Some((r, moved[r]?)));
        let mut spilled = spilled.peekable();
        for span in &mains.spans {
            while let Some((r, m)) = spilled.next_if(|&(r, _)| virtuals.spans[r].first < span.first)
            {
                self.push_spilled(virtuals, r, m);
            }
            self.of_main.push(self.spans.len());
            self.spans.push(*span);
        }
        for (r, m) in spilled {
            self.push_spilled(virtuals, r, m);
        }
    }

    /// Adds range `r` of `virtuals`, spilled to global register `m`.
    fn push_spilled(&mut self, virtuals: &Ranges, r: usize, m: usize) {
        self.of_virtual[r] = Some(self.spans.len());
        self.spans.push(Span {
            vr: m,
            ..virtuals.spans[r]
        });
    }

    /// The index in `spans` of the range of an operand whose virtual range is `local` (if a
    /// virtual register) and whose global range is `main` (if a global one).
    fn of(&self, local: Option<usize>, main: Option<usize>) -> Option<usize> {
        match local.and_then(|r| self.of_virtual[r]) {
            Some(spilled) => Some(spilled),
            None => main.map(|r| self.of_main[r]),
        }
    }
}

/// Working storage of allocation, kept across programs to reuse it.
#[derive(Default)]
pub(crate) struct AllocateScratch {
    /// The open ranges of a scan.
    scan: Scan,
    /// The live ranges of the virtual registers of the partitioned program, and of its global
    /// registers.
    ranges: [Ranges; 2],
    /// The live ranges of the global registers after spilling.
    renamed: Renamed,
    /// The live ranges of the virtual registers by cluster.
    by_cluster: ByCluster,
    /// The colouring's storage.
    colouring: Colouring,
    /// Per range of the virtual registers: its local register; none for a range spilled.
    locals: Vec<Option<usize>>,
    /// Per range of the virtual registers: the global register it moves to, if spilled.
    moved: Vec<Option<usize>>,
    /// Per range of the global registers after spilling: its main register.
    mains: Vec<Option<usize>>,
    /// The global registers that hold a program input, with the input's virtual register.
    main_inputs: BTreeMap<usize, usize>,
}

/// Spills, per cluster, the local live ranges its `local_regs` registers cannot hold (see
/// [`Colouring::colour`]) to new global registers, and colours the local ranges left:
/// `scratch` holds the ranges, their local registers, where the spilled ones move and the
/// ranges of the global registers after spilling. Returns the spills.
fn spill(
    partitioned: &Partitioned,
    clusters: usize,
    local_regs: usize,
    scratch: &mut AllocateScratch,
) -> usize {
    let s = scratch;
    Ranges::find(&mut s.ranges, &partitioned.program, &mut s.scan);
    let [ranges, main_ranges] = &s.ranges;
    // Every global register the program names has a range.
    let numbers = main_ranges.spans.iter().map(|s| s.vr + 1);
    let mut next_main = numbers.max().unwrap_or(0);
    s.main_inputs.clone_from(&partitioned.main_inputs);
    let mut spills = 0;
    refill(&mut s.locals, ranges.spans.len(), None);
    refill(&mut s.moved, ranges.spans.len(), None);
    s.by_cluster.group(&ranges.spans, clusters);
    let colouring = &mut s.colouring;
    for c in 1..=clusters {
        let own = s.by_cluster.of(c);
        let left_out = colouring.colour(&ranges.spans, own, local_regs, &mut s.locals);
        if left_out.is_empty() {
            continue;
        }
        for &r in left_out {
            s.moved[r] = Some(next_main);
            if ranges.spans[r].input {
                s.main_inputs.insert(next_main, ranges.spans[r].vr);
            }
            next_main += 1;
            spills += 1;
        }
        // Renaming ends the ranges spilled and leaves the others as they are: the
        // cluster's ranges left are coloured again, as the spilled program's.
        let kept = s.by_cluster.of(c).filter(|&r| s.moved[r].is_none());
        let left_out = colouring.colour(&ranges.spans, kept, local_regs, &mut s.locals);
        debug_assert!(
            left_out.is_empty(),
            "spilling left every cluster colourable"
        );
    }
    s.renamed.merge(ranges, main_ranges, &s.moved);
    spills
}

/// Allocates a partitioned program (every local live range within one cluster) on
/// `clusters` clusters of `local_regs` local registers each and a main file of `main_regs`.
pub fn allocate(
    partitioned: &Partitioned,
    clusters: usize,
    local_regs: usize,
    main_regs: usize,
) -> Result<Allocation, MainFileFull> {
    let mut alloc = Allocation::default();
    let mut scratch = AllocateScratch::default();
    let files = (clusters, local_regs, main_regs);
    allocate_into(partitioned, files, &mut scratch, &mut alloc)?;
    Ok(alloc)
}

/// Allocates `partitioned` as [`allocate`] does on `(clusters, local_regs, main_regs)`, into
/// `out` (its storage reused; left partly written when the main file is full).
pub(crate) fn allocate_into(
    partitioned: &Partitioned,
    (clusters, local_regs, main_regs): (usize, usize, usize),
    scratch: &mut AllocateScratch,
    out: &mut Allocation,
) -> Result<(), MainFileFull> {
    // Spilling colours the local files; the main file is coloured last.
    out.spills = spill(partitioned, clusters, local_regs, scratch);
    let s = scratch;
    let (ranges, main_ranges) = (&s.ranges[0], &s.renamed);
    refill(&mut out.local_used, clusters, 0);
    out.inputs.clear();
    for c in 1..=clusters {
        for r in s.by_cluster.of(c) {
            let Some(reg) = s.locals[r] else { continue };
            out.local_used[c - 1] = out.local_used[c - 1].max(reg + 1);
            if ranges.spans[r].input {
                out.inputs
                    .push((ranges.spans[r].vr, c, Physical::Local(reg)));
            }
        }
    }
    let (spans, colouring) = (&main_ranges.spans, &mut s.colouring);
    let all = 0..spans.len();
    refill(&mut s.mains, all.len(), None);
    if !colouring
        .colour(spans, all.clone(), main_regs, &mut s.mains)
        .is_empty()
    {
        refill(&mut s.mains, all.len(), None);
        colouring.colour(spans, all, usize::MAX, &mut s.mains);
        let needed = s.mains.iter().flatten().map(|r| r + 1).max().unwrap_or(0);
        return Err(MainFileFull { needed });
    }
    out.main_used = 0;
    for (span, reg) in main_ranges.spans.iter().zip(&s.mains) {
        let Some(reg) = *reg else { continue };
        out.main_used = out.main_used.max(reg + 1);
        let input = s.main_inputs.get(&span.vr).filter(|_| span.input);
        if let Some(&vr) = input {
            out.inputs.push((vr, span.cluster, Physical::Main(reg)));
        }
    }
    out.program.clone_from(&partitioned.program);
    place(s, out);
    Ok(())
}

/// Renames the accesses of instruction `at`, `instr`, to the ranges of `ranges` (of virtual
/// registers) that `moved` gives a global register to that register.
fn rename(instr: &mut ClusterInstr, at: usize, ranges: &Ranges, moved: &[Option<usize>]) {
    if let Some(m) = ranges.dst[at].and_then(|r| moved[r]) {
        instr.dst = Some(Reg::Main(m));
    }
    for (s, range) in instr.src.iter_mut().zip(ranges.src[at]) {
        if let Some(m) = range.and_then(|r| moved[r]) {
            *s = Operand::Reg(Reg::Main(m));
        }
    }
}

/// Renames the spilled ranges in `out`'s program, and places each instruction's destination
/// and sources in physical registers: those of their ranges, as `s` coloured them.
fn place(s: &AllocateScratch, out: &mut Allocation) {
    let [ranges, main_ranges] = &s.ranges;
    let physical = |local: Option<usize>, main: Option<usize>| {
        let in_local = local.and_then(|r| s.locals[r]).map(Physical::Local);
        let main = || s.renamed.of(local, main).and_then(|r| s.mains[r]);
        in_local.or_else(|| main().map(Physical::Main))
    };
    out.dst.clear();
    out.src.clear();
    for (at, instr) in out.program.iter_mut().enumerate() {
        rename(instr, at, ranges, &s.moved);
        out.dst.push(physical(ranges.dst[at], main_ranges.dst[at]));
        let mut placed = [None; Sources::MAX];
        for (k, p) in placed.iter_mut().enumerate() {
            *p = physical(ranges.src[at][k], main_ranges.src[at][k]);
        }
        out.src.push(placed);
    }
}
