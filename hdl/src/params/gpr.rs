use serde::{Deserialize, Serialize};

use super::{check_one_of, check_range, ParamError};

/// Parameters of the banked GPR (SPEC S1). Defaults follow the document: 4 banks of 64 rows,
/// 256 registers of 4 lanes x 32 bits, 4 read ports, 2 write ports.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GprParams {
    /// Number of 1W1R banks: 1, 2, 4, 8 or 16.
    pub banks: usize,
    /// Number of registers: banks x rows, rows a power of two from 4 to 1024.
    pub registers: usize,
    /// Lanes (work items) per register entry: 1..=64.
    pub lanes: usize,
    /// Bits per lane element: 8, 16, 32 or 64.
    pub element_bits: usize,
    /// Read ports (readers per cycle): 1..=8.
    pub read_ports: usize,
    /// Write ports (writers per cycle): 1..=4.
    pub write_ports: usize,
}

impl Default for GprParams {
    fn default() -> Self {
        Self {
            banks: 4,
            registers: 256,
            lanes: 4,
            element_bits: 32,
            read_ports: 4,
            write_ports: 2,
        }
    }
}

impl GprParams {
    /// Allowed bank counts.
    pub const BANKS: &'static [usize] = &[1, 2, 4, 8, 16];
    /// Allowed element widths in bits.
    pub const ELEMENT_BITS: &'static [usize] = &[8, 16, 32, 64];
    /// Smallest and largest rows per bank (powers of two).
    pub const ROWS: (usize, usize) = (4, 1024);
    /// Allowed lanes per entry.
    pub const LANES: (usize, usize) = (1, 64);
    /// Allowed read ports.
    pub const READ_PORTS: (usize, usize) = (1, 8);
    /// Allowed write ports.
    pub const WRITE_PORTS: (usize, usize) = (1, 4);

    /// Checks every parameter; the first one out of range is reported.
    pub fn validate(&self) -> Result<(), ParamError> {
        check_one_of("banks", self.banks, Self::BANKS)?;
        let (low, high) = Self::ROWS;
        let rows = self.registers / self.banks;
        if self.registers % self.banks != 0
            || !rows.is_power_of_two()
            || !(low..=high).contains(&rows)
        {
            return Err(ParamError::new(
                "registers",
                self.registers,
                format!(
                    "banks ({}) x a power of two from {low} to {high} rows: {}..={} in powers of two",
                    self.banks,
                    self.banks * low,
                    self.banks * high
                ),
            ));
        }
        check_range("lanes", self.lanes, Self::LANES.0, Self::LANES.1)?;
        check_one_of("element_bits", self.element_bits, Self::ELEMENT_BITS)?;
        check_range(
            "read_ports",
            self.read_ports,
            Self::READ_PORTS.0,
            Self::READ_PORTS.1,
        )?;
        check_range(
            "write_ports",
            self.write_ports,
            Self::WRITE_PORTS.0,
            Self::WRITE_PORTS.1,
        )
    }

    /// Rows per bank.
    pub fn rows(&self) -> usize {
        self.registers / self.banks
    }

    /// Bits of a bank number: log2(banks).
    pub fn bank_bits(&self) -> usize {
        self.banks.trailing_zeros() as usize
    }

    /// Bits of a row address: log2(rows).
    pub fn row_bits(&self) -> usize {
        self.rows().trailing_zeros() as usize
    }

    /// Bits of a register index: log2(registers).
    pub fn register_bits(&self) -> usize {
        self.bank_bits() + self.row_bits()
    }

    /// Bits of one register entry: lanes x element bits.
    pub fn entry_bits(&self) -> usize {
        self.lanes * self.element_bits
    }

    /// A module name that encodes the configuration, e.g. `gpr_b4_r256_l4_e32_rp4_wp2`.
    pub fn module_name(&self) -> String {
        format!(
            "gpr_b{}_r{}_l{}_e{}_rp{}_wp{}",
            self.banks,
            self.registers,
            self.lanes,
            self.element_bits,
            self.read_ports,
            self.write_ports
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_valid_and_matches_the_document() {
        let p = GprParams::default();
        p.validate().unwrap();
        assert_eq!(p.rows(), 64);
        assert_eq!(p.entry_bits(), 128);
        assert_eq!(p.register_bits(), 8);
    }

    #[test]
    fn errors_name_parameter_value_and_range() {
        let bad = GprParams {
            banks: 3,
            ..GprParams::default()
        };
        assert_eq!(
            bad.validate().unwrap_err().to_string(),
            "invalid value 3 for --banks: allowed 1, 2, 4, 8 or 16"
        );
        let bad = GprParams {
            lanes: 0,
            ..GprParams::default()
        };
        assert_eq!(
            bad.validate().unwrap_err().to_string(),
            "invalid value 0 for --lanes: allowed 1..=64"
        );
        let bad = GprParams {
            registers: 96,
            ..GprParams::default()
        };
        let err = bad.validate().unwrap_err();
        assert_eq!(err.param, "registers");
        assert!(err.to_string().contains("16..=4096"));
    }

    #[test]
    fn every_row_count_and_bank_count_is_accepted() {
        for &banks in GprParams::BANKS {
            let mut rows = 4;
            while rows <= 1024 {
                let p = GprParams {
                    banks,
                    registers: banks * rows,
                    ..GprParams::default()
                };
                p.validate().unwrap();
                assert_eq!(p.register_bits(), p.row_bits() + p.bank_bits());
                rows *= 2;
            }
        }
    }
}
