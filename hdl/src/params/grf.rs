use serde::{Deserialize, Serialize};

use super::{check_one_of, check_range, ParamError};

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
        match text.split_once(':') {
            None if text == "none" => Ok(Mapping::None),
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

/// Parameters of the hierarchical GRF (SPEC S3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GrfParams {
    /// Execution units: 1..=8.
    pub eus: usize,
    /// Hardware threads per EU: 1..=4.
    pub threads: usize,
    /// Virtual blocks of 16 registers per thread: 1..=4.
    pub virtual_blocks: usize,
    /// Virtual blocks 0..n-1 of every thread mapped private at reset: 0..=virtual_blocks.
    pub preallocated: usize,
    /// Fast GRF entries per EU: 2, 4, 8, 16 or 32.
    pub fast_regs: usize,
    /// Slow GRF registers: 64, 128, 256, 512 or 1024 (16 per physical block).
    pub slow_regs: usize,
    /// Cycles from a slow GRF read to its data: 2..=8 (the block RAM's output register and at
    /// least one pipeline stage).
    pub slow_latency: usize,
    /// Lanes per register: 1..=8.
    pub lanes: usize,
    /// Bits per lane: 16 or 32.
    pub element_bits: usize,
    /// Physical blocks 0..n-1 form the low-energy part (variant B): 0..=blocks.
    pub low_energy_blocks: usize,
    /// Which allocations go to the low-energy part.
    pub mapping: Mapping,
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
        }
    }
}

impl GrfParams {
    /// Registers per block.
    pub const BLOCK: usize = 16;
    /// Shared groups 1..=GROUPS (0 means private).
    pub const GROUPS: usize = 7;
    /// Allowed fast GRF sizes.
    pub const FAST_REGS: &'static [usize] = &[2, 4, 8, 16, 32];
    /// Allowed slow GRF sizes.
    pub const SLOW_REGS: &'static [usize] = &[64, 128, 256, 512, 1024];
    /// Allowed element widths.
    pub const ELEMENT_BITS: &'static [usize] = &[16, 32];

    /// Checks every parameter; the first one out of range is reported.
    pub fn validate(&self) -> Result<(), ParamError> {
        check_range("eus", self.eus, 1, 8)?;
        check_range("threads", self.threads, 1, 4)?;
        check_range("virtual_blocks", self.virtual_blocks, 1, 4)?;
        check_range("preallocated", self.preallocated, 0, self.virtual_blocks)?;
        check_one_of("fast_regs", self.fast_regs, Self::FAST_REGS)?;
        check_one_of("slow_regs", self.slow_regs, Self::SLOW_REGS)?;
        check_range("slow_latency", self.slow_latency, 2, 8)?;
        check_range("lanes", self.lanes, 1, 8)?;
        check_one_of("element_bits", self.element_bits, Self::ELEMENT_BITS)?;
        check_range(
            "low_energy_blocks",
            self.low_energy_blocks,
            0,
            self.blocks(),
        )?;
        let all = self.all_threads();
        match self.mapping {
            Mapping::Threads(k) if k > all => Err(self.mapping_error()),
            Mapping::Fraction(p) if p > 100 => Err(self.mapping_error()),
            _ => Ok(()),
        }
    }

    fn mapping_error(&self) -> ParamError {
        ParamError::new(
            "mapping",
            self.mapping,
            format!(
                "none, threads:K with K in 0..={}, fraction:P with P in 0..=100",
                self.all_threads()
            ),
        )
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

    /// A module name that encodes the configuration.
    pub fn module_name(&self) -> String {
        format!(
            "grf_e{}_t{}_f{}_s{}_l{}_lanes{}_b{}",
            self.eus,
            self.threads,
            self.fast_regs,
            self.slow_regs,
            self.slow_latency,
            self.lanes,
            self.element_bits
        )
    }
}
