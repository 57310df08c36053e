//! Writing an ir3 program back in its own syntax with its registers renamed by an allocation.
//!
//! Every register token is renamed by the shift of the value it names (a half register by twice
//! the shift of its full register, so that it keeps its half). A token of a dropped instruction
//! names the value its register holds there when that value is read later (or is an output),
//! else it is left as written; so is a token that names no value (the `r63.x` sentinel, a
//! count of 0). An `(rptN)` line stays one line when the renamed copies still step as its `(r)`
//! flags say; otherwise it is written as its N+1 copies, without `(rptN)` and `(r)`, the
//! constants and immediates that advanced written as each copy reads them, `(ss)`, `(sy)` and
//! `(jp)` on the first copy and `(nopN)` on the last. Encoding prefixes are dropped; every
//! other line is kept, but the registers of `@` directives, renamed as the input (else the
//! output) of that register. Leading comments give the inputs' and outputs' maps.

use std::collections::HashMap;
use std::ops::Range;

use super::line::strip_prefix;
use super::text::{register_name, Advance, Edit, RegisterToken};
use super::Ir3Program;
use crate::compilers::core_allocate::Allocation;

/// The text of `program` renamed by `allocation` (of its micro-ops).
pub fn write(program: &Ir3Program, allocation: &Allocation) -> String {
    let writer = Writer::new(program, allocation);
    let mut out: Vec<String> = Vec::new();
    let name = |r: &usize| register_name(false, *r as u64);
    for (kind, map) in [
        ("input", &allocation.inputs),
        ("output", &allocation.outputs),
    ] {
        out.extend(
            map.iter()
                .map(|(f, t)| format!("; {kind} {} -> {}", name(f), name(t))),
        );
    }
    let source = &program.source;
    let mut tokens = 0;
    for line in &source.lines {
        let first = tokens;
        while (source.registers.get(tokens))
            .is_some_and(|t| line.instructions.contains(&t.instruction))
        {
            tokens += 1;
        }
        let text = &source.text[line.span.clone()];
        match line.instructions.is_empty() {
            true if text.trim_start().starts_with('@') => out.push(writer.directive(text)),
            true => out.push(text.to_string()),
            false => writer.instruction(line.span.clone(), first..tokens, &mut out),
        }
    }
    out.join("\n") + "\n"
}

/// What the writer knows: the program, the allocation and each operand's shift.
struct Writer<'a> {
    /// The program as read.
    program: &'a Ir3Program,
    /// The allocation of its micro-ops.
    allocation: &'a Allocation,
    /// The shift, in full registers, of each (ir3 instruction, token) that names a value.
    shifts: HashMap<(usize, usize), isize>,
}

impl<'a> Writer<'a> {
    /// The writer of `program` renamed by `allocation`.
    fn new(program: &'a Ir3Program, allocation: &'a Allocation) -> Self {
        let mut shifts = HashMap::new();
        let pairs = program.instructions.iter().zip(&allocation.program);
        for ((old, new), places) in pairs.zip(&program.places) {
            for ((a, b), place) in old.src.iter().zip(&new.src).zip(&places.sources) {
                if let (Some(a), Some(b), Some(p)) = (a.reg(), b.reg(), place) {
                    shifts.insert((p.instruction, p.token), b as isize - a as isize);
                }
            }
            for p in &places.written {
                shifts.insert(
                    (p.instruction, p.token),
                    new.dst as isize - old.dst as isize,
                );
            }
        }
        Self {
            program,
            allocation,
            shifts,
        }
    }

    /// The shift of the value full register `reg` holds before ir3 instruction `n`, when it
    /// is read later or is an output.
    fn live(&self, n: usize, reg: usize) -> Option<isize> {
        let from = self.program.origin.partition_point(|&o| o < n);
        let pairs = self
            .program
            .instructions
            .iter()
            .zip(&self.allocation.program);
        for (old, new) in pairs.skip(from) {
            let read = old.src.iter().position(|s| s.reg() == Some(reg));
            if let Some(b) = read.and_then(|s| new.src[s].reg()) {
                return Some(b as isize - reg as isize);
            }
            if old.written().contains(&reg) {
                return None;
            }
        }
        let to = self.allocation.outputs.get(&reg)?;
        Some(*to as isize - reg as isize)
    }

    /// The index token `t` (number `index` of the text's) names in copy `k`, renamed.
    fn renamed(&self, t: &RegisterToken, index: usize, k: usize) -> usize {
        let stride = usize::from(t.destination || t.repeat);
        let old = t.index + stride * k;
        let full = if t.half { old / 2 } else { old };
        let shift = match self.shifts.get(&(t.instruction + k, index)) {
            Some(&shift) => Some(shift),
            None if t.dropped => self.live(t.instruction + k, full),
            None => None,
        };
        let unit = if t.half { 2 } else { 1 };
        (old as isize + shift.unwrap_or(0) * unit) as usize
    }

