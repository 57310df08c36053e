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

use std::collections::{BTreeMap, HashMap};

use crate::cluster::program::{
    first_free, ClusterInstr, ClusterOp, Operand, Reg, RegKind, Sources,
};

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

    /// Reads by `cluster`, in program order.
    pub fn reads_by(&self, cluster: usize) -> Vec<usize> {
        self.accesses
            .iter()
            .filter(|a| !a.write && a.cluster == cluster)
            .map(|a| a.at)
            .collect()
    }

    /// Clusters other than the owner that read the range, lowest first.
    pub fn other_readers(&self) -> Vec<usize> {
        let mut clusters: Vec<usize> = self
            .accesses
            .iter()
            .filter(|a| !a.write && a.cluster != self.owner)
            .map(|a| a.cluster)
            .collect();
        clusters.sort_unstable();
        clusters.dedup();
        clusters
    }
}

/// The live ranges of the virtual registers of `program`, in order of their start.
pub fn live_ranges(program: &[ClusterInstr]) -> Vec<LiveRange> {
    live_ranges_of(program, RegKind::Virtual)
}

/// The live ranges of the registers of `kind` in `program`, in order of their start; a
/// range's `vr` is its register's number.
pub fn live_ranges_of(program: &[ClusterInstr], kind: RegKind) -> Vec<LiveRange> {
    let mut ranges: Vec<LiveRange> = Vec::with_capacity(program.len());
    scan_ranges(program, &[kind], |_, range, vr, access| {
        if range == ranges.len() {
            ranges.push(LiveRange {
                vr,
                // Most ranges have a few reads: room for them saves growing the list.
                accesses: Vec::with_capacity(4),
                input: !access.write,
                owner: 0,
            });
        }
        ranges[range].accesses.push(access);
    });
    let mut counts = Vec::new();
    for range in &mut ranges {
        range.owner = owner(&range.accesses, &mut counts);
    }
    ranges
}

/// Visits the accesses of `program` to registers of the kinds in `kinds` in program order (an
/// instruction's reads, each register once, before its write) as `visit(kind, range, number,
/// access)`: `range` numbers the access's live range among those of its kind in order of
/// start, so a range's first access brings the next unused number.
pub(crate) fn scan_ranges(
    program: &[ClusterInstr],
    kinds: &[RegKind],
    mut visit: impl FnMut(RegKind, usize, usize, Access),
) {
    // Per kind (as numbered by `RegKind`): its open ranges and the next range's number.
    let mut open = [OpenRanges::new(program), OpenRanges::new(program)];
    let mut next = [0, 0];
    let wanted = |reg: Reg| {
        let (kind, number) = match reg {
            Reg::Virtual(n) => (RegKind::Virtual, n),
            Reg::Main(n) => (RegKind::Main, n),
        };
        kinds.contains(&kind).then_some((kind, number))
    };
    for (at, instr) in program.iter().enumerate() {
        let cluster = instr.cluster;
        for (kind, vr) in instr.reads().filter_map(wanted) {
            let (open, next) = (&mut open[kind as usize], &mut next[kind as usize]);
            let range = open.get(vr).unwrap_or_else(|| {
                open.set(vr, *next);
                *next += 1;
                *next - 1
            });
            let write = false;
            visit(kind, range, vr, Access { at, cluster, write });
        }
        if let Some((kind, vr)) = instr.dst.and_then(wanted) {
            let (open, next) = (&mut open[kind as usize], &mut next[kind as usize]);
            open.set(vr, *next);
            *next += 1;
            let write = true;
            visit(kind, *next - 1, vr, Access { at, cluster, write });
        }
    }
}

/// Register numbers per instruction that [`OpenRanges`] holds in a vector indexed by number (an
/// instruction names at most three registers); a program naming higher numbers has a map.
const DENSE_NUMBERS_PER_INSTR: usize = 4;

/// The open live range of each register number during a scan.
enum OpenRanges {
    /// Indexed by register number, while the numbers are below `limit`.
    Dense {
        open: Vec<Option<usize>>,
        limit: usize,
    },
    /// Keyed by register number: a program may name any register up to `MAX_REGISTER`.
    Sparse(HashMap<usize, usize>),
}

impl OpenRanges {
    /// No range open, for a scan of `program`.
    fn new(program: &[ClusterInstr]) -> Self {
        OpenRanges::Dense {
            open: Vec::new(),
            limit: DENSE_NUMBERS_PER_INSTR * program.len(),
        }
    }

    /// The open range of register `vr`, if any.
    fn get(&self, vr: usize) -> Option<usize> {
        match self {
            OpenRanges::Dense { open, .. } => open.get(vr).copied().flatten(),
            OpenRanges::Sparse(open) => open.get(&vr).copied(),
        }
    }

    /// Opens `range` for register `vr`.
    fn set(&mut self, vr: usize, range: usize) {
        match self {
            OpenRanges::Dense { open, .. } if vr < open.len() => open[vr] = Some(range),
            OpenRanges::Dense { open, limit } if vr < *limit => {
                open.resize(vr + 1, None);
                open[vr] = Some(range);
            }
            OpenRanges::Dense { open, .. } => {
                let numbered = open.iter().enumerate();
                let mut sparse: HashMap<usize, usize> =
                    numbered.filter_map(|(n, r)| Some((n, (*r)?))).collect();
                sparse.insert(vr, range);
                *self = OpenRanges::Sparse(sparse);
            }
            OpenRanges::Sparse(open) => {
                open.insert(vr, range);
            }
        }
    }
}

