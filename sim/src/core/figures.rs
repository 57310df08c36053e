//! What a report says of a program before any cycle runs: the instruction set it is written
//! in, and its figures counted on the text.

use grfgen_hdl::params::{CoreOp, CoreUnit, Kind, ParamValue};
use serde::{Deserialize, Serialize};

use super::program::{Instruction, Source};

/// The instruction set of a program file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Isa {
    /// The core's own text format (`docs/core.md`, "Programs").
    #[default]
    Core,
    /// Adreno's shader assembly as Mesa's disassembler prints it (`docs/core.md`, "ir3").
    Ir3,
}

impl Isa {
    /// Every instruction set, in the order the help lists them.
    pub const ALL: [Isa; 2] = [Isa::Core, Isa::Ir3];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Isa::Core => "core",
            Isa::Ir3 => "ir3",
        }
    }

    /// The instruction set of a file when none is given: ir3 for names ending in `.ir3` or
    /// `.asm`, else the core's format.
    pub fn of_path(path: &str) -> Self {
        let lower = path.to_ascii_lowercase();
        if lower.ends_with(".ir3") || lower.ends_with(".asm") {
            Isa::Ir3
        } else {
            Isa::Core
        }
    }
}

impl ParamValue for Isa {
    const KIND: Kind = Kind::Text;
    fn parse(text: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|i| i.name().eq_ignore_ascii_case(text))
    }
    fn show(&self) -> String {
        self.name().to_string()
    }
}

/// What a report says of the program as written: counted on the text, after `(rptN)`
/// expansion, before anything runs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ProgramFigures {
    /// The instruction set it was read in.
    pub isa: Isa,
    /// Instructions that run on a unit: nops, labels, flow and barrier instructions excluded.
    pub instructions: u64,
    /// Source operands naming a register, one per register read (no merging of repeats).
    pub gpr_reads: u64,
    /// Of those, half registers (ir3 `hr`).
    pub half_reads: u64,
    /// Source operands naming a constant.
    pub const_reads: u64,
    /// Immediate source operands.
    pub imm_reads: u64,
    /// Nops: the compiler's delay slots, up to the program's end.
    pub nops: u64,
    /// Flow and barrier instructions dropped (the core has no branches).
    pub flow_dropped: u64,
    /// Instructions per unit class.
    pub alu: u64,
    /// SFU instructions.
    pub sfu: u64,
    /// Texture instructions.
    pub tex: u64,
    /// Local- and global-memory instructions.
    pub mem: u64,
    /// Varying instructions.
    pub varying: u64,
}

impl ProgramFigures {
    /// The figures of a program in the core's format (every instruction one of its own).
    pub fn of_core(program: &[Instruction]) -> Self {
        let mut figures = Self::default();
        for instruction in program {
            if instruction.op == CoreOp::Nop {
                figures.nops += 1;
                continue;
            }
            figures.instructions += 1;
            for source in &instruction.src {
                match source {
                    Source::Reg(_) => figures.gpr_reads += 1,
                    Source::Imm(_) => figures.imm_reads += 1,
                }
            }
            *match instruction.unit {
                CoreUnit::Alu => &mut figures.alu,
                CoreUnit::Sfu => &mut figures.sfu,
                CoreUnit::Tex => &mut figures.tex,
                CoreUnit::LocalMem | CoreUnit::GlobalMem => &mut figures.mem,
                CoreUnit::Varying => &mut figures.varying,
            } += 1;
        }
        figures
    }

    /// The figures in words, beside the `issued` instructions (micro-ops) the core ran: one
    /// line, ending in a newline.
    pub fn text(&self, issued: u64) -> String {
        format!(
            "{}: {} after (rptN) expansion, {issued} issued; {} ({} half), {} constant, {} \
             immediate; {}, {} dropped; alu {}, sfu {}, tex {}, mem {}, varying {}\n",
            self.isa.name(),
            grfgen_support::text::plural(self.instructions, "instruction"),
            grfgen_support::text::plural(self.gpr_reads, "GPR read"),
            self.half_reads,
            self.const_reads,
            self.imm_reads,
            grfgen_support::text::plural(self.nops, "nop"),
            grfgen_support::text::plural(self.flow_dropped, "flow instruction"),
            self.alu,
            self.sfu,
            self.tex,
            self.mem,
            self.varying,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_isa_follows_the_file_name_unless_given() {
        assert_eq!(Isa::of_path("shaders/a.asm"), Isa::Ir3);
        assert_eq!(Isa::of_path("B.IR3"), Isa::Ir3);
        assert_eq!(Isa::of_path("kernel.s"), Isa::Core);
        assert_eq!(Isa::parse("IR3"), Some(Isa::Ir3));
        assert_eq!(Isa::parse("arm"), None);
    }
}
