//! Programs for the core slice: instructions, the text format, `(rptN)` expansion.
//!
//! Text format, one instruction per line, exactly what [`Instruction`]'s `Display` prints:
//!
//! ```text
//! // comment            ; comment too
//! (rpt3) mad.f32 R0, R0, R4, R8     // (rptN): N+1 instructions, every register index +1 each
//! add.u32 r5, r1, #7                // op[.type][.unit] dst, src0[, src1[, src2]]
//! (ss)(sy)mov.global-mem R8..R11, R5 // waits; a unit; a long result in 4 registers
//! add.sfu _, R1, R2                 // `_`: writes nothing
//! nop
//! ```
//!
//! Ops and their sources: `mov d, a` (1), `add`/`sub`/`mul d, a, b` (2), `mad d, a, b, c`
//! (3, `a*b+c`), `nop` (none, no destination). A source is a register or an immediate `#N`
//! (a 32-bit value, decimal). A type suffix is accepted and ignored: every lane computes on
//! wrapping integers; a unit suffix (`sfu varying tex local-mem global-mem`, `alu`) runs the
//! instruction there. The destination is `R<n>`, a range `R<n>..R<m>` (a long-latency result
//! in up to 4 registers) or `_`. Registers are `R<n>` or `r<n>`. Flags `(rptN)`, `(ss)` and
//! `(sy)` come before the op in any order.

use std::fmt;
use std::ops::Range;

use grfgen_hdl::params::{CoreOp, CoreParams, CoreUnit};

use grfgen_support::text::quoted;

/// One source operand: a GPR read, or a value carried with the instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// Register `n`, read from the GPR.
    Reg(usize),
    /// A 32-bit value that is no GPR read: a constant, an immediate, a predicate.
    Imm(u32),
}

impl Source {
    /// The register, when the source is a GPR read.
    pub fn reg(self) -> Option<usize> {
        match self {
            Source::Reg(r) => Some(r),
            Source::Imm(_) => None,
        }
    }
}

/// The sync flags an instruction waits on before it issues.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Wait {
    /// `(ss)`: no result of the SFU, varying or local-memory units outstanding.
    pub ss: bool,
    /// `(sy)`: no result of the texture or global-memory units outstanding.
    pub sy: bool,
}

/// One decoded instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instruction {
    /// The ALU operation on the sources (for a long-latency unit: the value it hands over).
    pub op: CoreOp,
    /// The first destination register (meaningless when `writes` is 0).
    pub dst: usize,
    /// Destination registers written, `dst..dst + writes`: 0 or 1 on the ALU, up to
    /// [`Instruction::MAX_WRITES`] on a long-latency unit.
    pub writes: usize,
    /// Source operands, `op.sources()` of them.
    pub src: Vec<Source>,
    /// The unit that runs it.
    pub unit: CoreUnit,
    /// The sync flags it waits on.
    pub wait: Wait,
}

impl Instruction {
    /// The most registers one instruction writes (a four-component texture or load result):
    /// the slice's [`CoreParams::MAX_WRITES`].
    pub const MAX_WRITES: usize = CoreParams::MAX_WRITES;

    /// An ALU instruction writing `dst` from registers `src`, waiting on nothing.
    pub fn alu(op: CoreOp, dst: usize, src: &[usize]) -> Self {
        Self {
            op,
            dst,
            writes: usize::from(op != CoreOp::Nop),
            src: src.iter().map(|&r| Source::Reg(r)).collect(),
            unit: CoreUnit::Alu,
            wait: Wait::default(),
        }
    }

    /// The registers it reads from the GPR, in source order (a register named twice twice).
    pub fn reads(&self) -> impl Iterator<Item = usize> + '_ {
        self.src.iter().filter_map(|s| s.reg())
    }

    /// The registers it writes.
    pub fn written(&self) -> Range<usize> {
        self.dst..self.dst + self.writes
    }

    /// Whether its value returns through the external write port (a long-latency unit).
    pub fn long_latency(&self) -> bool {
        self.unit.long_latency()
    }
}

