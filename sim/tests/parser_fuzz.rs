//! Property-based, structure-aware fuzzing of every text parser of the simulator: core
//! programs, GRF traces, shaders, cluster programs and the shared line reader; and of the
//! core's golden model on generated programs (`core_generated_programs`).
//!
//! Each parser gets inputs built from its grammar (real opcodes, registers in and out of
//! range, huge and negative numbers, comments, blank lines, every line ending, a byte-order
//! mark, tabs, unicode, control characters, very long lines) and mutations of valid inputs
//! (byte flips, deletions, duplications, truncation, whole lines dropped or repeated). The
//! property: the parser never panics and returns within [`LIMIT`]; it either accepts the input
//! and the result passes what the simulator does next with it (validation, the compiler, a
//! short golden-model run), or it rejects it with one line that starts `line L, column C: `,
//! names a place inside the input and holds no raw control character.
//!
//! `GRFGEN_FUZZ_CASES` sets the cases per parser (default [`DEFAULT_CASES`]); the benchmark is
//! `GRFGEN_FUZZ_CASES=100000 cargo test --release -p grfgen-sim --test parser_fuzz`. Inputs that
//! found bugs live in `tests/corpus/<parser>/` and are replayed by the `corpus_*` tests.

use grfgen_hdl::params::{
    AllocParams, BankKind, ClusterParams, CoreOp, CoreParams, GprParams, GrfParams,
};
use grfgen_sim::alloc::run::compile as compile_shader;
use grfgen_sim::alloc::AllocOptions;
use grfgen_sim::cluster::{
    compile as compile_cluster, interpret, interpret_partitioned, run_allocated, ClusterInstr,
    Operand, Reg,
};
use grfgen_sim::core::program::{Instruction, Source};
use grfgen_sim::core::workload::{random_long_program, random_program};
use grfgen_sim::core::{ParseError, Policy, UnitLatencies, Workload};
use grfgen_sim::grf::{Conditions, Step, TraceError};
use grfgen_support::text::source_lines;
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

#[path = "common/fuzzing.rs"]
mod fuzzing;

use fuzzing::{fuzz, timed};

/// Whether `c` must not appear raw in an error: a control character (new lines included), or
/// an invisible one that hides or reorders text.
fn unprintable(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2060}'..='\u{206f}' | '\u{feff}')
}

/// `error` is one line, `line L, column C: <message>` with L and C a place in `text` (the
/// column may be one past the line's end), and holds no raw control character.
fn check_error(text: &str, error: &str) -> Result<(), TestCaseError> {
    prop_assert!(
        !error.chars().any(unprintable),
        "a raw control or invisible character, or a second line, in {error:?}"
    );
    let place = error
        .strip_prefix("line ")
        .and_then(|rest| rest.split_once(", column "))
        .and_then(|(line, rest)| {
            let (column, message) = rest.split_once(": ")?;
            Some((
                line.parse::<usize>().ok()?,
                column.parse::<usize>().ok()?,
                message,
            ))
        });
    let Some((line, column, message)) = place else {
        return Err(TestCaseError::fail(format!(
            "no `line L, column C: ` in {error:?}"
        )));
    };
    prop_assert!(!message.trim().is_empty(), "no message in {error:?}");
    let lines = source_lines(text);
    prop_assert!(
        line >= 1 && line <= lines.len().max(1),
        "line {line} of {} in {error:?}",
        lines.len()
    );
    let width = lines.get(line - 1).map_or(0, |l| l.chars().count());
    prop_assert!(
        column >= 1 && column <= width + 1,
        "column {column} of a line of {width} characters in {error:?}"
    );
    Ok(())
}

/// The verdict on one parse of `text`: accepted (`true`), or refused (`false`) with an error
/// that keeps the property.
fn verdict<E: std::fmt::Display>(
    text: &str,
    outcome: Result<(), E>,
) -> Result<bool, TestCaseError> {
    match outcome {
        Ok(()) => Ok(true),
        Err(e) => check_error(text, &e.to_string()).map(|()| false),
    }
}

// ---------------------------------------------------------------------------------------------
// Building inputs
// ---------------------------------------------------------------------------------------------

/// Tokens that break parsers: huge and negative numbers, unicode, control characters, long runs.
fn junk_token() -> BoxedStrategy<String> {
    let fixed: Vec<&'static str> = vec![
        "18446744073709551615",
        "18446744073709551616",
        "340282366920938463463374607431768211456",
        "4294967295",
        "4294967296",
        "-1",
        "-0",
        "+5",
        "0x",
        "0x-1",
        "0xffffffffffffffff",
        "0x10000000000000000",
        "0X1F",
        "1e9",
        "NaN",
        "\0",
        "\u{7}",
        "\u{1b}[31m",
        "\u{7f}",
        "\u{85}",
        "\u{9b}",
        "\u{2028}",
        "\u{200b}",
        "\u{feff}",
        "\u{202e}",
        "\t",
        "\u{b}",
        "\u{c}",
        "é",
        "\u{663}",
        "\u{ff52}1",
        "🦀",
        "#",
        "//",
        ";",
        ":",
        ",",
        "(",
        ")",
        "==",
        "!=",
    ];
    prop_oneof![
        6 => proptest::sample::select(fixed).prop_map(str::to_string),
        2 => vec(any::<char>(), 0..6).prop_map(String::from_iter),
        2 => "[a-zA-Z0-9_.#:,]{0,8}",
        1 => (1usize..20_000, proptest::sample::select(vec!["9", "a", " ", "\t", ",", "r1"]))
            .prop_map(|(n, s)| s.repeat(n)),
    ]
    .boxed()
}

/// `valid` mostly, now and then a junk token instead.
fn or_junk(valid: impl Strategy<Value = String> + 'static) -> BoxedStrategy<String> {
    prop_oneof![12 => valid, 1 => junk_token()].boxed()
}

