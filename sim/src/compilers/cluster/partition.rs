//! Virtual-register partitioning (SPEC S4, document 001 [0075]-[0103]): live ranges, their
//! owner clusters, and the rewrite that keeps each value in its owner's local file and moves it
//! through the main file (`mvr<N>`) for the other clusters.
//!
//! Choices the document leaves open (`docs/cluster.md`):
//! - **Tie-break.** Of clusters with equally many accesses, the one that makes the range's
//!   first access (its write, or its first read for a program input) owns it, else the
//!   lowest-numbered.
//! - **Who runs each MOV.** A MOV runs on the cluster whose local register it touches: `MOV
//!   MVR, VRn` on the writer, `MOV VR, MVR` on the owner, `MOV VRn, MVR` on the reader. No
//!   cluster ever touches another cluster's local file; the figures draw `MOV VR, MVR` in the
//!   writer's column.
//! - **Naming.** The global register of every live range of `v<N>` is one `mvr<K>` (the ranges
//!   of one register never overlap), numbered in order of first need; a new local register is
//!   the next unused `v<N>`.
//! - **Program inputs.** A range read before any write holds an input, in its owner's local
//!   file; with non-owner readers, R1's `MOV MVR, VR` runs first in the program.
//! - An instruction's reads count once per register, its write once.

use std::collections::BTreeMap;

use crate::cluster::program::{
    first_free, ClusterInstr, ClusterOp, Operand, Reg, RegKind, Sources,
};
use crate::cluster::regmap::RegisterMap;

/// One access to a live range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    /// The instruction's index in the program.
    pub at: usize,
    /// The cluster that executes it.
    pub cluster: usize,
    /// A write (the range's first access) or a read.
    pub write: bool,
}

/// A live range of a virtual register: from a write (or the program's start, for an input)
/// to the last read before the next write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveRange {
    /// The virtual register.
    pub vr: usize,
    /// Its accesses in program order; the first is the write unless `input`.
    pub accesses: Vec<Access>,
    /// Whether the range holds a program input (no write).
    pub input: bool,
    /// The owner cluster.
    pub owner: usize,
}

impl LiveRange {
    /// The cluster that writes the range, if any.
    pub fn writer(&self) -> Option<usize> {
        self.accesses.first().filter(|a| a.write).map(|a| a.cluster)
    }
}

/// Working storage for finding live ranges, kept across programs to reuse it.
#[derive(Default)]
pub(crate) struct RangeScratch {
    /// The open ranges of a scan.
    scan: Scan,
    /// Accesses per cluster while an owner is found, all zero in between.
    counts: Vec<usize>,
    /// The access lists of ranges no longer needed, emptied.
    spare: Vec<Vec<Access>>,
}

/// The live ranges of the virtual registers of `program`, in order of their start.
pub fn live_ranges(program: &[ClusterInstr]) -> Vec<LiveRange> {
    live_ranges_of(program, RegKind::Virtual)
}

/// The live ranges of the registers of `kind` in `program`, in order of their start; a
/// range's `vr` is its register's number.
pub fn live_ranges_of(program: &[ClusterInstr], kind: RegKind) -> Vec<LiveRange> {
    let mut ranges = Vec::new();
    live_ranges_into(program, kind, &mut RangeScratch::default(), &mut ranges);
    ranges
}

/// The live ranges of [`live_ranges_of`], in `ranges` (the storage of those it held reused).
pub(crate) fn live_ranges_into(
    program: &[ClusterInstr],
    kind: RegKind,
    scratch: &mut RangeScratch,
    ranges: &mut Vec<LiveRange>,
) {
    let RangeScratch {
        scan,
        counts,
        spare,
    } = scratch;
    spare.extend(ranges.drain(..).map(|range| {
        let mut accesses = range.accesses;
        accesses.clear();
        accesses
    }));
    ranges.reserve(program.len());
    scan_ranges(program, &[kind], scan, |_, range, vr, access| {
        if range == ranges.len() {
            // Most ranges have a few reads: room for them saves growing the list.
            let accesses = spare.pop().unwrap_or_else(|| Vec::with_capacity(4));
            ranges.push(LiveRange {
                vr,
                accesses,
                input: !access.write,
                owner: 0,
            });
        }
        ranges[range].accesses.push(access);
    });
    for range in ranges.iter_mut() {
        range.owner = owner(&range.accesses, counts);
    }
}

/// The open live range of each register number during a scan, per kind (as numbered by
/// `RegKind`), kept across scans to reuse its storage.
#[derive(Default)]
pub(crate) struct Scan {
    /// Per kind: the open range of each register number.
    open: [RegisterMap<usize>; 2],
}

