//! The blocks as the command line sees them: every design of `grfgen-hdl` (for `emit`) and
//! every simulated block of `grfgen-sim` (for `sim`, `flow`, `sweep`, `bench`), each behind
//! one object built from the crates' registries. Nothing here is written per block.

use std::marker::PhantomData;

use clap::{ArgMatches, Command};
use grfgen_hdl::design::{Design, DesignVisitor};
use grfgen_sim::block::{Block, BlockVisitor};

use crate::commands;
use grfgen_engines::error::CliError;
use grfgen_engines::sweep::store::Record;

/// A design `grfgen emit` writes.
pub trait DesignCommand {
    /// Its subcommand of `emit`, with its parameter flags.
    fn emit_command(&self) -> Command;
    /// Runs `grfgen emit <design>`.
    fn emit(&self, m: &ArgMatches) -> Result<String, CliError>;
}

/// A block `grfgen sim`, `flow`, `sweep` and `bench` run.
pub trait BlockCommand {
    /// The block's name.
    fn name(&self) -> &'static str;
    /// Its subcommand of `sim`, `flow`, `sweep`, `sweep slurm` (`slurm`), `explore`, `explore
    /// slurm` (`explore-slurm`), `mutate` or `bench` (named by `command`).
    fn command(&self, command: &str) -> Command;
    /// Runs `grfgen <command> <block>`.
    fn run(&self, command: &str, m: &ArgMatches) -> Result<String, CliError>;
    /// Runs the block's part of `grfgen regress`: its records.
    fn regress(&self, settings: &commands::regress::Settings) -> Result<Vec<Record>, CliError>;
}

/// The adapter of design `D`.
struct DesignEntry<D>(PhantomData<D>);

impl<D: Design> DesignCommand for DesignEntry<D> {
    fn emit_command(&self) -> Command {
        commands::emit::command::<D>()
    }

    fn emit(&self, m: &ArgMatches) -> Result<String, CliError> {
        commands::emit::emit::<D>(m)
    }
}

/// The adapter of block `B`.
struct BlockEntry<B>(PhantomData<B>);

impl<B: Block> BlockCommand for BlockEntry<B> {
    fn name(&self) -> &'static str {
        B::Design::NAME
    }

    fn command(&self, command: &str) -> Command {
        match command {
            "sim" => commands::sim::command::<B>(),
            "flow" => commands::flow::command::<B>(),
            "sweep" => commands::sweep::command::<B>(),
            "slurm" => commands::sweep::slurm_command::<B>(),
            "explore" => commands::explore::command::<B>(),
            "explore-slurm" => commands::explore::slurm_command::<B>(),
            "mutate" => commands::mutate::command::<B>(),
            _ => commands::bench::command::<B>(),
        }
    }

    fn run(&self, command: &str, m: &ArgMatches) -> Result<String, CliError> {
        match command {
            "sim" => commands::sim::sim::<B>(m),
            "flow" => commands::flow::flow::<B>(m),
            "sweep" => commands::sweep::sweep::<B>(m),
            "slurm" => commands::sweep::slurm::<B>(m),
            "explore" => commands::explore::explore::<B>(m),
            "explore-slurm" => commands::explore::slurm::<B>(m),
            "mutate" => commands::mutate::mutate::<B>(m),
            _ => commands::bench::bench::<B>(m),
        }
    }

    fn regress(&self, settings: &commands::regress::Settings) -> Result<Vec<Record>, CliError> {
        commands::regress::block::<B>(settings)
    }
}

/// Collects the designs.
#[derive(Default)]
struct Designs(Vec<Box<dyn DesignCommand>>);

impl DesignVisitor for Designs {
    fn visit<D: Design>(&mut self) {
        self.0.push(Box::new(DesignEntry::<D>(PhantomData)));
    }
}

/// Collects the simulated blocks.
#[derive(Default)]
struct Blocks(Vec<Box<dyn BlockCommand>>);

impl BlockVisitor for Blocks {
    fn visit<B: Block>(&mut self) {
        self.0.push(Box::new(BlockEntry::<B>(PhantomData)));
    }
}

/// Every design, in the catalogue's order.
pub fn designs() -> Vec<Box<dyn DesignCommand>> {
    let mut designs = Designs::default();
    grfgen_hdl::visit_designs(&mut designs);
    designs.0
}

/// Every simulated block, in the catalogue's order.
pub fn blocks() -> Vec<Box<dyn BlockCommand>> {
    let mut blocks = Blocks::default();
    grfgen_sim::visit_blocks(&mut blocks);
    blocks.0
}
