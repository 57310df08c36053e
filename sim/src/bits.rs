//! Bit-width arithmetic shared by the models, the stimulus and the Verilator layer.

/// Ones in the low `bits` bits (all 64 for 64 or more): the values an element or port of that
/// width can hold.
pub fn element_mask(bits: usize) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1 << bits) - 1
    }
}
