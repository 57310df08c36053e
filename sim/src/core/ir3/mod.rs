//! The ir3 reader: Adreno shader assembly, as Mesa's disassembler prints it for a3xx..a7xx
//! (and as its assembler reads it), lowered onto the core slice's micro-ops.
//!
//! [`read`] takes the text, line by line: an encoding prefix (`:c:iiii:cccc[hhx_llx] `,
//! `iiii[hhx_llx] `, `iiii[   ] `) is stripped; blank lines, `;` and `//` comments, `@`
//! directives and `name:` labels are skipped; after the last `end` nothing is read. Every
//! other line is one instruction: flags, a mnemonic, operands. An unknown opcode, flag or
//! operand form is an error at its line and column, never skipped.
//!
//! # Units
//!
//! | opcodes (mnemonic base)                                              | unit          |
//! |----------------------------------------------------------------------|---------------|
//! | cat0 `nop`                                                           | dropped, `nops` |
//! | cat0 `end`, flow (`br jump call kill shps getone predt ...`)         | dropped, `flow_dropped` |
//! | cat7 (`bar fence sleep lock alias ccinv ...`)                        | dropped, `flow_dropped` |
//! | cat1 (`mov cov mova swz gat sct movs ...`), cat2 but `bary flat`, cat3 | `Alu`       |
//! | cat6 `getspid getwid getfiberid`                                     | `Alu`         |
//! | `bary.f`, `flat.b`, `ldlv`                                           | `Varying`     |
//! | cat4 (`rcp rsq log2 exp2 sin cos sqrt ...`)                          | `Sfu`         |
//! | cat5 (`sam isam getsize dsx brcst quad_shuffle tcinv ...`)           | `Tex`         |
//! | `ldl stl ldlw stlw`, `atomic` with `.l`                              | `LocalMem`    |
//! | the other cat6 (`ldg stg ldp stp ldib stib ldc stc resinfo shfl ...`)| `GlobalMem`   |
//!
//! # What an instruction writes and reads
//!
//! The first operand is the destination, but for stores, which write nothing. A destination
//! that is no GPR (`p0.x`, `a0.x`, `c[..]`, `rtN.c`) or is the sentinel `r63.x`/`hr63.x`
//! writes nothing. Every other operand is read; a register reads one component unless a rule
//! below says more; a vector's components are consecutive indices (`r1.w`, `r2.x`, ...).
//!
//! | instruction                                   | components written                 |
//! |-----------------------------------------------|------------------------------------|
//! | cat1..cat4, `shfl`, `getspid`, ...            | 1                                  |
//! | cat5                                          | its mask's, lowest to highest component, gaps included; 1 without a mask |
//! | `ldg ldp ldl ldlw ldlv`                       | the trailing count (a field, not read) |
//! | `ldib ldgb ldc resbase atomic`                | `.N`, 1 without                    |
//! | `resinfo`                                     | `.N`, else one per dimension of `.Nd` |
//! | stores                                        | none                               |
//!
//! | vector source                                 | components read                    |
//! |-----------------------------------------------|------------------------------------|
//! | a store's data: `stg stp stl stlw stc stsc sti l2g g2l` | the trailing count       |
//! | a store's data: `stib stgb prefetch`          | `.N`, 1 without                    |
//! | cat5 sampling (`sam samb saml isam isaml isamm getlod gather4*`, `samgq samgp*`): the first register source, the coordinates | 2; 1 with `.1d` or `.v`; 3 with `.3d`; +1 with `.a` (array index); +1 with `.p` (projector) |
//! | `samgq samgp*`: the next register source, the gradients | 2 per dimension (`.1d`/`.v` 1, `.3d` 3, else 2) |
//! | cat5 with `.s2en`: the last register source, the sampler/texture | 1          |
//! | any other register (bias, lod, offset, ...)  | 1                                  |
//!
//! A store's first operand is its target when it is a memory operand (its registers are
//! reads), a constant (written, so not read) or `sti`'s register; the data operand follows it.
//! Otherwise (the a6xx `stib.b r1.x, r0.x, 0`) the first operand is the data. A memory
//! operand's registers (`g[r1.x+r2.y<<2]`) are reads of one component each, its constants
//! constant reads; its integers are address fields. A merged half register `hrN.c` lives in
//! full register `(4N + c) / 2`: a write counts the distinct full registers its components
//! cover, a read one per component. More than 4 full registers written is an error; counts
//! are 0..=255. Reads are counted in the statistics only for instructions that run on a unit;
//! the registers of dropped ones are still checked against the file and kept in the source.
//! A `+N` after a register (`r0.y+8`) is an offset field, no operand.
//!
//! # Micro-ops
//!
//! Each copy of an instruction that runs on a unit becomes `ceil(n / 3)` micro-ops for its `n`
//! value operands (registers per component, constants, immediates, predicates, address
//! registers; not `s#`/`t#`, branch targets or counts): the first ones read 3 and write
//! nothing, the last reads the rest and carries the destination; all on the unit, the wait
//! flags on the first. The op by the micro-op's operand count:
//!
//! | operands | op                                                                    |
//! |----------|-----------------------------------------------------------------------|
//! | 0        | `Mov` of `Imm(0)`                                                     |
//! | 1        | `Mov`                                                                 |
//! | 2        | `Sub` for a base starting `sub`, `Mul` for one starting `mul` (`mul mull`), else `Add` |
//! | 3        | `Mad`                                                                 |
//!
//! Values that are no GPR read: an integer its 32-bit two's complement; a float the f32 bits
//! of its value (half floats too; a hex pattern `(0x6)`, `h(0x2)` its raw bits; the FLUT names
//! the f32 bits of their constants); a constant `cN.c` [`const_value`]`(4N + c)`, `hcN.c` at
//! `(4N + c) / 2`, a relative or bracketed one at its offset; a predicate 1 (`!p` 0); an address
//! register 0.
//!
//! `(rptN)` runs N + 1 copies: copy k writes k components further; a source with `(r)`
//! advances k (a register's and a constant's index, an immediate's value, wrapping); the
//! others stay. The group's `(ss)`/`(sy)` go on copy 0, its `(nopN)` nops after the last copy.
//! A dropped instruction's `(ss)`/`(sy)` pass to the next micro-op (a kept nop included), so
//! no wait is lost. Ignored flags and modifiers are counted once per written occurrence.