impl fmt::Display for Instruction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.wait.ss {
            write!(f, "(ss)")?;
        }
        if self.wait.sy {
            write!(f, "(sy)")?;
        }
        write!(f, "{}", self.op.mnemonic())?;
        if self.unit != CoreUnit::Alu {
            write!(f, ".{}", self.unit.name())?;
        }
        let mut first = true;
        if self.writes > 0 {
            write!(f, " R{}", self.dst)?;
            if self.writes > 1 {
                write!(f, "..R{}", self.dst + self.writes - 1)?;
            }
            first = false;
        } else if self.op != CoreOp::Nop {
            write!(f, " _")?;
            first = false;
        }
        for s in &self.src {
            write!(f, "{}", if first { " " } else { ", " })?;
            first = false;
            match s {
                Source::Reg(r) => write!(f, "R{r}")?,
                Source::Imm(v) => write!(f, "#{v}")?,
            }
        }
        Ok(())
    }
}

/// A program error, with its line and column (both from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// Line number.
    pub line: usize,
    /// Column number.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

impl std::error::Error for ParseError {}

/// An operand as written, with its column: a register, or an immediate.
#[derive(Clone, Copy)]
enum Written {
    /// Register `.0` at column `.1`.
    Reg(usize, usize),
    /// An immediate.
    Imm(u32),
}

/// One line's instruction as written: its flags, op, unit, destination and sources.
struct Line {
    /// `(rptN)`'s N.
    repeat: usize,
    /// The waits.
    wait: Wait,
    /// The op.
    op: CoreOp,
    /// The unit.
    unit: CoreUnit,
    /// The first destination and its column, if it writes.
    dst: Option<(usize, usize)>,
    /// Registers written.
    writes: usize,
    /// The sources.
    src: Vec<Written>,
}

/// Parses a program; registers must be below `registers`.
pub fn parse(text: &str, registers: usize) -> Result<Vec<Instruction>, ParseError> {
    let mut program = Vec::new();
    for (index, raw) in grfgen_support::text::source_lines(text)
        .into_iter()
        .enumerate()
    {
        let line = index + 1;
        let code = match (raw.find("//"), raw.find(';')) {
            (Some(a), Some(b)) => &raw[..a.min(b)],
            (Some(a), None) | (None, Some(a)) => &raw[..a],
            (None, None) => raw,
        };
        let mut cursor = Cursor {
            text: code,
            pos: 0,
            line,
        };
        cursor.skip_space();
        if cursor.at_end() {
            continue;
        }
        let written = cursor.parse_line(registers)?;
        for r in 0..=written.repeat {
            program.push(copy(&written, r, registers, line)?);
        }
    }
    Ok(program)
}

/// Copy `r` of an `(rptN)` line: every register `r` further, checked against `registers`.
fn copy(
    written: &Line,
    r: usize,
    registers: usize,
    line: usize,
) -> Result<Instruction, ParseError> {
    let past = |n: usize, column: usize| ParseError {
        line,
        column,
        message: format!(
            "(rpt{}) takes R{n} to R{}, past the last register R{}",
            written.repeat,
            n + r,
            registers.saturating_sub(1)
        ),
    };
    let dst = match written.dst {
        Some((n, column)) if n + written.writes - 1 + r >= registers => {
            return Err(past(n + written.writes - 1, column))
        }
        Some((n, _)) => n + r,
        None => 0,
    };
    let mut src = Vec::new();
    for s in &written.src {
        src.push(match *s {
            Written::Reg(n, column) if n + r >= registers => return Err(past(n, column)),
            Written::Reg(n, _) => Source::Reg(n + r),
            Written::Imm(v) => Source::Imm(v),
        });
    }
    Ok(Instruction {
        op: written.op,
        dst,
        writes: written.writes,
        src,
        unit: written.unit,
        wait: written.wait,
    })
}

