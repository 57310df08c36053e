//! The command line: what `grfgen` accepts.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::config::{CoreArgs, GprArgs, GrfArgs, RouteArgs};

/// grfgen: synthesizable register-file RTL for GPU shader cores, from rust-hdl to Verilog,
/// co-simulated in Verilator against golden models.
#[derive(Parser, Debug)]
#[command(name = "grfgen", version, propagate_version = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Write a block's Verilog, Verilator waivers, XDC/SDC constraints and manifest.json
    Emit {
        /// The block.
        #[command(subcommand)]
        block: EmitBlock,
    },
    /// Co-simulate a block's Verilog in Verilator in lock step with its golden model
    Sim {
        /// The block.
        #[command(subcommand)]
        block: SimBlock,
    },
    /// Emit, lint, synthesize and co-simulate a block, then print what was checked
    Flow {
        /// The block.
        #[command(subcommand)]
        block: FlowBlock,
    },
    /// Run a block over combinations of parameters and tabulate the results
    Sweep {
        /// The block.
        #[command(subcommand)]
        block: SweepBlock,
    },
    /// Run lane operations, shuffles and the 2-D window filter on the shift-and-fill router
    Route {
        /// What to run.
        #[command(subcommand)]
        command: RouteCommand,
    },
    /// Measure simulation speed (GPR) or planner pass counts and cell counts (router)
    Bench {
        /// The block.
        #[command(subcommand)]
        block: BenchBlock,
    },
    /// List every block with its parameters, their ranges and defaults
    Blocks {
        /// Print JSON instead of a table
        #[arg(long)]
        json: bool,
    },
}

/// Where and how `emit` writes.
#[derive(Args, Debug, Clone)]
pub struct OutputArgs {
    /// Directory to write into (created if missing; left untouched on failure)
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Clock frequency for the constraint files, in MHz (0 < f <= 2000)
    #[arg(long, value_name = "MHZ", default_value_t = 200.0)]
    pub clock_mhz: f64,
    /// External input/output delay in ns [default: a quarter of the clock period]
    #[arg(long, value_name = "NS")]
    pub io_delay_ns: Option<f64>,
    /// Top module name [default: one that encodes the parameters]
    #[arg(long, value_name = "NAME")]
    pub top: Option<String>,
}

/// Blocks `emit` knows.
#[derive(Subcommand, Debug)]
pub enum EmitBlock {
    /// The banked GPR
    Gpr {
        /// Parameters.
        #[command(flatten)]
        params: GprArgs,
        /// Output.
        #[command(flatten)]
        output: OutputArgs,
    },
    /// The SIMD shift-and-fill operand router
    Route {
        /// Parameters.
        #[command(flatten)]
        params: RouteArgs,
        /// Emit the comparison design instead: one full N x N crossbar, combinational
        #[arg(long)]
        full_crossbar: bool,
        /// Output.
        #[command(flatten)]
        output: OutputArgs,
    },
    /// The shader-core slice: banked GPR, conflict queue, prefetch queue, scheduler, ALU
    Core {
        /// Parameters.
        #[command(flatten)]
        params: CoreArgs,
        /// Output.
        #[command(flatten)]
        output: OutputArgs,
    },
    /// The hierarchical GRF: fast GRFs per EU, shared slow GRF, translation table, L3 port
    Grf {
        /// Parameters.
        #[command(flatten)]
        params: GrfArgs,
        /// Output.
        #[command(flatten)]
        output: OutputArgs,
    },
}

/// Operand-conflict policies.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PolicyName {
    /// Serialise conflicting reads, no queues.
    Naive,
    /// Conflict queue only.
    Cq,
    /// Conflict queue and prefetch queue.
    #[value(name = "cq-pq")]
    CqPq,
    /// A true multi-ported file without bank conflicts (golden model only).
    Ideal,
}

/// What program a core run executes.
#[derive(Args, Debug, Clone)]
#[group(required = true, multiple = false)]
pub struct ProgramArgs {
    /// A built-in workload: rpt-mad, random, conv3x3, matmul4, normalize, texture-return
    #[arg(long, value_name = "NAME")]
    pub workload: Option<String>,
    /// A program file in the documented text format (see docs/core.md)
    #[arg(long, value_name = "FILE")]
    pub program: Option<PathBuf>,
}

