//! Operand atoms: registers, constants, immediates, predicates, address registers, memory
//! operands, resources and branch targets.

use super::source_line::Line;
use crate::core::program::ParseError;
use grfgen_support::text::quoted;

/// A GPR named in the text, `rN.c` or `hrN.c`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Reg<'a> {
    /// The token as written, without a `+N` offset after it.
    pub text: &'a str,
    /// `hr`: a half register.
    pub half: bool,
    /// `4N + c`, in half registers for `hr` (saturated when the digits overflow).
    pub index: u64,
}

/// A constant-file operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Const {
    /// `4N + c` of `cN.c` or `hcN.c`, or the offset of `c<a0.x + N>` and `c[...]`.
    pub index: i64,
    /// `hcN.c`: a half constant, in the merged file at `index / 2`.
    pub half: bool,
}

/// A value named inside a memory operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Inner<'a> {
    /// A register: a GPR read.
    Reg(Reg<'a>),
    /// A constant.
    Const(Const),
}

/// What an operand is, after its modifiers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Atom<'a> {
    /// A GPR.
    Reg(Reg<'a>),
    /// A constant.
    Const(Const),
    /// An integer, as written (it fits in 32 bits, signed or not).
    Int(i64),
    /// A float (or a raw pattern `(0x..)`): the 32-bit value it carries.
    Float(u32),
    /// A predicate `p0.c`, `up0.c`: true unless negated with `!`.
    Pred(bool),
    /// An address register, `a0.x` or `a1.x`.
    Addr,
    /// A memory operand, `g[...]`, `l[...]`, `p[...]` or `[...]`: the values named inside.
    Memory(Vec<Inner<'a>>),
    /// A sampler or texture, `s#N`, `t#N`.
    Resource,
    /// A branch target or cat0 immediate, `#name`, `#N`.
    Target,
    /// A render target, `rtN.c` (an `alias.rt` destination).
    RenderTarget,
}

/// `"xyzw"`'s index of a component letter.
fn component(c: u8) -> Option<u64> {
    b"xyzw".iter().position(|&x| x == c).map(|i| i as u64)
}

/// The digits at the start of `text`, their value (saturated) and the text after them.
fn number(text: &str) -> Option<(u64, &str)> {
    let n = text.bytes().take_while(u8::is_ascii_digit).count();
    let value = text[..n].bytes().fold(0u64, |v, d| {
        v.saturating_mul(10).saturating_add(u64::from(d - b'0'))
    });
    (n > 0).then(|| (value, &text[n..]))
}

/// `N.c` at the start of `text`: `4N + c` and the text after it.
fn numbered(text: &str) -> Option<(u64, &str)> {
    let (n, rest) = number(text)?;
    let c = component(*rest.strip_prefix('.')?.as_bytes().first()?)?;
    Some((n.saturating_mul(4).saturating_add(c), &rest[2..]))
}

/// A register at the start of `text` and the text after it.
fn register(text: &str) -> Option<(Reg<'_>, &str)> {
    let (half, body) = match text.strip_prefix("hr") {
        Some(body) => (true, body),
        None => (false, text.strip_prefix('r')?),
    };
    let (index, rest) = numbered(body)?;
    let token = &text[..text.len() - rest.len()];
    Some((
        Reg {
            text: token,
            half,
            index,
        },
        rest,
    ))
}

/// An integer, decimal or `0x` hex, possibly negative: its value when the whole text is one.
fn integer(text: &str) -> Option<i64> {
    let (negative, body) = match text.strip_prefix('-') {
        Some(body) => (true, body),
        None => (false, text),
    };
    let value = match body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        Some(hex) if !hex.is_empty() && hex.len() <= 16 => u64::from_str_radix(hex, 16).ok()?,
        Some(_) => return None,
        None if !body.is_empty() && body.bytes().all(|b| b.is_ascii_digit()) => {
            body.parse().ok()?
        }
        None => return None,
    };
    let value = i64::try_from(value).unwrap_or(i64::MAX);
    Some(if negative { -value } else { value })
}

