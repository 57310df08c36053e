//! Programs for the core slice: instructions, the text format, `(rptN)` expansion.
//!
//! Text format, one instruction per line:
//!
//! ```text
//! // comment            ; comment too
//! (rpt3) mad.f32 R0, R0, R4, R8     // (rptN): N+1 instructions, every register index +1 each
//! add.u32 r5, r1, r2                // op[.type] dst, src0[, src1[, src2]]
//! ```
//!
//! Ops and their sources: `mov d, a` (1), `add`/`sub`/`mul d, a, b` (2), `mad d, a, b, c`
//! (3, `a*b+c`). The type suffix is accepted and ignored: every lane computes on wrapping
//! integers. Registers are `R<n>` or `r<n>`.

use std::fmt;
use std::ops::Range;

use grfgen_hdl::params::{CoreOp, CoreUnit};

use crate::text::quoted;

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
    /// The most registers one instruction writes (a four-component texture or load result).
    pub const MAX_WRITES: usize = 4;

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

/// Parses a program; registers must be below `registers`.
pub fn parse(text: &str, registers: usize) -> Result<Vec<Instruction>, ParseError> {
    let mut program = Vec::new();
    for (index, raw) in crate::text::source_lines(text).into_iter().enumerate() {
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
        let repeat = if cursor.peek() == Some('(') {
            cursor.parse_repeat()?
        } else {
            0
        };
        cursor.skip_space();
        let op = cursor.parse_op()?;
        let mut registers_seen = Vec::new();
        // A `nop` names nothing; the others a destination, then their sources.
        let operands = if op == CoreOp::Nop {
            0
        } else {
            op.sources() + 1
        };
        for k in 0..operands {
            cursor.skip_space();
            if k > 0 {
                cursor.expect(',')?;
                cursor.skip_space();
            }
            registers_seen.push(cursor.parse_register(registers)?);
        }
        cursor.skip_space();
        if !cursor.at_end() {
            return Err(cursor.error(format!(
                "unexpected `{}`: `{}` takes {}",
                quoted(cursor.rest()),
                op.mnemonic(),
                crate::text::plural(op.sources() as u64, "source")
            )));
        }
        for r in 0..=repeat {
            let shifted: Vec<usize> = registers_seen.iter().map(|&(n, _)| n + r).collect();
            if let Some(pos) = shifted.iter().position(|&n| n >= registers) {
                return Err(ParseError {
                    line,
                    column: registers_seen[pos].1,
                    message: format!(
                        "(rpt{repeat}) takes R{} to R{}, past the last register R{}",
                        registers_seen[pos].0,
                        shifted[pos],
                        registers.saturating_sub(1)
                    ),
                });
            }
            program.push(match shifted.split_first() {
                Some((&dst, src)) => Instruction::alu(op, dst, src),
                None => Instruction::alu(op, 0, &[]),
            });
        }
    }
    Ok(program)
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
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_')
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

    fn parse_repeat(&mut self) -> Result<usize, ParseError> {
        self.expect('(')?;
        let start = self.pos;
        if !self.text[self.pos..].starts_with("rpt") {
            return Err(self.error("expected `rptN` inside the parentheses".into()));
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
        Ok(n)
    }

    fn parse_op(&mut self) -> Result<CoreOp, ParseError> {
        let start = self.pos;
        let word = self.word().to_ascii_lowercase();
        let mnemonic = word.split('.').next().unwrap_or("");
        CoreOp::ALL
            .into_iter()
            .find(|op| op.mnemonic() == mnemonic)
            .ok_or_else(|| {
                self.pos = start;
                self.error(format!(
                    "unknown operation `{}`: expected mov, add, sub, mul or mad",
                    quoted(&word)
                ))
            })
    }

    fn parse_register(&mut self, registers: usize) -> Result<(usize, usize), ParseError> {
        let column = self.text[..self.pos].chars().count() + 1;
        match self.peek() {
            Some('r') | Some('R') => self.pos += 1,
            _ => return Err(self.error("expected a register such as R5".into())),
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
}