mod line;
mod lower;
mod opcodes;
mod operand;
mod roles;
mod source_line;
mod text;
mod write;

#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

use serde::Serialize;

use crate::compilers::core_allocate::Slot;
use crate::core::figures::{Isa, ProgramFigures};
use crate::core::program::{Instruction, ParseError};

pub use text::{
    register_name, Advance, Edit, Ir3Source, RegisterToken, RegisterUse, RepeatLine, SourceLine,
};
pub use write::write;

/// How [`read`] lowers a program.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ir3Options {
    /// Whether each nop becomes a `Nop` micro-op (else nops are dropped, only counted).
    pub keep_nops: bool,
}

/// An ir3 program lowered onto the core's micro-ops.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ir3Program {
    /// The core's micro-ops, in program order.
    pub instructions: Vec<Instruction>,
    /// Per micro-op: the index of the ir3 instruction (after `(rptN)` expansion) it comes from.
    pub origin: Vec<usize>,
    /// Per micro-op: where each of its registers comes from in the text.
    pub places: Vec<Places>,
    /// What the program holds.
    pub stats: Ir3Stats,
    /// The parsed text, kept for writing it back.
    pub source: Ir3Source,
}

/// Where a micro-op's register comes from in the text: an ir3 instruction's operand, one of
/// its components.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Place {
    /// The ir3 instruction, after `(rptN)` expansion.
    pub instruction: usize,
    /// The operand, from 0.
    pub operand: usize,
    /// The register token, an index into [`Ir3Source::registers`].
    pub token: usize,
    /// The component from the token's register (as this copy names it), in the token's units
    /// (half registers for `hr`).
    pub component: usize,
}

