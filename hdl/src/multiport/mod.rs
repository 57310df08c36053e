//! True multi-ported register files, the designs the banked GPR is compared with: a
//! flip-flop file (`flops`) and a live-value-table file over block-RAM replicas (`lvt`). Both
//! serve every port every cycle; they share their parameters, ports and golden model.

mod flops;
mod lvt;

pub use flops::FlopFile;
pub use lvt::{LvtFile, LVT_BITS};

use std::marker::PhantomData;

use rust_hdl::prelude::Bits;

use crate::crossbar::Crossbar;
use crate::decoder::Decoder;
use crate::design::Design;
use crate::emit::{emit, part, EmitError, Emitted, PortOrder};
use crate::params::{MultiportParams, ParamError};
use crate::regs::Registers;
use crate::sram::SramBank;
use crate::widths::{dispatch, WidthOp};

/// How a multi-ported file is built: what tells one design of [`Multiport`] from another.
pub trait Structure: 'static {
    /// Its name on the command line.
    const NAME: &'static str;
    /// What it is, in one line.
    const TITLE: &'static str;
    /// What its block RAMs hold, if it has any.
    const MEMORIES: Option<&'static str>;
    /// Emits the file for `params` with element width `E` and index width `A`.
    fn emit<const E: usize, const A: usize>(
        params: &MultiportParams,
        top: &str,
    ) -> Result<Emitted, EmitError>;
    /// Emits its sub-blocks, one at a time.
    fn parts<const E: usize, const A: usize>(
        params: &MultiportParams,
    ) -> Result<Vec<Emitted>, EmitError>;
    /// Block-RAM replicas (one narrow SRAM per lane each) for `params`.
    fn srams(params: &MultiportParams) -> usize;
}

/// The flip-flop file: `grfgen emit flops`.
pub struct FlopStructure;

impl FlopStructure {
    /// Most bits a flip-flop file stores: 4x the default 256 x 128 bits, which already needs
    /// about 200,000 LUT4s on ECP5; beyond it emission and synthesis run for hours.
    pub const MAX_BITS: usize = 131_072;

    /// Whether `params` is small enough to build in flip-flops.
    pub fn check(params: &MultiportParams) -> Result<(), ParamError> {
        match params.stored_bits() <= Self::MAX_BITS {
            true => Ok(()),
            false => Err(ParamError::new(
                "registers",
                params.registers,
                format!(
                    "registers x lanes x element bits <= {} for flops (here {} x {} x {})",
                    Self::MAX_BITS,
                    params.registers,
                    params.lanes,
                    params.element_bits
                ),
            )),
        }
    }
}

impl Structure for FlopStructure {
    const NAME: &'static str = "flops";
    const TITLE: &'static str =
        "Multi-ported register file in flip-flops: W write decoders, R read multiplexers";
    const MEMORIES: Option<&'static str> = None;

    fn emit<const E: usize, const A: usize>(
        params: &MultiportParams,
        top: &str,
    ) -> Result<Emitted, EmitError> {
        Self::check(params)?;
        emit(&mut FlopFile::<E, A>::new(params), top, PORT_ORDER)
    }

    fn parts<const E: usize, const A: usize>(
        params: &MultiportParams,
    ) -> Result<Vec<Emitted>, EmitError> {
        Self::check(params)?;
        let (n, l, r) = (params.registers, params.lanes, params.read_ports);
        Ok(vec![
            part("flops_cells", Registers::<Bits<E>>::new(n * l))?,
            part("flops_decoder", Decoder::<A>::new(r, n))?,
            part("flops_read_mux", Crossbar::<E>::new(n, r, l))?,
        ])
    }

    fn srams(_: &MultiportParams) -> usize {
        0
    }
}

/// The live-value-table file: `grfgen emit lvt`.
pub struct LvtStructure;

impl Structure for LvtStructure {
    const NAME: &'static str = "lvt";
    const TITLE: &'static str =
        "Multi-ported register file: W x R block-RAM replicas and a live-value table";
    const MEMORIES: Option<&'static str> = Some("write ports x read ports x lanes");

