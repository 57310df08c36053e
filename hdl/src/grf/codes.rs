//! Encodings shared by the GRF's front ends and controller (and its drivers).

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
