//! The banked GPR (SPEC S1): RTL and its design entry.

mod arbiter;
mod banked;
mod delays;
mod priority;
mod register_map;

pub use arbiter::BankArbiter;
pub use banked::BankedGpr;
pub use register_map::RegisterMap;

use banked::{collision_checks, read_crossbar_checks, read_slot_checks, write_crossbar_checks};

use crate::cells::crossbar::Crossbar;
use crate::design::Design;
use crate::emit::{emit, part, EmitError, Emitted, PortOrder};
use crate::params::GprParams;
use crate::sram::SramBank;
use crate::widths::{dispatch, WidthOp};

/// The banked GPR as a design: `grfgen emit gpr`.
pub struct Gpr;

impl Design for Gpr {
    type Params = GprParams;
    const NAME: &'static str = "gpr";
    const TITLE: &'static str =
        "Banked GPR: SRAM banks (1R1W, 2R1W or 1RW) joined by a write and a read crossbar";
    const SPEC: &'static str = "S1";
    const MEMORIES: Option<&'static str> = Some("banks x read slots x lanes");
    const PORT_ORDER: PortOrder = &[
        ("read_data", "read port, then lane"),
        ("write_data", "write port, then lane"),
    ];

    fn build(params: &GprParams, top: &str) -> Result<Emitted, EmitError> {
        struct Build<'a>(&'a GprParams, &'a str);
        impl WidthOp for Build<'_> {
            type Output = Result<Emitted, EmitError>;
            fn run<const E: usize, const A: usize, const R: usize>(self) -> Self::Output {
                emit(
                    &mut BankedGpr::<E, A, R>::new(self.0),
                    self.1,
                    Gpr::PORT_ORDER,
                )
            }
        }
        with_gpr_widths(params, Build(params, top))
    }

    fn parts(params: &GprParams) -> Result<Vec<Emitted>, EmitError> {
        struct Parts<'a>(&'a GprParams);
        impl WidthOp for Parts<'_> {
            type Output = Result<Vec<Emitted>, EmitError>;
            fn run<const E: usize, const A: usize, const R: usize>(self) -> Self::Output {
                let (b, l) = (self.0.banks, self.0.lanes);
                let (r, w) = (self.0.read_ports, self.0.write_ports);
                let kind = self.0.bank_kind;
                Ok(vec![
                    part("gpr_arbiter", BankArbiter::<R>::new(self.0))?,
                    part("gpr_bank", SramBank::<E, A>::for_kind(kind))?,
                    part(
                        "gpr_read_crossbar",
                        Crossbar::<E>::new(b * kind.reads_per_bank(), r, l),
                    )?,
                    part("gpr_write_crossbar", Crossbar::<E>::new(w, b, l))?,
                    part("gpr_read_slot_check", read_slot_checks(self.0))?,
                    part("gpr_read_crossbar_check", read_crossbar_checks(self.0))?,
                    part("gpr_write_crossbar_check", write_crossbar_checks(self.0))?,
                    part("gpr_collision_check", collision_checks::<A>(self.0))?,
                ])
            }
        }
        with_gpr_widths(params, Parts(params))
    }

    fn derived(params: &GprParams) -> Vec<(&'static str, u64)> {
        vec![
            ("rows", params.rows() as u64),
            ("bank_bits", params.bank_bits() as u64),
            ("row_bits", params.row_bits() as u64),
            ("register_bits", params.register_bits() as u64),
            ("entry_bits", params.entry_bits() as u64),
            ("srams", params.srams() as u64),
            ("read_latency_cycles", params.read_latency() as u64),
            ("grant_latency_cycles", params.grant_latency() as u64),
        ]
    }
}

/// Runs `op` with the GPR's widths: `E` element bits, `A` row bits, `R` register-index bits.
/// The table holds every valid configuration: 4 element widths x 45 (row bits, register bits)
/// pairs (row bits 2..=10 for 4..=1024 rows, plus 0..=4 bank bits).
pub(crate) fn with_gpr_widths<V: WidthOp>(params: &GprParams, op: V) -> V::Output {
    dispatch!(
        op,
        (params.element_bits, params.row_bits(), params.register_bits()),
        E in [8, 16, 32, 64],
        (A, R) in [
            (2, 2), (2, 3), (2, 4), (2, 5), (2, 6),
            (3, 3), (3, 4), (3, 5), (3, 6), (3, 7),
            (4, 4), (4, 5), (4, 6), (4, 7), (4, 8),
            (5, 5), (5, 6), (5, 7), (5, 8), (5, 9),
            (6, 6), (6, 7), (6, 8), (6, 9), (6, 10),
            (7, 7), (7, 8), (7, 9), (7, 10), (7, 11),
            (8, 8), (8, 9), (8, 10), (8, 11), (8, 12),
            (9, 9), (9, 10), (9, 11), (9, 12), (9, 13),
            (10, 10), (10, 11), (10, 12), (10, 13), (10, 14)
        ]
    )
}
