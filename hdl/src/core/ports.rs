//! The core slice's port groups, declared once (`crate::port_group`).

use rust_hdl::prelude::*;

use crate::core::widths::{OpCode, SyncWaits, UnitCode, WriteCount};
use crate::port_group::port_group;

port_group! {
    /// The instruction offered to the slice (`I` is `In` on the slice's side).
    pub struct OfferedInstruction<const RI: usize> new(sources) {
        /// An instruction is offered.
        valid: I signal Bit,
        /// Op code: 0 mov, 1 add, 2 sub, 3 mul, 4 mad, 5 nop (`CoreOp`).
        op: I signal OpCode,
        /// First destination register (ignored when `writes` is 0).
        dst: I signal Bits<RI>,
        /// Source registers (ignored where `read` is 0).
        src: I vector Bits<RI> [sources],
        /// Per source: it is a GPR read (else it takes `imm`).
        read: I vector Bit [sources],
        /// Per source: its value when it is no GPR read (0 for an unused source).
        imm: I vector Bits<32> [sources],
        /// Destination registers written, `dst` upwards: 0 or 1 on the ALU, 0..4 otherwise.
        writes: I signal WriteCount,
        /// Unit: 0 ALU, 1 SFU, 2 varying, 3 texture, 4 local memory, 5 global memory
        /// (`CoreUnit`).
        unit: I signal UnitCode,
        /// Sync waits: bit 0 `(ss)`, bit 1 `(sy)`.
        wait: I signal SyncWaits,
        /// The offered instruction is taken at the end of this cycle.
        ready: O signal Bit,
    }
}
