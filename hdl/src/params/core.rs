use serde::{Deserialize, Serialize};

use super::{Allowed, BankMap, GprParams, IssuePolicy, Param, Params, Waves};
use crate::param;

/// Register sources (operands) of an instruction: every per-source vector of the core's blocks
/// is `SOURCES` entries per slot, source `s` of slot `j` at `j * SOURCES + s`.
pub const SOURCES: usize = 3;

/// Parameters of the shader-core slice (SPEC S1, all of it): a banked GPR with a conflict
/// detector, conflict queue, prefetch queue, operand muxes, an integer ALU and a scheduler.
/// The allowed values are in [`CoreParams::table`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CoreParams {
    /// The banked GPR underneath. Its elements must be 32 bits (the ALU's lanes) and it has two
    /// write ports (ALU results, external writer).
    #[serde(flatten)]
    pub gpr: GprParams,
    /// Conflict-queue entries (0: no conflict queue).
    pub cq_entries: usize,
    /// Prefetch-queue entries (0: no prefetch queue).
    pub pq_entries: usize,
    /// Instructions after the one being issued that preloads and prefetches may serve.
    pub lookahead: usize,
    /// ALU pipeline stages between operand read and write-back.
    pub alu_latency: usize,
    /// Result forwarding: a source whose result leaves the ALU as the instruction's operands
    /// enter it is taken from the ALU's output instead of waiting to be read from the GPR.
    pub forward: bool,
    /// The request stage: the read scheduler's decisions are registered before they reach the
    /// GPR, so every read and write reaches the GPR a cycle after it is decided and a read's
    /// data comes a cycle later. A record without it has none.
    #[serde(default)]
    pub request_stage: bool,
    /// Pending-table entries: registers of long-latency results outstanding at once (a
    /// long-latency instruction waits for as many free entries as it writes). A record without
    /// it has the default.
    #[serde(default = "default_long_results")]
    pub long_results: usize,
    /// Waves (instruction streams) the slice interleaves, each offered on its own instruction
    /// port. A record without it has one.
    #[serde(default)]
    pub waves: Waves,
    /// Which ready wave's instruction enters the window. A record without it has round-robin.
    #[serde(default)]
    pub issue: IssuePolicy,
}

/// The pending table's entries when a record does not say.
fn default_long_results() -> usize {
    CoreParams::DEFAULT_LONG_RESULTS
}

/// The defaults are the design with the least time per built-in workload measured on ECP5
/// (`docs/pnr.md`): result forwarding, so that the registers below cost a dependent
/// instruction nothing; the GPR's bank ports and block RAM data registered (`pipeline: 2`);
/// the multiply's partial products registered (`alu_latency: 3`); one instruction of
/// lookahead, which halves the scheduler's candidates (a stream of the document's `(rpt3) mad`
/// groups then takes 6 cycles per group instead of 4); and the request stage, which takes the
/// read ports' mux off the scheduler's decision for a cycle more per read. The document's own
/// schedule is [`CoreParams::document`].
impl Default for CoreParams {
    fn default() -> Self {
        Self {
            gpr: GprParams {
                pipeline: 2,
                ..GprParams::default()
            },
            cq_entries: 2,
            pq_entries: 4,
            lookahead: 1,
            alu_latency: 3,
            forward: true,
            request_stage: true,
            long_results: Self::DEFAULT_LONG_RESULTS,
            waves: Waves::default(),
            issue: IssuePolicy::default(),
        }
    }
}