/// The cluster with the most accesses; ties go to the first access's cluster, then to the
/// lowest-numbered. `counts` is scratch space, all zero before and after.
fn owner(accesses: &[Access], counts: &mut Vec<usize>) -> usize {
    for a in accesses {
        if a.cluster >= counts.len() {
            counts.resize(a.cluster + 1, 0);
        }
        counts[a.cluster] += 1;
    }
    let most = accesses
        .iter()
        .map(|a| counts[a.cluster])
        .max()
        .unwrap_or(0);
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
#[derive(Clone, Debug)]
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
struct Rewrite {
    /// Per instruction: its sources, read registers renamed.
    src: Vec<Sources>,
    /// Per instruction: the destination renamed.
    dst: Vec<Option<Reg>>,
    /// The MOVs to insert, each with its slot's [`Slot::order`], in the order they were made.
    movs: Vec<(usize, ClusterInstr)>,
    /// The next unused virtual register.
    next_vr: usize,
    /// The global register of each virtual register that needs one.
    mvr: BTreeMap<usize, usize>,
    /// The first global register free for them: above every `mvr` the program names itself.
    first_mvr: usize,
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
    /// The global register of virtual register `vr`.
    fn mvr(&mut self, vr: usize) -> Reg {
        let next = self.first_mvr + self.mvr.len();
        Reg::Main(*self.mvr.entry(vr).or_insert(next))
    }

    /// Inserts `mov` at `slot`, after those inserted there before.
    fn insert(&mut self, slot: Slot, mov: ClusterInstr) {
        self.movs.push((slot.order(), mov));
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
        let readers = range.other_readers();
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
                let own_reads = range.reads_by(w);
                if own_reads.is_empty() {
                    self.dst[at] = Some(m);
                } else {
                    let n = self.fresh();
                    self.dst[at] = Some(n);
                    self.insert(Slot::After(at), mov(w, m, n));
                    for r in own_reads {
                        self.rename_reads(r, v, n);
                    }
                }
                self.insert(Slot::After(at), mov(owner, v, m));
            }
        }
        // R2: other readers read the main copy, or one local copy of it.
        for c in readers.into_iter().filter(|&c| Some(c) != foreign_writer) {
            let reads = range.reads_by(c);
            let local = match reads.len() {
                1 => m,
                _ => {
                    let n = self.fresh();
                    self.insert(Slot::Before(reads[0]), mov(c, n, m));
                    n
                }
            };
            for r in reads {
                self.rename_reads(r, v, local);
            }
        }
    }
}

/// Partitions `program`'s virtual registers (R1-R3 of the document).
pub fn partition(program: &[ClusterInstr]) -> Partitioned {
    let ranges = live_ranges(program);
    // Every virtual register the program names has a range.
    let highest = ranges.iter().map(|r| r.vr + 1).max().unwrap_or(0);
    let n = program.len();
    let mut rewrite = Rewrite {
        src: program.iter().map(|i| i.src).collect(),
        dst: program.iter().map(|i| i.dst).collect(),
        movs: Vec::new(),
        next_vr: highest,
        mvr: BTreeMap::new(),
        first_mvr: first_free(program, RegKind::Main),
    };
    for range in &ranges {
        rewrite.range(range);
    }
    // A stable sort: the MOVs of a slot keep their order.
    rewrite.movs.sort_by_key(|&(order, _)| order);
    let mut out = Vec::with_capacity(n + rewrite.movs.len());
    let mut original = Vec::with_capacity(out.capacity());
    let mut movs = rewrite.movs.into_iter().peekable();
    let mut insert_up_to = |slot: Slot, out: &mut Vec<ClusterInstr>, original: &mut Vec<bool>| {
        while let Some((_, mov)) = movs.next_if(|&(order, _)| order <= slot.order()) {
            out.push(mov);
            original.push(false);
        }
    };
    for (at, instr) in program.iter().enumerate() {
        insert_up_to(Slot::Before(at), &mut out, &mut original);
        out.push(ClusterInstr {
            cluster: instr.cluster,
            op: instr.op,
            dst: rewrite.dst[at],
            src: rewrite.src[at],
        });
        original.push(true);
        insert_up_to(Slot::After(at), &mut out, &mut original);
    }
    Partitioned {
        movs: out.len() - n,
        program: out,
        ranges,
        original,
        main_inputs: BTreeMap::new(),
    }
}

/// The baseline the document argues against ([0005]): every virtual register that more than
/// one cluster uses lives in the main file (`v<N>` becomes `mvr<N>` everywhere); the others
/// stay local. No MOVs.
pub fn baseline(program: &[ClusterInstr]) -> Partitioned {
    let mut users: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for instr in program {
        for reg in instr.dst.into_iter().chain(instr.reads()) {
            if let Reg::Virtual(vr) = reg {
                let clusters = users.entry(vr).or_default();
                if !clusters.contains(&instr.cluster) {
                    clusters.push(instr.cluster);
                }
            }
        }
    }
    let first = first_free(program, RegKind::Main);
    let shared = |r: Reg| match r {
        Reg::Virtual(vr) if users[&vr].len() > 1 => Reg::Main(first + vr),
        other => other,
    };
    let rewritten = program
        .iter()
        .map(|i| ClusterInstr {
            dst: i.dst.map(shared),
            src: i
                .src
                .iter()
                .map(|s| match s {
                    Operand::Reg(r) => Operand::Reg(shared(*r)),
                    imm => *imm,
                })
                .collect(),
            ..i.clone()
        })
        .collect();
    let ranges = live_ranges(program);
    let main_inputs = ranges
        .iter()
        .filter(|r| r.input && users[&r.vr].len() > 1)
        .map(|r| (first + r.vr, r.vr))
        .collect();
    Partitioned {
        program: rewritten,
        ranges,
        movs: 0,
        original: vec![true; program.len()],
        main_inputs,
    }
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