/// An address-relative or bracketed offset: `N`, `a0.x`, `a1.x + N`, `a0.x - N`, spaces
/// optional.
fn offset(text: &str) -> Option<i64> {
    let text = text.trim();
    let Some(rest) = text
        .strip_prefix("a0.x")
        .or_else(|| text.strip_prefix("a1.x"))
    else {
        return integer(text);
    };
    let rest = rest.trim_start();
    if rest.is_empty() {
        return Some(0);
    }
    let (negative, digits) = match rest.strip_prefix('+') {
        Some(digits) => (false, digits),
        None => (true, rest.strip_prefix('-')?),
    };
    let value = integer(digits.trim_start()).filter(|v| *v >= 0)?;
    Some(if negative { -value } else { value })
}

/// A constant at the start of `text`: `cN.c`, `hcN.c`, `c<a0.x + N>`, `c[...]`; and the text
/// after it.
fn constant(text: &str) -> Option<(Const, &str)> {
    let (half, body) = match text.strip_prefix("hc") {
        Some(body) => (true, body),
        None => (false, text.strip_prefix('c')?),
    };
    if let Some((index, rest)) = numbered(body) {
        let index = i64::try_from(index).unwrap_or(i64::MAX);
        return Some((Const { index, half }, rest));
    }
    let close = match body.as_bytes().first() {
        Some(b'<') => '>',
        Some(b'[') => ']',
        _ => return None,
    };
    let end = body.find(close)?;
    let index = offset(&body[1..end])?;
    Some((Const { index, half: false }, &body[end + 1..]))
}

/// The value bits of a float in parentheses: FLUT names, `nan`, `inf`, decimals; a hex
/// pattern `0x..` is taken as raw bits.
fn float(inner: &str) -> Option<u32> {
    use std::f32::consts::{E, FRAC_1_PI, LN_2, LOG10_2, LOG2_10, LOG2_E, PI};
    let named = match inner {
        "e" => Some(E),
        "pi" => Some(PI),
        "1/pi" => Some(FRAC_1_PI),
        "log2(e)" => Some(LOG2_E),
        "1/log2(e)" => Some(LN_2),
        "log2(10)" => Some(LOG2_10),
        "1/log2(10)" => Some(LOG10_2),
        "nan" => Some(f32::NAN),
        "inf" => Some(f32::INFINITY),
        "-inf" => Some(f32::NEG_INFINITY),
        _ => None,
    };
    if let Some(value) = named {
        return Some(value.to_bits());
    }
    if inner.contains(['x', 'X']) {
        return integer(inner).and_then(|v| u32::try_from(v).ok());
    }
    let digits = inner.strip_prefix('-').unwrap_or(inner);
    let plain = digits.starts_with(|c: char| c.is_ascii_digit())
        && digits
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'));
    plain
        .then(|| inner.parse::<f32>().ok())
        .flatten()
        .map(f32::to_bits)
}

/// A predicate, `p0.c`, `up0.c`, negated with `!`.
fn predicate(text: &str) -> Option<bool> {
    let (negated, body) = match text.strip_prefix('!') {
        Some(body) => (true, body),
        None => (false, text),
    };
    let body = body.strip_prefix('u').unwrap_or(body);
    let c = body.strip_prefix("p0.")?;
    (c.len() == 1 && component(c.as_bytes()[0]).is_some()).then_some(!negated)
}

