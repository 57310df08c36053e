//! The core slice's signal widths, in one place. rust-hdl fixes every width at compile time
//! (`docs/rust-hdl.md`, 1), so each is the width of its quantity at the largest value the
//! parameter table allows (`CoreParams::table`), as `log2Ceil` of that maximum; an encoding's
//! width is that of its highest code (`params::core`). Smaller slices use the same widths.

use rust_hdl::prelude::Bits;

use crate::params::{
    CaptureKind, CoreOp, CoreParams, CoreUnit, GprParams, OperandSource, Waves, SOURCES,
};
use crate::widths::{bits_for, wider};

/// Sync flags an instruction may wait on: `(ss)` at bit 0, `(sy)` at bit 1.
pub const SYNC_FLAGS: usize = 2;

/// Bits of an op (`CoreOp`, codes 0 to 5): 3 bits.
pub const OP_BITS: usize = bits_for(CoreOp::ALL.len());
/// Bits of a unit (`CoreUnit`, codes 0 to 5): 3 bits.
pub const UNIT_BITS: usize = bits_for(CoreUnit::ALL.len());
/// Bits of a count of destination registers written, 0 to 4: 3 bits.
pub const WRITES_BITS: usize = bits_for(CoreParams::MAX_WRITES + 1);
/// Bits of a wave's number (`waves` up to 16): 4 bits.
pub const WAVE_BITS: usize = bits_for(Waves::MAX);
/// Bits of an alias code (`decode::alias`: none, or one of the 2 earlier sources): 2 bits.
pub const ALIAS_BITS: usize = bits_for(SOURCES);
/// Bits of a capture kind or a source's state (`CaptureKind`, codes 0 to 3): 2 bits.
pub const CAPTURE_BITS: usize = bits_for(CaptureKind::PrefetchQueue as usize + 1);
/// Bits of an operand's place at the ALU (`OperandSource`, codes 0 to 7): 3 bits.
pub const OPERAND_SOURCE_BITS: usize = bits_for(OperandSource::Immediate as usize + 1);
/// Bits of a read port's number or a count of read ports, 0 to 8 (`read_ports` up to 8; a
/// candidate's port is the count of ports used before it): 4 bits.
pub const PORT_BITS: usize = bits_for(GprParams::MAX_READ_PORTS + 1);
/// Bits of a queue entry (`cq_entries`, `pq_entries` up to 8) or an operand latch (a source
/// number, 0 to 2): the wider, 3 bits.
pub const ENTRY_BITS: usize = wider(bits_for(CoreParams::MAX_QUEUE_ENTRIES), bits_for(SOURCES));
/// Bits of a forwarded result's distance, 0 to `read_latency` (up to 8): 4 bits.
pub const DISTANCE_BITS: usize = bits_for(CoreParams::MAX_READ_LATENCY + 1);
/// Bits of an operand's index at the ALU: a read port (up to 8), a latch or queue entry, or a
/// forwarded result's distance; the widest, 4 bits.
pub const OPERAND_INDEX_BITS: usize = wider(
    wider(bits_for(GprParams::MAX_READ_PORTS), ENTRY_BITS),
    DISTANCE_BITS,
);
/// Bits of a count of pending-table entries, 0 to 33 (`long_results` up to 32, and one more,
/// the room with an entry freed): 6 bits.
pub const PENDING_COUNT_BITS: usize = bits_for(CoreParams::MAX_LONG_RESULTS + 2);

/// Banks of the largest GPR (`banks` up to 16): one bit each in a bank mask.
pub const MAX_BANKS: usize = GprParams::BANKS[GprParams::BANKS.len() - 1];
/// Bits of a thermometer count of read ports (`read_ports` up to 8) or queue entries
/// (`cq_entries`, `pq_entries` up to 8), bit `k` set for `k + 1` or more: the wider, 8 bits.
pub const THERMOMETER_BITS: usize = wider(GprParams::MAX_READ_PORTS, CoreParams::MAX_QUEUE_ENTRIES);

/// A lane's value: the core's ALU lanes are `CoreParams::ELEMENT_BITS` (32) bits.
pub type Word = Bits<{ CoreParams::ELEMENT_BITS }>;
/// One bit per bank (`banks` up to 16).
pub type BankMask = Bits<MAX_BANKS>;
/// One bit per queue entry (`cq_entries`, `pq_entries` up to 8).
pub type EntryMask = Bits<{ CoreParams::MAX_QUEUE_ENTRIES }>;
/// A thermometer count of read ports or queue entries ([`THERMOMETER_BITS`]).
pub type Thermometer = Bits<THERMOMETER_BITS>;
/// An op (`CoreOp`).
pub type OpCode = Bits<OP_BITS>;
/// A unit (`CoreUnit`).
pub type UnitCode = Bits<UNIT_BITS>;
/// Destination registers written, `dst` upwards: 0 or 1 on the ALU, up to 4 otherwise.
pub type WriteCount = Bits<WRITES_BITS>;
/// An instruction's sync waits: bit 0 `(ss)`, bit 1 `(sy)`.
pub type SyncWaits = Bits<SYNC_FLAGS>;
/// A wave's number (`waves` up to 16).
pub type WaveNumber = Bits<WAVE_BITS>;
/// A source's alias code (`decode::alias`).
pub type AliasCode = Bits<ALIAS_BITS>;
/// Where a read's data goes, or a source's state in the window (`CaptureKind`).
pub type CaptureCode = Bits<CAPTURE_BITS>;
/// Where an operand is when it reaches the ALU (`OperandSource`).
pub type OperandSourceCode = Bits<OPERAND_SOURCE_BITS>;
/// A read port's number, or the ports used before a read.
pub type PortNumber = Bits<PORT_BITS>;
/// A count of GPR reads in a cycle (`read_ports` up to 8).
pub type ReadCount = Bits<PORT_BITS>;
/// A queue entry, or an operand latch (a source number).
pub type EntryIndex = Bits<ENTRY_BITS>;
/// A forwarded result's distance: cycles since it left the ALU.
pub type Distance = Bits<DISTANCE_BITS>;
/// An operand's index at the ALU: the port, latch or entry, or a forwarded result's distance.
pub type OperandIndex = Bits<OPERAND_INDEX_BITS>;
/// A count of pending-table entries (`long_results` up to 32).
pub type PendingCount = Bits<PENDING_COUNT_BITS>;
