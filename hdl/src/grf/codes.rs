//! Encodings shared by the GRF's front ends and controller (and its drivers), the front ends'
//! state encoding and the controller's. Their widths are in [`super::widths`].

/// Transaction kinds from a front end to the controller.
pub mod kind {
    /// Read (a fast GRF miss, or a shared register).
    pub const READ: u64 = 0;
    /// Write the front end keeps if the register is private.
    pub const WRITE_MISS: u64 = 1;
    /// Write-back of a dirty fast entry.
    pub const WRITEBACK: u64 = 2;
    /// Map a virtual block.
    pub const ALLOC: u64 = 3;
    /// Unmap a virtual block.
    pub const RELEASE: u64 = 4;
    /// Wait on a group's barrier.
    pub const WAIT: u64 = 5;
    /// Data context switch.
    pub const SWITCH: u64 = 6;
}

/// EU request ops (`req_op`): read 0, write 1, alloc 2, release 3, wait 4, switch 5.
pub mod op {
    /// Read.
    pub const READ: u64 = 0;
    /// Write.
    pub const WRITE: u64 = 1;
    /// Alloc.
    pub const ALLOC: u64 = 2;
    /// Release.
    pub const RELEASE: u64 = 3;
    /// Wait.
    pub const WAIT: u64 = 4;
    /// Switch.
    pub const SWITCH: u64 = 5;
}

/// Response statuses (`resp_status`).
pub mod status {
    /// Done.
    pub const OK: u64 = 0;
    /// The block has no mapping.
    pub const UNMAPPED: u64 = 1;
    /// No free physical block.
    pub const NO_FREE_BLOCK: u64 = 2;
    /// Release of an unmapped block.
    pub const NOT_OWNED: u64 = 3;
    /// Alloc of a mapped block.
    pub const ALREADY_MAPPED: u64 = 4;
    /// Wait on a group without a block.
    pub const NO_SUCH_GROUP: u64 = 5;
}

/// A front end's states, one-hot beside a busy bit: idle is zero, and every other state is
/// the busy bit and a bit of its own, so that each test of the state reads one flip-flop and
/// the power-up value (zero) is idle.
pub mod front_state {
    /// The bit every state but idle sets.
    pub const BUSY: u64 = 1;
    /// Waiting for a request.
    pub const IDLE: u64 = 0;
    /// Waiting for the answer to a miss.
    pub const ACCESS: u64 = BUSY | 1 << 1;
    /// Waiting for the victim's write-back; then fill.
    pub const VICTIM: u64 = BUSY | 1 << 2;
    /// Writing back the block's dirty entries before a switch.
    pub const FLUSH: u64 = BUSY | 1 << 3;
    /// Waiting for a command's answer.
    pub const COMMAND: u64 = BUSY | 1 << 4;
    /// A switch taken with its search registered (`pipeline` 4): its block's dirty entries
    /// are held; the first write-back goes out now.
    pub const SCAN: u64 = BUSY | 1 << 5;

    /// The bit that marks `state`, its busy bit aside.
    pub const fn own_bit(state: u64) -> u64 {
        state & !BUSY
    }
}

/// The controller's states (its sequencer's).
pub mod controller_state {
    /// Free for a transaction.
    pub const IDLE: u64 = 0;
    /// A slow read: busy until its answer leaves the pipeline.
    pub const SLOW_READ: u64 = 1;
    /// A read served from L3.
    pub const REDIRECT: u64 = 2;
    /// A switch waiting for the refill engine.
    pub const SWITCH_WAIT: u64 = 3;
    /// A switch's save phase.
    pub const SAVE: u64 = 4;
}
