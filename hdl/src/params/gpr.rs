use serde::{Deserialize, Serialize};

use super::{Allowed, Kind, Memory, Param, ParamValue, Params};
use crate::param;

/// What one GPR bank can do in a cycle (SPEC S1: the technique extends to "1W2R" and
/// "pseudo-1W1R" banks). Written `1r1w`, `2r1w` or `1rw`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BankKind {
    /// One read and one write per cycle: a simple dual-port block RAM per bank and lane.
    #[default]
    #[serde(rename = "1r1w")]
    OneReadOneWrite,
    /// Two reads and one write per cycle: two 1R1W replicas per bank and lane, written
    /// together, so a conflict needs three reads of one bank.
    #[serde(rename = "2r1w")]
    TwoReadsOneWrite,
    /// One read or one write per cycle ("pseudo 1W1R"): a single-port block RAM; a bank
    /// being written serves no read.
    #[serde(rename = "1rw")]
    SinglePort,
}

impl BankKind {
    /// Every kind, in the order the help lists them.
    pub const ALL: [BankKind; 3] = [
        BankKind::OneReadOneWrite,
        BankKind::TwoReadsOneWrite,
        BankKind::SinglePort,
    ];

    /// The kind's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            BankKind::OneReadOneWrite => "1r1w",
            BankKind::TwoReadsOneWrite => "2r1w",
            BankKind::SinglePort => "1rw",
        }
    }

    /// Reads a bank serves in a cycle.
    pub fn reads_per_bank(self) -> usize {
        match self {
            BankKind::TwoReadsOneWrite => 2,
            _ => 1,
        }
    }

    /// Whether a bank's read and write share one port.
    pub fn single_port(self) -> bool {
        self == BankKind::SinglePort
    }

    /// What a module name gains for this kind: nothing for 1r1w, else `_<kind>`.
    pub fn suffix(self) -> String {
        match self {
            BankKind::OneReadOneWrite => String::new(),
            kind => format!("_{kind}"),
        }
    }
}

impl std::fmt::Display for BankKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl ParamValue for BankKind {
    const KIND: Kind = Kind::Text;
    fn parse(text: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(text))
    }
    fn show(&self) -> String {
        self.name().to_string()
    }
}

/// Which bank and row register `n` lives in, with `B` banks. Written `mod`, `row` or `xor`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BankMap {
    /// The document's: bank `n mod B`, row `n div B`.
    #[default]
    Mod,
    /// A vec4's four components in one bank: bank `(n div 4) mod B`, row
    /// `(n div 4B) * 4 + n mod 4`.
    Row,
    /// The row's low bits hashed into the bank: bank `(n mod B) xor ((n div B) mod B)`, row
    /// `n div B`.
    Xor,
}

impl BankMap {
    /// Every map, in the order the help lists them.
    pub const ALL: [BankMap; 3] = [BankMap::Mod, BankMap::Row, BankMap::Xor];

    /// The map's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            BankMap::Mod => "mod",
            BankMap::Row => "row",
            BankMap::Xor => "xor",
        }
    }
}

impl std::fmt::Display for BankMap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl ParamValue for BankMap {
    const KIND: Kind = Kind::Text;
    fn parse(text: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(text))
    }
    fn show(&self) -> String {
        self.name().to_string()
    }
}

/// Parameters of the banked GPR (SPEC S1). Defaults follow the document: 4 banks of 64 rows,
/// 256 registers of 4 lanes x 32 bits, 4 read ports, 2 write ports. The allowed values are in
/// [`GprParams::table`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GprParams {
    /// Number of 1W1R banks.
    pub banks: usize,
    /// Number of registers: banks x rows.
    pub registers: usize,
    /// Lanes (work items) per register entry.
    pub lanes: usize,
    /// Bits per lane element.
    pub element_bits: usize,
    /// Read ports (readers per cycle).
    pub read_ports: usize,
    /// Write ports (writers per cycle).
    pub write_ports: usize,
    /// Register stages: 1 registers the banks' ports (one more cycle of read latency).
    pub pipeline: usize,
    /// What one bank can do in a cycle.
    #[serde(default)]
    pub bank_kind: BankKind,
    /// How the banks' block RAM is written in the Verilog.
    #[serde(default)]
    pub memory: Memory,
    /// Which bank and row each register lives in.
    #[serde(default)]
    pub bank_map: BankMap,
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
            pipeline: 0,
            bank_kind: BankKind::OneReadOneWrite,
            memory: Memory::Inferred,
            bank_map: BankMap::Mod,
        }
    }
}

