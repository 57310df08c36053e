//! The GRF request trace format.
//!
//! One request per line, `<eu> <thread> <op> [operand] [value]`:
//!
//! ```text
//! # comment            // comment too
//! 0 1 write r5 0x1234       # all lanes 0x1234 (or a comma list, one value per lane)
//! 0 1 read r5
//! 1 0 alloc b2 g1           # virtual block 2 into shared group 1 (g0 or no group: private)
//! 1 0 release b2
//! 0 0 wait g1
//! 2 1 switch b0             # data context switch of virtual block 0
//! 3 0 idle 20               # the EU issues nothing for 20 cycles (test-bench only)
//! ```
//!
//! Each EU issues its own lines in order, one request at a time, the next after the response.
//! Numbers are plain decimal digits or `0x` and hex digits; an `idle` lasts at most
//! [`MAX_IDLE`] cycles. Errors name the line and the column of the word at fault.

use std::fmt;

use grfgen_hdl::params::{GrfOp, GrfParams};

use super::model::GrfRequest;
use grfgen_support::text::{self, quoted};

/// What an EU does next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Present a request.
    Request(GrfRequest),
    /// Present nothing for this many cycles.
    Idle(u64),
}

impl Step {
    /// The request of `thread`: `op` on register (or 16 x block) `reg`, with `group` and `data`.
    pub fn request(thread: usize, op: GrfOp, reg: usize, group: usize, data: Vec<u64>) -> Self {
        Step::Request(GrfRequest {
            thread,
            op,
            reg,
            group,
            data,
        })
    }
}

/// A trace: per EU, its steps in order.
pub type Trace = Vec<Vec<Step>>;

/// A malformed trace line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceError {
    /// Line number, from 1.
    pub line: usize,
    /// Column number, from 1, in characters: where the word at fault starts.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

impl std::error::Error for TraceError {}

/// The longest `idle`, in cycles: the longest run there is.
pub const MAX_IDLE: u64 = crate::block::MAX_CYCLES;

/// A number: plain decimal digits, or `0x` and hexadecimal digits; none when it does not fit
/// 64 bits.
fn number(text: &str) -> Option<u64> {
    match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) if !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit()) => {
            u64::from_str_radix(hex, 16).ok()
        }
        Some(_) => None,
        None if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) => text.parse().ok(),
        None => None,
    }
}

/// One trace line split into words, for errors that point at a word.
struct Words<'a> {
    /// The whole line, as read.
    raw: &'a str,
    /// Its number, from 1.
    line: usize,
    /// The words before any comment.
    words: Vec<&'a str>,
}

impl<'a> Words<'a> {
    /// Word `k`, if the line has it.
    fn get(&self, k: usize) -> Option<&'a str> {
        self.words.get(k).copied()
    }

    /// An error at `part`, a slice of the line.
    fn at(&self, part: &str, message: String) -> TraceError {
        TraceError {
            line: self.line,
            column: text::column(self.raw, part),
            message,
        }
    }

    /// An error at word `k`, or just after the last word when the line stops before it.
    fn at_word(&self, k: usize, message: String) -> TraceError {
        match self.words.get(k) {
            Some(word) => self.at(word, message),
            None => {
                let last = self.words.last().copied().unwrap_or(self.raw);
                let after = text::column(self.raw, last) + last.chars().count();
                TraceError {
                    line: self.line,
                    column: (after + 1).min(self.raw.chars().count() + 1),
                    message,
                }
            }
        }
    }

    /// Word `k` as a number below `limit`, `what` naming it in the error.
    fn index(&self, k: usize, limit: usize, what: &str) -> Result<usize, TraceError> {
        let word = self.get(k).unwrap_or("");
        number(word)
            .and_then(|n| usize::try_from(n).ok())
            .filter(|&n| n < limit)
            .ok_or_else(|| {
                self.at_word(
                    k,
                    format!(
                        "{what} `{}`: expected 0..={}",
                        quoted(word),
                        limit.saturating_sub(1)
                    ),
                )
            })
    }

    /// Word `k` as `<prefix>N` with N below `limit` (`r5`, `b2`, `g1`; either case).
    fn operand(
        &self,
        k: usize,
        prefix: char,
        limit: usize,
        what: &str,
    ) -> Result<usize, TraceError> {
        let word = self
            .get(k)
            .ok_or_else(|| self.at_word(k, format!("missing {what}")))?;
        word.strip_prefix(prefix)
            .or_else(|| word.strip_prefix(prefix.to_ascii_uppercase()))
            .and_then(number)
            .and_then(|n| usize::try_from(n).ok())
            .filter(|&n| n < limit)
            .ok_or_else(|| {
                self.at_word(
                    k,
                    format!(
                        "{what} `{}`: expected {prefix}0..{prefix}{}",
                        quoted(word),
                        limit.saturating_sub(1)
                    ),
                )
            })
    }

    /// An error when the line has more than `n` words.
    fn at_most(&self, n: usize) -> Result<(), TraceError> {
        match self.words.len() > n {
            true => Err(self.at_word(
                n,
                format!("unexpected `{}`", quoted(&self.words[n..].join(" "))),
            )),
            false => Ok(()),
        }
    }

    /// The lane values of word 4 of a `write`: one for every lane, or one per lane.
    fn values(&self, params: &GrfParams) -> Result<Vec<u64>, TraceError> {
        let word = self
            .get(4)
            .ok_or_else(|| self.at_word(4, "missing the value to write".into()))?;
        let mut values = Vec::new();
        for item in word.split(',') {
            let value = number(item).ok_or_else(|| {
                self.at(item, format!("value `{}`: expected numbers", quoted(word)))
            })?;
            let bits = params.element_bits;
            if bits < 64 && value >> bits != 0 {
                return Err(self.at(
                    item,
                    format!(
                        "value {value:#x}: wider than the {bits}-bit element (at most {:#x})",
                        (1u64 << bits) - 1
                    ),
                ));
            }
            values.push(value);
        }
        match values.len() {
            1 => Ok(vec![values[0]; params.lanes]),
            n if n == params.lanes => Ok(values),
            n => Err(self.at(
                word,
                format!("{n} values: expected 1 or {} (one per lane)", params.lanes),
            )),
        }
    }
}

