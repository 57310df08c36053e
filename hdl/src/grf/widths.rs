//! The GRF's signal widths, in one place. rust-hdl fixes every width at compile time
//! (`docs/rust-hdl.md`, 1), so each is the width of its quantity at the largest value the
//! parameter table allows (`GrfParams::table`), as `log2Ceil` of that maximum; an encoding's
//! width is that of its highest code (`codes`). Smaller designs use the same widths.

use rust_hdl::prelude::Bits;

use super::codes::{controller_state, front_state, kind, status};
use crate::params::{GrfOp, GrfParams};
use crate::widths::{bits_for, wider};

/// Physical blocks of the largest slow GRF: 1024 registers / 16 = 64.
pub const MAX_BLOCKS: usize = GrfParams::MAX_SLOW_REGS / GrfParams::BLOCK;
/// Translation table entries (thread, virtual block) at most: 8 EUs x 4 threads x 4 blocks.
pub const MAX_SLOTS: usize =
    GrfParams::MAX_EUS * GrfParams::MAX_THREADS * GrfParams::MAX_VIRTUAL_BLOCKS;

/// Bits of an EU's number: 8 EUs, 3 bits.
pub const EU_BITS: usize = bits_for(GrfParams::MAX_EUS);
/// Bits of a thread within its EU: 4 threads, 2 bits.
pub const THREAD_BITS: usize = bits_for(GrfParams::MAX_THREADS);
/// Bits of a global thread (EU-major): 8 EUs x 4 threads, 5 bits.
pub const GLOBAL_THREAD_BITS: usize = bits_for(GrfParams::MAX_EUS * GrfParams::MAX_THREADS);
/// Bits of a register's offset in its block: 16 registers, 4 bits.
pub const OFFSET_BITS: usize = bits_for(GrfParams::BLOCK);
/// Bits of a virtual block: 4 blocks per thread, 2 bits.
pub const VBLOCK_BITS: usize = bits_for(GrfParams::MAX_VIRTUAL_BLOCKS);
/// Bits of a virtual register: 4 blocks x 16 registers, 6 bits (the virtual block above the
/// offset).
pub const REG_BITS: usize = bits_for(GrfParams::MAX_VIRTUAL_BLOCKS * GrfParams::BLOCK);
/// Bits of a slow read's tag, an EU's number or a save's row offset: the wider, 4 bits.
pub const READ_TAG_BITS: usize = wider(EU_BITS, OFFSET_BITS);
/// Bits of a save's step, 0 to 16 (the block's 16 rows and the end): 5 bits.
pub const SAVE_STEP_BITS: usize = bits_for(GrfParams::BLOCK + 1);
/// Bits of a group number, 0 (private) and 1..=7: 3 bits.
pub const GROUP_BITS: usize = bits_for(GrfParams::GROUPS + 1);
/// Bits of a group's counts: up to 128 references (every table entry), accesses saturating at
/// 255: 8 bits.
pub const COUNT_BITS: usize = bits_for(MAX_SLOTS + 1);
/// Bits of a difference of a group's counts, signed: 9 bits.
pub const BALANCE_BITS: usize = COUNT_BITS + 1;
/// Bits of a count of cycles up to the slow GRF's latency, 0 to 8: 4 bits.
pub const LATENCY_BITS: usize = bits_for(GrfParams::MAX_SLOW_LATENCY + 1);

/// Bits of an EU's op (`GrfOp`, codes 0 to 5): 3 bits.
pub const OP_BITS: usize = bits_for(GrfOp::ALL.len());
/// Bits of a transaction kind (`codes::kind`, 0 to 6): 3 bits.
pub const KIND_BITS: usize = bits_for(kind::SWITCH as usize + 1);
/// Bits of a response status (`GrfStatus`, `codes::status`, 0 to 5): 3 bits.
pub const STATUS_BITS: usize = bits_for(status::NO_SUCH_GROUP as usize + 1);
/// Bits of a front end's state (`codes::front_state`, its highest `SCAN` = 33): 6 bits.
pub const FRONT_STATE_BITS: usize = bits_for(front_state::SCAN as usize + 1);
/// Bits of the controller's state (`codes::controller_state`, 0 to 4): 3 bits.
pub const CONTROLLER_STATE_BITS: usize = bits_for(controller_state::SAVE as usize + 1);

/// An EU's number in the controller (`eus` up to 8), as wide as the read tag carrying it.
pub type EuNumber = Bits<READ_TAG_BITS>;
/// One bit per EU (`eus` up to 8).
pub type EuMask = Bits<{ GrfParams::MAX_EUS }>;
/// A thread within its EU (`threads` up to 4).
pub type ThreadIndex = Bits<THREAD_BITS>;
/// A global thread, `eu * threads + thread` (`eus * threads` up to 32).
pub type GlobalThread = Bits<GLOBAL_THREAD_BITS>;
/// A virtual register of a thread (`virtual_blocks * 16` up to 64).
pub type RegIndex = Bits<REG_BITS>;
/// A virtual block of a thread (`virtual_blocks` up to 4).
pub type VirtualBlock = Bits<VBLOCK_BITS>;
/// A register's offset in its block (16 registers).
pub type BlockOffset = Bits<OFFSET_BITS>;
/// One bit per register of a block (16).
pub type OffsetMask = Bits<{ GrfParams::BLOCK }>;
/// One bit per physical block (`slow_regs / 16` up to 64).
pub type BlockMask = Bits<MAX_BLOCKS>;
/// A slow read's tag: the EU it answers, or a save's row offset.
pub type ReadTag = Bits<READ_TAG_BITS>;
/// A save's step: rows 0 to 15 read, 16 at the end.
pub type SaveStep = Bits<SAVE_STEP_BITS>;
/// A group: 0 private, shared groups 1..=7 (`GrfParams::GROUPS`).
pub type GroupNumber = Bits<GROUP_BITS>;
/// A group's reference or access count (up to 128 references; accesses saturate at 255).
pub type GroupCount = Bits<COUNT_BITS>;
/// A group's reference count, or its references less accesses or passed and waiting: signed.
pub type GroupBalance = Bits<BALANCE_BITS>;
/// A count of cycles of the slow GRF's latency (`slow_latency` up to 8).
pub type LatencyCount = Bits<LATENCY_BITS>;
/// An EU's op (`GrfOp`, `codes::op`).
pub type OpCode = Bits<OP_BITS>;
/// A transaction kind (`codes::kind`).
pub type KindCode = Bits<KIND_BITS>;
/// A response status (`GrfStatus`, `codes::status`).
pub type StatusCode = Bits<STATUS_BITS>;
/// A front end's state (`codes::front_state`).
pub type FrontState = Bits<FRONT_STATE_BITS>;
/// The controller's state (`codes::controller_state`).
pub type ControllerState = Bits<CONTROLLER_STATE_BITS>;