/// Leading or separating white space: spaces, tabs, now and then odd unicode space.
fn space() -> BoxedStrategy<String> {
    prop_oneof![
        8 => Just(" ".to_string()),
        2 => Just("\t".to_string()),
        2 => "[ \t]{0,4}",
        1 => proptest::sample::select(vec!["\u{a0}", "\u{3000}", "\u{b}", "\u{c}", "\u{85}"])
            .prop_map(str::to_string),
    ]
    .boxed()
}

/// A line ending: `\n`, `\r\n` or a lone `\r`.
fn ending() -> BoxedStrategy<&'static str> {
    prop_oneof![6 => Just("\n"), 2 => Just("\r\n"), 1 => Just("\r")].boxed()
}

/// A comment in one of `styles`, with arbitrary text after it (on the same line).
fn comment(styles: &'static [&'static str]) -> BoxedStrategy<String> {
    (
        proptest::sample::select(styles),
        prop_oneof![3 => "[ -~]{0,20}", 1 => junk_token()],
    )
        .prop_map(|(style, text)| format!("{style}{}", text.replace(['\n', '\r'], " ")))
        .boxed()
}

/// `lines` joined, each with its own ending, maybe a byte-order mark first and maybe no ending
/// after the last line.
fn document(lines: impl Strategy<Value = Vec<String>> + 'static) -> BoxedStrategy<String> {
    lines
        .prop_flat_map(|lines| {
            let n = lines.len();
            (Just(lines), vec(ending(), n), any::<bool>(), 0..8u8)
        })
        .prop_map(|(lines, endings, last_ending, bom)| {
            let mut text = String::new();
            if bom == 0 {
                text.push('\u{feff}');
            }
            let count = lines.len();
            for (k, (line, end)) in lines.into_iter().zip(endings).enumerate() {
                text += &line;
                if k + 1 < count || last_ending {
                    text += end;
                }
            }
            text
        })
        .boxed()
}

/// A change to a valid input.
#[derive(Clone, Debug)]
enum Mutation {
    /// One byte XORed with a mask.
    Flip(usize, u8),
    /// A run of bytes removed.
    Delete(usize, usize),
    /// A run of bytes repeated in place.
    Duplicate(usize, usize),
    /// Everything from here on removed.
    Truncate(usize),
    /// A junk token inserted.
    Insert(usize, String),
    /// One whole line removed.
    DropLine(usize),
    /// One whole line repeated.
    RepeatLine(usize),
    /// Two lines swapped.
    SwapLines(usize, usize),
}

/// Any mutation.
fn mutation() -> BoxedStrategy<Mutation> {
    let at = any::<usize>();
    prop_oneof![
        3 => (at, any::<u8>()).prop_map(|(a, m)| Mutation::Flip(a, m)),
        2 => (at, 1usize..16).prop_map(|(a, n)| Mutation::Delete(a, n)),
        2 => (at, 1usize..16).prop_map(|(a, n)| Mutation::Duplicate(a, n)),
        1 => at.prop_map(Mutation::Truncate),
        3 => (at, junk_token()).prop_map(|(a, j)| Mutation::Insert(a, j)),
        2 => at.prop_map(Mutation::DropLine),
        2 => at.prop_map(Mutation::RepeatLine),
        1 => (at, at).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
    ]
    .boxed()
}

