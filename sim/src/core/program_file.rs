//! Program files: which instruction set a file is written in, reading it, and the figures a
//! report gives about the program itself (before any cycle runs).

use grfgen_hdl::params::{CoreOp, CoreUnit, Kind, ParamValue};
use serde::{Deserialize, Serialize};

use super::ir3::{self, Ir3Options, Ir3Stats};
use super::program::{parse, Instruction, ParseError, Source};

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

    /// The figures the ir3 reader counted.
    pub fn of_ir3(stats: &Ir3Stats) -> Self {
        Self {
            isa: Isa::Ir3,
            instructions: stats.instructions,
            gpr_reads: stats.gpr_reads,
            half_reads: stats.half_reads,
            const_reads: stats.const_reads,
            imm_reads: stats.imm_reads,
            nops: stats.nops,
            flow_dropped: stats.flow_dropped,
            alu: stats.alu,
            sfu: stats.sfu,
            tex: stats.tex,
            mem: stats.mem,
            varying: stats.varying,
        }
    }
}

/// A program read from a file.
#[derive(Clone, Debug)]
pub struct ProgramFile {
    /// The core's instructions, in program order.
    pub instructions: Vec<Instruction>,
    /// The figures of the text.
    pub figures: ProgramFigures,
    /// The ir3 text as read, kept for writing it back (ir3 files only).
    pub ir3: Option<ir3::Ir3Program>,
}

/// Reads `text` in `isa` for a core with `registers` program registers; `keep_nops` keeps
/// ir3's nops as instructions. An empty program, or one that is only flow, is an error.
pub fn read(
    text: &str,
    isa: Isa,
    registers: usize,
    keep_nops: bool,
) -> Result<ProgramFile, ParseError> {
    let file = match isa {
        Isa::Core => {
            let instructions = parse(text, registers)?;
            ProgramFile {
                figures: ProgramFigures::of_core(&instructions),
                instructions,
                ir3: None,
            }
        }
        Isa::Ir3 => {
            let program = ir3::read(text, registers, &Ir3Options { keep_nops })?;
            ProgramFile {
                figures: ProgramFigures::of_ir3(&program.stats),
                instructions: program.instructions.clone(),
                ir3: Some(program),
            }
        }
    };
    if file.figures.instructions == 0 {
        let why = match (file.figures.flow_dropped, file.figures.nops) {
            (0, 0) => "no instructions in it".to_string(),
            (flow, nops) => format!(
                "no instruction that runs on a unit: only {} and {}, which the core drops",
                grfgen_support::text::plural(flow, "flow or barrier instruction"),
                grfgen_support::text::plural(nops, "nop")
            ),
        };
        return Err(ParseError {
            line: 1,
            column: 1,
            message: why,
        });
    }
    Ok(file)
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

    #[test]
    fn core_figures_count_operands_units_and_nops() {
        let file = read(
            "mad R0, R1, R2, R1\nnop\nmov R3, R0\n",
            Isa::Core,
            32,
            false,
        )
        .unwrap();
        let f = &file.figures;
        assert_eq!((f.instructions, f.gpr_reads, f.nops, f.alu), (2, 4, 1, 2));
        assert_eq!(f.isa, Isa::Core);
    }

    #[test]
    fn ir3_figures_come_from_the_reader() {
        let text = "(rpt1)add.f r0.x, (r)r1.x, c0.x\nrcp r2.x, r0.x\nend\nnop\n";
        let f = read(text, Isa::Ir3, 240, false).unwrap().figures;
        assert_eq!((f.isa, f.instructions, f.gpr_reads), (Isa::Ir3, 3, 3));
        assert_eq!((f.const_reads, f.alu, f.sfu, f.flow_dropped), (2, 2, 1, 1));
    }

    #[test]
    fn programs_with_nothing_to_run_are_refused() {
        let err = read("; nothing\n", Isa::Ir3, 240, false).unwrap_err();
        assert!(err.message.contains("no instructions"), "{err}");
        let err = read("nop\nbr #l1\nl1:\nend\n", Isa::Ir3, 240, false).unwrap_err();
        assert!(
            err.message
                .contains("only 2 flow or barrier instructions and 1 nop,"),
            "{err}"
        );
        let err = read("// empty\n", Isa::Core, 32, false).unwrap_err();
        assert!(err.message.contains("no instructions"), "{err}");
    }
}