/// Visits the accesses of `program` to registers of the kinds in `kinds` in program order (an
/// instruction's reads, each register once, before its write) as `visit(kind, range, number,
/// access)`: `range` numbers the access's live range among those of its kind in order of
/// start, so a range's first access brings the next unused number.
pub(crate) fn scan_ranges(
    program: &[ClusterInstr],
    kinds: &[RegKind],
    scan: &mut Scan,
    mut visit: impl FnMut(RegKind, usize, usize, Access),
) {
    for open in &mut scan.open {
        open.clear(program.len());
    }
    // Per kind: the next range's number, and whether it is scanned.
    let mut next = [0, 0];
    let scanned = [RegKind::Virtual, RegKind::Main].map(|kind| kinds.contains(&kind));
    let wanted = |reg: Reg| {
        let (kind, number) = match reg {
            Reg::Virtual(n) => (RegKind::Virtual, n),
            Reg::Main(n) => (RegKind::Main, n),
        };
        scanned[kind as usize].then_some((kind, number))
    };
    for (at, instr) in program.iter().enumerate() {
        let cluster = instr.cluster;
        for (kind, vr) in instr.reads().filter_map(wanted) {
            let (open, next) = (&mut scan.open[kind as usize], &mut next[kind as usize]);
            let range = open.get(vr).unwrap_or_else(|| {
                open.insert(vr, *next);
                *next += 1;
                *next - 1
            });
            let write = false;
            visit(kind, range, vr, Access { at, cluster, write });
        }
        if let Some((kind, vr)) = instr.dst.and_then(wanted) {
            let (open, next) = (&mut scan.open[kind as usize], &mut next[kind as usize]);
            open.insert(vr, *next);
            *next += 1;
            let write = true;
            visit(kind, *next - 1, vr, Access { at, cluster, write });
        }
    }
}

/// The cluster with the most accesses; ties go to the first access's cluster, then to the
/// lowest-numbered. `counts` is scratch space, all zero before and after.
fn owner(accesses: &[Access], counts: &mut Vec<usize>) -> usize {
    if let [only] = accesses {
        return only.cluster;
    }
    let mut most = 0;
    for a in accesses {
        if a.cluster >= counts.len() {
            counts.resize(a.cluster + 1, 0);
        }
        counts[a.cluster] += 1;
        most = most.max(counts[a.cluster]);
    }
    let first = accesses[0].cluster;
    let owner = match counts[first] == most {
        true => first,
        false => accesses
            .iter()
            .filter(|a| counts[a.cluster] == most)
            .map(|a| a.cluster)
            .min()
            .expect("a maximum"),
    };
    for a in accesses {
        counts[a.cluster] = 0;
    }
    owner
}

/// A partitioned program.
#[derive(Clone, Debug, Default)]
pub struct Partitioned {
    /// The rewritten program, inserted MOVs included, each on the cluster that runs it.
    pub program: Vec<ClusterInstr>,
    /// The live ranges of the original program, with their owners.
    pub ranges: Vec<LiveRange>,
    /// MOVs inserted.
    pub movs: usize,
    /// Per instruction of `program`: it is one of the original program's (not an inserted
    /// MOV).
    pub original: Vec<bool>,
    /// Global registers that start with a program input (`mvr` number, input `v` number): the
    /// baseline's shared inputs.
    pub main_inputs: BTreeMap<usize, usize>,
}

/// The rewrite being built: renamings per instruction and the MOVs to insert around them.
#[derive(Default)]
struct Rewrite {
    /// Per instruction: its sources, read registers renamed.
    src: Vec<Sources>,
    /// Per instruction: the destination renamed.
    dst: Vec<Option<Reg>>,
    /// The MOVs to insert, in the order they were made.
    movs: Vec<ClusterInstr>,
    /// Per MOV: its slot's [`Slot::order`] and its index in `movs`.
    slots: Vec<(usize, usize)>,
    /// The next unused virtual register.
    next_vr: usize,
    /// The global register of each virtual register that needs one.
    mvr: RegisterMap<usize>,
    /// The next global register free for them: at first, above every `mvr` the program names
    /// itself.
    next_mvr: usize,
    /// Per cluster: its reads of the range being rewritten (none between ranges).
    reads: Vec<ClusterReads>,
    /// The clusters that read the range being rewritten.
    readers: Vec<usize>,
}