/// Length and seed of a random run.
#[derive(Args, Debug, Clone)]
pub struct CycleArgs {
    /// Cycles to simulate
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    pub cycles: u64,
    /// Seed of the random stimulus and of Verilator's x randomisation [default: fresh, printed]
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
}

/// What requests a GRF run issues.
#[derive(Args, Debug, Clone)]
#[group(required = true, multiple = false)]
pub struct TraceArgs {
    /// A built-in workload: private-hot, streaming, producer-consumer, context-switch, faults,
    /// random
    #[arg(long, value_name = "NAME")]
    pub workload: Option<String>,
    /// A request trace in the documented text format (see docs/grf.md)
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
}

/// Energy per access of one 32-bit element, in pJ (docs/grf.md gives the sources).
#[derive(Args, Debug, Clone, Copy)]
pub struct EnergyArgs {
    /// Fast GRF access
    #[arg(
        long,
        value_name = "PJ",
        allow_hyphen_values = true,
        default_value_t = 0.5
    )]
    pub fast_pj: f64,
    /// Slow GRF access (high-capacity part, or all of it without variant B)
    #[arg(
        long,
        value_name = "PJ",
        allow_hyphen_values = true,
        default_value_t = 3.0
    )]
    pub slow_pj: f64,
    /// Slow GRF access in the low-energy part (variant B)
    #[arg(
        long,
        value_name = "PJ",
        allow_hyphen_values = true,
        default_value_t = 1.5
    )]
    pub slow_low_pj: f64,
    /// L3 access
    #[arg(
        long,
        value_name = "PJ",
        allow_hyphen_values = true,
        default_value_t = 30.0
    )]
    pub l3_pj: f64,
}

/// Options of a GRF run.
#[derive(Args, Debug, Clone)]
pub struct GrfRunArgs {
    /// The requests.
    #[command(flatten)]
    pub requests: TraceArgs,
    /// Length of a built-in workload (steps per EU grow with it): 1..=10000
    #[arg(long, value_name = "N", default_value_t = 8)]
    pub rounds: usize,
    /// Seed of the workload's values and of the L3 contents [default: fresh, printed]
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Cycles from an L3 read to its answer (the test bench's L3): 1..=64
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub l3_latency: u64,
    /// Stop a run that has not finished after this many cycles
    #[arg(long, value_name = "N", default_value_t = 10_000_000)]
    pub max_cycles: u64,
    /// Energy per access.
    #[command(flatten)]
    pub energy: EnergyArgs,
}

/// Options of a GPR co-simulation run.
#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    /// Length and seed.
    #[command(flatten)]
    pub cycles: CycleArgs,
    /// Percent of ports requesting in a cycle (0..=100)
    #[arg(long, value_name = "PCT", default_value_t = 75)]
    pub load: u32,
    /// Percent of requests aimed at a few hot registers, to provoke conflicts (0..=100)
    #[arg(long, value_name = "PCT", default_value_t = 25)]
    pub hot: u32,
}