/// The places of one micro-op's registers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Places {
    /// Per source, parallel to `src`: the place of a register read.
    pub sources: Vec<Option<Place>>,
    /// Per register written, `dst + k`: its place.
    pub written: Vec<Place>,
    /// Per register written: whether the write covers one half of it only (the other half
    /// keeps its value).
    pub partial: Vec<bool>,
}

impl Ir3Program {
    /// The registers allocation must keep together: each operand's components (consecutive
    /// registers, in order, across the micro-ops an instruction becomes), and each half write
    /// with the value its register held.
    pub fn groups(&self) -> Vec<Vec<Slot>> {
        let mut operands: BTreeMap<(usize, usize, bool), Vec<Slot>> = BTreeMap::new();
        let mut groups = Vec::new();
        for (i, places) in self.places.iter().enumerate() {
            for (s, place) in places.sources.iter().enumerate() {
                if let Some(p) = place {
                    let key = (p.instruction, p.token, false);
                    operands.entry(key).or_default().push(Slot::Source(i, s));
                }
            }
            for (k, p) in places.written.iter().enumerate() {
                let key = (p.instruction, p.token, true);
                operands.entry(key).or_default().push(Slot::Written(i, k));
                if places.partial[k] {
                    groups.push(vec![Slot::Kept(i, k), Slot::Written(i, k)]);
                }
            }
        }
        groups.extend(operands.into_values().filter(|g| g.len() > 1));
        groups
    }
}

/// Counts over an ir3 program, after `(rptN)` expansion, up to the last `end`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Ir3Stats {
    /// The figures a report gives of the text (`figures.isa` is ir3).
    #[serde(flatten)]
    pub figures: ProgramFigures,
    /// Core micro-ops produced.
    pub micro_ops: u64,
    /// Flags and modifiers read and ignored, by name (`"(jp)"`), per written occurrence.
    pub flags_ignored: BTreeMap<String, u64>,
}

impl Default for Ir3Stats {
    /// Nothing counted yet, of an ir3 text.
    fn default() -> Self {
        Self {
            figures: ProgramFigures {
                isa: Isa::Ir3,
                ..ProgramFigures::default()
            },
            micro_ops: 0,
            flags_ignored: BTreeMap::new(),
        }
    }
}

/// The constant file's seeded contents: constant `index` holds `fmix32(index + 0x9e3779b9)`.
///
/// `fmix32` is MurmurHash3's 32-bit finalizer; the contents are the same on every run.
pub fn const_value(index: u32) -> u32 {
    let mut z = index.wrapping_add(0x9e37_79b9);
    z = (z ^ (z >> 16)).wrapping_mul(0x85eb_ca6b);
    z = (z ^ (z >> 13)).wrapping_mul(0xc2b2_ae35);
    z ^ (z >> 16)
}

/// Reads ir3 `text` for a core of `registers` program registers.
pub fn read(text: &str, registers: usize, options: &Ir3Options) -> Result<Ir3Program, ParseError> {
    let lines = grfgen_support::text::source_lines(text);
    let stop = lines
        .iter()
        .rposition(|l| line::is_end(l))
        .map_or(lines.len(), |last| last + 1);
    let mut lowering = lower::Lowering::new(registers, options.keep_nops);
    let mut source = Ir3Source {
        text: text.to_string(),
        ..Ir3Source::default()
    };
    for (i, &raw) in lines.iter().enumerate() {
        let first = lowering.next();
        if i < stop {
            let line = source_line::Line {
                number: i + 1,
                text: raw,
            };
            if let Some(statement) = line::statement(&line)? {
                lowering.add(&line, &statement, &mut source, text)?;
            }
        }
        source.lines.push(SourceLine {
            span: text::span(text, raw),
            instructions: first..lowering.next(),
        });
    }
    Ok(lowering.finish(source))
}
