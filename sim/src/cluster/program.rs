//! Programs for the clustered register file (SPEC S4): the text format and its instructions.
//!
//! One instruction per line, `c<k>: <op> <dst>, <src>...`:
//!
//! ```text
//! c2: mov v1, #7          ; cluster 2 writes 7 to virtual register v1
//! c1: add v3, v1, #0x10   // sources are registers or immediates (#N, #0xN)
//! c1: out v3              ; v3's value is a program output
//! ```
//!
//! Ops: `mov d, a`, `add sub mul and or xor d, a, b` (32-bit, wrapping), `out a`. Clusters are
//! numbered from 1, as in the document. Virtual registers are `v<N>`; after partitioning, the
//! main file's global registers are `mvr<N>`. A register read before any write is a program
//! input.

use std::fmt;

use crate::core::ParseError;
use grfgen_support::text::{self, quoted};

/// An operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClusterOp {
    /// `d = a`.
    Mov,
    /// `d = a + b`.
    Add,
    /// `d = a - b`.
    Sub,
    /// `d = a * b` (low 32 bits).
    Mul,
    /// `d = a & b`.
    And,
    /// `d = a | b`.
    Or,
    /// `d = a ^ b`.
    Xor,
    /// `a` is a program output.
    Out,
}

impl ClusterOp {
    /// Every op with its mnemonic.
    const ALL: [(ClusterOp, &'static str); 8] = [
        (ClusterOp::Mov, "mov"),
        (ClusterOp::Add, "add"),
        (ClusterOp::Sub, "sub"),
        (ClusterOp::Mul, "mul"),
        (ClusterOp::And, "and"),
        (ClusterOp::Or, "or"),
        (ClusterOp::Xor, "xor"),
        (ClusterOp::Out, "out"),
    ];

    /// The op's mnemonic.
    pub fn mnemonic(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(op, _)| *op == self)
            .expect("every op")
            .1
    }

    /// The op spelled `mnemonic`, if there is one.
    pub fn from_mnemonic(mnemonic: &str) -> Option<Self> {
        Self::ALL
            .iter()
            .find(|(_, m)| *m == mnemonic)
            .map(|(op, _)| *op)
    }

    /// Sources it reads.
    pub fn sources(self) -> usize {
        match self {
            ClusterOp::Mov | ClusterOp::Out => 1,
            _ => 2,
        }
    }

    /// Whether it writes a destination.
    pub fn writes(self) -> bool {
        self != ClusterOp::Out
    }

    /// Its value on 32-bit operands `a` and `b` (`b` unused by one-source ops).
    pub fn apply(self, a: u32, b: u32) -> u32 {
        match self {
            ClusterOp::Mov | ClusterOp::Out => a,
            ClusterOp::Add => a.wrapping_add(b),
            ClusterOp::Sub => a.wrapping_sub(b),
            ClusterOp::Mul => a.wrapping_mul(b),
            ClusterOp::And => a & b,
            ClusterOp::Or => a | b,
            ClusterOp::Xor => a ^ b,
        }
    }
}

/// A register: a virtual register, local to the cluster that uses it, or a global one in the
/// main file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reg {
    /// Virtual register `v<N>`.
    Virtual(usize),
    /// Global virtual register `mvr<N>`, held in the main file.
    Main(usize),
}

impl fmt::Display for Reg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reg::Virtual(n) => write!(f, "v{n}"),
            Reg::Main(n) => write!(f, "mvr{n}"),
        }
    }
}

/// A source operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// A register.
    Reg(Reg),
    /// An immediate.
    Imm(u32),
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Operand::Reg(r) => r.fmt(f),
            Operand::Imm(v) => write!(f, "#{v}"),
        }
    }
}

/// An instruction's source operands, at most [`Sources::MAX`], held in place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sources {
    /// The operands; those from `len` on are unused.
    operands: [Operand; Sources::MAX],
    /// How many there are.
    len: usize,
}

impl Sources {
    /// The most sources an operation takes.
    pub const MAX: usize = 2;
}

impl std::ops::Deref for Sources {
    type Target = [Operand];
    fn deref(&self) -> &[Operand] {
        &self.operands[..self.len]
    }
}

impl std::ops::DerefMut for Sources {
    fn deref_mut(&mut self) -> &mut [Operand] {
        &mut self.operands[..self.len]
    }
}

