//! Program files: reading one in its instruction set (`super::figures` says what a report
//! gives of it).

use super::figures::{Isa, ProgramFigures};
use super::ir3::{self, Ir3Options};
use super::program::{parse, Instruction, ParseError};

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
                figures: program.stats.figures.clone(),
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
