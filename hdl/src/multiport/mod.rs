//! True multi-ported register files, the designs the banked GPR is compared with: a
//! flip-flop file (`flops`) and three built on block-RAM replicas: the live-value-table file
//! (`lvt`), the invalidation-based live-value-table file (`ilvt`) and the XOR file (`xor`).
//! All serve every port every cycle; they share their parameters, ports and golden model.

mod cells;
mod feedback;
mod flops;
mod ilvt;
mod live_code;
mod live_table;
mod lvt;
mod ports;
mod replicas;
mod write_pipe;
mod xor;

pub use cells::Cells;
pub use feedback::FeedbackBanks;
pub use flops::FlopFile;
pub use ilvt::IlvtFile;
pub use live_code::{LiveCode, TABLE_BITS};
pub use live_table::{LiveTable, LVT_BITS};
pub use lvt::LvtFile;
pub use ports::{ReadPorts, WritePorts};
pub use replicas::Replicas;
pub use write_pipe::WritePipe;
pub use xor::XorFile;

use std::marker::PhantomData;

use crate::cells::crossbar::Crossbar;
use crate::cells::decoder::Decoder;
use crate::design::Design;
use crate::emit::{emit, part, EmitError, Emitted, PortOrder};
use crate::params::{Memory, MultiportParams, ParamError, TableEncoding};
use crate::widths::{dispatch, WidthOp};

/// How a multi-ported file is built: what tells one design of [`Multiport`] from another.
pub trait Structure: 'static {
    /// Its name on the command line.
    const NAME: &'static str;
    /// What it is, in one line.
    const TITLE: &'static str;
    /// What its block RAMs hold, if it has any.
    const MEMORIES: Option<&'static str>;
    /// Refuses the values of the shared options (`pipeline`, `memory`, `encoding`) it does not
    /// take.
    fn check(params: &MultiportParams) -> Result<(), ParamError>;
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
    /// [`Structure::emit`] at `params`'s widths. Each structure implements it (with
    /// the `width_entry_points` macro) rather than inheriting a default, so that its 44 width
    /// instances are compiled once, here, and not again in every crate that emits the file.
    fn emit_file(params: &MultiportParams, top: &str) -> Result<Emitted, EmitError>;
    /// [`Structure::parts`] at `params`'s widths, compiled here as [`Structure::emit_file`].
    fn emit_parts(params: &MultiportParams) -> Result<Vec<Emitted>, EmitError>;
}

/// The width-dispatching entry points of a [`Structure`] implementation.
macro_rules! width_entry_points {
    () => {
        fn emit_file(params: &MultiportParams, top: &str) -> Result<Emitted, EmitError> {
            file_at_widths::<Self>(params, top)
        }

        fn emit_parts(params: &MultiportParams) -> Result<Vec<Emitted>, EmitError> {
            parts_at_widths::<Self>(params)
        }
    };
}

/// An error for `encoding` on a file `name` without an invalidation-based table.
fn no_table(name: &str, params: &MultiportParams) -> Result<(), ParamError> {
    match params.encoding {
        TableEncoding::Binary => Ok(()),
        e => Err(ParamError::new(
            "encoding",
            e,
            format!("binary ({name} has no invalidation-based table; the encodings are ilvt's)"),
        )),
    }
}

/// The flip-flop file: `grfgen emit flops`.
pub struct FlopStructure;

impl FlopStructure {
    /// Most bits a flip-flop file stores: 4x the default 256 x 128 bits, which already needs
    /// about 200,000 LUT4s on ECP5; beyond it emission and synthesis run for hours.
    pub const MAX_BITS: usize = 131_072;

    /// Whether `params` is small enough to build in flip-flops, without stages or block RAM.
    pub fn check(params: &MultiportParams) -> Result<(), ParamError> {
        if params.stored_bits() > Self::MAX_BITS {
            return Err(ParamError::new(
                "registers",
                params.registers,
                format!(
                    "registers x lanes x element bits <= {} for flops (here {} x {} x {})",
                    Self::MAX_BITS,
                    params.registers,
                    params.lanes,
                    params.element_bits
                ),
            ));
        }
        if params.pipeline != 0 {
            return Err(ParamError::new(
                "pipeline",
                params.pipeline,
                "0 (flops has no stages: its read is registered once)",
            ));
        }
        if params.memory != Memory::Inferred {
            return Err(ParamError::new(
                "memory",
                params.memory,
                "inferred (flops has no block RAM)",
            ));
        }
        no_table(Self::NAME, params)
    }
}