impl FromIterator<Operand> for Sources {
    /// The first [`Sources::MAX`] operands of `iter`: every operation's count is checked
    /// against `ClusterOp::sources` before its operands are gathered.
    #[inline]
    fn from_iter<I: IntoIterator<Item = Operand>>(iter: I) -> Self {
        let mut sources = Sources {
            operands: [Operand::Imm(0); Sources::MAX],
            len: 0,
        };
        for (slot, operand) in sources.operands.iter_mut().zip(iter) {
            *slot = operand;
            sources.len += 1;
        }
        sources
    }
}

/// One instruction, with the cluster that executes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClusterInstr {
    /// The executing cluster, from 1.
    pub cluster: usize,
    /// The operation.
    pub op: ClusterOp,
    /// The destination, for ops that write.
    pub dst: Option<Reg>,
    /// The sources, `op.sources()` of them.
    pub src: Sources,
}

/// Which register file a register number counts in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegKind {
    /// Virtual registers, `v<N>`.
    Virtual,
    /// Global (main-file) registers, `mvr<N>`.
    Main,
}

impl Reg {
    /// The register's number if it is of `kind`.
    pub fn number(self, kind: RegKind) -> Option<usize> {
        match (self, kind) {
            (Reg::Virtual(n), RegKind::Virtual) | (Reg::Main(n), RegKind::Main) => Some(n),
            _ => None,
        }
    }
}

/// The lowest register number of `kind` above every one `program` names (0 if none): where
/// registers a rewrite adds can start without aliasing the program's own.
pub fn first_free(program: &[ClusterInstr], kind: RegKind) -> usize {
    program
        .iter()
        .map(|i| i.first_free(kind))
        .max()
        .unwrap_or(0)
}

impl ClusterInstr {
    /// The lowest register number of `kind` above every one it names (0 if none).
    pub fn first_free(&self, kind: RegKind) -> usize {
        let above = |r: Reg| r.number(kind).map_or(0, |n| n + 1);
        let above_operand = |s: &Operand| match s {
            Operand::Reg(r) => above(*r),
            Operand::Imm(_) => 0,
        };
        let src = self.src.iter().map(above_operand).max().unwrap_or(0);
        self.dst.map_or(0, above).max(src)
    }

    /// The registers it reads, each once, in source order.
    pub fn reads(&self) -> impl Iterator<Item = Reg> + '_ {
        self.src.iter().enumerate().filter_map(|(k, s)| match s {
            Operand::Reg(r) if !self.src[..k].contains(s) => Some(*r),
            _ => None,
        })
    }
}

impl fmt::Display for ClusterInstr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "c{}: {}", self.cluster, self.op.mnemonic())?;
        let mut sep = " ";
        if let Some(d) = self.dst {
            write!(f, " {d}")?;
            sep = ", ";
        }
        for s in self.src.iter() {
            write!(f, "{sep}{s}")?;
            sep = ", ";
        }
        Ok(())
    }
}

/// Parses `text` into instructions for `clusters` clusters. Errors name the line and column.
pub fn parse(text: &str, clusters: usize) -> Result<Vec<ClusterInstr>, ParseError> {
    let mut program = Vec::new();
    for (n, raw) in grfgen_support::text::source_lines(text)
        .into_iter()
        .enumerate()
    {
        let code = raw.split(';').next().unwrap_or("");
        let code = code.split("//").next().unwrap_or("");
        if code.trim().is_empty() {
            continue;
        }
        program.push(parse_line(code, n + 1, clusters)?);
    }
    Ok(program)
}