/// The reads of a live range by one cluster.
#[derive(Clone, Copy, Default)]
struct ClusterReads {
    /// How many there are, up to two.
    count: usize,
    /// The instruction of the first.
    first: usize,
    /// The register they read instead of the range's, if any.
    to: Option<Reg>,
}

/// Where an inserted MOV goes.
#[derive(Clone, Copy)]
enum Slot {
    /// Before the program.
    Start,
    /// Before instruction `at`.
    Before(usize),
    /// After instruction `at`.
    After(usize),
}

impl Slot {
    /// The slot's place in program order.
    fn order(self) -> usize {
        match self {
            Slot::Start => 0,
            Slot::Before(at) => 2 * at + 1,
            Slot::After(at) => 2 * at + 2,
        }
    }
}

/// `cluster: mov dst, src`.
fn mov(cluster: usize, dst: Reg, src: Reg) -> ClusterInstr {
    ClusterInstr {
        cluster,
        op: ClusterOp::Mov,
        dst: Some(dst),
        src: [Operand::Reg(src)].into_iter().collect(),
    }
}

impl Rewrite {
    /// Starts the rewrite of `program`, whose virtual registers are below `next_vr`.
    fn start(&mut self, program: &[ClusterInstr], next_vr: usize) {
        self.src.clear();
        self.dst.clear();
        self.next_mvr = 0;
        for instr in program {
            self.src.push(instr.src);
            self.dst.push(instr.dst);
            // Above every `mvr` the program names itself.
            self.next_mvr = self.next_mvr.max(instr.first_free(RegKind::Main));
        }
        self.movs.clear();
        self.slots.clear();
        self.next_vr = next_vr;
        self.mvr.clear(program.len());
    }

    /// The global register of virtual register `vr`.
    fn mvr(&mut self, vr: usize) -> Reg {
        let m = match self.mvr.get(vr) {
            Some(m) => m,
            None => {
                self.mvr.insert(vr, self.next_mvr);
                self.next_mvr += 1;
                self.next_mvr - 1
            }
        };
        Reg::Main(m)
    }

    /// Inserts `mov` at `slot`, after those inserted there before.
    fn insert(&mut self, slot: Slot, mov: ClusterInstr) {
        self.slots.push((slot.order(), self.movs.len()));
        self.movs.push(mov);
    }

    /// A new local virtual register.
    fn fresh(&mut self) -> Reg {
        self.next_vr += 1;
        Reg::Virtual(self.next_vr - 1)
    }

    /// Renames the reads of `from` by instruction `at` to `to`.
    fn rename_reads(&mut self, at: usize, from: Reg, to: Reg) {
        for s in self.src[at].iter_mut() {
            if *s == Operand::Reg(from) {
                *s = Operand::Reg(to);
            }
        }
    }

    /// Applies R1-R3 to one live range.
    fn range(&mut self, range: &LiveRange) {
        let (v, owner) = (Reg::Virtual(range.vr), range.owner);
        // Only the owner touches the range: nothing to move.
        if range.accesses.iter().all(|a| a.cluster == owner) {
            return;
        }
        self.tally(range);
        let foreign_writer = range.writer().filter(|&w| w != owner);
        let m = self.mvr(range.vr);
        match foreign_writer {
            // R1: the owner writes (or holds the input), others read: copy it out.
            None => match range.input {
                true => self.insert(Slot::Start, mov(owner, m, v)),
                false => self.insert(Slot::After(range.accesses[0].at), mov(owner, m, v)),
            },
            // R3: another cluster writes; the owner's copy comes back through the main file.
            Some(w) => {
                let at = range.accesses[0].at;
                if self.reads.get(w).is_none_or(|reads| reads.count == 0) {
                    self.dst[at] = Some(m);
                } else {
                    let n = self.fresh();
                    self.dst[at] = Some(n);
                    self.insert(Slot::After(at), mov(w, m, n));
                    self.reads[w].to = Some(n);
                }
                self.insert(Slot::After(at), mov(owner, v, m));
            }
        }
        // R2: other readers read the main copy, or one local copy of it; lowest first.
        self.readers.sort_unstable();
        for k in 0..self.readers.len() {
            let c = self.readers[k];
            if c == owner || Some(c) == foreign_writer {
                continue;
            }
            let local = match self.reads[c].count {
                1 => m,
                _ => {
                    let n = self.fresh();
                    self.insert(Slot::Before(self.reads[c].first), mov(c, n, m));
                    n
                }
            };
            self.reads[c].to = Some(local);
        }
        for a in range.accesses.iter().filter(|a| !a.write) {
            if let Some(to) = self.reads[a.cluster].to {
                self.rename_reads(a.at, v, to);
            }
        }
        for &c in &self.readers {
            self.reads[c] = ClusterReads::default();
        }
    }