    fn emit<const E: usize, const A: usize>(
        params: &MultiportParams,
        top: &str,
    ) -> Result<Emitted, EmitError> {
        emit(&mut LvtFile::<E, A>::new(params), top, PORT_ORDER)
    }

    fn parts<const E: usize, const A: usize>(
        params: &MultiportParams,
    ) -> Result<Vec<Emitted>, EmitError> {
        let table = params.live_table(LVT_BITS);
        let (l, r, w) = (params.lanes, params.read_ports, params.write_ports);
        Ok(vec![
            part("lvt_replica", SramBank::<E, A>::default())?,
            part("lvt_live_table", FlopFile::<LVT_BITS, A>::new(&table))?,
            part("lvt_output_mux", Crossbar::<E>::grouped(r, w, 1, l))?,
        ])
    }

    fn srams(params: &MultiportParams) -> usize {
        params.write_ports * params.read_ports * params.lanes
    }
}

/// The ports whose element index is a formula, shared by every multi-ported file.
const PORT_ORDER: PortOrder = &[
    ("read_data", "read port, then lane"),
    ("write_data", "write port, then lane"),
];

/// A multi-ported register file built as `S` says.
pub struct Multiport<S>(PhantomData<S>);

/// The flip-flop file as a design.
pub type Flops = Multiport<FlopStructure>;
/// The live-value-table file as a design.
pub type Lvt = Multiport<LvtStructure>;

impl<S: Structure> Design for Multiport<S> {
    type Params = MultiportParams;
    const NAME: &'static str = S::NAME;
    const TITLE: &'static str = S::TITLE;
    const SPEC: &'static str = "S1 (the 2W4R file the banked GPR replaces)";
    const MEMORIES: Option<&'static str> = S::MEMORIES;
    const PORT_ORDER: PortOrder = PORT_ORDER;

    fn build(params: &MultiportParams, top: &str) -> Result<Emitted, EmitError> {
        struct Build<'a, S>(&'a MultiportParams, &'a str, PhantomData<S>);
        impl<S: Structure> WidthOp for Build<'_, S> {
            type Output = Result<Emitted, EmitError>;
            fn run<const E: usize, const A: usize, const R: usize>(self) -> Self::Output {
                S::emit::<E, A>(self.0, self.1)
            }
        }
        with_multiport_widths(params, Build::<S>(params, top, PhantomData))
    }

    fn parts(params: &MultiportParams) -> Result<Vec<Emitted>, EmitError> {
        struct Parts<'a, S>(&'a MultiportParams, PhantomData<S>);
        impl<S: Structure> WidthOp for Parts<'_, S> {
            type Output = Result<Vec<Emitted>, EmitError>;
            fn run<const E: usize, const A: usize, const R: usize>(self) -> Self::Output {
                S::parts::<E, A>(self.0)
            }
        }
        with_multiport_widths(params, Parts::<S>(params, PhantomData))
    }

    fn derived(params: &MultiportParams) -> Vec<(&'static str, u64)> {
        vec![
            ("register_bits", params.register_bits() as u64),
            ("entry_bits", params.entry_bits() as u64),
            ("srams", S::srams(params) as u64),
        ]
    }
}

/// Runs `op` with the file's widths: `E` element bits, `A` register-index bits (`R` unused,
/// equal to `A`). The table holds every valid configuration: 4 element widths x 11 depths.
fn with_multiport_widths<V: WidthOp>(params: &MultiportParams, op: V) -> V::Output {
    let a = params.register_bits();
    dispatch!(
        op,
        (params.element_bits, a, a),
        E in [8, 16, 32, 64],
        (A, R) in [
            (2, 2), (3, 3), (4, 4), (5, 5), (6, 6), (7, 7), (8, 8), (9, 9), (10, 10), (11, 11),
            (12, 12)
        ]
    )
}
