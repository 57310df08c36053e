//! Operand roles: the register an instruction writes and how many components, and the value
//! operands it reads, by the opcode's kind (the rules in the module documentation).

use grfgen_hdl::params::CoreUnit;

use super::line::{Operand, Statement};
use super::opcodes::{self, Count, Kind};
use super::operand::{Atom, Const, Inner, Reg};
use super::source_line::Line;
use crate::core::program::ParseError;
use grfgen_support::text::quoted;

/// The components a destination register receives: `count` of them from component `first`
/// of the register as written.
#[derive(Clone, Copy, Debug)]
pub(super) struct Write<'a> {
    /// The destination as written.
    pub reg: Reg<'a>,
    /// The first component written, from the register as written (a cat5 mask's lowest).
    pub first: u64,
    /// Components written from `first`, gaps included.
    pub count: u64,
}

/// One value operand: what becomes a micro-op source (or several, for a vector).
#[derive(Clone, Copy, Debug)]
pub(super) enum Value<'a> {
    /// `count` consecutive components from a register.
    Reg {
        /// The register as written.
        reg: Reg<'a>,
        /// Components read.
        count: u64,
        /// `(r)`.
        repeat: bool,
    },
    /// A constant.
    Const {
        /// The constant.
        c: Const,
        /// `(r)`.
        repeat: bool,
    },
    /// An immediate's 32-bit value.
    Imm {
        /// The value.
        value: u32,
        /// `(r)`.
        repeat: bool,
    },
    /// A predicate's or address register's fixed value.
    Fixed(u32),
}

/// What an instruction that runs on a unit writes and reads.
#[derive(Debug)]
pub(super) struct Plan<'a> {
    /// Its unit.
    pub unit: CoreUnit,
    /// The GPR it writes, if any.
    pub dst: Option<Write<'a>>,
    /// Its value operands, in order.
    pub values: Vec<Value<'a>>,
}

/// The operand that is the destination for `kind`: the first, but for stores and cat0.
pub(super) fn destination(kind: Kind) -> Option<usize> {
    match kind {
        Kind::Nop | Kind::End | Kind::Flow | Kind::Store(..) => None,
        _ => Some(0),
    }
}

/// The plan of an instruction, `None` for one dropped (cat0, cat7).
pub(super) fn plan<'a>(line: &Line, st: &Statement<'a>) -> Result<Option<Plan<'a>>, ParseError> {
    let Some(unit) = opcodes::unit(st.kind, &st.suffixes) else {
        return Ok(None);
    };
    let textured = matches!(st.kind, Kind::Texture | Kind::Sample | Kind::Gradient);
    for (position, op) in st.operands.iter().enumerate() {
        if let Some(annotation) = op.annotation.filter(|_| !textured || position > 0) {
            let message = format!(
                "`{}` belongs before a texture instruction's destination",
                quoted(annotation)
            );
            return Err(line.error(annotation, message));
        }
    }
    let mut plan = Plan {
        unit,
        dst: None,
        values: Vec::new(),
    };
    match st.kind {
        Kind::Store(_, count) => store(line, st, count, &mut plan)?,
        Kind::Load(_, count) => load(line, st, count, &mut plan)?,
        Kind::Atomic => load(line, st, Count::Suffix, &mut plan)?,
        _ if textured => texture(line, st, &mut plan)?,
        _ => {
            plan.dst = written(line, st.operands.first(), 0, 1)?;
            for op in st.operands.iter().skip(1) {
                source(line, op, 1, &mut plan.values)?;
            }
        }
    }
    Ok(Some(plan))
}

/// The write of destination `op`: `None` for none, a non-GPR one or the `r63.x` sentinel.
fn written<'a>(
    line: &Line,
    op: Option<&Operand<'a>>,
    first: u64,
    count: u64,
) -> Result<Option<Write<'a>>, ParseError> {
    let Some(op) = op else { return Ok(None) };
    match op.atom {
        Atom::Reg(reg) if matches!(reg.text, "r63.x" | "hr63.x") => Ok(None),
        Atom::Reg(reg) => Ok(Some(Write { reg, first, count })),
        Atom::Pred(_) | Atom::Addr | Atom::Const(_) | Atom::RenderTarget => Ok(None),
        _ => {
            let message = format!("`{}` cannot be a destination", quoted(op.text));
            Err(line.error(op.text, message))
        }
    }
}

/// Appends the values source `op` reads; a register reads `count` components.
fn source<'a>(
    line: &Line,
    op: &Operand<'a>,
    count: u64,
    values: &mut Vec<Value<'a>>,
) -> Result<(), ParseError> {
    let repeat = op.repeat;
    match &op.atom {
        Atom::Reg(reg) => values.push(Value::Reg {
            reg: *reg,
            count,
            repeat,
        }),
        Atom::Const(c) => values.push(Value::Const { c: *c, repeat }),
        Atom::Int(v) => values.push(Value::Imm {
            value: *v as u32,
            repeat,
        }),
        Atom::Float(value) => values.push(Value::Imm {
            value: *value,
            repeat,
        }),
        Atom::Pred(on) => values.push(Value::Fixed(u32::from(*on))),
        Atom::Addr => values.push(Value::Fixed(0)),
        Atom::Memory(inner) => values.extend(inner.iter().map(|named| match named {
            Inner::Reg(reg) => Value::Reg {
                reg: *reg,
                count: 1,
                repeat,
            },
            Inner::Const(c) => Value::Const { c: *c, repeat },
        })),
        Atom::Resource | Atom::Target => {}
        Atom::RenderTarget => {
            let message = format!("render target `{}` is only a destination", quoted(op.text));
            return Err(line.error(op.text, message));
        }
    }
    Ok(())
}

