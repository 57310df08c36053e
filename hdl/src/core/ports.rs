//! The core slice's port groups, declared once (`crate::port_group`).

use rust_hdl::prelude::*;

use crate::core::widths::{OpCode, SyncWaits, UnitCode, Word, WriteCount};
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
        imm: I vector Word [sources],
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

port_group! {
    /// With several waves, the instructions offered by every wave after wave 0 (wave 0's is
    /// [`OfferedInstruction`]; `I` is `In` on the slice's side). Element `w - 1` is wave `w`'s;
    /// per source, `(w - 1) * sources + source`.
    pub struct OfferedInstructions<const RI: usize> new(waves, sources) {
        /// Per wave: an instruction is offered.
        valid: I vector Bit [waves],
        /// Per wave: its op code.
        op: I vector OpCode [waves],
        /// Per wave: its first destination register.
        dst: I vector Bits<RI> [waves],
        /// Per wave and source: the source register.
        src: I vector Bits<RI> [waves * sources],
        /// Per wave and source: it is a GPR read.
        read: I vector Bit [waves * sources],
        /// Per wave and source: its value when it is no GPR read.
        imm: I vector Word [waves * sources],
        /// Per wave: its destination registers written.
        writes: I vector WriteCount [waves],
        /// Per wave: its unit.
        unit: I vector UnitCode [waves],
        /// Per wave: its sync waits.
        wait: I vector SyncWaits [waves],
        /// Per wave: the offered instruction is taken at the end of this cycle.
        ready: O vector Bit [waves],
    }
}

port_group! {
    /// An offered instruction's fields, as the window and its slots take them (`I` is `In`
    /// there).
    pub struct InstructionFields<const RI: usize> new(sources) {
        /// Its op code.
        op: I signal OpCode,
        /// Its first destination register.
        dst: I signal Bits<RI>,
        /// Its destination registers written.
        writes: I signal WriteCount,
        /// Its unit (`CoreUnit`).
        unit: I signal UnitCode,
        /// Its sync waits: bit 0 `(ss)`, bit 1 `(sy)`.
        wait: I signal SyncWaits,
        /// Its source registers.
        src: I vector Bits<RI> [sources],
        /// Per source: it is a GPR read.
        read: I vector Bit [sources],
        /// Per source: its immediate.
        imm: I vector Word [sources],
    }
}

port_group! {
    /// A long-latency instruction's value leaving the ALU for its external unit (`O` is `Out`
    /// on the side it leaves).
    pub struct LongResult<const RI: usize> new() {
        /// A value leaves the ALU this cycle.
        valid: O signal Bit,
        /// Its first destination register.
        reg: O signal Bits<RI>,
        /// Its destination registers written (0..4).
        writes: O signal WriteCount,
        /// Its unit (`CoreUnit`).
        unit: O signal UnitCode,
    }
}
