//! Keeping the text read, with every register token's place and role, for printing the program
//! again with its registers renamed.

use std::ops::Range;

/// A register token in the text (`r12.x`, `hr3.w`), in an operand or inside a memory operand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegisterToken {
    /// Its bytes in the text; an offset `+N` after it is not part of it.
    pub span: Range<usize>,
    /// Whether it is a half register, `hr`.
    pub half: bool,
    /// `4N + c` as written (for `hr` the half index; its merged full register is `index / 2`).
    pub index: usize,
    /// Whether it carries `(r)`: it advances with each `(rptN)` copy.
    pub repeat: bool,
    /// The index of the ir3 instruction it belongs to (the first copy of an `(rptN)` group).
    pub instruction: usize,
    /// The instruction's copies, `(rptN)`'s N + 1.
    pub copies: usize,
    /// The operand it is in, from 0.
    pub operand: usize,
    /// Whether that operand is the instruction's destination.
    pub destination: bool,
    /// Whether its instruction runs on no unit (dropped: flow, barriers).
    pub dropped: bool,
}

/// What becomes of a part of an `(rptN)` line written as its copies, one per line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Edit {
    /// Left out of every copy: `(rptN)`, `(r)`.
    Drop,
    /// Kept on the first copy only: `(ss)`, `(sy)`, `(jp)`.
    First,
    /// Kept on the last copy only: `(nopN)`.
    Last,
    /// A value that advances with each copy (an `(r)` constant or immediate), as copy k reads it.
    Advance(Advance),
}

/// A constant or immediate operand that advances with each `(rptN)` copy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Advance {
    /// A constant `cN.c`/`hcN.c` (`named`), else `c[N]` or `c<aK.x + N>` (`address`): its index.
    Const {
        /// `hc`.
        half: bool,
        /// `4N + c`, or the offset.
        index: i64,
        /// Whether it is named `cN.c`.
        named: bool,
        /// The address register of a relative one, `a0.x` or `a1.x`.
        address: Option<&'static str>,
    },
    /// An integer as written.
    Int(i64),
    /// A float or raw pattern: its 32 bits.
    Bits(u32),
}

/// The parts of an `(rptN)` line that change when it is written as its copies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RepeatLine {
    /// The index of its first copy.
    pub instruction: usize,
    /// Each part's bytes in the text and what becomes of it.
    pub edits: Vec<(Range<usize>, Edit)>,
}

/// One line of the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceLine {
    /// Its bytes in the text, without the line ending.
    pub span: Range<usize>,
    /// The indices of the ir3 instructions (`(rptN)` copies) it holds; empty if none.
    pub instructions: Range<usize>,
}

/// One register token as a renaming sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegisterUse {
    /// The ir3 instruction's index (after `(rptN)` expansion).
    pub instruction: usize,
    /// The operand's position, from 0.
    pub operand: usize,
    /// The component offset from the token's register (0 for the token as written).
    pub component: usize,
    /// The index the token names, `4N + c` (for `hr` the half-register index).
    pub index: usize,
    /// Whether it is a half register.
    pub half: bool,
    /// Whether it is the instruction's destination.
    pub destination: bool,
}

/// The parsed text, kept for writing it back.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ir3Source {
    /// The text as given.
    pub text: String,
    /// Every line, in order.
    pub lines: Vec<SourceLine>,
    /// Every register token up to the last `end`, in text order.
    pub registers: Vec<RegisterToken>,
    /// The `(rptN)` lines' parts that change when they are written as copies.
    pub repeats: Vec<RepeatLine>,
}

/// The byte range of `part`, a slice of `base`, in `base`.
pub(super) fn span(base: &str, part: &str) -> Range<usize> {
    let start = (part.as_ptr() as usize).saturating_sub(base.as_ptr() as usize);
    start..start + part.len()
}

/// A register's name: `r{index / 4}.{xyzw}`, with an `h` for a half register.
pub fn register_name(half: bool, index: u64) -> String {
    let component = ['x', 'y', 'z', 'w'][(index % 4) as usize];
    format!("{}r{}.{component}", if half { "h" } else { "" }, index / 4)
}

impl Ir3Source {
    /// The text with each register token renamed by `rename`, everything else byte for byte.
    ///
    /// The new index is printed in the token's form, full `rN.c` or half `hrN.c`.
    pub fn text_with(&self, mut rename: impl FnMut(RegisterUse) -> usize) -> String {
        let mut out = String::with_capacity(self.text.len());
        let mut at = 0;
        for token in &self.registers {
            out.push_str(&self.text[at..token.span.start]);
            let index = rename(RegisterUse {
                instruction: token.instruction,
                operand: token.operand,
                component: 0,
                index: token.index,
                half: token.half,
                destination: token.destination,
            });
            out.push_str(&register_name(token.half, index as u64));
            at = token.span.end;
        }
        out.push_str(&self.text[at..]);
        out
    }
}
