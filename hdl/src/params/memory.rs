//! How the block RAMs of a design are written in its Verilog.

use serde::{Deserialize, Serialize};

use super::{Kind, ParamValue};

/// How the banks' block RAM appears in the emitted Verilog. Written `inferred`, `dp16kd`,
/// `gowin-bsram` or `nexus-ebr`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Memory {
    /// A behavioural memory that every synthesis tool maps to its block RAM (`docs/gpr.md`).
    #[default]
    #[serde(rename = "inferred")]
    Inferred,
    /// Lattice ECP5 `DP16KD` instances, with the primitive's own output register where a bank
    /// data stage follows the read; simulated with the model written beside the design.
    #[serde(rename = "dp16kd")]
    Dp16kd,
    /// Gowin `SDPB` semi-dual-port block SRAM instances (GW1N, GW2A, GW5A), with the
    /// primitive's pipeline register where a bank data stage follows the read.
    #[serde(rename = "gowin-bsram")]
    GowinBsram,
    /// Lattice Nexus `PDPSC16K` instances (CrossLink-NX, Certus-NX), with the primitive's
    /// output register where a bank data stage follows the read.
    #[serde(rename = "nexus-ebr")]
    NexusEbr,
}

impl Memory {
    /// Every option, in the order the help lists them.
    pub const ALL: [Memory; 4] = [
        Memory::Inferred,
        Memory::Dp16kd,
        Memory::GowinBsram,
        Memory::NexusEbr,
    ];

    /// Most rows one instance of any primitive holds (1024 words of 16 or 18 bits): a bank
    /// deeper than this is written only as `inferred`.
    pub const PRIMITIVE_ROWS: usize = 1024;

    /// The option's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Memory::Inferred => "inferred",
            Memory::Dp16kd => "dp16kd",
            Memory::GowinBsram => "gowin-bsram",
            Memory::NexusEbr => "nexus-ebr",
        }
    }

    /// The vendor primitive the banks are instances of, or `None` for an inferred memory.
    pub fn primitive(self) -> Option<&'static str> {
        match self {
            Memory::Inferred => None,
            Memory::Dp16kd => Some("DP16KD"),
            Memory::GowinBsram => Some("SDPB"),
            Memory::NexusEbr => Some("PDPSC16K"),
        }
    }

    /// The FPGA family whose block RAM the primitive is: `ECP5`, `Gowin`, `Nexus`.
    pub fn family(self) -> Option<&'static str> {
        match self {
            Memory::Inferred => None,
            Memory::Dp16kd => Some("ECP5"),
            Memory::GowinBsram => Some("Gowin"),
            Memory::NexusEbr => Some("Nexus"),
        }
    }

    /// Whether the banks are vendor primitives, which hold the bank data stage in their own
    /// output register.
    pub fn is_primitive(self) -> bool {
        self != Memory::Inferred
    }
}

impl std::fmt::Display for Memory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl ParamValue for Memory {
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