/// Whether `text` is `#` and a label or a number.
fn target(text: &str) -> bool {
    text.strip_prefix('#').is_some_and(|name| {
        integer(name).is_some()
            || (name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
    })
}

/// The error for `r<a0.x + N>` at the start of `text`.
fn relative(line: &Line, text: &str) -> ParseError {
    let written = &text[..text.find('>').map_or(text.len(), |end| end + 1)];
    let message = format!(
        "relative register addressing `{}` cannot be modelled",
        quoted(written)
    );
    line.error(text, message)
}

/// Reads the atom `text` (an operand without its modifiers).
pub(super) fn atom<'a>(line: &Line<'a>, text: &'a str) -> Result<Atom<'a>, ParseError> {
    let unknown = || line.error(text, format!("unknown operand `{}`", quoted(text)));
    if text.starts_with("r<") || text.starts_with("hr<") {
        return Err(relative(line, text));
    }
    if let Some((reg, rest)) = register(text) {
        let offset = rest.strip_prefix(['+', '-']).and_then(number);
        return match rest.is_empty() || offset.is_some_and(|(_, after)| after.is_empty()) {
            true => Ok(Atom::Reg(reg)),
            false => Err(unknown()),
        };
    }
    if let Some(inner) = ["g[", "l[", "p[", "["]
        .iter()
        .find_map(|open| text.strip_prefix(open))
    {
        let inner = inner.strip_suffix(']').ok_or_else(unknown)?;
        return memory(line, inner).map(Atom::Memory);
    }
    if let Some((c, rest)) = constant(text) {
        return if rest.is_empty() {
            Ok(Atom::Const(c))
        } else {
            Err(unknown())
        };
    }
    scalar(text).ok_or_else(|| match integer(text) {
        Some(_) => line.error(text, format!("`{}` does not fit in 32 bits", quoted(text))),
        None => unknown(),
    })
}

/// The atoms that are neither registers, memory operands nor constants.
fn scalar(text: &str) -> Option<Atom<'_>> {
    if let Some(value) = integer(text) {
        return (-(1i64 << 31)..1i64 << 32)
            .contains(&value)
            .then_some(Atom::Int(value));
    }
    let inner = text.strip_prefix('h').unwrap_or(text);
    if let Some(inner) = inner.strip_prefix('(').and_then(|s| s.strip_suffix(')')) {
        return float(inner).map(Atom::Float);
    }
    if let Some(value) = predicate(text) {
        return Some(Atom::Pred(value));
    }
    if matches!(text, "a0.x" | "a1.x") {
        return Some(Atom::Addr);
    }
    let resource = ["s#", "t#"]
        .iter()
        .find_map(|p| text.strip_prefix(p))
        .is_some_and(|n| number(n).is_some_and(|(_, rest)| rest.is_empty()));
    if resource {
        return Some(Atom::Resource);
    }
    if target(text) {
        return Some(Atom::Target);
    }
    let render = text
        .strip_prefix("rt")
        .and_then(numbered)
        .is_some_and(|(_, rest)| rest.is_empty());
    render.then_some(Atom::RenderTarget)
}

/// The values named inside a memory operand's brackets: registers and constants, with
/// integers, spaces, `+ - << ( )` around them.
fn memory<'a>(line: &Line<'a>, inner: &'a str) -> Result<Vec<Inner<'a>>, ParseError> {
    let mut values = Vec::new();
    let mut depth = 0usize;
    let mut rest = inner.trim_start();
    while !rest.is_empty() {
        let unknown = || {
            let word = &rest[..rest
                .find([' ', '+', '-', '<', '(', ')'])
                .unwrap_or(rest.len())];
            let word = if word.is_empty() { rest } else { word };
            line.error(word, format!("unknown operand `{}`", quoted(word)))
        };
        let after = if let Some(after) = rest.strip_prefix("<<") {
            after
        } else if let Some(after) = rest.strip_prefix(['+', '-']) {
            after
        } else if let Some(after) = rest.strip_prefix('(') {
            depth += 1;
            after
        } else if let Some(after) = rest.strip_prefix(')') {
            depth = depth.checked_sub(1).ok_or_else(unknown)?;
            after
        } else if rest.starts_with("r<") || rest.starts_with("hr<") {
            return Err(relative(line, rest));
        } else if let Some((reg, after)) = register(rest) {
            values.push(Inner::Reg(reg));
            after
        } else if let Some((c, after)) = constant(rest) {
            values.push(Inner::Const(c));
            after
        } else {
            let n = rest
                .bytes()
                .take_while(|b| b.is_ascii_alphanumeric())
                .count();
            integer(&rest[..n]).ok_or_else(unknown)?;
            &rest[n..]
        };
        rest = after.trim_start();
    }
    match depth {
        0 => Ok(values),
        _ => Err(line.error(inner, format!("unbalanced `(` in `{}`", quoted(inner)))),
    }
}
