//! The block catalogue: every block, its parameters, their ranges and defaults.

use serde::Serialize;

use crate::params::{CoreParams, GprParams, GrfParams, RouteParams};

/// One parameter of a block.
#[derive(Clone, Debug, Serialize)]
pub struct ParamInfo {
    /// Command-line flag, e.g. `--banks`.
    pub flag: &'static str,
    /// Default value.
    pub default: String,
    /// Allowed values, in words.
    pub allowed: String,
    /// What it sets, with its unit.
    pub meaning: &'static str,
}

/// One block of the catalogue.
#[derive(Clone, Debug, Serialize)]
pub struct BlockInfo {
    /// Name used on the command line (`grfgen emit <name>`), or the component's name.
    pub name: &'static str,
    /// One-line description.
    pub title: &'static str,
    /// The specification section it implements.
    pub spec: &'static str,
    /// Whether `grfgen emit`/`sim` take it as a top level; components are emitted inside one.
    pub top_level: bool,
    /// Its parameters.
    pub params: Vec<ParamInfo>,
}

fn param(
    flag: &'static str,
    default: impl ToString,
    allowed: String,
    meaning: &'static str,
) -> ParamInfo {
    ParamInfo {
        flag,
        default: default.to_string(),
        allowed,
        meaning,
    }
}

/// Every block, top levels first.
pub fn catalogue() -> Vec<BlockInfo> {
    let gpr = GprParams::default();
    let route = RouteParams::default();
    let core = CoreParams::default();
    let grf = GrfParams::default();
    let range = |(low, high): (usize, usize)| format!("{low}..={high}");
    let set = |values: &[usize]| {
        values
            .iter()
            .map(|v| v.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    vec![
        BlockInfo {
            name: "gpr",
            title: "Banked GPR: 1W1R SRAM banks joined by a write and a read crossbar",
            spec: "S1",
            top_level: true,
            params: vec![
                param("--banks", gpr.banks, set(GprParams::BANKS), "1W1R banks"),
                param(
                    "--registers",
                    gpr.registers,
                    format!(
                        "banks x rows, rows a power of two in {}",
                        range(GprParams::ROWS)
                    ),
                    "registers; register n is in bank n mod banks, row n div banks",
                ),
                param(
                    "--lanes",
                    gpr.lanes,
                    range(GprParams::LANES),
                    "lanes per register entry",
                ),
                param(
                    "--element-bits",
                    gpr.element_bits,
                    set(GprParams::ELEMENT_BITS),
                    "bits per lane",
                ),
                param(
                    "--read-ports",
                    gpr.read_ports,
                    range(GprParams::READ_PORTS),
                    "readers per cycle",
                ),
                param(
                    "--write-ports",
                    gpr.write_ports,
                    range(GprParams::WRITE_PORTS),
                    "writers per cycle",
                ),
            ],
        },
        BlockInfo {
            name: "core",
            title: "Shader-core slice: banked GPR, conflict detector and queue, prefetch queue, operand muxes, pipelined ALU",
            spec: "S1",
            top_level: true,
            params: vec![
                param(
                    "GPR flags",
                    "as gpr",
                    "as gpr, with --element-bits 32 and --write-ports 2".into(),
                    "the banked GPR underneath",
                ),
                param("--cq-entries", core.cq_entries, "0..=8".into(), "conflict-queue entries"),
                param("--pq-entries", core.pq_entries, "0..=8".into(), "prefetch-queue entries"),
                param(
                    "--lookahead",
                    core.lookahead,
                    "1..=4".into(),
                    "later instructions preloads and prefetches serve",
                ),
                param("--alu-latency", core.alu_latency, "1..=8".into(), "ALU pipeline stages"),
            ],
        },
        BlockInfo {
            name: "route",
            title: "SIMD shift-and-fill operand router: N/q quad crossbars, register select, per-lane (N/q):1 muxes",
            spec: "S2",
            top_level: true,
            params: vec![
                param("--lanes", route.lanes, set(RouteParams::LANES), "SIMD lanes N"),
                param(
                    "--crossbar",
                    route.crossbar,
                    "a power of two from 1 to N".into(),
                    "lanes per first-stage crossbar (q)",
                ),
                param(
                    "--element-bits",
                    route.element_bits,
                    set(RouteParams::ELEMENT_BITS),
                    "bits per lane operand",
                ),
                param(
                    "--registered",
                    route.registered,
                    "true, false".into(),
                    "result register (a pipeline stage; multi-pass shuffles need it)",
                ),
            ],
        },
        BlockInfo {
            name: "grf",
            title: "Hierarchical GRF: per-EU fast GRFs, shared slow GRF, translation table with groups and barriers, L3 refill",
            spec: "S3",
            top_level: true,
            params: vec![
                param("--eus", grf.eus, "1..=8".into(), "execution units sharing the slow GRF"),
                param("--threads", grf.threads, "1..=4".into(), "hardware threads per EU"),
                param(
                    "--virtual-blocks",
                    grf.virtual_blocks,
                    "1..=4".into(),
                    "virtual blocks of 16 registers per thread",
                ),
                param(
                    "--preallocated",
                    grf.preallocated,
                    "0..=virtual blocks".into(),
                    "blocks every thread has mapped at reset",
                ),
                param(
                    "--fast-regs",
                    grf.fast_regs,
                    set(GrfParams::FAST_REGS),
                    "fast GRF entries per EU (direct-mapped, write-back)",
                ),
                param(
                    "--slow-regs",
                    grf.slow_regs,
                    set(GrfParams::SLOW_REGS),
                    "slow GRF registers, 16 per physical block",
                ),
                param(
                    "--slow-latency",
                    grf.slow_latency,
                    "2..=8".into(),
                    "cycles from a slow GRF read to its data",
                ),
                param("--lanes", grf.lanes, "1..=8".into(), "lanes per register"),
                param(
                    "--element-bits",
                    grf.element_bits,
                    set(GrfParams::ELEMENT_BITS),
                    "bits per lane",
                ),
                param(
                    "--low-energy-blocks",
                    grf.low_energy_blocks,
                    "0..=slow regs / 16".into(),
                    "physical blocks of the low-energy part (variant B)",
                ),
                param(
                    "--mapping",
                    grf.mapping,
                    "none, threads:K (0..=eus x threads), fraction:P (0..=100)".into(),
                    "which allocations go to the low-energy part",
                ),
            ],
        },
        BlockInfo {
            name: "sram-bank",
            title: "1W1R SRAM bank, 1-cycle synchronous read, read/write collision undefined",
            spec: "S1",
            top_level: false,
            params: vec![
                param(
                    "entry width",
                    32,
                    "8, 16, 32 or 64 bits (one lane)".into(),
                    "bits",
                ),
                param("depth", 64, "4..=1024 rows, a power of two".into(), "rows"),
            ],
        },
        BlockInfo {
            name: "crossbar",
            title: "I x O crossbar with a one-hot source select per output (broadcast allowed)",
            spec: "S1, S2",
            top_level: false,
            params: vec![
                param("inputs", 4, "1 or more".into(), "sources"),
                param("outputs", 4, "1 or more".into(), "destinations"),
                param("lanes", 4, "1 or more".into(), "elements moved per source"),
            ],
        },
    ]
}
