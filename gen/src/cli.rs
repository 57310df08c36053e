//! The command line: what `grfgen` accepts.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::config::GprArgs;

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
    /// Measure simulation speed
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
}

/// Options of a co-simulation run.
#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    /// Cycles to simulate
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    pub cycles: u64,
    /// Seed of the random stimulus and of Verilator's x randomisation [default: fresh, printed]
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
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
}