/// The `.N` component count among the mnemonic's parts.
fn suffix_count(st: &Statement) -> Option<u64> {
    st.suffixes
        .iter()
        .find(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
        .map(|s| s.parse().unwrap_or(u64::MAX))
}

/// The dimensions of a `.1d`..`.4d` part.
fn dimensions(st: &Statement) -> Option<u64> {
    let dims = ["1d", "2d", "3d", "4d"];
    st.suffixes
        .iter()
        .find_map(|s| dims.iter().position(|d| d == s))
        .map(|i| i as u64 + 1)
}

/// The component count of a load or store, and the operands before a trailing count.
fn count<'s, 'a>(
    line: &Line,
    st: &'s Statement<'a>,
    count: Count,
) -> Result<(u64, &'s [Operand<'a>]), ParseError> {
    let operands = st.operands.as_slice();
    match count {
        Count::Suffix => Ok((suffix_count(st).unwrap_or(1), operands)),
        Count::Dims => Ok((suffix_count(st).or(dimensions(st)).unwrap_or(1), operands)),
        Count::Trailing => match operands.split_last() {
            Some((last, rest)) if !rest.is_empty() => match last.atom {
                Atom::Int(n) if (0..=255).contains(&n) && !last.text.starts_with('(') => {
                    Ok((n as u64, rest))
                }
                _ => {
                    let message = format!(
                        "expected a component count from 0 to 255, found `{}`",
                        quoted(last.text)
                    );
                    Err(line.error(last.text, message))
                }
            },
            _ => {
                let message = format!("`{}` needs operands and a count", quoted(st.mnemonic));
                Err(line.error(st.mnemonic, message))
            }
        },
    }
}

/// A load: the destination receives `count` components; the other operands are sources.
fn load<'a>(
    line: &Line,
    st: &Statement<'a>,
    rule: Count,
    plan: &mut Plan<'a>,
) -> Result<(), ParseError> {
    let (n, operands) = count(line, st, rule)?;
    plan.dst = written(line, operands.first(), 0, n)?;
    for op in operands.iter().skip(1) {
        source(line, op, 1, &mut plan.values)?;
    }
    Ok(())
}

/// A store: the first operand is the target when it is a memory operand, a constant or
/// `sti`'s register (a constant target is written, so it is no value); the data is the operand
/// after the target, else the first (a6xx `stib`), and reads `count` components.
fn store<'a>(
    line: &Line,
    st: &Statement<'a>,
    rule: Count,
    plan: &mut Plan<'a>,
) -> Result<(), ParseError> {
    let (n, operands) = count(line, st, rule)?;
    let target = operands
        .first()
        .is_some_and(|op| matches!(op.atom, Atom::Memory(_) | Atom::Const(_)) || st.base == "sti");
    let data = usize::from(target);
    for (position, op) in operands.iter().enumerate() {
        if position == 0 && target && matches!(op.atom, Atom::Const(_)) {
            continue;
        }
        let components = if position == data { n } else { 1 };
        source(line, op, components, &mut plan.values)?;
    }
    Ok(())
}

/// The coordinates a cat5 coordinate vector holds: 2, 1 with `.1d` or `.v`, 3 with `.3d`;
/// one more with `.a`, one more with `.p`. Also the spatial dimensions (without `.a`, `.p`).
fn coordinates(st: &Statement) -> (u64, u64) {
    let has = |part: &str| st.suffixes.contains(&part);
    let dims = match () {
        _ if has("1d") || has("v") => 1,
        _ if has("3d") => 3,
        _ => 2,
    };
    (dims + u64::from(has("a")) + u64::from(has("p")), dims)
}

/// A cat5 instruction: the write mask's span from the destination; the register sources'
/// components by role (the `.s2en` sampler register, the coordinates, the gradients).
fn texture<'a>(line: &Line, st: &Statement<'a>, plan: &mut Plan<'a>) -> Result<(), ParseError> {
    let first = st.operands.first();
    let bits = first.and_then(|op| op.mask).unwrap_or(1);
    let (low, high) = (bits.trailing_zeros(), 7 - bits.leading_zeros());
    plan.dst = written(line, first, low.into(), u64::from(high - low + 1))?;
    let sources = st.operands.get(1..).unwrap_or_default();
    let registers: Vec<usize> = (0..sources.len())
        .filter(|&i| matches!(sources[i].atom, Atom::Reg(_)))
        .collect();
    let sampler = registers.last().filter(|_| st.suffixes.contains(&"s2en"));
    let (coordinates, dims) = coordinates(st);
    let mut roles = Vec::new();
    if st.kind != Kind::Texture {
        roles.push(coordinates);
    }
    if st.kind == Kind::Gradient {
        roles.push(2 * dims);
    }
    let mut roles = roles.into_iter();
    for (i, op) in sources.iter().enumerate() {
        let components = match registers.contains(&i) && sampler != Some(&i) {
            true => roles.next().unwrap_or(1),
            false => 1,
        };
        source(line, op, components, &mut plan.values)?;
    }
    Ok(())
}