/// Blocks `sim` knows.
#[derive(Subcommand, Debug)]
pub enum SimBlock {
    /// The banked GPR
    Gpr {
        /// Parameters.
        #[command(flatten)]
        params: GprArgs,
        /// Run options.
        #[command(flatten)]
        run: RunArgs,
        /// Write a waveform of the RTL to FILE (.vcd, or .fst for FST)
        #[arg(long, value_name = "FILE")]
        vcd: Option<PathBuf>,
        /// Run the golden model only, without the RTL
        #[arg(long)]
        no_rtl: bool,
        /// Print one JSON object instead of text
        #[arg(long)]
        json: bool,
    },
    /// The shift-and-fill router: random passes of every kind
    Route {
        /// Parameters.
        #[command(flatten)]
        params: RouteArgs,
        /// Length and seed.
        #[command(flatten)]
        run: CycleArgs,
        /// Print one JSON object instead of text
        #[arg(long)]
        json: bool,
    },
    /// The hierarchical GRF: run a workload or trace; accesses per level, L3 traffic, energy
    Grf {
        /// Parameters.
        #[command(flatten)]
        params: GrfArgs,
        /// Run options.
        #[command(flatten)]
        run: GrfRunArgs,
        /// Also run the flat design (no fast GRFs: every access goes to the shared slow GRF)
        /// and show both
        #[arg(long)]
        flat: bool,
        /// Co-simulate the RTL (the default when Verilator is installed)
        #[arg(long, overrides_with = "no_rtl")]
        rtl: bool,
        /// Run the golden model only
        #[arg(long, overrides_with = "rtl")]
        no_rtl: bool,
        /// Write a waveform of the RTL to FILE (.vcd, or .fst for FST)
        #[arg(long, value_name = "FILE")]
        vcd: Option<PathBuf>,
        /// Print one JSON object instead of text
        #[arg(long)]
        json: bool,
    },
    /// The core slice: run a program under a conflict policy, beside the other policies
    Core {
        /// Parameters.
        #[command(flatten)]
        params: CoreArgs,
        /// The operand-conflict policy
        #[arg(long, value_enum, default_value = "cq-pq")]
        policy: PolicyName,
        /// The program.
        #[command(flatten)]
        program: ProgramArgs,
        /// Seed of the initial register values, external traffic and the random workload
        /// [default: fresh, printed]
        #[arg(long, value_name = "S")]
        seed: Option<u64>,
        /// Co-simulate the RTL (the default when Verilator is installed; not for ideal)
        #[arg(long, overrides_with = "no_rtl")]
        rtl: bool,
        /// Run the golden model only
        #[arg(long, overrides_with = "rtl")]
        no_rtl: bool,
        /// Add the GPR reads of every cycle
        #[arg(long)]
        schedule: bool,
        /// Print one JSON object instead of text
        #[arg(long)]
        json: bool,
    },
}

/// Blocks `flow` knows.
#[derive(Subcommand, Debug)]
pub enum FlowBlock {
    /// The banked GPR
    Gpr {
        /// Parameters.
        #[command(flatten)]
        params: GprArgs,
        /// Directory for the emitted files
        #[arg(long, value_name = "DIR", default_value = "out/gpr")]
        out: PathBuf,
        /// Clock frequency for the constraint files, in MHz
        #[arg(long, value_name = "MHZ", default_value_t = 200.0)]
        clock_mhz: f64,
        /// Run options.
        #[command(flatten)]
        run: RunArgs,
        /// Print one JSON object instead of a table
        #[arg(long)]
        json: bool,
    },
    /// The core slice
    Core {
        /// Parameters.
        #[command(flatten)]
        params: CoreArgs,
        /// Directory for the emitted files
        #[arg(long, value_name = "DIR", default_value = "out/core")]
        out: PathBuf,
        /// Clock frequency for the constraint files, in MHz
        #[arg(long, value_name = "MHZ", default_value_t = 200.0)]
        clock_mhz: f64,
        /// Seed of the co-simulated random program [default: fresh, printed]
        #[arg(long, value_name = "S")]
        seed: Option<u64>,
        /// Print one JSON object instead of a table
        #[arg(long)]
        json: bool,
    },
    /// The hierarchical GRF
    Grf {
        /// Parameters.
        #[command(flatten)]
        params: GrfArgs,
        /// Directory for the emitted files
        #[arg(long, value_name = "DIR", default_value = "out/grf")]
        out: PathBuf,
        /// Clock frequency for the constraint files, in MHz
        #[arg(long, value_name = "MHZ", default_value_t = 200.0)]
        clock_mhz: f64,
        /// Seed of the co-simulated workloads [default: fresh, printed]
        #[arg(long, value_name = "S")]
        seed: Option<u64>,
        /// Print one JSON object instead of a table
        #[arg(long)]
        json: bool,
    },
    /// The shift-and-fill router
    Route {
        /// Parameters.
        #[command(flatten)]
        params: RouteArgs,
        /// Directory for the emitted files
        #[arg(long, value_name = "DIR", default_value = "out/route")]
        out: PathBuf,
        /// Clock frequency for the constraint files, in MHz
        #[arg(long, value_name = "MHZ", default_value_t = 200.0)]
        clock_mhz: f64,
        /// Length and seed.
        #[command(flatten)]
        run: CycleArgs,
        /// Print one JSON object instead of a table
        #[arg(long)]
        json: bool,
    },
}