    /// Counts the reads of `range` by each cluster in `reads`, the clusters that read it in
    /// `readers`.
    fn tally(&mut self, range: &LiveRange) {
        self.readers.clear();
        for a in range.accesses.iter().filter(|a| !a.write) {
            if a.cluster >= self.reads.len() {
                self.reads.resize(a.cluster + 1, ClusterReads::default());
            }
            let reads = &mut self.reads[a.cluster];
            if reads.count == 0 {
                reads.first = a.at;
                self.readers.push(a.cluster);
            }
            // Past two, the count does not matter.
            reads.count = (reads.count + 1).min(2);
        }
    }

    /// Writes `program` renamed, the MOVs inserted, to `out`'s program, and which of its
    /// instructions are original.
    fn emit(&mut self, program: &[ClusterInstr], out: &mut Partitioned) {
        // By slot; the MOVs of a slot keep the order they were made in.
        self.slots.sort_unstable();
        out.program.clear();
        out.original.clear();
        let mut slots = self.slots.iter().peekable();
        let mut insert_up_to = |slot: Slot, out: &mut Partitioned| {
            while let Some(&(_, mov)) = slots.next_if(|&&(order, _)| order <= slot.order()) {
                out.program.push(self.movs[mov].clone());
                out.original.push(false);
            }
        };
        for (at, instr) in program.iter().enumerate() {
            insert_up_to(Slot::Before(at), out);
            out.program.push(ClusterInstr {
                cluster: instr.cluster,
                op: instr.op,
                dst: self.dst[at],
                src: self.src[at],
            });
            out.original.push(true);
            insert_up_to(Slot::After(at), out);
        }
        out.movs = out.program.len() - program.len();
    }
}

/// Working storage of partitioning and of the baseline, kept across programs to reuse it.
#[derive(Default)]
pub(crate) struct PartitionScratch {
    /// For finding live ranges.
    ranges: RangeScratch,
    /// The rewrite of the partitioning.
    rewrite: Rewrite,
    /// The baseline's users of each virtual register: the first cluster, and whether another
    /// cluster uses it too.
    users: RegisterMap<(usize, bool)>,
}

/// Partitions `program`'s virtual registers (R1-R3 of the document).
pub fn partition(program: &[ClusterInstr]) -> Partitioned {
    let mut partitioned = Partitioned::default();
    partition_into(program, &mut PartitionScratch::default(), &mut partitioned);
    partitioned
}

/// Partitions `program` as [`partition`] does, into `out` (its storage reused).
pub(crate) fn partition_into(
    program: &[ClusterInstr],
    scratch: &mut PartitionScratch,
    out: &mut Partitioned,
) {
    live_ranges_into(
        program,
        RegKind::Virtual,
        &mut scratch.ranges,
        &mut out.ranges,
    );
    // Every virtual register the program names has a range.
    let highest = out.ranges.iter().map(|r| r.vr + 1).max().unwrap_or(0);
    let rewrite = &mut scratch.rewrite;
    rewrite.start(program, highest);
    for range in &out.ranges {
        rewrite.range(range);
    }
    rewrite.emit(program, out);
    out.main_inputs.clear();
}

/// The baseline the document argues against ([0005]): every virtual register that more than
/// one cluster uses lives in the main file (`v<N>` becomes `mvr<N>` everywhere); the others
/// stay local. No MOVs.
pub fn baseline(program: &[ClusterInstr]) -> Partitioned {
    let mut partitioned = Partitioned::default();
    baseline_into(program, &mut PartitionScratch::default(), &mut partitioned);
    partitioned
}

