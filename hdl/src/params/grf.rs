use serde::{Deserialize, Serialize};

use super::{Allowed, Kind, Param, ParamValue, Params};
use crate::param;

/// Which allocations go to the low-energy part of the slow GRF (variant B).
/// Written `none`, `threads:K` or `fraction:P`, on the command line and in JSON alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum Mapping {
    /// One part: allocations take the lowest free block.
    None,
    /// Global threads 0..K-1 (EU-major) allocate in the low-energy part.
    Threads(usize),
    /// Each thread's virtual blocks below this percentage of `virtual_blocks` go there.
    Fraction(usize),
}

impl std::str::FromStr for Mapping {
    type Err = String;

    /// `none`, `threads:K` or `fraction:P`.
    fn from_str(text: &str) -> Result<Self, String> {
        let bad = || format!("`{text}`: expected none, threads:K or fraction:P");
        let number = |n: &str| n.parse::<usize>().map_err(|_| bad());
        let lower = text.to_ascii_lowercase();
        match lower.split_once(':') {
            None if lower == "none" => Ok(Mapping::None),
            Some(("threads", k)) => Ok(Mapping::Threads(number(k)?)),
            Some(("fraction", p)) => Ok(Mapping::Fraction(number(p)?)),
            _ => Err(bad()),
        }
    }
}

impl TryFrom<String> for Mapping {
    type Error = String;

    fn try_from(text: String) -> Result<Self, String> {
        text.parse()
    }
}

impl From<Mapping> for String {
    fn from(mapping: Mapping) -> String {
        mapping.to_string()
    }
}

impl std::fmt::Display for Mapping {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Mapping::None => write!(f, "none"),
            Mapping::Threads(k) => write!(f, "threads:{k}"),
            Mapping::Fraction(p) => write!(f, "fraction:{p}"),
        }
    }
}

/// Parameters of the hierarchical GRF (SPEC S3). The allowed values are in
/// [`GrfParams::table`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GrfParams {
    /// Execution units.
    pub eus: usize,
    /// Hardware threads per EU.
    pub threads: usize,
    /// Virtual blocks of 16 registers per thread.
    pub virtual_blocks: usize,
    /// Virtual blocks 0..n-1 of every thread mapped private at reset.
    pub preallocated: usize,
    /// Fast GRF entries per EU.
    pub fast_regs: usize,
    /// Slow GRF registers (16 per physical block).
    pub slow_regs: usize,
    /// Cycles from a slow GRF read to its data (the block RAM's output register and at least
    /// one pipeline stage).
    pub slow_latency: usize,
    /// Lanes per register.
    pub lanes: usize,
    /// Bits per lane.
    pub element_bits: usize,
    /// Physical blocks 0..n-1 form the low-energy part (variant B).
    pub low_energy_blocks: usize,
    /// Which allocations go to the low-energy part.
    pub mapping: Mapping,
    /// Register stages in the controller: 1 holds the arbiter's pick for a cycle before the
    /// controller takes it (every controller answer a cycle later, throughput unchanged); 2
    /// also looks the pick's table entry up as it is held; 3 also applies the table, free-block
    /// and group changes a cycle after the decision (barrier answers a cycle later); 4 also
    /// holds a switch's dirty fast entries for a cycle before its first write-back (every
    /// switch a cycle longer); 5 also registers each answer at the front end, which acts on it
    /// a cycle later (every answered transaction a cycle longer).
    #[serde(default)]
    pub pipeline: usize,
}

impl Default for GrfParams {
    fn default() -> Self {
        Self {
            eus: 4,
            threads: 2,
            virtual_blocks: 4,
            preallocated: 1,
            fast_regs: 8,
            slow_regs: 256,
            slow_latency: 3,
            lanes: 4,
            element_bits: 32,
            low_energy_blocks: 0,
            mapping: Mapping::None,
            pipeline: 4,
        }
    }
}

impl ParamValue for Mapping {
    const KIND: Kind = Kind::Text;
    fn parse(text: &str) -> Option<Self> {
        text.parse().ok()
    }
    fn show(&self) -> String {
        self.to_string()
    }
}

impl Params for GrfParams {
    fn table() -> Vec<Param<Self>> {
        vec![
            param!(eus, "execution units sharing the slow GRF", "N", |_| {
                Allowed::range(1, Self::MAX_EUS)
            }),
            param!(threads, "hardware threads per EU", "N", |_| Allowed::range(
                1,
                Self::MAX_THREADS
            )),
            param!(
                virtual_blocks,
                "virtual blocks of 16 registers per thread",
                "N",
                |_| Allowed::range(1, Self::MAX_VIRTUAL_BLOCKS)
            ),
            param!(
                preallocated,
                "blocks every thread has mapped at reset",
                "N",
                |p| Allowed::range(0, p.virtual_blocks).because("at most the virtual blocks")
            ),
            param!(
                fast_regs,
                "fast GRF entries per EU (direct-mapped, write-back)",
                "N",
                |_| Allowed::one_of(Self::FAST_REGS)
            ),
            param!(
                slow_regs,
                "slow GRF registers, 16 per physical block",
                "N",
                |_| Allowed::one_of(Self::SLOW_REGS)
            ),
            param!(
                slow_latency,
                "cycles from a slow GRF read to its data",
                "N",
                |_| Allowed::range(2, Self::MAX_SLOW_LATENCY)
            ),
            param!(lanes, "lanes per register", "N", |_| Allowed::range(1, 8)),
            param!(element_bits, "bits per lane", "N", |_| Allowed::one_of(
                Self::ELEMENT_BITS
            )),
            param!(
                low_energy_blocks,
                "physical blocks of the low-energy part (variant B)",
                "N",
                |p| Allowed::range(0, p.blocks()).because("at most slow regs / 16")
            ),
            param!(
                mapping,
                "which allocations go to the low-energy part",
                "POLICY",
                |p| {
                    let threads = p.all_threads();
                    Allowed::matching(
                        format!(
                            "none, threads:K with K in 0..={threads}, fraction:P with P in 0..=100"
                        ),
                        move |m| match *m {
                            Mapping::None => true,
                            Mapping::Threads(k) => k <= threads,
                            Mapping::Fraction(p) => p <= 100,
                        },
                    )
                }
            ),
            param!(
                pipeline,
                "register stages: 1 holds the arbiter's pick a cycle (answers a cycle later), 2 also looks its table entry up as it is held (no further cycle), 3 also applies the table, free-block and group changes a cycle after the decision (barrier answers a cycle later), 4 also holds a switch's dirty fast entries a cycle before its first write-back (switches a cycle longer), 5 also registers each answer at the front end (answered transactions a cycle longer)",
                "N",
                |_| Allowed::range(0, Self::MAX_PIPELINE)
            ),
        ]
    }
}

