//! A device's own ceiling on speed: its block RAM alone, one primitive (512 rows of 32 bits;
//! 256 of 16 on iCE40, whose block RAM is 4 Kbit) with every input and output registered by the
//! timing harness, placed and routed. Every block's Fmax reads as a fraction of it.

use std::path::Path;

use grfgen_hdl::emit::{part, EmitError, Emitted};
use grfgen_hdl::params::Memory;
use grfgen_hdl::sram::SramBank;
use serde::Serialize;

use super::{place_and_route_seeds, Device, Placement, PnrReport};
use crate::FlowError;

/// One measured ceiling: the block RAM as it was written, and what place and route found.
#[derive(Clone, Debug, Serialize)]
pub struct Ceiling {
    /// The design's top module, which names the variant.
    pub top: String,
    /// The block RAM as written: the device's primitive, or `inferred` (iCE40).
    pub memory: String,
    /// Whether reads pass through the primitive's output register.
    pub output_register: bool,
    /// Place and route's figures (with several seeds, the worst, median and best).
    pub pnr: PnrReport,
}

/// The variants of the block RAM `device` has: with and without the output register for a
/// primitive, the inferred memory alone where the device has no primitive of its own.
pub fn variants(device: Device) -> Vec<bool> {
    match device.memory().is_primitive() {
        true => vec![true, false],
        false => vec![false],
    }
}

/// Places and routes the block RAM of `device` (with its output register or not) in
/// `dir/<top>/`, with `seeds` seeds from `first`'s on (at its timing weight), at `clock_mhz`.
pub fn ceiling(
    dir: &Path,
    device: Device,
    output_register: bool,
    clock_mhz: f64,
    first: Placement,
    seeds: u64,
) -> Result<Ceiling, FlowError> {
    let memory = device.memory();
    let emitted = match memory {
        // iCE40's SB_RAM40_4K: 256 x 16.
        Memory::Inferred => bank::<16, 8>(memory, output_register)?,
        // DP16KD, SDPB and PDPSC16K: 512 x 32 (x 36 or x 18 wide).
        _ => bank::<32, 9>(memory, output_register)?,
    };
    let top = emitted.top.clone();
    let work = dir.join(&top);
    std::fs::create_dir_all(&work)?;
    let pnr = place_and_route_seeds(&work, &emitted, device, clock_mhz, first, seeds)?;
    Ok(Ceiling {
        top,
        memory: memory.name().into(),
        output_register,
        pnr,
    })
}

/// One SRAM bank of `2^A` rows of `E` bits written as `memory`, emitted as a top of its own
/// named after it: `ceiling_<memory>_<rows>x<E>_<outreg|plain>`.
fn bank<const E: usize, const A: usize>(
    memory: Memory,
    output_register: bool,
) -> Result<Emitted, EmitError> {
    let top = format!(
        "ceiling_{}_{}x{E}_{}",
        memory.name().replace('-', "_"),
        1 << A,
        if output_register { "outreg" } else { "plain" }
    );
    part(
        &top,
        SramBank::<E, A>::default().in_memory(memory, output_register),
    )
}
