//! One line of ir3 text: its encoding prefix, comments, instruction flags, mnemonic and
//! operands, each with its modifiers (the atoms themselves are read in `operand`).

use super::opcodes::{self, Kind};
use super::operand::{self, Atom};
use super::source_line::Line;
use crate::core::program::ParseError;
use grfgen_support::text::quoted;

/// The instruction flags written before (or glued after) the mnemonic.
#[derive(Clone, Debug, Default)]
pub(super) struct Flags<'a> {
    /// `(sy)`.
    pub sy: bool,
    /// `(ss)`.
    pub ss: bool,
    /// `(rptN)`'s N: the instruction runs N + 1 times.
    pub rpt: usize,
    /// `(nopN)`'s N: nops after the instruction.
    pub nop: usize,
    /// The flags read and ignored, by name with their parentheses.
    pub ignored: Vec<&'static str>,
    /// Every flag as written, in order.
    pub written: Vec<&'a str>,
}

/// An instruction line, read.
#[derive(Debug)]
pub(super) struct Statement<'a> {
    /// Its flags.
    pub flags: Flags<'a>,
    /// The mnemonic as written, suffixes included.
    pub mnemonic: &'a str,
    /// The mnemonic's base, before the first `.`.
    pub base: &'a str,
    /// The mnemonic's `.` parts after the base.
    pub suffixes: Vec<&'a str>,
    /// What the opcode table says of the base.
    pub kind: Kind,
    /// The operands, in order.
    pub operands: Vec<Operand<'a>>,
}

/// One operand: its modifiers and its atom.
#[derive(Debug)]
pub(super) struct Operand<'a> {
    /// The operand as written, modifiers included.
    pub text: &'a str,
    /// `(r)`: the operand advances with each `(rptN)` copy.
    pub repeat: bool,
    /// The `(r)` as written.
    pub repeat_mark: Option<&'a str>,
    /// The atom as written, after the modifiers.
    pub atom_text: &'a str,
    /// The modifiers read and ignored, by name with their parentheses.
    pub ignored: Vec<&'static str>,
    /// A cat5 annotation, type or write mask, as written (for errors).
    pub annotation: Option<&'a str>,
    /// The cat5 write mask's components (bit 0 = x), when one is given.
    pub mask: Option<u8>,
    /// The atom after the modifiers.
    pub atom: Atom<'a>,
}

/// Instruction flags read and ignored.
const IGNORED_FLAGS: &[&str] = &["(jp)", "(ul)", "(eq)", "(sat)", "(ei)"];

/// Operand modifiers read and ignored: source modifiers, and the marks before a destination
/// (end of input, conversion rounding).
const IGNORED_MODIFIERS: &[&str] = &[
    "(neg)",
    "(abs)",
    "(absneg)",
    "(last)",
    "(not)",
    "(ei)",
    "(even)",
    "(pos_infinity)",
    "(neg_infinity)",
    "(zero)",
];

/// cat5 result types.
const TYPES: &[&str] = &["f16", "f32", "u16", "u32", "s16", "s32", "u8", "s8"];

/// The text after a leading run of ASCII digits, when there is at least one.
fn after_digits(text: &str) -> Option<&str> {
    let n = text.bytes().take_while(u8::is_ascii_digit).count();
    (n > 0).then(|| &text[n..])
}

/// The text after an encoding in brackets, `[hhhhhhhhx_llllllllx]` or blanks `[   ]`, and the
/// whitespace after it.
fn after_encoding(text: &str) -> Option<&str> {
    let inner = text.strip_prefix('[')?;
    let close = inner.find(']')?;
    let words: Vec<&str> = inner[..close].split('_').collect();
    let hex = words.len() == 2
        && words.iter().all(|w| {
            w.strip_suffix('x')
                .is_some_and(|h| !h.is_empty() && h.bytes().all(|b| b.is_ascii_hexdigit()))
        });
    let blank = inner[..close].bytes().all(|b| b == b' ');
    let rest = &inner[close + 1..];
    let separated = rest.is_empty() || rest.starts_with(char::is_whitespace);
    ((hex || blank) && separated).then(|| rest.trim_start())
}

