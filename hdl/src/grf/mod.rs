//! The hierarchical GRF (SPEC S3): fast GRFs per EU, the shared slow GRF, the translation
//! table with shared groups and barriers, and the L3 port for context switches.

mod cluster;
pub mod codes;
mod controller;
mod front;
mod ports;
pub mod widths;

pub use cluster::GrfCluster;
pub use codes::front_state;
pub use controller::{
    AnswerUnit, BookkeepingStage, EntryLookup, GrfController, GroupUnit, PickStage, RefillEngine,
    RoundRobinArbiter, SaveEngine, Sequencer, SlowPort, SlowReadPipeline, TransactionDecoder,
    TransactionLookup, TransactionUnit, TranslationTable,
};
pub use front::{
    FastEntries, FastGrfs, FirstDirty, FrontAnswers, FrontEndControl, GrfFrontEnds, Outboxes,
    Responses,
};
pub use ports::{ControllerAnswers, L3Port, SlowGrfPorts, Transactions};

use cluster::slow_collision_checks;
use controller::{hold_checks, l3_checks, load_checks, pick_checks, port_checks, stage_checks};

use crate::design::Design;
use crate::emit::{emit, part, EmitError, Emitted, PortOrder};
use crate::params::GrfParams;
use crate::sram::SramBank;
use crate::widths::{dispatch, WidthOp};

/// Runs `op` with the GRF's widths: `E` the element bits, `A` the slow GRF's row bits.
fn with_grf_widths<V: WidthOp>(params: &GrfParams, op: V) -> V::Output {
    dispatch!(
        op,
        (params.element_bits, params.slow_bits(), 1),
        E in [16, 32],
        (A, R) in [(6, 1), (7, 1), (8, 1), (9, 1), (10, 1)]
    )
}

/// The hierarchical GRF as a design: `grfgen emit grf`.
pub struct Grf;

impl Design for Grf {
    type Params = GrfParams;
    const NAME: &'static str = "grf";
    const TITLE: &'static str = "Hierarchical GRF: per-EU fast GRFs, shared slow GRF, \
         translation table with groups and barriers, L3 refill";
    const SPEC: &'static str = "S3";
    const MEMORIES: Option<&'static str> = Some("slow GRF");
    const PORT_ORDER: PortOrder = &[
        ("req_data", "EU, then lane"),
        ("resp_data", "EU, then lane"),
    ];

    fn build(params: &GrfParams, top: &str) -> Result<Emitted, EmitError> {
        struct Build<'a>(&'a GrfParams, &'a str);
        impl WidthOp for Build<'_> {
            type Output = Result<Emitted, EmitError>;
            fn run<const E: usize, const A: usize, const R: usize>(self) -> Self::Output {
                emit(
                    &mut GrfCluster::<E, A>::new(self.0),
                    self.1,
                    Grf::PORT_ORDER,
                )
            }
        }
        with_grf_widths(params, Build(params, top))
    }

    fn parts(params: &GrfParams) -> Result<Vec<Emitted>, EmitError> {
        struct Parts<'a>(&'a GrfParams);
        impl WidthOp for Parts<'_> {
            type Output = Result<Vec<Emitted>, EmitError>;
            fn run<const E: usize, const A: usize, const R: usize>(self) -> Self::Output {
                let p = self.0;
                Ok(vec![
                    part("grf_front_ends", GrfFrontEnds::<E>::new(p))?,
                    part(
                        "grf_front_end_control",
                        FrontEndControl::new(p.pipeline >= 4),
                    )?,
                    part("grf_front_answers", FrontAnswers::<E>::new(p))?,
                    part("grf_fast_grfs", FastGrfs::<E>::new(p))?,
                    part("grf_fast_entries", FastEntries::<E>::new(p))?,
                    part("grf_first_dirty", FirstDirty::new(p))?,
                    part("grf_outboxes", Outboxes::<E>::new(p))?,
                    part("grf_responses", Responses::<E>::new(p))?,
                    part("grf_controller", GrfController::<E, A>::new(p))?,
                    part("grf_arbiter", RoundRobinArbiter::<E>::new(p))?,
                    part("grf_pick_stage", PickStage::<E, A>::new(p))?,
                    part("grf_entry_lookup", EntryLookup::<A>::new(p))?,
                    part("grf_transaction_unit", TransactionUnit::<A>::new(p))?,
                    part("grf_bookkeeping_stage", BookkeepingStage::<A>::new(p))?,
                    part("grf_transaction_lookup", TransactionLookup::<A>::new(p))?,
                    part(
                        "grf_transaction_decoder",
                        TransactionDecoder::<A>::default(),
                    )?,
                    part("grf_translation_table", TranslationTable::<A>::new(p))?,
                    part("grf_group_unit", GroupUnit::<A>::new(p))?,
                    part("grf_sequencer", Sequencer::<A>::new(p))?,
                    part("grf_slow_port", SlowPort::<E, A>::new(p))?,
                    part("grf_slow_read_pipeline", SlowReadPipeline::<E>::new(p))?,
                    part("grf_save_engine", SaveEngine::<E, A>::new(p))?,
                    part("grf_refill_engine", RefillEngine::<E, A>::new(p))?,
                    part("grf_answer_unit", AnswerUnit::<E>::new(p))?,
                    part("grf_slow_bank", SramBank::<E, A>::default())?,
                    part("grf_arbiter_check", pick_checks(p.eus))?,
                    part("grf_pick_stage_check", stage_checks())?,
                    part("grf_pick_load_check", load_checks())?,
                    part("grf_refill_answer_check", hold_checks())?,
                    part("grf_port_check", port_checks())?,
                    part("grf_l3_read_check", l3_checks())?,
                    part("grf_slow_collision_check", slow_collision_checks::<A>())?,
                ])
            }
        }
        with_grf_widths(params, Parts(params))
    }

    fn derived(params: &GrfParams) -> Vec<(&'static str, u64)> {
        vec![
            ("physical_blocks", params.blocks() as u64),
            ("slow_row_bits", params.slow_bits() as u64),
            ("virtual_registers", params.virtual_registers() as u64),
            ("threads_in_cluster", params.all_threads() as u64),
            ("srams", params.lanes as u64),
            ("pick_stage_cycles", params.pipeline.min(1) as u64),
            (
                "fast_grf_bits_per_eu",
                (params.fast_regs * params.lanes * params.element_bits) as u64,
            ),
        ]
    }
}
