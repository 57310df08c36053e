//! The core format's writer for a renamed program: `(rptN)` groups where the registers step.

use crate::core::program::{Instruction, Source};

/// `program` as text in the documented format, consecutive instructions whose every register
/// is one above the last's (immediates, unit and waits the same) written as one `(rptN)` group.
pub fn text(program: &[Instruction]) -> String {
    let step = |a: &Instruction, b: &Instruction| {
        a.op == b.op
            && (a.unit, a.wait, a.writes) == (b.unit, b.wait, b.writes)
            && (a.writes == 0 || b.dst == a.dst + 1)
            && a.src.len() == b.src.len()
            && a.src.iter().zip(&b.src).all(|(x, y)| match (x, y) {
                (Source::Reg(x), Source::Reg(y)) => *y == x + 1,
                (Source::Imm(x), Source::Imm(y)) => x == y,
                _ => false,
            })
    };
    let mut lines = Vec::new();
    let mut i = 0;
    while i < program.len() {
        let mut n = 0;
        while i + n + 1 < program.len() && step(&program[i + n], &program[i + n + 1]) {
            n += 1;
        }
        let prefix = match n {
            0 => String::new(),
            n => format!("(rpt{n}) "),
        };
        lines.push(format!("{prefix}{}", program[i]));
        i += n + 1;
    }
    lines.join("\n") + "\n"
}