/// The line without its leading whitespace and encoding prefix: `:cat:idx:cycle[..] ` (Mesa)
/// or `idx[..] ` (pgmdump, `--expand` too).
pub(super) fn strip_prefix(text: &str) -> &str {
    let text = text.trim_start();
    let mesa = text.strip_prefix(':').and_then(|s| {
        let s = after_digits(s)?.strip_prefix(':')?;
        let s = after_digits(s)?.strip_prefix(':')?;
        after_encoding(after_digits(s)?)
    });
    mesa.or_else(|| after_encoding(after_digits(text)?))
        .unwrap_or(text)
}

/// The code of a line: no prefix, no `;` or `//` comment, trimmed.
fn code(text: &str) -> &str {
    let text = strip_prefix(text);
    let end = [text.find(';'), text.find("//")]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(text.len());
    text[..end].trim()
}

/// Whether `code` is a label line, `name:`.
fn is_label(code: &str) -> bool {
    code.strip_suffix(':').is_some_and(|name| {
        name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    })
}

/// The length of the mnemonic at the start of `text`.
fn mnemonic_length(text: &str) -> usize {
    text.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
        .unwrap_or(text.len())
}

/// Whether the line is an `end` instruction (for finding the last one before reading).
pub(super) fn is_end(text: &str) -> bool {
    let mut rest = code(text);
    while let Some(inner) = rest.strip_prefix('(') {
        match inner.find(')') {
            Some(close) => rest = inner[close + 1..].trim_start(),
            None => return false,
        }
    }
    let mnemonic = &rest[..mnemonic_length(rest)];
    mnemonic == "end" || mnemonic.starts_with("end.")
}

/// A flag's count: `N` of `(rptN)` or `(nopN)`, at most `most`.
fn flag_count(line: &Line, flag: &str, digits: &str, most: usize) -> Result<usize, ParseError> {
    let n = match after_digits(digits) {
        Some("") => digits.parse().unwrap_or(usize::MAX),
        _ => {
            let message = format!("unknown instruction flag `{}`", quoted(flag));
            return Err(line.error(flag, message));
        }
    };
    if n > most {
        let message = format!("`{}` is above the ISA's most, {most}", quoted(flag));
        return Err(line.error(flag, message));
    }
    Ok(n)
}

/// Reads the flag `(...)` at the start of `text` into `flags`; the text after it.
fn flag<'a>(line: &Line, text: &'a str, flags: &mut Flags<'a>) -> Result<&'a str, ParseError> {
    let Some(close) = text.find(')') else {
        return Err(line.error(text, format!("unclosed flag `{}`", quoted(text))));
    };
    let written = &text[..=close];
    let word = &text[1..close];
    flags.written.push(written);
    let twice = |n: usize| match n {
        0 => Ok(()),
        _ => Err(line.error(written, format!("`{}` given twice", quoted(written)))),
    };
    if let Some(name) = IGNORED_FLAGS.iter().find(|f| **f == written) {
        flags.ignored.push(name);
    } else if word == "sy" {
        flags.sy = true;
    } else if word == "ss" {
        flags.ss = true;
    } else if let Some(digits) = word.strip_prefix("rpt") {
        twice(flags.rpt)?;
        flags.rpt = flag_count(line, written, digits, 7)?;
    } else if let Some(digits) = word.strip_prefix("nop") {
        twice(flags.nop)?;
        flags.nop = flag_count(line, written, digits, 3)?;
    } else {
        let message = format!("unknown instruction flag `{}`", quoted(written));
        return Err(line.error(written, message));
    }
    Ok(&text[close + 1..])
}

/// The error for an opcode the reader does not know, `text` being where it starts.
fn unknown_opcode(line: &Line, text: &str) -> ParseError {
    let shown = match text.find(')') {
        Some(close) if text.starts_with("unknown(") => &text[..=close],
        _ => &text[..mnemonic_length(text)],
    };
    line.error(text, format!("unknown opcode `{}`", quoted(shown)))
}