impl Params for CoreParams {
    // Over 100 lines (119): the table, a row per parameter (the GPR's taken over and narrowed,
    // then the core's own), each row its range, default and meaning.
    fn table() -> Vec<Param<Self>> {
        let mut table: Vec<Param<Self>> = GprParams::table()
            .into_iter()
            .map(|p| match p.name {
                "element_bits" => Param::new(
                    "element_bits",
                    "bits per lane",
                    "N",
                    |p: &GprParams| &p.element_bits,
                    |p| &mut p.element_bits,
                    |_| {
                        Allowed::one_of(&[CoreParams::ELEMENT_BITS])
                            .because("the core's ALU lanes are 32-bit integers")
                    },
                ),
                "write_ports" => Param::new(
                    "write_ports",
                    "write ports: writers per cycle",
                    "N",
                    |p: &GprParams| &p.write_ports,
                    |p| &mut p.write_ports,
                    |_| {
                        Allowed::one_of(&[2])
                            .because("ALU results on port 0, the external writer on port 1")
                    },
                ),
                "registers" => Param::new(
                    "registers",
                    "registers; register n is in bank n mod banks, row n div banks",
                    "N",
                    |p: &GprParams| &p.registers,
                    |p| &mut p.registers,
                    |p| {
                        let gpr = p.registers_allowed();
                        let least = 2 * CoreParams::EXTERNAL_REGISTERS;
                        Allowed::matching(
                            format!(
                                "{}, at least {least} (the highest {} belong to the external \
                                 writer)",
                                gpr.words(),
                                CoreParams::EXTERNAL_REGISTERS
                            ),
                            move |r| gpr.admits(r) && *r >= least,
                        )
                    },
                ),
                "pipeline" => Param::new(
                    "pipeline",
                    "GPR register stages: each adds to the cycles from a read's decision to its data, and from an issue to the ALU",
                    "N",
                    |p: &GprParams| &p.pipeline,
                    |p| &mut p.pipeline,
                    |_| Allowed::range(0, CoreParams::MAX_GPR_PIPELINE),
                ),
                _ => p,
            })
            .map(|p| p.nested(|c: &Self| &c.gpr, |c| &mut c.gpr))
            .collect();
        table.extend([
            param!(
                cq_entries,
                "conflict-queue entries (0: no conflict queue)",
                "N",
                |_| Allowed::range(0, CoreParams::MAX_QUEUE_ENTRIES)
            ),
            param!(
                pq_entries,
                "prefetch-queue entries (0: no prefetch queue)",
                "N",
                |_| Allowed::range(0, CoreParams::MAX_QUEUE_ENTRIES)
            ),
            param!(
                lookahead,
                "later instructions that preloads and prefetches may serve",
                "K",
                |_| Allowed::range(1, 4)
            ),
            param!(
                alu_latency,
                "ALU pipeline stages between operand read and write-back",
                "N",
                |_| Allowed::range(1, 8)
            ),
            param!(
                forward,
                "result forwarding: a source whose result leaves the ALU as the instruction's operands enter it skips the GPR read",
                "BOOL",
                |_| Allowed::any("true or false")
            ),
            param!(
                request_stage,
                "the read scheduler's decisions registered before the GPR: every read's data a cycle later",
                "BOOL",
                |_| Allowed::any("true or false")
            ),
            param!(
                long_results,
                "pending-table entries: registers of long-latency results outstanding at once",
                "N",
                |_| Allowed::range(1, CoreParams::MAX_LONG_RESULTS)
            ),
            param!(
                waves,
                "waves (instruction streams) interleaved, each on its own registers; auto: as many as fit the program",
                "W",
                |_| Allowed::matching(
                    format!("1..={} or auto", Waves::MAX),
                    |w: &Waves| w.0 <= Waves::MAX
                )
            ),
            param!(
                issue,
                "which ready wave's instruction enters the window",
                "POLICY",
                |_| Allowed::any("round-robin (rr) or oldest-ready (gto)")
            ),
        ]);
        table
    }
}

impl CoreParams {
    /// The configuration of the document's example (Fig. 4 and its schedule: `(rpt3) mad` in 10
    /// cycles from a cold start, 4 more per group): the defaults' queues with three
    /// instructions of lookahead, no GPR stage, so that a read's data comes the cycle after its
    /// decision (no request stage either), two ALU stages, and no result forwarding: every
    /// operand is read from the GPR.
    pub fn document() -> Self {
        let defaults = Self::default();
        Self {
            gpr: GprParams {
                pipeline: 0,
                ..defaults.gpr
            },
            lookahead: 3,
            alu_latency: 2,
            forward: false,
            request_stage: false,
            ..defaults
        }
    }

    /// The ALU's element width: every lane computes on 32-bit wrapping integers.
    pub const ELEMENT_BITS: usize = 32;
    /// The deepest GPR pipeline the core runs on: every one the GPR has.
    pub const MAX_GPR_PIPELINE: usize = GprParams::MAX_PIPELINE;
    /// Registers reserved for the external writer (EFU, texture return): the highest ones.
    pub const EXTERNAL_REGISTERS: usize = 16;
    /// The pending table's default entries.
    pub const DEFAULT_LONG_RESULTS: usize = 16;
    /// The largest pending table.
    pub const MAX_LONG_RESULTS: usize = 32;
    /// The most entries of the conflict queue, and of the prefetch queue.
    pub const MAX_QUEUE_ENTRIES: usize = 8;
    /// The most registers one instruction writes (a four-component texture or load result):
    /// the largest `writes` of an offered instruction.
    pub const MAX_WRITES: usize = 4;
    /// The longest [`CoreParams::read_latency`]: the request stage, then at `--pipeline 4` the
    /// GPR's two grant stages and five read stages.
    pub const MAX_READ_LATENCY: usize = 8;

