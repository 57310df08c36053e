//! The bank map, modelled from its definition (`--bank-map`, `docs/gpr.md`): which bank a
//! register lives in.

use grfgen_hdl::params::BankMap;

/// The bank of register `reg` among `banks` (a power of two) under `map`.
pub fn bank(map: BankMap, reg: usize, banks: usize) -> usize {
    match map {
        BankMap::Mod => reg % banks,
        BankMap::Row => (reg / 4) % banks,
        BankMap::Xor => (reg % banks) ^ ((reg / banks) % banks),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_map_spreads_a_row_of_registers_over_every_bank() {
        assert_eq!(
            (0..8).map(|r| bank(BankMap::Mod, r, 4)).collect::<Vec<_>>(),
            [0, 1, 2, 3, 0, 1, 2, 3]
        );
        assert_eq!(
            (0..8).map(|r| bank(BankMap::Row, r, 4)).collect::<Vec<_>>(),
            [0, 0, 0, 0, 1, 1, 1, 1]
        );
        assert_eq!(
            (0..8).map(|r| bank(BankMap::Xor, r, 4)).collect::<Vec<_>>(),
            [0, 1, 2, 3, 1, 0, 3, 2]
        );
        for map in BankMap::ALL {
            for base in (0..64).step_by(16) {
                let mut seen: Vec<usize> = (base..base + 16).map(|r| bank(map, r, 4)).collect();
                seen.sort_unstable();
                assert_eq!(
                    seen,
                    [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3],
                    "{map}"
                );
            }
        }
    }
}