/// Blocks `sweep` knows.
#[derive(Subcommand, Debug)]
pub enum SweepBlock {
    /// The banked GPR: every combination of the listed values
    Gpr {
        /// Bank counts, comma separated
        #[arg(
            long,
            value_name = "LIST",
            value_delimiter = ',',
            default_value = "1,2,4,8"
        )]
        banks: Vec<usize>,
        /// Register counts, comma separated
        #[arg(
            long,
            value_name = "LIST",
            value_delimiter = ',',
            default_value = "256"
        )]
        registers: Vec<usize>,
        /// Lanes per entry, comma separated
        #[arg(long, value_name = "LIST", value_delimiter = ',', default_value = "4")]
        lanes: Vec<usize>,
        /// Element widths, comma separated
        #[arg(long, value_name = "LIST", value_delimiter = ',', default_value = "32")]
        element_bits: Vec<usize>,
        /// Read port counts, comma separated
        #[arg(long, value_name = "LIST", value_delimiter = ',', default_value = "4")]
        read_ports: Vec<usize>,
        /// Write port counts, comma separated
        #[arg(long, value_name = "LIST", value_delimiter = ',', default_value = "2")]
        write_ports: Vec<usize>,
        /// Run options.
        #[command(flatten)]
        run: RunArgs,
        /// Also synthesize each point with yosys synth_ice40 and report its cells
        #[arg(long)]
        synth: bool,
        /// Print JSON instead of a table
        #[arg(long)]
        json: bool,
    },
}

/// Blocks `bench` knows.
#[derive(Subcommand, Debug)]
pub enum BenchBlock {
    /// The banked GPR: golden-model and co-simulated cycles per second
    Gpr {
        /// Parameters.
        #[command(flatten)]
        params: GprArgs,
        /// Cycles per measurement
        #[arg(long, value_name = "N", default_value_t = 2_000_000)]
        cycles: u64,
        /// Print one JSON object instead of text
        #[arg(long)]
        json: bool,
    },
    /// The core slice: every policy on every built-in workload against the lower bound
    Core {
        /// Parameters.
        #[command(flatten)]
        params: CoreArgs,
        /// Seed of initial values and the random workloads
        #[arg(long, value_name = "S", default_value_t = 1)]
        seed: u64,
        /// Print JSON instead of a table
        #[arg(long)]
        json: bool,
    },
    /// The hierarchical GRF: every built-in workload, hierarchical against flat, and the
    /// variant-B mappings (golden model)
    Grf {
        /// Parameters.
        #[command(flatten)]
        params: GrfArgs,
        /// Length of the workloads
        #[arg(long, value_name = "N", default_value_t = 16)]
        rounds: usize,
        /// Seed of the workloads and the L3 contents
        #[arg(long, value_name = "S", default_value_t = 1)]
        seed: u64,
        /// Energy per access.
        #[command(flatten)]
        energy: EnergyArgs,
        /// Print JSON instead of a table
        #[arg(long)]
        json: bool,
    },
    /// The router: planner passes over random and common mappings, and yosys cell counts
    Route {
        /// Random mappings per group size
        #[arg(long, value_name = "N", default_value_t = 10_000)]
        mappings: usize,
        /// Also synthesize the two-stage and the full-crossbar networks for 16, 32, 64 lanes
        #[arg(long)]
        synth: bool,
        /// Print one JSON object instead of text
        #[arg(long)]
        json: bool,
    },
}