/// `text` after `change` (bytes that stop being UTF-8 are replaced, as a lossy reader would).
fn apply(text: String, change: &Mutation) -> String {
    let mut bytes = text.into_bytes();
    let len = bytes.len();
    let pick = |a: usize| if len == 0 { 0 } else { a % (len + 1) };
    match change {
        Mutation::Flip(a, m) if len > 0 => bytes[a % len] ^= m,
        Mutation::Flip(..) => {}
        Mutation::Delete(a, n) => {
            let start = pick(*a);
            bytes.drain(start..(start + n).min(len));
        }
        Mutation::Duplicate(a, n) => {
            let start = pick(*a);
            let run = bytes[start..(start + n).min(len)].to_vec();
            bytes.splice(start..start, run);
        }
        Mutation::Truncate(a) => bytes.truncate(pick(*a)),
        Mutation::Insert(a, junk) => {
            let at = pick(*a);
            bytes.splice(at..at, junk.bytes());
        }
        Mutation::DropLine(_) | Mutation::RepeatLine(_) | Mutation::SwapLines(..) => {
            return lines_changed(&String::from_utf8_lossy(&bytes), change);
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// `text` after a change of whole lines (split after each `\n`).
fn lines_changed(text: &str, change: &Mutation) -> String {
    let mut lines: Vec<&str> = text.split_inclusive('\n').collect();
    if lines.is_empty() {
        return text.to_string();
    }
    let n = lines.len();
    match change {
        Mutation::DropLine(a) => {
            lines.remove(a % n);
        }
        Mutation::RepeatLine(a) => lines.insert(a % n, lines[a % n]),
        Mutation::SwapLines(a, b) => lines.swap(a % n, b % n),
        _ => {}
    }
    lines.concat()
}

/// Valid inputs from `valid`, with one to four mutations.
fn mutated(valid: BoxedStrategy<String>) -> BoxedStrategy<String> {
    (valid, vec(mutation(), 1..5))
        .prop_map(|(text, changes)| changes.iter().fold(text, apply))
        .boxed()
}

/// Inputs for one parser: valid ones built from the grammar, ones built with junk tokens and
/// wrong operand counts, and mutations of valid ones.
fn inputs(built: BoxedStrategy<String>, valid: BoxedStrategy<String>) -> BoxedStrategy<String> {
    prop_oneof![2 => valid.clone(), 1 => built, 1 => mutated(valid)].boxed()
}

/// A register-like token: `prefix` and a number below `limit`, the last one often; when
/// `junk`, now and then a number past it or junk.
fn numbered(prefix: &'static str, limit: usize, junk: bool) -> BoxedStrategy<String> {
    let last = limit.saturating_sub(1);
    let valid = prop_oneof![
        8 => (0..limit.max(1)).prop_map(move |n| format!("{prefix}{n}")),
        1 => Just(format!("{prefix}{last}")),
    ];
    if !junk {
        return valid.boxed();
    }
    prop_oneof![
        10 => valid,
        2 => (limit..limit + 300).prop_map(move |n| format!("{prefix}{n}")),
        1 => junk_token().prop_map(move |j| format!("{prefix}{j}")),
    ]
    .boxed()
}

/// `fields` joined by commas, each comma with its own white space.
fn comma_list(fields: Vec<String>, gaps: Vec<String>) -> String {
    let mut text = String::new();
    for (k, field) in fields.into_iter().enumerate() {
        if k > 0 {
            text += ",";
            text += gaps.get(k).map_or(" ", String::as_str);
        }
        text += &field;
    }
    text
}

/// How many operands an instruction gets: `wanted` mostly, one fewer or more now and then.
fn operand_count(wanted: usize, pick: u8) -> usize {
    match pick {
        0 => wanted.saturating_sub(1),
        1 => wanted + 1,
        _ => wanted,
    }
}

// ---------------------------------------------------------------------------------------------
// Core programs
// ---------------------------------------------------------------------------------------------

/// Registers a fuzzed core program may name (the default core's program registers).
fn core_registers() -> usize {
    CoreParams::default().program_registers()
}

/// One core-program line; `junk` lets junk tokens in.
fn core_line(junk: bool) -> BoxedStrategy<String> {
    let registers = core_registers();
    let op = proptest::sample::select(vec![
        ("mov", 1),
        ("add", 2),
        ("sub", 2),
        ("mul", 2),
        ("mad", 3),
        ("MAD", 3),
        ("Add", 2),
    ]);
    let suffix = proptest::sample::select(vec!["", "", ".f32", ".u32", ".s16"]);
    let odd_repeats = match junk {
        true => vec![
            "(rpt255) ",
            "(rpt256) ",
            "(rpt18446744073709551616) ",
            "(rep3) ",
            "(rpt3 ",
        ],
        false => vec!["(rpt0) ", "(rpt15)\t", "(rpt1)"],
    };
    let repeat = prop_oneof![
        6 => Just(String::new()),
        3 => (0usize..8).prop_map(|n| format!("(rpt{n}) ")),
        1 => proptest::sample::select(odd_repeats).prop_map(str::to_string),
    ];
    let reg = numbered("R", registers, junk);
    let reg = if junk { or_junk(reg) } else { reg };
    let lower = any::<bool>();
    (
        (op, suffix, repeat, 0..6u8),
        vec(reg, 5),
        vec(space(), 5),
        prop::option::weighted(0.3, comment(&["//", ";"])),
        lower,
        space(),
    )
        .prop_map(
            move |((op, sfx, rpt, pick), regs, gaps, note, lower, lead)| {
                let n = operand_count(op.1 + 1, if junk { pick } else { 2 });
                let regs: Vec<String> = regs
                    .into_iter()
                    .take(n)
                    .map(|r| {
                        if junk {
                            r
                        } else {
                            repeatable(&r, &rpt, registers)
                        }
                    })
                    .map(|r| if lower { r.replacen('R', "r", 1) } else { r })
                    .collect();
                let mut line = format!("{lead}{rpt}{}{sfx} {}", op.0, comma_list(regs, gaps));
                if let Some(note) = note {
                    line = format!("{line} {note}");
                }
                line
            },
        )
        .boxed()
}

/// Register `reg` (`R<n>`) moved down so that the repeat `rpt` (`(rptN) `, or none) keeps it
/// below `registers`.
fn repeatable(reg: &str, rpt: &str, registers: usize) -> String {
    let digits = |t: &str| -> usize {
        let d: String = t.chars().filter(char::is_ascii_digit).collect();
        d.parse().unwrap_or(0)
    };
    let (n, repeat) = (digits(reg), digits(rpt));
    format!("R{}", n.min(registers.saturating_sub(repeat + 1)))
}

/// Up to 16 lines, mostly `line`s, some blank, some comments started by one of `comments`.
fn source_text(
    line: BoxedStrategy<String>,
    comments: &'static [&'static str],
) -> BoxedStrategy<String> {
    let line = prop_oneof![
        8 => line,
        1 => Just(String::new()),
        1 => comment(comments),
    ];
    document(vec(line, 0..16))
}

/// A core program: instruction lines among blank and comment lines.
fn core_program(junk: bool) -> BoxedStrategy<String> {
    source_text(core_line(junk), &["//", ";"])
}

/// Parses a core program and, when it is accepted, runs it on the golden model, whose
/// registers must then hold what the program computes in program order (a plain interpreter
/// of it, `core_meaning`) and whose cycles must not beat the lower bound; whether it was
/// accepted.
fn core_case(text: &str) -> Result<bool, TestCaseError> {
    let input = text.to_string();
    let outcome = timed(move || -> Result<(), ParseError> {
        let params = CoreParams::default();
        let program = grfgen_sim::core::parse(&input, params.program_registers())?;
        for i in &program {
            assert!(i.dst < params.program_registers(), "{i}");
            assert!(i.reads().all(|s| s < params.program_registers()), "{i}");
            assert_eq!(i.src.len(), i.op.sources(), "{i}");
        }
        if program.len() <= 64 {
            let workload = Workload::new("fuzz", program);
            let run = grfgen_sim::core::run(&params, Policy::CqPq, &workload, 1, None, false);
            assert!(
                run.cycles >= run.lower_bound,
                "{} cycles, bound {}",
                run.cycles,
                run.lower_bound
            );
            let meaning = core_meaning(&workload.program, run.inputs.wave(0), params.gpr.lanes);
            assert_eq!(run.outputs.wave(0), &meaning);
        }
        Ok(())
    })?;
    verdict(text, outcome)
}

/// What `program` computes from `inputs` (by the program's own names, `R5`), instruction
/// after instruction in program order: every register it writes, per lane. An instruction
/// writing `n` registers writes its value plus `k` into its `k`-th; `lanes` values each (a
/// program reading no register has no input to tell them).
fn core_meaning(
    program: &[Instruction],
    inputs: &std::collections::BTreeMap<String, Vec<u64>>,
    lanes: usize,
) -> std::collections::BTreeMap<String, Vec<u64>> {
    let mask = 0xffff_ffffu64;
    let mut registers = inputs.clone();
    for i in program {
        let operand = |k: usize| match i.src.get(k) {
            Some(Source::Reg(r)) => registers[&format!("R{r}")].clone(),
            Some(Source::Imm(v)) => vec![u64::from(*v); lanes],
            None => vec![0; lanes],
        };
        let (a, b, c) = (operand(0), operand(1), operand(2));
        for k in 0..i.writes {
            let value = (0..lanes)
                .map(|l| {
                    let v = match i.op {
                        CoreOp::Mov => a[l],
                        CoreOp::Add => a[l] + b[l],
                        CoreOp::Sub => a[l].wrapping_sub(b[l]),
                        CoreOp::Mul => a[l].wrapping_mul(b[l]),
                        CoreOp::Mad => a[l].wrapping_mul(b[l]).wrapping_add(c[l]),
                        CoreOp::Nop => 0,
                    };
                    (v & mask).wrapping_add(k as u64) & mask
                })
                .collect();
            registers.insert(format!("R{}", i.dst + k), value);
        }
    }
    let written: std::collections::BTreeSet<usize> =
        program.iter().flat_map(|i| i.written()).collect();
    (written.into_iter())
        .map(|r| (format!("R{r}"), registers[&format!("R{r}")].clone()))
        .collect()
}

/// A core configuration from fuzzed choices: `shape` picks banks, bank kind, read ports and
/// the GPR's pipeline; `queues` the queues, lookahead and ALU latency.
fn fuzzed_core(
    shape: [usize; 4],
    queues: [usize; 4],
    switches: [bool; 2],
    long_results: usize,
) -> CoreParams {
    CoreParams {
        gpr: GprParams {
            banks: [1, 2, 4, 8][shape[0] % 4],
            registers: 64,
            lanes: 2,
            read_ports: 1 + shape[2] % 4,
            bank_kind: BankKind::ALL[shape[1] % 3],
            pipeline: shape[3] % 5,
            ..GprParams::default()
        },
        cq_entries: queues[0] % 4,
        pq_entries: queues[1] % 6,
        lookahead: 1 + queues[2] % 4,
        alu_latency: 1 + queues[3] % 4,
        forward: switches[0],
        request_stage: switches[1],
        long_results,
        ..CoreParams::default()
    }
}

/// The golden model on generated programs (random ALU programs, and `random-long` ones: long
/// latency instructions of every unit, immediates, nops, sync waits) over few registers, on
/// fuzzed configurations, latencies and external traffic, under every policy: the registers
/// it leaves hold what the program computes in program order, and no run beats its lower bound.
#[test]
fn core_generated_programs() {
    let choices = (
        (any::<u64>(), any::<bool>(), 4usize..24, 1usize..300),
        (
            [0usize..8, 0..8, 0..8, 0..8],
            [0usize..8, 0..8, 0..8, 0..8],
            any::<[bool; 2]>(),
        ),
        (
            prop_oneof![3 => 1usize..5, 1 => 5usize..=32],
            [1usize..=64, 1..=64, 1..=64, 1..=64],
            0u32..60,
        ),
    );
    fuzz(
        file!(),
        "core generated programs",
        choices,
        |(program, core, unit)| {
            let ((seed, long, registers, count), (shape, queues, switches), (lrs, latency, rate)) =
                (program, core, unit);
            let params = fuzzed_core(shape, queues, switches, lrs);
            let lanes = params.gpr.lanes;
            let workload = Workload {
                external_rate: rate,
                latencies: UnitLatencies {
                    sfu_latency: latency[0],
                    varying_latency: latency[1],
                    tex_latency: latency[2],
                    mem_latency: latency[3],
                },
                ..Workload::new(
                    "generated",
                    match long {
                        true => random_long_program(count, registers, lrs, seed),
                        false => random_program(count, registers, seed),
                    },
                )
            };
            let runs = timed(move || {
                Policy::ALL
                    .map(|policy| {
                        grfgen_sim::core::run(&params, policy, &workload, seed, None, false)
                    })
                    .into_iter()
                    .map(|run| (run, workload.program.clone()))
                    .collect::<Vec<_>>()
            })?;
            for (run, program) in runs {
                let policy = run.policy;
                prop_assert!(
                    run.cycles >= run.lower_bound,
                    "{policy:?}: {} cycles, bound {}",
                    run.cycles,
                    run.lower_bound
                );
                prop_assert_eq!(
                    run.outputs.wave(0),
                    &core_meaning(&program, run.inputs.wave(0), lanes),
                    "{:?}",
                    policy
                );
            }
            Ok(true)
        },
    );
}

// ---------------------------------------------------------------------------------------------
// GRF traces
// ---------------------------------------------------------------------------------------------

/// One GRF trace line for `params`; `junk` lets junk tokens in.
fn grf_line(params: &GrfParams, junk: bool) -> BoxedStrategy<String> {
    let p = params.clone();
    let widest = if p.element_bits >= 64 {
        u64::MAX
    } else {
        (1u64 << p.element_bits) - 1
    };
    let past = match junk {
        true => format!("{:#x}", widest as u128 + 1),
        false => format!("{widest:#X}"),
    };
    let value = prop_oneof![
        4 => (0..=widest).prop_map(|v| format!("{v:#x}")),
        2 => (0..=widest).prop_map(|v| v.to_string()),
        1 => Just(past),
    ]
    .boxed();
    let lanes = match junk {
        true => 0..6,
        false => p.lanes..p.lanes + 1,
    };
    let values = prop_oneof![
        3 => value.clone(),
        2 => vec(value, p.lanes..=p.lanes).prop_map(|v| v.join(",")),
        1 => vec(any::<u8>().prop_map(|v| v.to_string()), lanes).prop_map(|v| v.join(",")),
    ];
    let maybe = |s: BoxedStrategy<String>| if junk { or_junk(s) } else { s };
    let mut ops = vec![
        "read", "write", "alloc", "release", "wait", "switch", "idle", "READ",
    ];
    if junk {
        ops.push("jump");
    }
    let op = proptest::sample::select(ops);
    let idle = match junk {
        true => prop_oneof![4 => (0u64..50).prop_map(|n| n.to_string()), 1 => junk_token()].boxed(),
        false => {
            prop_oneof![4 => (0u64..50).prop_map(|n| n.to_string()), 1 => Just("0x10".to_string())]
                .boxed()
        }
    };
    (
        (
            maybe(numbered("", p.eus, junk)),
            maybe(numbered("", p.threads, junk)),
            op,
            maybe(numbered("r", p.virtual_registers(), junk)),
            maybe(numbered("b", p.virtual_blocks, junk)),
            maybe(numbered("g", GrfParams::GROUPS + 1, junk)),
        ),
        (
            maybe(values.boxed()),
            idle,
            0..6u8,
            vec(space(), 5),
            prop::option::weighted(0.3, comment(&["#", "//"])),
        ),
    )
        .prop_map(
            move |((eu, thread, op, reg, block, group), (data, idle, pick, gaps, note))| {
                let mut words: Vec<String> = vec![eu, thread, op.to_string()];
                match op.to_ascii_lowercase().as_str() {
                    "read" => words.push(reg),
                    "write" => words.extend([reg, data]),
                    "alloc" => {
                        words.push(block);
                        if pick % 2 == 0 {
                            words.push(group);
                        }
                    }
                    "wait" => words.push(group),
                    "idle" => words.push(idle),
                    _ => words.push(block),
                }
                if junk && pick == 0 {
                    words.pop();
                }
                if junk && pick == 1 {
                    words.push("extra".into());
                }
                let mut line = String::new();
                for (k, word) in words.into_iter().enumerate() {
                    line += &gaps[k.min(4)];
                    if k > 0 && gaps[k.min(4)].is_empty() {
                        line.push(' ');
                    }
                    line += &word;
                }
                if let Some(note) = note {
                    line = format!("{line} {note}");
                }
                line
            },
        )
        .boxed()
}

/// The GRFs the traces are fuzzed against: the default, and narrow and wide elements.
fn grf_params() -> Vec<GrfParams> {
    let narrow = GrfParams {
        element_bits: 8,
        ..GrfParams::default()
    };
    let wide = GrfParams {
        element_bits: 64,
        ..GrfParams::default()
    };
    vec![GrfParams::default(), narrow, wide]
}

/// A GRF trace for one of [`grf_params`] (by index), with blank and comment lines.
fn grf_trace(which: usize, junk: bool) -> BoxedStrategy<String> {
    let params = &grf_params()[which];
    source_text(grf_line(params, junk), &["#", "//"])
}

/// Parses a GRF trace and, when it is accepted, runs it on the golden model for a while;
/// whether it was accepted.
fn grf_case(which: usize, text: &str) -> Result<bool, TestCaseError> {
    let input = text.to_string();
    let outcome = timed(move || -> Result<(), TraceError> {
        let params = grf_params().swap_remove(which);
        let trace = grfgen_sim::grf::parse(&input, &params)?;
        assert_eq!(trace.len(), params.eus);
        for step in trace.iter().flatten() {
            if let Step::Request(r) = step {
                assert!(r.thread < params.threads && r.data.len() == params.lanes);
                let bits = params.element_bits;
                assert!(r.data.iter().all(|&v| bits >= 64 || v >> bits == 0));
            }
        }
        let conditions = Conditions {
            max_cycles: 5_000,
            ..Conditions::new(1)
        };
        grfgen_sim::grf::run(&params, &trace, &conditions, None);
        Ok(())
    })?;
    verdict(text, outcome)
}

// ---------------------------------------------------------------------------------------------
// Shaders
// ---------------------------------------------------------------------------------------------

/// The operations shaders and cluster programs share, with their operand counts (the
/// destination included).
const ALU_OPS: [(&str, usize); 8] = [
    ("mov", 2),
    ("add", 3),
    ("sub", 3),
    ("mul", 3),
    ("and", 3),
    ("or", 3),
    ("xor", 3),
    ("out", 1),
];

/// One shader instruction line (no indentation); `junk` lets junk tokens in.
fn shader_instr(junk: bool) -> BoxedStrategy<String> {
    let mut ops = ALU_OPS.to_vec();
    ops.extend([("ld", 2), if junk { ("fma", 4) } else { ("ld", 2) }]);
    let op = proptest::sample::select(ops);
    let big = if junk { "#4294967296" } else { "#4294967295" };
    let source = prop_oneof![
        6 => numbered("r", 8, junk),
        1 => Just("r255".to_string()),
        2 => (0u64..100).prop_map(|n| format!("#{n}")),
        1 => Just("#0xffffffff".to_string()),
        1 => Just(big.to_string()),
        2 => Just("wave".to_string()),
    ]
    .boxed();
    let source = if junk { or_junk(source) } else { source };
    (
        op,
        numbered("r", 8, junk),
        vec(source, 4),
        vec(space(), 4),
        0..6u8,
    )
        .prop_map(move |(op, dst, srcs, gaps, pick)| {
            let n = operand_count(op.1, if junk { pick } else { 2 });
            let mut fields = Vec::new();
            if op.0 != "out" {
                fields.push(dst);
            }
            fields.extend(srcs);
            fields.truncate(n);
            format!("{} {}", op.0, comma_list(fields, gaps))
        })
        .boxed()
}

/// `if <cond>` for a shader with uniforms `mode` and `colour`.
fn shader_condition(junk: bool) -> BoxedStrategy<String> {
    let names = match junk {
        true => vec!["mode", "colour", "mode", "other"],
        false => vec!["mode", "colour", "mode"],
    };
    let name = proptest::sample::select(names);
    let op = proptest::sample::select(vec!["==", "!=", "==", "=", ""]);
    let value =
        prop_oneof![4 => (0u32..4).prop_map(|v| v.to_string()), 1 => Just("0x10".to_string())];
    let value = if junk { or_junk(value) } else { value.boxed() };
    (name, op, value)
        .prop_map(move |(name, op, value)| match (junk, op) {
            (false, "=" | "") => format!("if {name} == {value}"),
            _ => format!("if {name} {op} {value}"),
        })
        .boxed()
}

/// The statements of a main shader, as lines, with `if`s nested a few deep.
fn shader_block(junk: bool) -> BoxedStrategy<Vec<String>> {
    let leaf = shader_instr(junk).prop_map(|l| vec![l]);
    leaf.prop_recursive(4, 48, 6, move |inner| {
        prop_oneof![
            2 => vec(inner.clone(), 0..6).prop_map(|b| b.concat()),
            1 => (
                shader_condition(junk),
                vec(inner.clone(), 0..4),
                prop::option::of(vec(inner, 0..4)),
            )
                .prop_map(|(cond, then, other)| {
                    let mut lines = vec![cond];
                    lines.extend(then.concat().into_iter().map(|l| format!("  {l}")));
                    if let Some(other) = other {
                        lines.push("else".into());
                        lines.extend(other.concat().into_iter().map(|l| format!("  {l}")));
                    }
                    lines.push("end".into());
                    lines
                }),
        ]
    })
    .boxed()
}

/// A whole shader: uniforms, maybe a preamble, the main shader, comments on some lines.
fn shader(junk: bool) -> BoxedStrategy<String> {
    let uniforms = match junk {
        true => vec(
            proptest::sample::select(vec!["uniform mode", "uniform colour", "uniform"]),
            0..3,
        )
        .boxed(),
        false => Just(vec!["uniform mode", "uniform\tcolour"]).boxed(),
    };
    let preamble_line = shader_instr(junk).prop_map(move |l| match !junk && l.starts_with("out") {
        true => "mov r1, wave".to_string(),
        false => l,
    });
    let preamble = prop::option::of(vec(preamble_line, 0..4));
    let nesting = match junk {
        true => prop_oneof![9 => Just(0usize), 1 => 60usize..70].boxed(),
        false => prop_oneof![9 => Just(0usize), 1 => 50usize..58].boxed(),
    };
    (
        uniforms,
        preamble,
        shader_block(junk),
        nesting,
        vec(space(), 1..4),
        vec(comment(&[";", "//"]), 0..3),
    )
        .prop_map(|(uniforms, preamble, body, nesting, indents, notes)| {
            let mut lines: Vec<String> = uniforms.into_iter().map(str::to_string).collect();
            if let Some(preamble) = preamble {
                lines.push("preamble:".into());
                lines.extend(preamble.into_iter().map(|l| format!("  {l}")));
            }
            lines.push("main:".into());
            lines.extend(vec!["if mode == 1".to_string(); nesting]);
            for (k, line) in body.into_iter().enumerate() {
                lines.push(format!("{}{line}", indents[k % indents.len()]));
            }
            lines.extend(vec!["end".to_string(); nesting]);
            for (k, note) in notes.into_iter().enumerate() {
                let at = (k * 7) % lines.len();
                lines[at] = format!("{} {note}", lines[at]);
            }
            lines
        })
        .prop_flat_map(|lines| document(Just(lines)))
        .boxed()
}

/// Parses a shader and, when it is accepted, compiles it for the default pool; whether it was
/// accepted.
fn shader_case(text: &str) -> Result<bool, TestCaseError> {
    let input = text.to_string();
    let outcome = timed(move || -> Result<(), ParseError> {
        let shader = grfgen_sim::alloc::shader::parse(&input)?;
        let options = AllocOptions::default();
        for pack in [true, false] {
            let options = AllocOptions {
                pack,
                ..options.clone()
            };
            // The compiler may refuse the shader (a read before any write, a pool too small);
            // it must not fail in any other way.
            let _ = compile_shader(&AllocParams::default(), &options, ("fuzz", &shader));
        }
        Ok(())
    })?;
    verdict(text, outcome)
}

// ---------------------------------------------------------------------------------------------
// Cluster programs
// ---------------------------------------------------------------------------------------------

/// One cluster-program line for 3 clusters; `junk` lets junk tokens in.
fn cluster_line(junk: bool) -> BoxedStrategy<String> {
    let mut ops = ALU_OPS.to_vec();
    ops.push(if junk { ("mv", 2) } else { ("xor", 3) });
    let op = proptest::sample::select(ops);
    let clusters = if junk { 0usize..5 } else { 1usize..4 };
    let label = prop_oneof![
        8 => clusters.prop_map(|k| format!("c{k}:")),
        1 => proptest::sample::select(match junk {
            true => vec!["c1 :", "C1:", "1:", "c:", "c01:", "c18446744073709551617:"],
            false => vec!["c1 :", "c01:", "\tc3:"],
        })
            .prop_map(str::to_string),
    ];
    let register = prop_oneof![
        8 => numbered("v", 6, junk),
        1 => numbered("mvr", 3, junk),
        1 => Just(if junk { "v18446744073709551615" } else { "v4294967295" }.to_string()),
    ]
    .boxed();
    let source = prop_oneof![
        6 => register.clone(),
        2 => (0u64..100).prop_map(|n| format!("#{n}")),
        1 => proptest::sample::select(match junk {
            true => vec!["#0x10", "#0xffffffff", "#4294967296", "#0x", "#-1"],
            false => vec!["#0x10", "#0xffffffff", "#4294967295", "#0X0", "#007"],
        })
            .prop_map(str::to_string),
    ]
    .boxed();
    let source = if junk { or_junk(source) } else { source };
    (
        label,
        op,
        register,
        vec(source, 3),
        vec(space(), 4),
        0..6u8,
        prop::option::weighted(0.3, comment(&[";", "//"])),
    )
        .prop_map(move |(label, op, dst, srcs, gaps, pick, note)| {
            let n = operand_count(op.1, if junk { pick } else { 2 });
            let mut fields = Vec::new();
            if op.0 != "out" {
                fields.push(dst);
            }
            fields.extend(srcs);
            fields.truncate(n);
            let lead = gaps[0].clone();
            let mut line = format!("{lead}{label} {} {}", op.0, comma_list(fields, gaps));
            if let Some(note) = note {
                line = format!("{line} {note}");
            }
            line
        })
        .boxed()
}

/// A cluster program with blank and comment lines.
fn cluster_program(junk: bool) -> BoxedStrategy<String> {
    source_text(cluster_line(junk), &[";", "//"])
}

/// Parses a cluster program and, when it is accepted, interprets it, compiles it both ways and
/// checks that the compiled program computes what the original does; whether it was accepted
/// and a compiled program compared (so that the floor on accepted cases covers the comparison).
fn cluster_case(text: &str) -> Result<bool, TestCaseError> {
    let input = text.to_string();
    let outcome = timed(move || -> Result<bool, ParseError> {
        let params = ClusterParams::default();
        let program = grfgen_sim::cluster::parse(&input, params.clusters)?;
        Ok(check_cluster_program(&program, &params))
    })?;
    let compared = *outcome.as_ref().unwrap_or(&false);
    Ok(verdict(text, outcome.map(|_| ()))? && compared)
}

/// What the simulator does with an accepted cluster program: interpret, partition, allocate;
/// whether a compiled program was compared with the original.
fn check_cluster_program(program: &[ClusterInstr], params: &ClusterParams) -> bool {
    for i in program {
        assert!((1..=params.clusters).contains(&i.cluster), "{i}");
        assert_eq!(i.src.len(), i.op.sources(), "{i}");
    }
    let reference = interpret(program, 7);
    let main_named = program.iter().any(|i| {
        i.dst.is_some_and(|d| matches!(d, Reg::Main(_)))
            || i.src
                .iter()
                .any(|s| matches!(s, Operand::Reg(Reg::Main(_))))
    });
    let mut compared = false;
    for baseline in [false, true] {
        let Ok((partitioned, alloc)) = compile_cluster(program, params, baseline) else {
            continue;
        };
        let reference = match (reference.clone(), main_named) {
            (Ok(reference), _) => reference,
            // A program may read an `mvr` it never writes: nothing to compare.
            (Err(_), true) => continue,
            (Err(e), false) => panic!("no mvr, no read before a write: {e:?}"),
        };
        assert_eq!(
            interpret_partitioned(&partitioned, 7).as_ref(),
            Ok(&reference)
        );
        assert_eq!(run_allocated(&alloc, params.clusters, 7), Ok(reference));
        compared = true;
    }
    compared
}

// ---------------------------------------------------------------------------------------------
// The shared line reader
// ---------------------------------------------------------------------------------------------

/// Text made of pieces that matter to the line reader.
fn raw_text() -> BoxedStrategy<String> {
    vec(
        prop_oneof![
            3 => proptest::sample::select(vec!["\n", "\r\n", "\r", "\u{feff}", "\n\r", "a", " ", "é"])
                .prop_map(str::to_string),
            1 => junk_token(),
        ],
        0..32,
    )
    .prop_map(|parts| parts.concat())
    .boxed()
}

/// `text` with a leading byte-order mark dropped and every line ending written `\n`.
fn normalised(text: &str) -> String {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text.replace("\r\n", "\n").replace('\r', "\n")
}

// ---------------------------------------------------------------------------------------------
// The tests
// ---------------------------------------------------------------------------------------------

/// Core programs: `grfgen sim core --program FILE`.
#[test]
fn core_programs() {
    let inputs = inputs(core_program(true), core_program(false));
    fuzz(file!(), "core programs", inputs, |text| core_case(&text));
}

/// GRF traces: `grfgen sim grf --trace FILE`, for three element widths.
#[test]
fn grf_traces() {
    let inputs = (0usize..3).prop_flat_map(|w| {
        let text = inputs(grf_trace(w, true), grf_trace(w, false));
        (Just(w), text)
    });
    fuzz(file!(), "GRF traces", inputs, |(which, text)| {
        grf_case(which, &text)
    });
}

/// Shaders: `grfgen sim alloc --shader FILE`.
#[test]
fn shaders() {
    let inputs = inputs(shader(true), shader(false));
    fuzz(file!(), "shaders", inputs, |text| shader_case(&text));
}

/// Cluster programs: `grfgen sim cluster --program FILE` and `grfgen partition`.
#[test]
fn cluster_programs() {
    let inputs = inputs(cluster_program(true), cluster_program(false));
    fuzz(file!(), "cluster programs", inputs, |text| {
        cluster_case(&text)
    });
}

/// The line reader every parser uses: one element per line whatever the ending, the
/// byte-order mark dropped, nothing else lost.
#[test]
fn source_lines_keep_every_character() {
    fuzz(file!(), "source lines", raw_text(), |text| {
        let input = text.clone();
        let lines = timed(move || {
            let lines = source_lines(&input);
            lines.into_iter().map(str::to_string).collect::<Vec<_>>()
        })?;
        let mut joined = lines.join("\n");
        let expected = normalised(&text);
        if expected.ends_with('\n') {
            joined.push('\n');
        }
        prop_assert_eq!(joined, expected);
        prop_assert!(lines.iter().all(|l| !l.contains(['\n', '\r'])));
        Ok(true)
    });
}

// ---------------------------------------------------------------------------------------------
// The corpus: inputs that found bugs
// ---------------------------------------------------------------------------------------------

/// Every file of `tests/corpus/<parser>/`, by name, with its text.
fn corpus(parser: &str) -> Vec<(String, String)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus")
        .join(parser);
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| {
            let path = entry.expect("a corpus entry").path();
            let text = std::fs::read_to_string(&path).expect("a UTF-8 corpus file");
            let name = path
                .file_name()
                .expect("a file")
                .to_string_lossy()
                .into_owned();
            (name, text)
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no corpus in {}", dir.display());
    files
}

/// Replays `parser`'s corpus through `case` (the fuzzed property), and checks the outcome
/// `expected` gives each file by its number: the start of the error `rejects` returns, or `""`
/// for a file the parser accepts (its name ends `-ok`). Every file needs an expectation.
fn replay(
    parser: &str,
    case: impl Fn(&str) -> Result<bool, TestCaseError>,
    rejects: impl Fn(&str) -> Option<String>,
    expected: &[(&str, &str)],
) {
    let files = corpus(parser);
    assert_eq!(
        files.len(),
        expected.len(),
        "{parser}: one expectation per file"
    );
    for (name, text) in files {
        if let Err(e) = case(&text) {
            panic!("{parser}/{name}: {e}");
        }
        let &(_, want) = expected
            .iter()
            .find(|(number, _)| name.starts_with(&format!("{number}-")))
            .unwrap_or_else(|| panic!("{parser}/{name}: no expectation"));
        let error = rejects(&text);
        match name.trim_end_matches(".txt").ends_with("-ok") {
            true => assert_eq!((error, want), (None, ""), "{parser}/{name}"),
            false => {
                let error = error.unwrap_or_else(|| panic!("{parser}/{name} is accepted"));
                assert!(error.starts_with(want), "{parser}/{name}: {error}");
            }
        }
    }
}

#[test]
fn corpus_core_programs() {
    let registers = core_registers();
    replay(
        "core",
        core_case,
        |t| {
            grfgen_sim::core::parse(t, registers)
                .err()
                .map(|e| e.to_string())
        },
        &[
            ("001", "line 1, column 32: unexpected `,\\tr12`"),
            ("002", "line 1, column 12: unexpected `\\u{1b}[31mred`"),
            ("003", "line 1, column 7: expected `,`, found `\\u{7}`"),
            (
                "004",
                "line 1, column 9: register R18446744073709551616 does not exist",
            ),
            (
                "005",
                "line 1, column 2: repeat count 18446744073709551616 is above 255",
            ),
            (
                "006",
                "line 1, column 12: unexpected `9999999999999999999999999999999999999999...`:",
            ),
            ("007", ""),
        ],
    );
}

#[test]
fn corpus_grf_traces() {
    replay(
        "grf",
        |t| grf_case(0, t),
        |t| {
            grfgen_sim::grf::parse(t, &GrfParams::default())
                .err()
                .map(|e| e.to_string())
        },
        &[
            ("001", "line 2, column 5: unknown op `rd`"),
            ("002", "line 1, column 13: missing the value to write"),
            ("003", "line 1, column 10: register `r\\u{7}1`"),
            (
                "004",
                "line 1, column 10: idle: expected a number of cycles 0..=10000000000",
            ),
            ("005", "line 1, column 3: thread `+1`"),
            ("006", "line 1, column 14: value `0x+5`"),
            ("007", "line 2, column 18: value `1,2,x,4`"),
            ("008", ""),
        ],
    );
}

#[test]
fn corpus_shaders() {
    replay(
        "shader",
        shader_case,
        |t| {
            grfgen_sim::alloc::shader::parse(t)
                .err()
                .map(|e| e.to_string())
        },
        &[
            ("001", "line 1, column 1: `\\u{0}main:`"),
            (
                "002",
                "line 3, column 5: expected `if <uniform> == <value>`",
            ),
            ("003", "line 3, column 9: `#é`"),
            ("004", "line 67, column 1: more than 64 `if`s open at once"),
            ("005", "line 42, column 3: more than 4096 paths"),
            ("006", "line 6, column 7: unexpected `junk` after `end`"),
            ("007", "line 2, column 7: unexpected `junk` after `main:`"),
            ("008", "line 5, column 8: unexpected `junk` after `else`"),
            ("009", ""),
            ("010", ""),
            (
                "011",
                "line 97, column 3: more than 262144 instructions on all the paths",
            ),
        ],
    );
}

#[test]
fn corpus_cluster_programs() {
    replay(
        "cluster",
        cluster_case,
        |t| {
            grfgen_sim::cluster::parse(t, ClusterParams::default().clusters)
                .err()
                .map(|e| e.to_string())
        },
        &[
            ("001", "line 1, column 20: `#-1`"),
            ("002", "line 1, column 9: `v18446744073709551615`"),
            ("003", "line 1, column 1: `c\\u{7}1`"),
            (
                "004",
                "line 1, column 13: `#999999999999999999999999999999999999999...`",
            ),
            ("005", ""),
        ],
    );
}

/// The built-in inputs stay inside the parsers' limits, and what the simulator prints reads
/// back the same: every example shader (random ones from many seeds), every fixed cluster
/// program, every core workload, and random core and cluster programs printed and parsed.
#[test]
fn built_in_inputs_parse_and_printed_programs_read_back() {
    use grfgen_sim::rng::Rng;
    for seed in 0..300 {
        let mut rng = Rng::new(seed);
        for name in grfgen_sim::alloc::examples::NAMES {
            if let Some(text) = grfgen_sim::alloc::examples::shader_text(name, &mut rng) {
                let parsed = grfgen_sim::alloc::shader::parse(&text);
                assert!(parsed.is_ok(), "{name} (seed {seed}): {parsed:?}");
            }
        }
        let params = ClusterParams::default();
        let program = grfgen_sim::cluster::kernels::random(params.clusters, 4, &mut rng);
        let text: String = program.iter().map(|i| format!("{i}\n")).collect();
        let back = grfgen_sim::cluster::parse(&text, params.clusters);
        assert_eq!(back.as_ref(), Ok(&program), "seed {seed}");
        let registers = core_registers();
        let program = grfgen_sim::core::workload::random_program(40, registers, seed);
        let text: String = program.iter().map(|i| format!("{i}\n")).collect();
        assert_eq!(grfgen_sim::core::parse(&text, registers), Ok(program));
    }
    for name in grfgen_sim::cluster::kernels::NAMES {
        if let Some(text) = grfgen_sim::cluster::kernels::program_text(name, 3) {
            assert!(grfgen_sim::cluster::parse(&text, 3).is_ok(), "{name}");
        }
    }
    for name in grfgen_sim::core::workload::NAMES {
        let workload = grfgen_sim::core::builtin(name, &CoreParams::default(), 1);
        assert!(workload.is_ok(), "{name}: {:?}", workload.err());
    }
}