impl Structure for FlopStructure {
    const NAME: &'static str = "flops";
    const TITLE: &'static str =
        "Multi-ported register file in flip-flops: W write decoders, R read multiplexers";
    const MEMORIES: Option<&'static str> = None;

    fn check(params: &MultiportParams) -> Result<(), ParamError> {
        FlopStructure::check(params)
    }

    fn emit<const E: usize, const A: usize>(
        params: &MultiportParams,
        top: &str,
    ) -> Result<Emitted, EmitError> {
        emit(&mut FlopFile::<E, A>::new(params), top, PORT_ORDER)
    }

    fn parts<const E: usize, const A: usize>(
        params: &MultiportParams,
    ) -> Result<Vec<Emitted>, EmitError> {
        let (n, l, r, w) = (
            params.registers,
            params.lanes,
            params.read_ports,
            params.write_ports,
        );
        Ok(vec![
            part("flops_cells", Cells::<E>::new(1, n, l, w))?,
            part("flops_decoder", Decoder::<A>::new(r, n))?,
            part("flops_read_mux", Crossbar::<E>::new(n, r, l))?,
        ])
    }

    width_entry_points!();

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

    fn check(params: &MultiportParams) -> Result<(), ParamError> {
        no_table(Self::NAME, params)
    }

    fn emit<const E: usize, const A: usize>(
        params: &MultiportParams,
        top: &str,
    ) -> Result<Emitted, EmitError> {
        emit(&mut LvtFile::<E, A>::new(params), top, PORT_ORDER)
    }

    fn parts<const E: usize, const A: usize>(
        params: &MultiportParams,
    ) -> Result<Vec<Emitted>, EmitError> {
        let (l, r, w) = (params.lanes, params.read_ports, params.write_ports);
        Ok(vec![
            part("lvt_replicas", replicas::<E, A>(params, r))?,
            part(
                "lvt_live_table",
                LiveTable::<A>::new(w, r, params.input_stage(), params.output_stage()),
            )?,
            part("lvt_output_mux", Crossbar::<E>::grouped(r, w, 1, l))?,
        ])
    }

    width_entry_points!();

    fn srams(params: &MultiportParams) -> usize {
        params.write_ports * params.read_ports * params.lanes
    }
}

/// The invalidation-based live-value-table file: `grfgen emit ilvt`.
pub struct IlvtStructure;

impl Structure for IlvtStructure {
    const NAME: &'static str = "ilvt";
    const TITLE: &'static str = "Multi-ported register file: W x R block-RAM replicas and an invalidation-based live-value table in block RAM (binary or one-hot)";
    const MEMORIES: Option<&'static str> =
        Some("data: write ports x read ports x lanes; table: write ports x (write ports - 1 + read ports)");

    fn check(_: &MultiportParams) -> Result<(), ParamError> {
        Ok(())
    }

    fn emit<const E: usize, const A: usize>(
        params: &MultiportParams,
        top: &str,
    ) -> Result<Emitted, EmitError> {
        emit(&mut IlvtFile::<E, A>::new(params), top, PORT_ORDER)
    }

    fn parts<const E: usize, const A: usize>(
        params: &MultiportParams,
    ) -> Result<Vec<Emitted>, EmitError> {
        let (l, r, w) = (params.lanes, params.read_ports, params.write_ports);
        Ok(vec![
            part("ilvt_write_pipe", write_pipe::<E, A>(params))?,
            part("ilvt_table", feedback::<TABLE_BITS, A>(params, 1))?,
            part("ilvt_code", LiveCode::new(params.encoding, w, r))?,
            part("ilvt_data", replicas::<E, A>(params, r))?,
            part("ilvt_output_mux", Crossbar::<E>::grouped(r, w, 1, l))?,
        ])
    }

    width_entry_points!();

    fn srams(params: &MultiportParams) -> usize {
        let (r, w) = (params.read_ports, params.write_ports);
        w * r * params.lanes + w * (w - 1 + r)
    }
}

/// The XOR file: `grfgen emit xor`.
pub struct XorStructure;

impl Structure for XorStructure {
    const NAME: &'static str = "xor";
    const TITLE: &'static str =
        "Multi-ported register file: W x (W - 1 + R) block-RAM replicas whose XOR is the value";
    const MEMORIES: Option<&'static str> =
        Some("write ports x (write ports - 1 + read ports) x lanes");

    fn check(params: &MultiportParams) -> Result<(), ParamError> {
        no_table(Self::NAME, params)
    }

