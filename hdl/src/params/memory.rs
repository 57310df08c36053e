//! How the block RAMs of a design are written in its Verilog.

use serde::{Deserialize, Serialize};

use super::{Kind, ParamValue};

/// How the banks' block RAM appears in the emitted Verilog. Written `inferred` or `dp16kd`.
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
}

impl Memory {
    /// Every option, in the order the help lists them.
    pub const ALL: [Memory; 2] = [Memory::Inferred, Memory::Dp16kd];

    /// The option's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Memory::Inferred => "inferred",
            Memory::Dp16kd => "dp16kd",
        }
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