/// One instruction line (comments removed).
fn parse_line(code: &str, line: usize, clusters: usize) -> Result<ClusterInstr, ParseError> {
    let error = |at: &str, message: String| ParseError {
        line,
        column: text::column(code, at),
        message,
    };
    let (label, rest) = code
        .split_once(':')
        .ok_or_else(|| error(code.trim_start(), "expected `c<k>: <op> ...`".into()))?;
    let label = label.trim();
    let cluster = label
        .strip_prefix('c')
        .and_then(number)
        .filter(|&k| (1..=clusters).contains(&k))
        .ok_or_else(|| {
            error(
                label,
                format!("`{}`: expected a cluster c1..c{clusters}", quoted(label)),
            )
        })?;
    let rest = rest.trim();
    let (name, operands) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let op = ClusterOp::from_mnemonic(name).ok_or_else(|| {
        let ops: Vec<&str> = ClusterOp::ALL.iter().map(|(_, m)| *m).collect();
        error(
            name,
            format!(
                "unknown operation `{}`: expected {}",
                quoted(name),
                ops.join(", ")
            ),
        )
    })?;
    let fields: Vec<&str> = operands.split(',').map(str::trim).collect();
    let wanted = op.sources() + usize::from(op.writes());
    if fields.len() != wanted || fields.iter().any(|f| f.is_empty()) {
        return Err(error(
            name,
            format!("`{name}` takes {wanted} operand(s), separated by commas"),
        ));
    }
    let (dst, sources) = match op.writes() {
        true => {
            let dst = register(fields[0]).ok_or_else(|| {
                error(
                    fields[0],
                    format!(
                        "`{}`: expected a register v<N> (N at most {MAX_REGISTER})",
                        quoted(fields[0])
                    ),
                )
            })?;
            (Some(dst), &fields[1..])
        }
        false => (None, &fields[..]),
    };
    let src = sources
        .iter()
        .map(|f| {
            operand(f).ok_or_else(|| {
                error(
                    f,
                    format!(
                        "`{}`: expected a register v<N> (N at most {MAX_REGISTER}) or an immediate #N",
                        quoted(f)
                    ),
                )
            })
        })
        .collect::<Result<_, _>>()?;
    Ok(ClusterInstr {
        cluster,
        op,
        dst,
        src,
    })
}

/// A decimal number of plain digits.
pub(crate) fn number(text: &str) -> Option<usize> {
    match !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        true => text.parse().ok(),
        false => None,
    }
}

/// The highest register number a program may write (`v<N>`, `mvr<N>`): the compiler numbers
/// its new registers past the program's highest, so that they never run out.
pub const MAX_REGISTER: usize = u32::MAX as usize;

/// `v<N>` or `mvr<N>`, N at most [`MAX_REGISTER`].
fn register(text: &str) -> Option<Reg> {
    let number = |n: &str| number(n).filter(|&n| n <= MAX_REGISTER);
    if let Some(n) = text.strip_prefix("mvr") {
        return number(n).map(Reg::Main);
    }
    text.strip_prefix('v').and_then(number).map(Reg::Virtual)
}

/// A register or `#N` / `#0xN` (32 bits).
fn operand(text: &str) -> Option<Operand> {
    match text.strip_prefix('#') {
        Some(imm) => immediate(imm).map(Operand::Imm),
        None => register(text).map(Operand::Reg),
    }
}

/// `N` or `0xN`, 32 bits.
pub(crate) fn immediate(text: &str) -> Option<u32> {
    match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) if !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit()) => {
            u32::from_str_radix(hex, 16).ok()
        }
        Some(_) => None,
        None => number(text).and_then(|n| u32::try_from(n).ok()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_reads_and_prints_back() {
        let text =
            "c2: mov v1, #7 ; write\n\n// a comment line\nc1: add v3, v1, #0x10\nc3: out v3\n";
        let program = parse(text, 3).unwrap();
        let listing: Vec<String> = program.iter().map(|i| i.to_string()).collect();
        assert_eq!(
            listing,
            ["c2: mov v1, #7", "c1: add v3, v1, #16", "c3: out v3"]
        );
        assert_eq!(program[1].reads().collect::<Vec<_>>(), [Reg::Virtual(1)]);
    }

    #[test]
    fn errors_name_line_and_column() {
        let err = parse("c1: mov v1, #1\n  c4: mov v2, #1", 3).unwrap_err();
        assert_eq!((err.line, err.column), (2, 3), "{err}");
        assert!(err.message.contains("c1..c3"), "{err}");
        let err = parse("c1: mv v1, #1", 3).unwrap_err();
        assert_eq!((err.line, err.column), (1, 5), "{err}");
        let err = parse("c1: add v1, #1", 3).unwrap_err();
        assert!(err.message.contains("3 operand"), "{err}");
        let err = parse("c1: add v1, #1, r2", 3).unwrap_err();
        assert_eq!(err.column, 17, "{err}");
        let err = parse("c1: mov v1, #4294967296", 3).unwrap_err();
        assert!(err.message.contains("immediate"), "{err}");
    }
}