    /// The GPR inside the slice: the slice applies the bank map at its boundary (every register
    /// index in mapped to bank and row, every one out given back), so the GPR behind it is
    /// built for the `mod` map, its bank the index's low bits.
    pub fn physical_gpr(&self) -> GprParams {
        GprParams {
            bank_map: BankMap::Mod,
            ..self.gpr.clone()
        }
    }

    /// Waves the slice interleaves (`auto`, before a run settles it, counts as one).
    pub fn wave_count(&self) -> usize {
        self.waves.count()
    }

    /// Registers programs may use: all but the external writer's.
    pub fn program_registers(&self) -> usize {
        self.gpr.registers.saturating_sub(Self::EXTERNAL_REGISTERS)
    }

    /// Cycles from the cycle a read is decided to the cycle its data is captured: the request
    /// stage, then the GPR's grant latency (its registered arbitration, `--pipeline` 3 and 4)
    /// plus its read latency. An instruction issued in cycle `t` has its operands at the ALU in
    /// cycle `t + read_latency`.
    pub fn read_latency(&self) -> usize {
        usize::from(self.request_stage) + self.gpr_latency()
    }

    /// Cycles from the cycle a request reaches the GPR to the cycle its data is captured: the
    /// GPR's grant latency plus its read latency.
    pub fn gpr_latency(&self) -> usize {
        self.gpr.grant_latency() + self.gpr.read_latency()
    }

    /// Cycles from an issue to its write-back: the read latency, then the ALU's stages.
    pub fn issue_to_writeback(&self) -> usize {
        self.read_latency() + self.alu_latency
    }

    /// Instruction-window slots: the instruction being issued plus the lookahead.
    pub fn window(&self) -> usize {
        self.lookahead + 1
    }

    /// Window slots after the head that conflict-queue preloads serve: the lookahead, with a
    /// conflict queue.
    pub fn preload_slots(&self) -> usize {
        if self.cq_entries > 0 {
            self.lookahead
        } else {
            0
        }
    }

    /// Window slots after the head that prefetches serve: the lookahead, with a prefetch
    /// queue.
    pub fn prefetch_slots(&self) -> usize {
        if self.pq_entries > 0 {
            self.lookahead
        } else {
            0
        }
    }

    /// Window slots the read scheduler looks at: the head and those preloads or prefetches
    /// serve.
    pub fn served_slots(&self) -> usize {
        1 + self.preload_slots().max(self.prefetch_slots())
    }
}

/// The core's operations: the code on its 3-bit `instr_op` input (and the ALU's `alu_op`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CoreOp {
    /// `d = a`.
    Mov = 0,
    /// `d = a + b`.
    Add = 1,
    /// `d = a - b`.
    Sub = 2,
    /// `d = a * b` (low 32 bits).
    Mul = 3,
    /// `d = a * b + c` (low 32 bits).
    Mad = 4,
    /// No operation: no source, result 0, never written back (a compiler's delay slot).
    Nop = 5,
}

impl CoreOp {
    /// Every op, in code order.
    pub const ALL: [CoreOp; 6] = [
        CoreOp::Mov,
        CoreOp::Add,
        CoreOp::Sub,
        CoreOp::Mul,
        CoreOp::Mad,
        CoreOp::Nop,
    ];

    /// The op's code.
    pub fn code(self) -> u64 {
        self as u64
    }

    /// The op's mnemonic in programs.
    pub fn mnemonic(self) -> &'static str {
        match self {
            CoreOp::Mov => "mov",
            CoreOp::Add => "add",
            CoreOp::Sub => "sub",
            CoreOp::Mul => "mul",
            CoreOp::Mad => "mad",
            CoreOp::Nop => "nop",
        }
    }

    /// Source operands it takes: none for `nop`, one for `mov`, three for `mad`, two for the
    /// others.
    pub fn sources(self) -> usize {
        match self {
            CoreOp::Nop => 0,
            CoreOp::Mov => 1,
            CoreOp::Mad => 3,
            _ => 2,
        }
    }
}