/// Reads one line: `None` for a blank, comment, directive or label line.
pub(super) fn statement<'a>(line: &Line<'a>) -> Result<Option<Statement<'a>>, ParseError> {
    let code = code(line.text);
    if code.is_empty() || code.starts_with('@') || is_label(code) {
        return Ok(None);
    }
    if code.starts_with("no match:") || code.starts_with("raw 0x") {
        let message = format!("unknown opcode: `{}` was not decoded", quoted(code));
        return Err(line.error(code, message));
    }
    let mut flags = Flags::default();
    let mut rest = code;
    while rest.starts_with('(') {
        rest = flag(line, rest, &mut flags)?.trim_start();
    }
    let mnemonic = &rest[..mnemonic_length(rest)];
    let mut parts = mnemonic.split('.');
    let base = parts.next().unwrap_or_default();
    if mnemonic.is_empty() {
        let message = format!("expected an opcode, found `{}`", quoted(rest));
        return Err(line.error(rest, message));
    }
    let kind = opcodes::kind(base).ok_or_else(|| unknown_opcode(line, rest))?;
    rest = &rest[mnemonic.len()..];
    while rest.starts_with('(') {
        rest = flag(line, rest, &mut flags)?;
    }
    if !rest.is_empty() && !rest.starts_with(char::is_whitespace) {
        let message = format!("unexpected `{}` after the opcode", quoted(rest));
        return Err(line.error(rest, message));
    }
    let operands = split(rest.trim_start())
        .into_iter()
        .map(|text| operand(line, text))
        .collect::<Result<_, _>>()?;
    Ok(Some(Statement {
        flags,
        mnemonic,
        base,
        suffixes: parts.collect(),
        kind,
        operands,
    }))
}

/// The operands of `text`: split at the commas outside `[]`, `()` and `<>` (a shift `<<` opens
/// nothing), each trimmed; no operand for an empty text.
fn split(text: &str) -> Vec<&str> {
    if text.is_empty() {
        return Vec::new();
    }
    let bytes = text.as_bytes();
    let (mut parts, mut depth, mut start, mut i) = (Vec::new(), 0usize, 0, 0);
    while i < bytes.len() {
        match bytes[i] {
            b'<' | b'>' if bytes.get(i + 1) == Some(&bytes[i]) => i += 1,
            b'[' | b'(' | b'<' => depth += 1,
            b']' | b')' | b'>' => depth = depth.saturating_sub(1),
            b',' if depth == 0 => {
                parts.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    parts.push(text[start..].trim());
    parts
}

/// Whether `word` is a write mask: some of `xyzw`, in order, at least one.
fn mask(word: &str) -> Option<u8> {
    let mut bits = 0u8;
    for c in word.chars() {
        let bit = 1u8 << "xyzw".find(c)?;
        if bits >= bit {
            return None;
        }
        bits |= bit;
    }
    (bits != 0).then_some(bits)
}

/// Reads one operand: its modifiers, then its atom.
fn operand<'a>(line: &Line<'a>, text: &'a str) -> Result<Operand<'a>, ParseError> {
    if text.is_empty() {
        return Err(line.error(text, "missing operand".into()));
    }
    let (mut repeat, mut ignored, mut annotation, mut bits) = (false, Vec::new(), None, None);
    let mut repeat_mark = None;
    let mut rest = text;
    while let Some((word, after)) = rest
        .strip_prefix('(')
        .and_then(|inner| inner.split_once(')'))
        .filter(|(_, after)| !after.trim().is_empty())
    {
        let written = &rest[..word.len() + 2];
        if word == "r" {
            repeat = true;
            repeat_mark = Some(written);
        } else if let Some(name) = IGNORED_MODIFIERS.iter().find(|m| **m == written) {
            ignored.push(*name);
        } else if TYPES.contains(&word) || mask(word).is_some() {
            annotation = annotation.or(Some(written));
            bits = mask(word).or(bits);
        } else {
            break;
        }
        rest = after.trim_start();
    }
    Ok(Operand {
        text,
        repeat,
        repeat_mark,
        atom_text: rest,
        ignored,
        annotation,
        mask: bits,
        atom: operand::atom(line, rest)?,
    })
}