/// Parses a trace for the GRF of `params`.
pub fn parse(text: &str, params: &GrfParams) -> Result<Trace, TraceError> {
    let mut trace: Trace = vec![Vec::new(); params.eus];
    for (index, raw) in text::source_lines(text).into_iter().enumerate() {
        let code = raw
            .split('#')
            .next()
            .unwrap_or("")
            .split("//")
            .next()
            .unwrap_or("");
        let words = Words {
            raw,
            line: index + 1,
            words: code.split_whitespace().collect(),
        };
        if words.words.is_empty() {
            continue;
        }
        let (eu, step) = parse_line(&words, params)?;
        trace[eu].push(step);
    }
    Ok(trace)
}

/// One request line: its EU and its step.
fn parse_line(words: &Words, params: &GrfParams) -> Result<(usize, Step), TraceError> {
    if words.words.len() < 3 {
        return Err(words.at_word(
            0,
            format!(
                "expected `<eu> <thread> <op> ...`, found `{}`",
                quoted(&words.words.join(" "))
            ),
        ));
    }
    let eu = words.index(0, params.eus, "EU")?;
    let thread = words.index(1, params.threads, "thread")?;
    let request =
        |op: GrfOp, reg: usize, group: usize, data| Step::request(thread, op, reg, group, data);
    let zero = || vec![0; params.lanes];
    let vregs = params.virtual_registers();
    let op = words.words[2];
    let step = match op.to_ascii_lowercase().as_str() {
        "read" => {
            words.at_most(4)?;
            request(
                GrfOp::Read,
                words.operand(3, 'r', vregs, "register")?,
                0,
                zero(),
            )
        }
        "write" => {
            words.at_most(5)?;
            let reg = words.operand(3, 'r', vregs, "register")?;
            request(GrfOp::Write, reg, 0, words.values(params)?)
        }
        "alloc" => {
            let block = words.operand(3, 'b', params.virtual_blocks, "virtual block")?;
            let group = match words.get(4) {
                None => 0,
                Some(g) => g
                    .strip_prefix('g')
                    .and_then(number)
                    .and_then(|n| usize::try_from(n).ok())
                    .filter(|&n| n <= GrfParams::GROUPS)
                    .ok_or_else(|| {
                        words.at(
                            g,
                            format!("group `{}`: expected g0..g{}", quoted(g), GrfParams::GROUPS),
                        )
                    })?,
            };
            words.at_most(5)?;
            request(GrfOp::Alloc, block * GrfParams::BLOCK, group, zero())
        }
        "release" | "switch" => {
            words.at_most(4)?;
            let block = words.operand(3, 'b', params.virtual_blocks, "virtual block")?;
            let op = match op.eq_ignore_ascii_case("release") {
                true => GrfOp::Release,
                false => GrfOp::Switch,
            };
            request(op, block * GrfParams::BLOCK, 0, zero())
        }
        "wait" => {
            words.at_most(4)?;
            let group = words.operand(3, 'g', GrfParams::GROUPS + 1, "group")?;
            request(GrfOp::Wait, 0, group, zero())
        }
        "idle" => {
            words.at_most(4)?;
            let cycles = words.get(3).and_then(number).filter(|&n| n <= MAX_IDLE);
            Step::Idle(cycles.ok_or_else(|| {
                words.at_word(
                    3,
                    format!("idle: expected a number of cycles 0..={MAX_IDLE}"),
                )
            })?)
        }
        _ => {
            return Err(words.at(
                op,
                format!(
                    "unknown op `{}`: expected read, write, alloc, release, wait, switch or idle",
                    quoted(op)
                ),
            ))
        }
    };
    Ok((eu, step))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_op_parses_and_errors_name_the_line() {
        let params = GrfParams::default();
        let text = "# demo\n0 1 write r5 0x10\n0 1 read r5 // again\n1 0 alloc b2 g1\n1 0 release b2\n2 0 wait g1\n3 1 switch b0\n3 1 idle 5\n0 0 write r1 1,2,3,4\n";
        let trace = parse(text, &params).unwrap();
        assert_eq!(trace[0].len(), 3);
        assert_eq!(trace[1].len(), 2);
        assert_eq!(trace[3][1], Step::Idle(5));
        match &trace[0][2] {
            Step::Request(r) => assert_eq!(r.data, vec![1, 2, 3, 4]),
            other => panic!("{other:?}"),
        }
        for (bad, line) in [
            ("0 0 read r5\n9 0 read r1\n", 2),
            ("0 0 read x5\n", 1),
            ("\n\n0 0 jump r5\n", 3),
            ("0 0 write r1 1,2\n", 1),
            ("0 5 read r1\n", 1),
            ("0 0 alloc b1 g9\n", 1),
            ("0 0 read r64\n", 1),
        ] {
            let err = parse(bad, &params).unwrap_err();
            assert_eq!(err.line, line, "{bad:?}: {err}");
        }
    }
}
