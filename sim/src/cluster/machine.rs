//! The golden model of the clustered register file's hardware, cycle by cycle, written from
//! `docs/cluster.md` ("The hardware"): what each cycle issues, what it outputs, what it counts.

use grfgen_hdl::params::ClusterParams;

use super::program::ClusterOp;
use crate::compilers::cluster::Physical;

/// A source operand as the hardware sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Register `n` of the issuing cluster's local file.
    Local(usize),
    /// Register `n` of the main file.
    Main(usize),
    /// An immediate (also every unused source).
    Immediate(u32),
}

/// One instruction offered to one cluster.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Issue {
    /// The operation.
    pub op: ClusterOp,
    /// Where the result goes (none for `out`).
    pub dst: Option<Physical>,
    /// The two sources (the second an immediate 0 for one-source operations).
    pub src: [Source; 2],
}

/// What one cycle shows: which offers issued, the outputs, the counters after it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cycle {
    /// Per cluster: its offered instruction issued.
    pub issued: Vec<bool>,
    /// Per cluster: the value of the `out` it issued, if it issued one.
    pub outputs: Vec<Option<u32>>,
    /// Local-file reads and writes so far.
    pub local_accesses: u64,
    /// Main-file reads and writes so far.
    pub main_accesses: u64,
    /// Offers not issued so far.
    pub main_conflicts: u64,
    /// Cycles with an offer not issued so far.
    pub stall_cycles: u64,
}

impl Cycle {
    /// Takes the counters of `other`.
    pub(crate) fn copy_counters(&mut self, other: &Cycle) {
        self.local_accesses = other.local_accesses;
        self.main_accesses = other.main_accesses;
        self.main_conflicts = other.main_conflicts;
        self.stall_cycles = other.stall_cycles;
    }
}

/// The clustered file's state: every local file, the main file, the counters.
pub struct ClusterMachine {
    local: Vec<Vec<u32>>,
    main: Vec<u32>,
    read_ports: usize,
    write_ports: usize,
    /// The counters after the last cycle (its `issued` and `outputs` left empty).
    counts: Cycle,
    /// The main-file writes of the cycle being stepped, in cluster order: register, value
    /// (kept to reuse its storage).
    main_writes: Vec<(usize, u32)>,
}

impl ClusterMachine {
    /// The file for `params`, every register zero.
    pub fn new(params: &ClusterParams) -> Self {
        Self {
            local: vec![vec![0; params.local_regs]; params.clusters],
            main: vec![0; params.main_regs],
            read_ports: params.main_read_ports,
            write_ports: params.main_write_ports,
            counts: Cycle::default(),
            main_writes: Vec::with_capacity(params.clusters),
        }
    }

    /// One cycle with `offers` (one per cluster). Clusters issue in order while the main
    /// reads and writes of every offering cluster so far fit the main file's ports; the
    /// first that does not fit stops every cluster after it. The issued instructions read
    /// the files as they were before the cycle, then write, and the lowest cluster's write
    /// wins a main register written twice. Counters count the issued instructions' register
    /// operands and destinations, and the offers left waiting.
    pub fn step(&mut self, offers: &[Option<Issue>]) -> Cycle {
        let mut cycle = Cycle::default();
        self.step_into(offers, &mut cycle);
        cycle
    }

    /// One cycle as [`ClusterMachine::step`] runs it, shown in `cycle` (its storage reused).
    pub fn step_into(&mut self, offers: &[Option<Issue>], cycle: &mut Cycle) {
        cycle.issued.clear();
        cycle.issued.resize(offers.len(), false);
        cycle.outputs.clear();
        cycle.outputs.resize(offers.len(), None);
        cycle.copy_counters(&self.counts);
        let (mut reads, mut writes, mut open) = (0, 0, true);
        let mut main_writes = std::mem::take(&mut self.main_writes);
        main_writes.clear();
        for (c, offer) in offers.iter().enumerate() {
            let Some(issue) = offer else { continue };
            reads += issue
                .src
                .iter()
                .filter(|s| matches!(s, Source::Main(_)))
                .count();
            writes += usize::from(matches!(issue.dst, Some(Physical::Main(_))));
            open &= reads <= self.read_ports && writes <= self.write_ports;
            if !open {
                cycle.main_conflicts += 1;
                continue;
            }
            cycle.issued[c] = true;
            let value = |s: &Source| match *s {
                Source::Local(r) => self.local[c][r],
                Source::Main(r) => self.main[r],
                Source::Immediate(v) => v,
            };
            let result = issue.op.apply(value(&issue.src[0]), value(&issue.src[1]));
            for s in &issue.src {
                match s {
                    Source::Local(_) => cycle.local_accesses += 1,
                    Source::Main(_) => cycle.main_accesses += 1,
                    Source::Immediate(_) => {}
                }
            }
            match issue.dst {
                None => cycle.outputs[c] = Some(result),
                // No other cluster reads this cluster's file: written at once.
                Some(Physical::Local(r)) => {
                    cycle.local_accesses += 1;
                    self.local[c][r] = result;
                }
                Some(Physical::Main(r)) => {
                    cycle.main_accesses += 1;
                    main_writes.push((r, result));
                }
            }
        }
        cycle.stall_cycles += u64::from(!open);
        for &(r, result) in main_writes.iter().rev() {
            self.main[r] = result;
        }
        self.main_writes = main_writes;
        self.counts.copy_counters(cycle);
    }
}