impl Params for GprParams {
    fn table() -> Vec<Param<Self>> {
        vec![
            param!(banks, "banks", "N", |_| Allowed::one_of(Self::BANKS)),
            param!(
                registers,
                "registers; register n is in bank n mod banks, row n div banks",
                "N",
                Self::registers_allowed
            ),
            param!(lanes, "lanes (work items) per register entry", "N", |_| {
                Allowed::range(1, 64)
            }),
            param!(element_bits, "bits per lane", "N", |_| Allowed::one_of(
                Self::ELEMENT_BITS
            )),
            param!(read_ports, "read ports: readers per cycle", "N", |_| {
                Allowed::range(1, Self::MAX_READ_PORTS)
            }),
            param!(write_ports, "write ports: writers per cycle", "N", |_| {
                Allowed::range(1, 4)
            }),
            param!(
                pipeline,
                "register stages: 1 the bank ports, 2 also bank data (each a cycle of read latency), 3 also the requests' decode (grants a cycle after the request), 4 also the clashes (grants two cycles after the request), the SRAM inputs and the bank data again (data two cycles more after the grant)",
                "N",
                |_| Allowed::range(0, Self::MAX_PIPELINE)
            ),
            param!(
                bank_kind,
                "what a bank serves per cycle (2r1w: two reads and a write; 1rw: a read or a write)",
                "KIND",
                |_| Allowed::one_of(&BankKind::ALL)
            ),
            param!(
                memory,
                "block RAM in the Verilog: inferred (any tool), or instances of dp16kd (ECP5), gowin-bsram (Gowin SDPB) or nexus-ebr (Nexus PDPSC16K), with the output register at --pipeline 2 and up",
                "KIND",
                |_| Allowed::one_of(&Memory::ALL)
            ),
            param!(
                bank_map,
                "which bank register n lives in: mod (n mod banks, the document's), row ((n div 4) mod banks: a vec4 in one bank) or xor ((n mod banks) xor ((n div banks) mod banks))",
                "MAP",
                |_| Allowed::one_of(&BankMap::ALL)
            ),
        ]
    }
}

impl GprParams {
    /// Allowed bank counts.
    pub const BANKS: &'static [usize] = &[1, 2, 4, 8, 16];
    /// Allowed element widths in bits.
    pub const ELEMENT_BITS: &'static [usize] = &[8, 16, 32, 64];
    /// Most register stages.
    pub const MAX_PIPELINE: usize = 4;
    /// Most read ports.
    pub const MAX_READ_PORTS: usize = 8;
    /// Smallest and largest rows per bank (powers of two).
    pub const ROWS: (usize, usize) = (4, 1024);

    /// The register counts allowed with this many banks: banks x a power of two of rows.
    pub fn registers_allowed(&self) -> Allowed<usize> {
        let (low, high) = Self::ROWS;
        let banks = self.banks.max(1);
        Allowed::matching(
            format!(
                "banks ({banks}) x a power of two from {low} to {high} rows: \
                 {}..={} in powers of two",
                banks.saturating_mul(low),
                banks.saturating_mul(high)
            ),
            move |&r: &usize| {
                let rows = r / banks;
                r % banks == 0 && rows.is_power_of_two() && (low..=high).contains(&rows)
            },
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

    /// SRAMs (block RAMs of one lane each): banks x read slots x lanes.
    pub fn srams(&self) -> usize {
        self.banks * self.bank_kind.reads_per_bank() * self.lanes
    }

    /// Bits of one register entry: lanes x element bits.
    pub fn entry_bits(&self) -> usize {
        self.lanes * self.element_bits
    }

    /// Cycles from a read's grant to its data: the bank's registered read, plus the bank port
    /// and bank data stages, and with `pipeline` 4 the SRAM port and fabric data stages.
    pub fn read_latency(&self) -> usize {
        1 + self.pipeline.min(2) + 2 * usize::from(self.registered_sram_ports())
    }

    /// Whether every SRAM input is registered next to the block RAMs and the banks' data
    /// registered again before the read crossbar (`pipeline` 4).
    pub fn registered_sram_ports(&self) -> bool {
        self.pipeline >= 4
    }

    /// Whether arbitration is registered (`pipeline` 3 and 4): the requests' bank decodes and register
    /// compares are registered, and the grants answer the previous cycle's requests.
    pub fn registered_arbitration(&self) -> bool {
        self.pipeline >= 3
    }

    /// Whether the arbitration's clashes are registered too (`pipeline` 4): the reads'
    /// priority in a third cycle, so the grants answer the requests of two cycles before.
    pub fn registered_clash(&self) -> bool {
        self.pipeline >= 4
    }

    /// Cycles from a request to its grant: 1 with registered arbitration, 2 with a registered
    /// clash, else 0.
    pub fn grant_latency(&self) -> usize {
        usize::from(self.registered_arbitration()) + usize::from(self.registered_clash())
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
                assert_eq!(p.rows(), rows);
                assert_eq!(1 << p.register_bits(), banks * rows);
                rows *= 2;
            }
        }
    }
}
