//! What a placement costs: the bank reads beyond capacity of an instruction's sources.

use grfgen_hdl::params::CoreParams;

/// The bank of register `reg` under the GPR's bank map: every bank the allocator reasons
/// about is this one's.
pub(super) fn bank_of(params: &CoreParams, reg: usize) -> usize {
    crate::bank_map::bank(params.gpr.bank_map, reg, params.gpr.banks)
}

/// Bank reads beyond capacity of one instruction whose source registers are `regs` (a
/// register named twice is read once).
pub(super) fn excess(params: &CoreParams, regs: &[usize], banks: usize, capacity: usize) -> u64 {
    let mut distinct = regs.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    let mut per_bank = vec![0usize; banks];
    for r in distinct {
        per_bank[bank_of(params, r)] += 1;
    }
    per_bank
        .iter()
        .map(|&n| n.saturating_sub(capacity) as u64)
        .sum()
}
