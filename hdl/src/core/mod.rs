//! The shader-core slice (SPEC S1, all of it): scheduler, data side, banked GPR, and its
//! design entry.

mod datapath;
mod ports;
mod scheduler;
mod slice;
pub mod widths;

pub use datapath::{CoreAlu, CoreDatapath};
pub use ports::OfferedInstruction;
pub use scheduler::{
    CandidateSpans, CoreScheduler, Flight, Forwarding, Hazards, HeldInstructions,
    InstructionDecoder, InstructionWindow, MuxInputs, NextHead, OperandSelects, PendingEntries,
    PendingLookups, PendingTable, QueueEntries, ReadAllocator, ReadRequests, ReadScheduler,
    ReadSide, Scoreboard, WaveFetch, WaveReadiness,
};
pub use slice::CoreSlice;

use scheduler::{queue_checks, CANDIDATES};

use crate::design::Design;
use crate::emit::{emit, part, EmitError, Emitted, PortOrder};
use crate::gpr::{with_gpr_widths, BankedGpr, Gpr};
use crate::params::{CoreParams, ParamError, SOURCES};
use crate::widths::WidthOp;

/// The core slice as a design: `grfgen emit core`.
pub struct Core;

impl Design for Core {
    type Params = CoreParams;
    const NAME: &'static str = "core";
    const TITLE: &'static str = "Shader-core slice: banked GPR, conflict detector and queue, \
         prefetch queue, operand muxes, pipelined ALU";
    const SPEC: &'static str = "S1";
    const MEMORIES: Option<&'static str> = Some("GPR banks");
    const PORT_ORDER: PortOrder = &[("alu_operand", "source, then lane")];

    fn build(params: &CoreParams, top: &str) -> Result<Emitted, EmitError> {
        settled_waves(params)?;
        struct Build<'a>(&'a CoreParams, &'a str);
        impl WidthOp for Build<'_> {
            type Output = Result<Emitted, EmitError>;
            // The slice's lanes are 32 bits whatever E is: validation made E = 32.
            fn run<const E: usize, const A: usize, const R: usize>(self) -> Self::Output {
                emit(
                    &mut CoreSlice::<A, R>::new(self.0),
                    self.1,
                    Core::PORT_ORDER,
                )
            }
        }
        with_gpr_widths(&params.gpr, Build(params, top))
    }

    fn parts(params: &CoreParams) -> Result<Vec<Emitted>, EmitError> {
        settled_waves(params)?;
        struct Parts<'a>(&'a CoreParams);
        impl WidthOp for Parts<'_> {
            type Output = Result<Vec<Emitted>, EmitError>;
            fn run<const E: usize, const A: usize, const R: usize>(self) -> Self::Output {
                let p = self.0;
                let tagged = usize::from(p.wave_count() > 1);
                let mut waves = Vec::new();
                if tagged == 1 {
                    waves.push(part("core_wave_readiness", WaveReadiness::<R>::new(p))?);
                    waves.push(part("core_wave_fetch", WaveFetch::<R>::new(p))?);
                }
                let mut parts = vec![
                    part(
                        "core_gpr",
                        BankedGpr::<32, A, R>::for_scheduler(&p.physical_gpr()),
                    )?,
                    part("core_scheduler", CoreScheduler::<R>::new(p))?,
                    part("core_instruction_decoder", InstructionDecoder::<R>::new(p))?,
                    part("core_instruction_window", InstructionWindow::<R>::new(p))?,
                    part("core_held_instructions", HeldInstructions::<R>::new(p))?,
                    part("core_scoreboard", Scoreboard::<R>::new(p))?,
                    part("core_flight", Flight::<R>::new(p))?,
                    part("core_forwarding", Forwarding::<R>::new(p))?,
                    part("core_hazards", Hazards::<R>::new(p))?,
                    part("core_next_head", NextHead::new(p))?,
                    part(
                        "core_pending_table",
                        PendingTable::<R>::new(
                            p,
                            SOURCES * Scoreboard::<R>::seen_slots(p) + SOURCES,
                        ),
                    )?,
                    part(
                        "core_candidate_spans",
                        CandidateSpans::<R>::new(&p.gpr, CANDIDATES),
                    )?,
                    part(
                        "core_pending_entries",
                        PendingEntries::<R>::new(p.long_results, tagged),
                    )?,
                    part(
                        "core_pending_lookups",
                        PendingLookups::<R>::new(
                            p.long_results,
                            SOURCES * Scoreboard::<R>::seen_slots(p) + SOURCES,
                            tagged,
                        ),
                    )?,
                    part("core_read_side", ReadSide::<R>::new(p))?,
                    part("core_queue_entries", QueueEntries::new(p))?,
                    part("core_read_scheduler", ReadScheduler::<R>::new(p))?,
                    part(
                        "core_read_requests",
                        ReadRequests::<R>::new(p, ReadScheduler::<R>::candidates(p)),
                    )?,
                    part("core_conflict_allocator", ReadAllocator::<R>::conflict(p))?,
                    part("core_prefetch_allocator", ReadAllocator::<R>::prefetch(p))?,
                    part("core_datapath", CoreDatapath::new(p))?,
                    part("core_alu", CoreAlu::new(p))?,
                    part("core_operand_selects", OperandSelects::new(p))?,
                    part(
                        "core_conflict_queue_check",
                        queue_checks("conflict", p.cq_entries),
                    )?,
                    part(
                        "core_prefetch_queue_check",
                        queue_checks("prefetch", p.pq_entries),
                    )?,
                ];
                parts.extend(waves);
                Ok(parts)
            }
        }
        let mut parts = with_gpr_widths(&params.gpr, Parts(params))?;
        parts.extend(Gpr::parts(&params.physical_gpr())?);
        Ok(parts)
    }

    fn derived(params: &CoreParams) -> Vec<(&'static str, u64)> {
        vec![
            ("window", params.window() as u64),
            ("rows", params.gpr.rows() as u64),
            ("register_bits", params.gpr.register_bits() as u64),
            ("entry_bits", params.gpr.entry_bits() as u64),
            ("program_registers", params.program_registers() as u64),
            ("external_registers", CoreParams::EXTERNAL_REGISTERS as u64),
        ]
    }
}

/// The RTL is built for a number of waves: `auto` is settled by a run (`sim core`, `bench
/// core`) from the program's registers, before anything is built, and refused here.
fn settled_waves(params: &CoreParams) -> Result<(), EmitError> {
    match params.waves.is_auto() {
        false => Ok(()),
        true => Err(EmitError::Param(ParamError::new(
            "waves",
            "auto",
            "1..=16 for the RTL (auto is settled by sim core or bench core from the program's registers)",
        ))),
    }
}