/// Lane operations `route eval` runs, in the document's spelling.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaneOpName {
    /// Shift towards lane 0, fill the top lanes of each subset.
    #[value(name = "shff.left")]
    ShffLeft,
    /// Shift away from lane 0, fill the bottom lanes of each subset.
    #[value(name = "shff.right")]
    ShffRight,
    /// Rotate towards lane 0 within each subset.
    #[value(name = "rotate.left")]
    RotateLeft,
    /// Rotate away from lane 0 within each subset.
    #[value(name = "rotate.right")]
    RotateRight,
    /// Every lane takes lane K of its subset.
    #[value(name = "broadcast")]
    Broadcast,
    /// Lane t takes lane t xor X.
    #[value(name = "butterfly")]
    Butterfly,
}

/// Fill sources `route eval` accepts.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum FillName {
    /// The fill register `--rf`.
    Rf,
    /// The constant 0.
    Zero,
    /// The constant 1.
    One,
    /// All bits set.
    Ones,
}

/// One lane operation as `route eval` takes it.
#[derive(Args, Debug, Clone, Copy)]
pub struct LaneOpArgs {
    /// The operation
    #[arg(long, value_enum)]
    pub op: LaneOpName,
    /// Subset size m: a power of two from 2 to N [default: N]
    #[arg(long = "mod", value_name = "M")]
    pub m: Option<usize>,
    /// Shift or rotate amount in lanes (shifts clamp at m)
    #[arg(long, value_name = "S")]
    pub amount: Option<usize>,
    /// Lane of each subset to broadcast (0..m-1)
    #[arg(long, value_name = "K")]
    pub lane: Option<usize>,
    /// Butterfly XOR mask (0..m-1)
    #[arg(long, value_name = "X")]
    pub mask: Option<usize>,
    /// What fills vacated lanes of a shift
    #[arg(long, value_enum, default_value = "rf")]
    pub fill: FillName,
}

/// What `grfgen route` runs.
#[derive(Subcommand, Debug)]
pub enum RouteCommand {
    /// One lane operation on given lane values (golden model, and the RTL with --rtl)
    Eval {
        /// Router parameters.
        #[command(flatten)]
        params: RouteArgs,
        /// The operation.
        #[command(flatten)]
        op: LaneOpArgs,
        /// The shifted register: N unsigned values, comma separated
        #[arg(long, value_name = "LIST", value_delimiter = ',', required = true)]
        rs: Vec<u64>,
        /// The fill register: N unsigned values, comma separated [default: zeros]
        #[arg(long, value_name = "LIST", value_delimiter = ',')]
        rf: Vec<u64>,
        /// Also run it on the Verilated router and fail if the two disagree
        #[arg(long)]
        rtl: bool,
        /// Print JSON
        #[arg(long)]
        json: bool,
    },
    /// Any lane mapping, planned into router passes
    Shuffle {
        /// Router parameters.
        #[command(flatten)]
        params: RouteArgs,
        /// Source lane of every lane: N values, comma separated
        #[arg(long, value_name = "LIST", value_delimiter = ',', required = true)]
        map: Vec<usize>,
        /// The register to shuffle: N unsigned values, comma separated
        #[arg(long, value_name = "LIST", value_delimiter = ',', required = true)]
        rs: Vec<u64>,
        /// Also run the plan on the Verilated router and fail if it disagrees
        #[arg(long)]
        rtl: bool,
        /// Print JSON
        #[arg(long)]
        json: bool,
    },
    /// A 3x3 convolution of an 8 x 16 tile from shift-and-fill operations (32 lanes)
    Window {
        /// Crossbar size q of the router [default 4]
        #[arg(long, value_name = "Q", default_value_t = 4)]
        crossbar: usize,
        /// Bits per lane: 8, 16, 32 or 64
        #[arg(long, value_name = "N", default_value_t = 32)]
        element_bits: usize,
        /// The nine weights, row by row, comma separated [default: box filter]
        #[arg(
            long,
            value_name = "LIST",
            value_delimiter = ',',
            allow_negative_numbers = true,
            default_value = "1,1,1,1,1,1,1,1,1"
        )]
        weights: Vec<i64>,
        /// Seed of the random tile [default: fresh, printed]
        #[arg(long, value_name = "S")]
        seed: Option<u64>,
        /// Also run every operation on the Verilated router
        #[arg(long)]
        rtl: bool,
        /// Print JSON
        #[arg(long)]
        json: bool,
    },
}