impl GrfParams {
    /// Registers per block.
    pub const BLOCK: usize = 16;
    /// The most execution units.
    pub const MAX_EUS: usize = 8;
    /// The most hardware threads per EU.
    pub const MAX_THREADS: usize = 4;
    /// The most virtual blocks per thread.
    pub const MAX_VIRTUAL_BLOCKS: usize = 4;
    /// The longest slow GRF latency, in cycles.
    pub const MAX_SLOW_LATENCY: usize = 8;
    /// The most register stages `pipeline` adds.
    pub const MAX_PIPELINE: usize = 5;
    /// Shared groups 1..=GROUPS (0 means private).
    pub const GROUPS: usize = 7;
    /// Allowed fast GRF sizes.
    pub const FAST_REGS: &'static [usize] = &[2, 4, 8, 16, 32];
    /// Allowed slow GRF sizes.
    pub const SLOW_REGS: &'static [usize] = &[64, 128, 256, 512, 1024];
    /// The largest slow GRF (the last of `SLOW_REGS`).
    pub const MAX_SLOW_REGS: usize = Self::SLOW_REGS[Self::SLOW_REGS.len() - 1];
    /// Allowed element widths.
    pub const ELEMENT_BITS: &'static [usize] = &[16, 32];

    /// Whether each front end registers the controller's answer and acts on it a cycle later
    /// (`pipeline` 5).
    pub fn answer_stage(&self) -> bool {
        self.pipeline >= 5
    }

    /// Physical blocks of the slow GRF.
    pub fn blocks(&self) -> usize {
        self.slow_regs / Self::BLOCK
    }

    /// Virtual registers per thread.
    pub fn virtual_registers(&self) -> usize {
        self.virtual_blocks * Self::BLOCK
    }

    /// Threads in the cluster.
    pub fn all_threads(&self) -> usize {
        self.eus * self.threads
    }

    /// Bits of a slow GRF row address.
    pub fn slow_bits(&self) -> usize {
        self.slow_regs.trailing_zeros() as usize
    }

    /// Bits that hold a thread number in the fast GRF index: ceil(log2(threads)).
    pub fn thread_bits(&self) -> usize {
        self.threads.next_power_of_two().trailing_zeros() as usize
    }

    /// The fast GRF entry of a thread's virtual register: `(reg << thread_bits | thread) mod
    /// fast_regs`.
    pub fn fast_index(&self, thread: usize, reg: usize) -> usize {
        ((reg << self.thread_bits()) | thread) % self.fast_regs
    }

    /// The physical block pre-allocated to global thread `thread`'s virtual block `block`, if
    /// it fits.
    pub fn preallocation(&self, thread: usize, block: usize) -> Option<usize> {
        let b = thread * self.preallocated + block;
        (block < self.preallocated && b < self.blocks()).then_some(b)
    }

    /// Whether an allocation by global thread `thread` of virtual block `block` goes to the
    /// low-energy part.
    pub fn wants_low_energy(&self, thread: usize, block: usize) -> bool {
        match self.mapping {
            Mapping::None => false,
            Mapping::Threads(k) => thread < k,
            Mapping::Fraction(p) => block * 100 < p * self.virtual_blocks,
        }
    }
}

/// What an EU asks for: the code on the GRF's 3-bit `req_op` inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GrfOp {
    /// Read a virtual register.
    Read = 0,
    /// Write a virtual register.
    Write = 1,
    /// Map a virtual block (private, or to a shared group).
    Alloc = 2,
    /// Unmap a virtual block.
    Release = 3,
    /// Wait on a group's barrier.
    Wait = 4,
    /// Data context switch of a virtual block.
    Switch = 5,
}

impl GrfOp {
    /// Every op, in code order.
    pub const ALL: [GrfOp; 6] = [
        GrfOp::Read,
        GrfOp::Write,
        GrfOp::Alloc,
        GrfOp::Release,
        GrfOp::Wait,
        GrfOp::Switch,
    ];

    /// The op's code.
    pub fn code(self) -> u64 {
        self as u64
    }
}

/// A response status: the code on the GRF's 3-bit `resp_status` outputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GrfStatus {
    /// Done.
    Ok = 0,
    /// The register's (or switched) block has no mapping.
    Unmapped = 1,
    /// `alloc` found every physical block in use.
    NoFreeBlock = 2,
    /// `release` of an unmapped block.
    NotOwned = 3,
    /// `alloc` of a mapped block.
    AlreadyMapped = 4,
    /// `wait` on a group without a block (or unbound while waiting).
    NoSuchGroup = 5,
}

impl GrfStatus {
    /// The status's code.
    pub fn code(self) -> u64 {
        self as u64
    }
}
