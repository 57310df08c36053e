//! The wire encoding of the clustered file's issue ports: what the golden model and the RTL
//! agree on, and nothing else.

/// Bits of an operation code.
pub const OP_BITS: usize = 3;

/// The operations by code: `OPS[code]` is the mnemonic of the program format
/// (`docs/cluster.md`).
pub const OPS: [&str; 8] = ["mov", "add", "sub", "mul", "and", "or", "xor", "out"];

/// The code of the operation spelled `mnemonic`, if there is one.
pub fn op_code(mnemonic: &str) -> Option<u64> {
    OPS.iter().position(|&m| m == mnemonic).map(|k| k as u64)
}

/// The code of `out`: the operation that writes no register and shows its source.
pub const OP_OUT: u64 = 7;

/// Bits of a source select.
pub const SEL_BITS: usize = 2;

/// Where a source operand comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The issuing cluster's local file; the operand field is the register.
    Local = 0,
    /// The main file; the operand field is the register.
    Main = 1,
    /// The operand field itself (an immediate; also every unused source).
    Immediate = 2,
}

impl Source {
    /// Its code on the `issue_a_sel` and `issue_b_sel` ports.
    pub fn code(self) -> u64 {
        self as u64
    }
}

/// Bits of a data value, an immediate and an operand field.
pub const DATA_BITS: usize = 32;

/// Bits of an event counter's output (`local_accesses`, `main_accesses`, `main_conflicts`,
/// `stall_cycles`): 32, wrapping.
pub const COUNTER_BITS: usize = 32;