/// The baseline of `program` as [`baseline`] builds it, into `out` (its storage reused).
pub(crate) fn baseline_into(
    program: &[ClusterInstr],
    scratch: &mut PartitionScratch,
    out: &mut Partitioned,
) {
    let users = &mut scratch.users;
    users.clear(program.len());
    for instr in program {
        for reg in instr.dst.into_iter().chain(instr.reads()) {
            let Reg::Virtual(vr) = reg else { continue };
            let user = match users.get(vr) {
                None => (instr.cluster, false),
                Some((first, shared)) => (first, shared || first != instr.cluster),
            };
            users.insert(vr, user);
        }
    }
    let users = &scratch.users;
    let is_shared = |vr: usize| users.get(vr).is_some_and(|(_, shared)| shared);
    let first = first_free(program, RegKind::Main);
    let shared = |r: Reg| match r {
        Reg::Virtual(vr) if is_shared(vr) => Reg::Main(first + vr),
        other => other,
    };
    out.program.clear();
    out.program.extend(program.iter().map(|i| {
        let mut src = i.src;
        for s in src.iter_mut() {
            if let Operand::Reg(r) = s {
                *r = shared(*r);
            }
        }
        ClusterInstr {
            dst: i.dst.map(shared),
            src,
            ..i.clone()
        }
    }));
    live_ranges_into(
        program,
        RegKind::Virtual,
        &mut scratch.ranges,
        &mut out.ranges,
    );
    out.main_inputs.clear();
    let inputs = out.ranges.iter().filter(|r| r.input && is_shared(r.vr));
    out.main_inputs.extend(inputs.map(|r| (first + r.vr, r.vr)));
    out.movs = 0;
    out.original.clear();
    out.original.resize(program.len(), true);
}

#[cfg(test)]
mod tests {
    use grfgen_hdl::params::ClusterParams;

    use super::*;
    use crate::cluster::kernels::random_program;
    use crate::compilers::cluster::compile;
    use crate::rng::Rng;

    /// `program` with each virtual register `v<N>` renamed `v<rename(N)>`.
    fn renamed(program: &[ClusterInstr], rename: impl Fn(usize) -> usize) -> Vec<ClusterInstr> {
        let reg = |r: Reg| match r {
            Reg::Virtual(n) => Reg::Virtual(rename(n)),
            main => main,
        };
        let operand = |s: &Operand| match s {
            Operand::Reg(r) => Operand::Reg(reg(*r)),
            imm => *imm,
        };
        let instr = |i: &ClusterInstr| ClusterInstr {
            dst: i.dst.map(reg),
            src: i.src.iter().map(operand).collect(),
            ..i.clone()
        };
        program.iter().map(instr).collect()
    }

    #[test]
    fn the_baselines_main_inputs_are_its_shared_registers_read_before_written() {
        // v1: an input both clusters read (shared). v2: an input of cluster 1 alone (local).
        // v3: shared, but written before it is read (no input). v4: written, never shared.
        let text = "c1: add v3, v1, v2\nc2: add v4, v1, v3\nc2: add v4, v4, #1\n";
        let program = crate::cluster::program::parse(text, 2).unwrap();
        let out = baseline(&program);
        let first = first_free(&program, RegKind::Main);
        let inputs: Vec<_> = out.main_inputs.into_iter().collect();
        assert_eq!(inputs, vec![(first + 1, 1)]);
        // The shared registers live in the main file, the others stay local.
        assert_eq!(out.program[0].dst, Some(Reg::Main(first + 3)));
        assert_eq!(out.program[1].dst, Some(Reg::Virtual(4)));
        assert_eq!(out.movs, 0);
    }

    #[test]
    fn register_numbers_far_above_the_program_length_compile_alike() {
        let params = ClusterParams {
            clusters: 3,
            local_regs: 3,
            main_regs: 64,
            main_read_ports: 2,
            main_write_ports: 1,
        };
        let mut rng = Rng::new(5);
        // Every number far off, and one far off among near ones.
        let renames: [fn(usize) -> usize; 2] = [
            |n| n * 1_000_003 + 4_000_000_000,
            |n| if n == 11 { u32::MAX as usize } else { n },
        ];
        for _ in 0..100 {
            let program = random_program(3, 80, 12, &mut rng);
            for rename in renames {
                let far = renamed(&program, rename);
                let mut ranges = live_ranges(&program);
                // Every register the program names has a range, each with its accesses.
                assert!(!ranges.is_empty() && ranges.iter().all(|r| !r.accesses.is_empty()));
                for range in &mut ranges {
                    range.vr = rename(range.vr);
                }
                assert_eq!(live_ranges(&far), ranges);
                let (near, near_alloc) = compile(&program, &params, false).unwrap();
                let (far, far_alloc) = compile(&far, &params, false).unwrap();
                assert_eq!(far.movs, near.movs);
                assert_eq!(far.original, near.original);
                assert_eq!(far_alloc.dst, near_alloc.dst);
                assert_eq!(far_alloc.src, near_alloc.src);
                assert_eq!(far_alloc.spills, near_alloc.spills);
                assert_eq!(far_alloc.local_used, near_alloc.local_used);
                assert_eq!(far_alloc.main_used, near_alloc.main_used);
            }
        }
    }
}