/// The unit an instruction runs on: the code on the core's 3-bit `instr_unit` input and
/// `long_unit` output. Every unit but the ALU is long-latency: its value leaves the ALU for the
/// external unit, which writes it back later through write port 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CoreUnit {
    /// The ALU: its result is written back on write port 0.
    Alu = 0,
    /// The special-function unit (reciprocal, square root, ...); guarded by `(ss)`.
    Sfu = 1,
    /// Varying interpolation and input loads; guarded by `(ss)`.
    Varying = 2,
    /// The texture unit; guarded by `(sy)`.
    Tex = 3,
    /// Local (shared) memory; guarded by `(ss)`.
    LocalMem = 4,
    /// Global memory and images; guarded by `(sy)`.
    GlobalMem = 5,
}

impl CoreUnit {
    /// Every unit, in code order.
    pub const ALL: [CoreUnit; 6] = [
        CoreUnit::Alu,
        CoreUnit::Sfu,
        CoreUnit::Varying,
        CoreUnit::Tex,
        CoreUnit::LocalMem,
        CoreUnit::GlobalMem,
    ];

    /// The unit's code.
    pub fn code(self) -> u64 {
        self as u64
    }

    /// The unit's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            CoreUnit::Alu => "alu",
            CoreUnit::Sfu => "sfu",
            CoreUnit::Varying => "varying",
            CoreUnit::Tex => "tex",
            CoreUnit::LocalMem => "local-mem",
            CoreUnit::GlobalMem => "global-mem",
        }
    }

    /// Whether its results return through the external write port.
    pub fn long_latency(self) -> bool {
        self != CoreUnit::Alu
    }

    /// Whether `(sy)` guards its results (texture, global memory); else `(ss)` does.
    pub fn guarded_by_sy(self) -> bool {
        matches!(self, CoreUnit::Tex | CoreUnit::GlobalMem)
    }
}

/// Where the data a read port returns goes (the scheduler's per-port `capture_kind`, a cycle
/// after the read). The same codes mark a source's state in the scheduler's window: pending
/// (0), done (1), in the conflict queue (2), in the prefetch queue (3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaptureKind {
    /// Nowhere (no read, or the ALU takes it straight from the port); as a state: pending.
    Nowhere = 0,
    /// The head instruction's operand latch; as a state: done.
    Latch = 1,
    /// A conflict-queue entry (a preload).
    ConflictQueue = 2,
    /// A prefetch-queue entry (a prefetch).
    PrefetchQueue = 3,
}

impl CaptureKind {
    /// The 2-bit code.
    pub fn code(self) -> u64 {
        self as u64
    }
}

/// Where an ALU operand comes from (the scheduler's per-source `alu_kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OperandSource {
    /// A read port's data this cycle.
    Port = 0,
    /// The operand latch.
    Latch = 1,
    /// A conflict-queue entry.
    ConflictQueue = 2,
    /// A prefetch-queue entry.
    PrefetchQueue = 3,
    /// The same register as source 0.
    SameAsSource0 = 4,
    /// The same register as source 1.
    SameAsSource1 = 5,
    /// The ALU's result of this cycle (a forwarded source).
    Result = 6,
    /// The source's immediate, carried with the instruction (not a GPR read).
    Immediate = 7,
}

impl OperandSource {
    /// The 3-bit code.
    pub fn code(self) -> u64 {
        self as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gpr_underneath_must_have_32_bit_lanes_and_two_write_ports() {
        let bad = CoreParams {
            gpr: GprParams {
                element_bits: 16,
                ..GprParams::default()
            },
            ..CoreParams::default()
        };
        let err = bad.validate().unwrap_err().to_string();
        assert!(
            err.contains("--element-bits") && err.contains("32"),
            "{err}"
        );
        let names: Vec<&str> = CoreParams::table().iter().map(|p| p.name).collect();
        assert_eq!(names[0], "banks");
        assert_eq!(names.last(), Some(&"issue"));
    }

    #[test]
    fn the_longest_read_latency_is_the_deepest_pipeline_with_the_request_stage() {
        let latency = |pipeline: usize, request_stage: bool| {
            CoreParams {
                gpr: GprParams {
                    pipeline,
                    ..GprParams::default()
                },
                request_stage,
                ..CoreParams::default()
            }
            .read_latency()
        };
        let longest = (0..=CoreParams::MAX_GPR_PIPELINE)
            .flat_map(|p| [latency(p, false), latency(p, true)])
            .max();
        assert_eq!(longest, Some(CoreParams::MAX_READ_LATENCY));
    }
}