struct Cursor<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
}

impl Cursor<'_> {
    fn error(&self, message: String) -> ParseError {
        ParseError {
            line: self.line,
            column: self.text[..self.pos].chars().count() + 1,
            message,
        }
    }

    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn at_end(&self) -> bool {
        self.pos >= self.text.len()
    }

    fn rest(&self) -> &str {
        self.text[self.pos..].trim_end()
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += self.peek().map_or(0, char::len_utf8);
        }
    }

    fn expect(&mut self, c: char) -> Result<(), ParseError> {
        if self.peek() == Some(c) {
            self.pos += 1;
            Ok(())
        } else {
            let found = self.peek().map_or("end of line".to_string(), |x| {
                format!("`{}`", quoted(x.encode_utf8(&mut [0; 4])))
            });
            Err(self.error(format!("expected `{c}`, found {found}")))
        }
    }

    fn word(&mut self) -> &str {
        let start = self.pos;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_' || c == '-')
        {
            self.pos += 1;
        }
        &self.text[start..self.pos]
    }

    /// Plain digits: their value (`usize::MAX` when they do not fit, for the caller's range
    /// check to reject with the digits as written), or an error expecting `what`.
    fn number(&mut self, what: &str) -> Result<usize, ParseError> {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        let digits = &self.text[start..self.pos];
        if digits.is_empty() {
            return Err(self.error(format!("expected {what}")));
        }
        Ok(digits.parse().unwrap_or(usize::MAX))
    }

    /// One instruction line, from its flags to its last source.
    fn parse_line(&mut self, registers: usize) -> Result<Line, ParseError> {
        let (mut repeat, mut wait) = (0, Wait::default());
        while self.peek() == Some('(') {
            self.parse_flag(&mut repeat, &mut wait)?;
            self.skip_space();
        }
        let (op, unit) = self.parse_op()?;
        let mut line = Line {
            repeat,
            wait,
            op,
            unit,
            dst: None,
            writes: 0,
            src: Vec::new(),
        };
        // A `nop` names nothing; the others a destination, then their sources.
        if op != CoreOp::Nop {
            self.skip_space();
            (line.dst, line.writes) = self.parse_destination(registers, unit)?;
            for _ in 0..op.sources() {
                self.skip_space();
                self.expect(',')?;
                self.skip_space();
                line.src.push(self.parse_source(registers)?);
            }
        }
        self.skip_space();
        if !self.at_end() {
            return Err(self.error(format!(
                "unexpected `{}`: `{}` takes {}",
                quoted(self.rest()),
                op.mnemonic(),
                grfgen_support::text::plural(op.sources() as u64, "source")
            )));
        }
        Ok(line)
    }

    /// A flag: `(rptN)` into `repeat`, `(ss)` or `(sy)` into `wait`.
    fn parse_flag(&mut self, repeat: &mut usize, wait: &mut Wait) -> Result<(), ParseError> {
        self.expect('(')?;
        let start = self.pos;
        let rest = &self.text[self.pos..];
        if rest.starts_with("ss)") || rest.starts_with("sy)") {
            *wait = Wait {
                ss: wait.ss || rest.starts_with("ss"),
                sy: wait.sy || rest.starts_with("sy"),
            };
            self.pos += 3;
            return Ok(());
        }
        if !rest.starts_with("rpt") {
            return Err(self.error("expected `rptN`, `ss` or `sy` inside the parentheses".into()));
        }
        self.pos += 3;
        let digits = self.pos;
        let n = self.number("a repeat count after `rpt`")?;
        if n > 255 {
            let written = &self.text[digits..self.pos];
            self.pos = start;
            return Err(self.error(format!("repeat count {} is above 255", quoted(written))));
        }
        self.expect(')')?;
        *repeat = n;
        Ok(())
    }

    /// The op and its unit: `op[.type][.unit]`, in any order after the op.
    fn parse_op(&mut self) -> Result<(CoreOp, CoreUnit), ParseError> {
        let start = self.pos;
        let word = self.word().to_ascii_lowercase();
        let mut parts = word.split('.');
        let mnemonic = parts.next().unwrap_or("");
        let unit = parts
            .filter_map(|part| CoreUnit::ALL.into_iter().find(|u| u.name() == part))
            .next_back()
            .unwrap_or(CoreUnit::Alu);
        let op = CoreOp::ALL.into_iter().find(|op| op.mnemonic() == mnemonic);
        op.map(|op| (op, unit)).ok_or_else(|| {
            self.pos = start;
            self.error(format!(
                "unknown operation `{}`: expected mov, add, sub, mul, mad or nop",
                quoted(&word)
            ))
        })
    }

    /// A destination: `_` (none), `R<n>` or `R<n>..R<m>` (a long-latency unit's, at most
    /// [`Instruction::MAX_WRITES`] registers); its first register and column, and its count.
    fn parse_destination(
        &mut self,
        registers: usize,
        unit: CoreUnit,
    ) -> Result<(Option<(usize, usize)>, usize), ParseError> {
        if self.peek() == Some('_') {
            self.pos += 1;
            return Ok((None, 0));
        }
        let (first, column) = self.parse_register(registers)?;
        if !self.text[self.pos..].starts_with("..") {
            return Ok((Some((first, column)), 1));
        }
        self.pos += 2;
        let at = self.pos;
        let (last, _) = self.parse_register(registers)?;
        let most = match unit {
            CoreUnit::Alu => 1,
            _ => Instruction::MAX_WRITES,
        };
        if last < first || last - first >= most {
            self.pos = at;
            return Err(self.error(format!(
                "R{first}..R{last} is no range of 1 to {most} registers (the {} unit writes at most {most})",
                unit.name()
            )));
        }
        Ok((Some((first, column)), last - first + 1))
    }

    /// A source: a register, or an immediate `#N` (32 bits).
    fn parse_source(&mut self, registers: usize) -> Result<Written, ParseError> {
        if self.peek() != Some('#') {
            let (n, column) = self.parse_register(registers)?;
            return Ok(Written::Reg(n, column));
        }
        self.pos += 1;
        let start = self.pos;
        let n = self.number("an immediate after `#`, such as #7")?;
        u32::try_from(n).map(Written::Imm).map_err(|_| {
            let written = quoted(&self.text[start..self.pos]);
            self.pos = start;
            self.error(format!("immediate #{written} does not fit in 32 bits"))
        })
    }

    fn parse_register(&mut self, registers: usize) -> Result<(usize, usize), ParseError> {
        let column = self.text[..self.pos].chars().count() + 1;
        match self.peek() {
            Some('r') | Some('R') => self.pos += 1,
            _ => {
                return Err(self.error(
                    "expected a register such as R5 (or, for a source, an immediate such as #7)"
                        .into(),
                ))
            }
        }
        let start = self.pos;
        let n = self.number("a register number after `R`")?;
        if n >= registers {
            let written = quoted(&self.text[start..self.pos]);
            self.pos = start - 1;
            let has = match registers {
                0 => "no program registers".to_string(),
                _ => format!("R0..R{}", registers - 1),
            };
            return Err(self.error(format!(
                "register R{written} does not exist: the GPR has {has}"
            )));
        }
        Ok((n, column))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documents_repeat_expands_to_four_mads() {
        let program = parse("(rpt3) mad.f32 R0, R0, R4, R8", 256).unwrap();
        let text: Vec<String> = program.iter().map(|i| i.to_string()).collect();
        assert_eq!(
            text,
            [
                "mad R0, R0, R4, R8",
                "mad R1, R1, R5, R9",
                "mad R2, R2, R6, R10",
                "mad R3, R3, R7, R11"
            ]
        );
    }

    #[test]
    fn comments_blank_lines_and_case() {
        let text = "// header\n\n  add.u32 r5, R1, r2 ; trailing\nmov R0, R9 // copy\n";
        let program = parse(text, 16).unwrap();
        assert_eq!(program.len(), 2);
        assert_eq!(program[0].op, CoreOp::Add);
        assert_eq!(program[0].src, [Source::Reg(1), Source::Reg(2)]);
        assert_eq!(program[1].dst, 0);
        assert!(parse("", 16).unwrap().is_empty());
    }

    #[test]
    fn errors_name_line_and_column() {
        let err = parse("add R1, R2, R3\nmad R1, R2, X3, R4", 16).unwrap_err();
        assert_eq!((err.line, err.column), (2, 13));
        assert!(err.message.contains("register"), "{err}");
        let err = parse("fma R1, R2, R3", 16).unwrap_err();
        assert_eq!((err.line, err.column), (1, 1));
        let err = parse("add R1, R2", 16).unwrap_err();
        assert_eq!((err.line, err.column), (1, 11));
        let err = parse("add R1, R2, R3, R4", 16).unwrap_err();
        assert!(err.message.contains("takes 2 sources"), "{err}");
        let err = parse("mov R1, R20", 16).unwrap_err();
        assert_eq!((err.line, err.column), (1, 9));
        let err = parse("(rpt3) mov R14, R1", 16).unwrap_err();
        assert!(err.message.contains("past the last register"), "{err}");
        let err = parse("(rep3) mov R1, R1", 16).unwrap_err();
        assert_eq!(err.column, 2);
    }

    /// `program` with the destination of each instruction writing nothing (meaningless, not
    /// printed) set to 0.
    fn normal(program: &[Instruction]) -> Vec<Instruction> {
        let dst = |i: &Instruction| if i.writes == 0 { 0 } else { i.dst };
        program
            .iter()
            .map(|i| Instruction {
                dst: dst(i),
                ..i.clone()
            })
            .collect()
    }

    #[test]
    fn what_display_prints_reads_back() {
        let program = crate::core::workload::random_long_program(2000, 40, 4, 7);
        let text: String = program.iter().map(|i| format!("{i}\n")).collect();
        assert_eq!(normal(&parse(&text, 48).unwrap()), normal(&program));
    }

    #[test]
    fn flags_units_ranges_immediates_and_no_destination() {
        let text = "(ss)(sy)mov.global-mem R8..R11, #5\nadd.f32.sfu _, R1, R2\nnop\n\
                    (rpt1) (sy) mad.tex R0, R1, #3, R2\n";
        let program = parse(text, 16).unwrap();
        let shown: Vec<String> = program.iter().map(|i| i.to_string()).collect();
        assert_eq!(
            shown,
            [
                "(ss)(sy)mov.global-mem R8..R11, #5",
                "add.sfu _, R1, R2",
                "nop",
                "(sy)mad.tex R0, R1, #3, R2",
                "(sy)mad.tex R1, R2, #3, R3",
            ]
        );
        assert_eq!((program[0].writes, program[1].writes), (4, 0));
    }

    #[test]
    fn bad_ranges_and_immediates_are_refused() {
        let err = parse("mov R8..R9, R1", 16).unwrap_err();
        assert!(
            err.message.contains("the alu unit writes at most 1"),
            "{err}"
        );
        let err = parse("mov.tex R8..R12, R1", 16).unwrap_err();
        assert_eq!((err.line, err.column), (1, 13));
        let err = parse("add R1, R2, #4294967296", 16).unwrap_err();
        assert!(err.message.contains("does not fit in 32 bits"), "{err}");
        let err = parse("(rpt1) mov.tex R12..R15, R1", 16).unwrap_err();
        assert!(err.message.contains("past the last register"), "{err}");
        let err = parse("(xx) mov R1, R2", 16).unwrap_err();
        assert_eq!(err.column, 2);
    }
}
