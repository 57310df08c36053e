use serde::{Deserialize, Serialize};

use super::{Allowed, Param, Params};
use crate::param;

/// Parameters of a true multi-ported register file (`flops`, `lvt`): every port serves one
/// request every cycle, without conflicts. Defaults match the banked GPR it is compared with:
/// 256 registers of 4 lanes x 32 bits, 4 read ports, 2 write ports. The allowed values are in
/// [`MultiportParams::table`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MultiportParams {
    /// Number of registers (the depth), a power of two.
    pub registers: usize,
    /// Lanes (work items) per register entry.
    pub lanes: usize,
    /// Bits per lane element.
    pub element_bits: usize,
    /// Read ports (reads per cycle).
    pub read_ports: usize,
    /// Write ports (writes per cycle).
    pub write_ports: usize,
}

impl Default for MultiportParams {
    fn default() -> Self {
        Self {
            registers: 256,
            lanes: 4,
            element_bits: 32,
            read_ports: 4,
            write_ports: 2,
        }
    }
}

impl Params for MultiportParams {
    fn table() -> Vec<Param<Self>> {
        vec![
            param!(registers, "registers (the depth)", "N", |_| {
                let (low, high) = Self::REGISTERS;
                Allowed::matching(
                    format!("{low}..={high} in powers of two"),
                    move |&r: &usize| r.is_power_of_two() && (low..=high).contains(&r),
                )
            }),
            param!(lanes, "lanes (work items) per register entry", "N", |_| {
                Allowed::range(1, 64)
            }),
            param!(element_bits, "bits per lane", "N", |_| Allowed::one_of(
                Self::ELEMENT_BITS
            )),
            param!(read_ports, "read ports: reads per cycle", "N", |_| {
                Allowed::range(1, 8)
            }),
            param!(write_ports, "write ports: writes per cycle", "N", |_| {
                Allowed::range(1, Self::MAX_WRITE_PORTS)
            }),
        ]
    }
}

impl MultiportParams {
    /// Allowed element widths in bits.
    pub const ELEMENT_BITS: &'static [usize] = &[8, 16, 32, 64];
    /// Most write ports (the live-value table holds a write-port number in two bits).
    pub const MAX_WRITE_PORTS: usize = 4;
    /// Fewest and most registers (powers of two).
    pub const REGISTERS: (usize, usize) = (4, 4096);

    /// Bits of a register index: log2(registers).
    pub fn register_bits(&self) -> usize {
        self.registers.trailing_zeros() as usize
    }

    /// The live-value table of a file of these parameters, as a multi-ported file of its own:
    /// one lane of `bits` bits (a write-port number) per register.
    pub fn live_table(&self, bits: usize) -> Self {
        Self {
            lanes: 1,
            element_bits: bits,
            ..self.clone()
        }
    }

    /// Bits the file stores: registers x lanes x element bits.
    pub fn stored_bits(&self) -> usize {
        self.registers * self.entry_bits()
    }

    /// Bits of one register entry: lanes x element bits.
    pub fn entry_bits(&self) -> usize {
        self.lanes * self.element_bits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_valid_and_matches_the_gpr() {
        let p = MultiportParams::default();
        p.validate().unwrap();
        assert_eq!(p.register_bits(), 8);
        assert_eq!(p.entry_bits(), 128);
    }

    #[test]
    fn errors_name_parameter_value_and_range() {
        let bad = MultiportParams {
            registers: 96,
            ..MultiportParams::default()
        };
        assert_eq!(
            bad.validate().unwrap_err().to_string(),
            "invalid value 96 for --registers: allowed 4..=4096 in powers of two"
        );
        let bad = MultiportParams {
            write_ports: 5,
            ..MultiportParams::default()
        };
        assert_eq!(
            bad.validate().unwrap_err().to_string(),
            "invalid value 5 for --write-ports: allowed 1..=4"
        );
    }
}
