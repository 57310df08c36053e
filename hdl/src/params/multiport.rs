use serde::{Deserialize, Serialize};

use super::{Allowed, Kind, Memory, Param, ParamValue, Params};
use crate::param;

/// How the table of an invalidation-based live-value-table file (`ilvt`) names the write port
/// that wrote a register last. Written `binary` or `onehot`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TableEncoding {
    /// Each write port's bank holds a port number; the live port is the XOR of all banks'.
    #[default]
    #[serde(rename = "binary")]
    Binary,
    /// Each write port's bank holds one bit per other port; pairs of bits say which of two
    /// ports wrote later, and the live port is the one later than every other.
    #[serde(rename = "onehot")]
    OneHot,
}

impl TableEncoding {
    /// Every option, in the order the help lists them.
    pub const ALL: [TableEncoding; 2] = [TableEncoding::Binary, TableEncoding::OneHot];

    /// The option's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            TableEncoding::Binary => "binary",
            TableEncoding::OneHot => "onehot",
        }
    }
}

impl std::fmt::Display for TableEncoding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl ParamValue for TableEncoding {
    const KIND: Kind = Kind::Text;
    fn parse(text: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|e| e.name().eq_ignore_ascii_case(text))
    }
    fn show(&self) -> String {
        self.name().to_string()
    }
}

/// Parameters of a true multi-ported register file (`flops`, `lvt`, `ilvt`, `xor`): every port
/// serves one request every cycle, without conflicts. Defaults match the banked GPR it is
/// compared with: 256 registers of 4 lanes x 32 bits, 4 read ports, 2 write ports. The allowed
/// values are in [`MultiportParams::table`]; what one design takes of the options the others
/// have (`pipeline`, `memory`, `encoding`) its `Design::check` says.
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
    /// Register stages: 1 the block RAMs' output register, 2 also every block RAM input.
    #[serde(default)]
    pub pipeline: usize,
    /// How the replicas' block RAM is written in the Verilog.
    #[serde(default)]
    pub memory: Memory,
    /// How an `ilvt` file's table names the live write port.
    #[serde(default)]
    pub encoding: TableEncoding,
}

impl Default for MultiportParams {
    fn default() -> Self {
        Self {
            registers: 256,
            lanes: 4,
            element_bits: 32,
            read_ports: 4,
            write_ports: 2,
            pipeline: 0,
            memory: Memory::Inferred,
            encoding: TableEncoding::Binary,
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
            param!(
                pipeline,
                "register stages: 1 the block RAMs' output register, 2 also every block RAM input (each a cycle more of read latency; flops has none)",
                "N",
                |_| Allowed::range(0, Self::MAX_PIPELINE)
            ),
            param!(
                memory,
                "block RAM in the Verilog: inferred (any tool), or instances of dp16kd (ECP5), gowin-bsram (Gowin SDPB) or nexus-ebr (Nexus PDPSC16K), with the output register at --pipeline 1 and up; flops has none",
                "KIND",
                Self::memory_allowed
            ),
            param!(
                encoding,
                "how ilvt's table names the live write port: binary (a port number) or onehot (a bit per other port); the other files have no such table",
                "KIND",
                |_| Allowed::one_of(&TableEncoding::ALL)
            ),
        ]
    }
}

impl MultiportParams {
    /// Allowed element widths in bits.
    pub const ELEMENT_BITS: &'static [usize] = &[8, 16, 32, 64];
    /// Most write ports (the live-value table holds a write-port number in two bits).
    pub const MAX_WRITE_PORTS: usize = 4;
    /// Most register stages.
    pub const MAX_PIPELINE: usize = 2;
    /// The block RAMs allowed with these registers: a primitive holds at most
    /// [`Memory::PRIMITIVE_ROWS`] rows.
    pub fn memory_allowed(&self) -> Allowed<Memory> {
        match self.registers <= Memory::PRIMITIVE_ROWS {
            true => Allowed::one_of(&Memory::ALL),
            false => Allowed::one_of(&[Memory::Inferred]).because(format!(
                "with --registers {}: a block-RAM primitive holds at most {} rows",
                self.registers,
                Memory::PRIMITIVE_ROWS
            )),
        }
    }
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

    /// Whether every block-RAM input is registered next to its block RAM (`pipeline` 2).
    pub fn input_stage(&self) -> bool {
        self.pipeline >= 2
    }

    /// Whether block-RAM read data passes through an output register (`pipeline` 1 and 2).
    pub fn output_stage(&self) -> bool {
        self.pipeline >= 1
    }

    /// Cycles from a write's request to the cycle its encoded word is written, in the files
    /// whose writes read the other banks first (`ilvt`, `xor`): the feedback read and its
    /// stages. Also the writes of other ports a write's feedback may miss.
    pub fn feedback_depth(&self) -> usize {
        1 + self.pipeline
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

    #[test]
    fn dp16kd_is_refused_where_a_dp16kd_cannot_hold_the_rows() {
        let deep = MultiportParams {
            registers: 2048,
            memory: Memory::Dp16kd,
            ..MultiportParams::default()
        };
        assert_eq!(
            deep.validate().unwrap_err().to_string(),
            "invalid value dp16kd for --memory: allowed inferred (with --registers 2048: a block-RAM \
             primitive holds at most 1024 rows)"
        );
        let fits = MultiportParams {
            registers: 1024,
            ..deep
        };
        fits.validate().unwrap();
    }
}