    /// Writes the instruction line at `span`, whose tokens are `tokens`, as one line or as
    /// its copies.
    fn instruction(&self, span: Range<usize>, tokens: Range<usize>, out: &mut Vec<String>) {
        let source = &self.program.source;
        let text = &source.text[span.clone()];
        let stripped = strip_prefix(text).len();
        let code = match stripped == text.trim_start().len() {
            true => span.start,
            false => span.end - stripped,
        };
        let registers = &source.registers[tokens.clone()];
        let Some(first) = registers.first() else {
            out.push(text.to_string());
            return;
        };
        let copies = first.copies;
        let name = |t: &RegisterToken, i: usize, k: usize| {
            register_name(t.half, self.renamed(t, i, k) as u64)
        };
        let steps = (registers.iter().zip(tokens.clone())).all(|(t, i)| {
            let stride = usize::from(t.destination || t.repeat);
            (0..copies).all(|k| self.renamed(t, i, k) == self.renamed(t, i, 0) + stride * k)
        });
        let edits = (source.repeats.iter())
            .find(|r| r.instruction == first.instruction)
            .map_or(&[][..], |r| &r.edits[..]);
        let lines = if steps { 1 } else { copies };
        for k in 0..lines {
            let mut parts: Vec<(Range<usize>, String)> = (registers.iter().zip(tokens.clone()))
                .map(|(t, i)| (t.span.clone(), name(t, i, k)))
                .collect();
            if !steps {
                parts.extend(edits.iter().filter_map(|(at, edit)| {
                    let keep = match edit {
                        Edit::Drop => false,
                        Edit::First => k == 0,
                        Edit::Last => k + 1 == copies,
                        Edit::Advance(_) if k == 0 => true,
                        Edit::Advance(a) => return Some((at.clone(), advanced(a, k))),
                    };
                    (!keep).then(|| (at.clone(), String::new()))
                }));
            }
            parts.sort_by_key(|p| p.0.start);
            out.push(spliced(&source.text, code..span.end, &parts));
        }
    }

    /// A directive line with its registers renamed as the input (else the output) of their
    /// register.
    fn directive(&self, text: &str) -> String {
        let mut parts = Vec::new();
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < text.len() {
            let boundary = i == 0 || !bytes[i - 1].is_ascii_alphanumeric();
            let half = text[i..].starts_with("hr");
            let body = &text[i + usize::from(half)..];
            let digits = body
                .get(1..)
                .map_or(0, |b| b.bytes().take_while(u8::is_ascii_digit).count());
            let component = body
                .as_bytes()
                .get(2 + digits)
                .and_then(|&c| b"xyzw".iter().position(|&x| x == c));
            let dot = body.as_bytes().get(1 + digits) == Some(&b'.');
            match (
                boundary && body.starts_with('r') && digits > 0 && dot,
                component,
            ) {
                (true, Some(c)) => {
                    let length = usize::from(half) + 3 + digits;
                    let n: usize = body[1..1 + digits].parse().unwrap_or(usize::MAX / 8);
                    let index = 4 * n + c;
                    let full = if half { index / 2 } else { index };
                    let a = self.allocation;
                    if let Some(&to) = a.inputs.get(&full).or_else(|| a.outputs.get(&full)) {
                        let new = if half { 2 * to + index % 2 } else { to };
                        parts.push((i..i + length, register_name(half, new as u64)));
                    }
                    i += length;
                }
                _ => i += text[i..].chars().next().map_or(1, char::len_utf8),
            }
        }
        spliced(text, 0..text.len(), &parts)
    }
}

/// `text[range]` with each of `parts` (sorted, inside `range`, apart) replaced.
fn spliced(text: &str, range: Range<usize>, parts: &[(Range<usize>, String)]) -> String {
    let mut out = String::new();
    let mut at = range.start;
    for (span, with) in parts {
        out.push_str(&text[at..span.start]);
        out.push_str(with);
        at = span.end;
    }
    out.push_str(&text[at..range.end]);
    out
}

/// Copy `k`'s text of an operand that advances with each copy.
fn advanced(advance: &Advance, k: usize) -> String {
    let k64 = k as i64;
    match *advance {
        Advance::Const {
            half,
            index,
            named: true,
            ..
        } => {
            let index = (index + k64) as u64;
            let name = register_name(false, index).replacen('r', "c", 1);
            if half {
                format!("h{name}")
            } else {
                name
            }
        }
        Advance::Const {
            index,
            address: Some(a),
            ..
        } => match index + k64 {
            n if n < 0 => format!("c<{a} - {}>", -n),
            n => format!("c<{a} + {n}>"),
        },
        Advance::Const { index, .. } => format!("c[{}]", index + k64),
        Advance::Int(v) => format!("{}", v + k64),
        Advance::Bits(bits) => format!("(0x{:x})", bits.wrapping_add(k as u32)),
    }
}
