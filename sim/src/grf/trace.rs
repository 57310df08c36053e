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

use std::fmt;

use grfgen_hdl::params::{GrfOp, GrfParams};

use super::model::GrfRequest;

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
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for TraceError {}

fn number(text: &str) -> Option<u64> {
    match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => text.parse().ok(),
    }
}

/// Parses a trace for the GRF of `params`.
pub fn parse(text: &str, params: &GrfParams) -> Result<Trace, TraceError> {
    let mut trace: Trace = vec![Vec::new(); params.eus];
    for (index, raw) in crate::text::source_lines(text).into_iter().enumerate() {
        let line = index + 1;
        let code = raw
            .split('#')
            .next()
            .unwrap_or("")
            .split("//")
            .next()
            .unwrap_or("");
        let words: Vec<&str> = code.split_whitespace().collect();
        if words.is_empty() {
            continue;
        }
        let bad = |message: String| TraceError { line, message };
        if words.len() < 3 {
            return Err(bad(format!(
                "expected `<eu> <thread> <op> ...`, found `{}`",
                code.trim()
            )));
        }
        let eu = number(words[0])
            .map(|n| n as usize)
            .filter(|&n| n < params.eus)
            .ok_or_else(|| {
                bad(format!(
                    "EU `{}`: expected 0..={}",
                    words[0],
                    params.eus - 1
                ))
            })?;
        let thread = number(words[1])
            .map(|n| n as usize)
            .filter(|&n| n < params.threads)
            .ok_or_else(|| {
                bad(format!(
                    "thread `{}`: expected 0..={}",
                    words[1],
                    params.threads - 1
                ))
            })?;
        let operand = |prefix: char, limit: usize, what: &str| -> Result<usize, TraceError> {
            let word = words.get(3).ok_or_else(|| bad(format!("missing {what}")))?;
            word.strip_prefix(prefix)
                .or_else(|| word.strip_prefix(prefix.to_ascii_uppercase()))
                .and_then(number)
                .map(|n| n as usize)
                .filter(|&n| n < limit)
                .ok_or_else(|| {
                    bad(format!(
                        "{what} `{word}`: expected {prefix}0..{prefix}{}",
                        limit - 1
                    ))
                })
        };
        let expect_words = |n: usize| -> Result<(), TraceError> {
            if words.len() > n {
                Err(bad(format!("unexpected `{}`", words[n..].join(" "))))
            } else {
                Ok(())
            }
        };
        let request =
            |op: GrfOp, reg: usize, group: usize, data| Step::request(thread, op, reg, group, data);
        let zero = vec![0; params.lanes];
        let vregs = params.virtual_registers();
        let step = match words[2].to_ascii_lowercase().as_str() {
            "read" => {
                expect_words(4)?;
                request(GrfOp::Read, operand('r', vregs, "register")?, 0, zero)
            }
            "write" => {
                expect_words(5)?;
                let reg = operand('r', vregs, "register")?;
                let text = words
                    .get(4)
                    .ok_or_else(|| bad("missing the value to write".into()))?;
                let values: Option<Vec<u64>> = text.split(',').map(number).collect();
                let values =
                    values.ok_or_else(|| bad(format!("value `{text}`: expected numbers")))?;
                let bits = params.element_bits;
                if let Some(wide) = values.iter().find(|&&v| bits < 64 && v >> bits != 0) {
                    return Err(bad(format!(
                        "value {wide:#x}: wider than the {bits}-bit element (at most {:#x})",
                        (1u64 << bits) - 1
                    )));
                }
                let data = match values.len() {
                    1 => vec![values[0]; params.lanes],
                    n if n == params.lanes => values,
                    n => {
                        return Err(bad(format!(
                            "{n} values: expected 1 or {} (one per lane)",
                            params.lanes
                        )))
                    }
                };
                request(GrfOp::Write, reg, 0, data)
            }
            "alloc" => {
                let block = operand('b', params.virtual_blocks, "virtual block")?;
                let group = match words.get(4) {
                    None => 0,
                    Some(g) => g
                        .strip_prefix('g')
                        .and_then(number)
                        .map(|n| n as usize)
                        .filter(|&n| n <= GrfParams::GROUPS)
                        .ok_or_else(|| {
                            bad(format!("group `{g}`: expected g0..g{}", GrfParams::GROUPS))
                        })?,
                };
                expect_words(5)?;
                request(GrfOp::Alloc, block * GrfParams::BLOCK, group, zero)
            }
            "release" | "switch" => {
                expect_words(4)?;
                let block = operand('b', params.virtual_blocks, "virtual block")?;
                let op = if words[2].eq_ignore_ascii_case("release") {
                    GrfOp::Release
                } else {
                    GrfOp::Switch
                };
                request(op, block * GrfParams::BLOCK, 0, zero)
            }
            "wait" => {
                expect_words(4)?;
                let group = operand('g', GrfParams::GROUPS + 1, "group")?;
                request(GrfOp::Wait, 0, group, zero)
            }
            "idle" => {
                expect_words(4)?;
                let cycles = words
                    .get(3)
                    .and_then(|w| number(w))
                    .ok_or_else(|| bad("idle: expected a number of cycles".into()))?;
                Step::Idle(cycles)
            }
            other => {
                return Err(bad(format!(
                "unknown op `{other}`: expected read, write, alloc, release, wait, switch or idle"
            )))
            }
        };
        trace[eu].push(step);
    }
    Ok(trace)
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
