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

use crate::cluster::program::{first_free, ClusterInstr, ClusterOp, Operand, Reg, RegKind};

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
    let mut ranges: Vec<LiveRange> = Vec::new();
    // The open range of each register number, as an index into `ranges`. A map, not a vector
    // indexed by number: a program may name any register up to `MAX_REGISTER`.
    let mut open: BTreeMap<usize, usize> = BTreeMap::new();
    for (at, instr) in program.iter().enumerate() {
        let cluster = instr.cluster;
        for vr in instr.reads().filter_map(|r| r.number(kind)) {
            let range = *open.entry(vr).or_insert_with(|| {
                ranges.push(LiveRange {
                    vr,
                    accesses: Vec::new(),
                    input: true,
                    owner: 0,
                });
                ranges.len() - 1
            });
            let write = false;
            ranges[range].accesses.push(Access { at, cluster, write });
        }
        if let Some(vr) = instr.dst.and_then(|r| r.number(kind)) {
            let write = true;
            // Most ranges have a few reads: room for them saves growing the list.
            let mut accesses = Vec::with_capacity(4);
            accesses.push(Access { at, cluster, write });
            ranges.push(LiveRange {
                vr,
                accesses,
                input: false,
                owner: 0,
            });
            open.insert(vr, ranges.len() - 1);
        }
    }
    for range in &mut ranges {
        range.owner = owner(&range.accesses);
    }
    ranges
}

/// The cluster with the most accesses; ties go to the first access's cluster, then to the
/// lowest-numbered.
fn owner(accesses: &[Access]) -> usize {
    let clusters = accesses.iter().map(|a| a.cluster).max().unwrap_or(0) + 1;
    let mut counts = vec![0usize; clusters];
    for a in accesses {
        counts[a.cluster] += 1;
    }
    let most = counts.iter().copied().max().unwrap_or(0);
    let first = accesses[0].cluster;
    match counts[first] == most {
        true => first,
        false => counts.iter().position(|&n| n == most).expect("a maximum"),
    }
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
    /// Per instruction: read registers renamed.
    reads: Vec<BTreeMap<Reg, Reg>>,
    /// Per instruction: the destination renamed.
    dst: Vec<Option<Reg>>,
    /// MOVs before the program, and before and after each instruction.
    start: Vec<ClusterInstr>,
    before: Vec<Vec<ClusterInstr>>,
    after: Vec<Vec<ClusterInstr>>,
    /// The next unused virtual register.
    next_vr: usize,
    /// The global register of each virtual register that needs one.
    mvr: BTreeMap<usize, usize>,
    /// The first global register free for them: above every `mvr` the program names itself.
    first_mvr: usize,
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

    /// A new local virtual register.
    fn fresh(&mut self) -> Reg {
        self.next_vr += 1;
        Reg::Virtual(self.next_vr - 1)
    }

    /// Applies R1-R3 to one live range.
    fn range(&mut self, range: &LiveRange) {
        let (v, owner) = (Reg::Virtual(range.vr), range.owner);
        let readers = range.other_readers();
        let writer = range.writer();
        let foreign_writer = writer.filter(|&w| w != owner);
        if readers.is_empty() && foreign_writer.is_none() {
            return;
        }
        let m = self.mvr(range.vr);
        match foreign_writer {
            // R1: the owner writes (or holds the input), others read: copy it out.
            None => match range.input {
                true => self.start.push(mov(owner, m, v)),
                false => self.after[range.accesses[0].at].push(mov(owner, m, v)),
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
                    self.after[at].push(mov(w, m, n));
                    for r in own_reads {
                        self.reads[r].insert(v, n);
                    }
                }
                self.after[at].push(mov(owner, v, m));
            }
        }
        // R2: other readers read the main copy, or one local copy of it.
        for c in readers.into_iter().filter(|&c| Some(c) != foreign_writer) {
            let reads = range.reads_by(c);
            let local = match reads.len() {
                1 => m,
                _ => {
                    let n = self.fresh();
                    self.before[reads[0]].push(mov(c, n, m));
                    n
                }
            };
            for r in reads {
                self.reads[r].insert(v, local);
            }
        }
    }
}

/// Partitions `program`'s virtual registers (R1-R3 of the document).
pub fn partition(program: &[ClusterInstr]) -> Partitioned {
    let ranges = live_ranges(program);
    let highest = first_free(program, RegKind::Virtual);
    let n = program.len();
    let mut rewrite = Rewrite {
        reads: vec![BTreeMap::new(); n],
        dst: program.iter().map(|i| i.dst).collect(),
        start: Vec::new(),
        before: vec![Vec::new(); n],
        after: vec![Vec::new(); n],
        next_vr: highest,
        mvr: BTreeMap::new(),
        first_mvr: first_free(program, RegKind::Main),
    };
    for range in &ranges {
        rewrite.range(range);
    }
    let mut out = rewrite.start.clone();
    let mut original = vec![false; out.len()];
    for (at, instr) in program.iter().enumerate() {
        out.extend(rewrite.before[at].iter().cloned());
        original.resize(out.len(), false);
        let renamed = &rewrite.reads[at];
        out.push(ClusterInstr {
            dst: rewrite.dst[at],
            src: instr
                .src
                .iter()
                .map(|s| match s {
                    Operand::Reg(r) => Operand::Reg(*renamed.get(r).unwrap_or(r)),
                    imm => *imm,
                })
                .collect(),
            ..instr.clone()
        });
        original.push(true);
        out.extend(rewrite.after[at].iter().cloned());
        original.resize(out.len(), false);
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