    fn emit<const E: usize, const A: usize>(
        params: &MultiportParams,
        top: &str,
    ) -> Result<Emitted, EmitError> {
        emit(&mut XorFile::<E, A>::new(params), top, PORT_ORDER)
    }

    fn parts<const E: usize, const A: usize>(
        params: &MultiportParams,
    ) -> Result<Vec<Emitted>, EmitError> {
        Ok(vec![
            part("xor_write_pipe", write_pipe::<E, A>(params))?,
            part("xor_banks", feedback::<E, A>(params, params.lanes))?,
        ])
    }

    width_entry_points!();

    fn srams(params: &MultiportParams) -> usize {
        let (r, w) = (params.read_ports, params.write_ports);
        w * (w - 1 + r) * params.lanes
    }
}

/// The data replicas of a file for `params`: a bank per write port, `readers` replicas each.
fn replicas<const E: usize, const A: usize>(
    params: &MultiportParams,
    readers: usize,
) -> Replicas<E, A> {
    let (w, l) = (params.write_ports, params.lanes);
    let stages = (params.input_stage(), params.output_stage());
    Replicas::new((w, readers, l), params.memory, stages.0, stages.1)
}

/// The write pipe of a file for `params`.
fn write_pipe<const E: usize, const A: usize>(params: &MultiportParams) -> WritePipe<E, A> {
    let late = params.input_stage();
    WritePipe::new(
        params.write_ports,
        params.lanes,
        params.feedback_depth(),
        late,
    )
}

/// The feedback banks of a file for `params`, `lanes` words wide.
fn feedback<const E: usize, const A: usize>(
    params: &MultiportParams,
    lanes: usize,
) -> FeedbackBanks<E, A> {
    let stages = (params.input_stage(), params.output_stage());
    let (r, w) = (params.read_ports, params.write_ports);
    FeedbackBanks::new(
        (w, r, lanes),
        params.memory,
        stages,
        params.feedback_depth(),
    )
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
/// The invalidation-based live-value-table file as a design.
pub type Ilvt = Multiport<IlvtStructure>;
/// The XOR file as a design.
pub type Xor = Multiport<XorStructure>;

impl<S: Structure> Design for Multiport<S> {
    type Params = MultiportParams;
    const NAME: &'static str = S::NAME;
    const TITLE: &'static str = S::TITLE;
    const SPEC: &'static str = "S1 (the 2W4R file the banked GPR replaces)";
    const MEMORIES: Option<&'static str> = S::MEMORIES;
    const PORT_ORDER: PortOrder = PORT_ORDER;

    fn check(params: &MultiportParams) -> Result<(), ParamError> {
        S::check(params)
    }

    fn build(params: &MultiportParams, top: &str) -> Result<Emitted, EmitError> {
        S::emit_file(params, top)
    }

    fn parts(params: &MultiportParams) -> Result<Vec<Emitted>, EmitError> {
        S::emit_parts(params)
    }

    fn derived(params: &MultiportParams) -> Vec<(&'static str, u64)> {
        vec![
            ("register_bits", params.register_bits() as u64),
            ("entry_bits", params.entry_bits() as u64),
            ("srams", S::srams(params) as u64),
        ]
    }
}

/// Emits file `S` for `params` at their widths.
fn file_at_widths<S: Structure>(params: &MultiportParams, top: &str) -> Result<Emitted, EmitError> {
    struct Build<'a, S>(&'a MultiportParams, &'a str, PhantomData<S>);
    impl<S: Structure> WidthOp for Build<'_, S> {
        type Output = Result<Emitted, EmitError>;
        fn run<const E: usize, const A: usize, const R: usize>(self) -> Self::Output {
            S::emit::<E, A>(self.0, self.1)
        }
    }
    with_multiport_widths(params, Build::<S>(params, top, PhantomData))
}

/// Emits the sub-blocks of file `S` for `params` at their widths.
fn parts_at_widths<S: Structure>(params: &MultiportParams) -> Result<Vec<Emitted>, EmitError> {
    struct Parts<'a, S>(&'a MultiportParams, PhantomData<S>);
    impl<S: Structure> WidthOp for Parts<'_, S> {
        type Output = Result<Vec<Emitted>, EmitError>;
        fn run<const E: usize, const A: usize, const R: usize>(self) -> Self::Output {
            S::parts::<E, A>(self.0)
        }
    }
    with_multiport_widths(params, Parts::<S>(params, PhantomData))
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
