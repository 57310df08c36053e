//! The catalogue of hostile invocations: every block and command given values out of range, not
//! in a set, unparsable, empty, negative, fractional or past u64, missing arguments, unknown
//! names, wrong choices, broken input files and unwritable outputs. Each must end with one line
//! on stderr naming what is wrong, the promised exit status, nothing on stdout, nothing written
//! and no panic. Every failing row is collected and reported at the end.
//!
//! Most rows come from the catalogue itself (`grfgen blocks --json` and each subcommand's
//! `--help`): a stratified subset of block x command x parameter x kind of bad value, so that
//! every block, command, parameter and kind of value appears without thousands of runs.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fs::File;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// The binary under test.
const BIN: &str = env!("CARGO_BIN_EXE_grfgen");

/// Longest an invocation may take: bad input is rejected in milliseconds.
const TIMEOUT: Duration = Duration::from_secs(30);

/// The commands that take a block's parameters besides `emit` (`slurm` is `sweep slurm`).
const BLOCK_COMMANDS: [&str; 5] = ["sim", "flow", "sweep", "bench", "slurm"];

/// The commands that take a block's run options.
const OPTION_COMMANDS: [&str; 3] = ["sim", "flow", "sweep"];

/// Flags every block command shares, covered by the hand-written rows instead.
const SHARED_FLAGS: [&str; 16] = [
    "--config",
    "--seed",
    "--vcd",
    "--out",
    "--clock-mhz",
    "--io-delay-ns",
    "--top",
    "--device",
    "--pnr-seed",
    "--set",
    "--jobs",
    "--shard",
    "--shards",
    "--partition",
    "--account",
    "--json",
];

/// Run options given with a harmless value so that a wrongly accepted bad value still ends fast.
const QUICK: [(&str, &str); 7] = [
    ("--cycles", "10"),
    ("--max-cycles", "100"),
    ("--rounds", "1"),
    ("--instructions", "1"),
    ("--mappings", "1"),
    ("--programs", "1"),
    ("--waves", "1"),
];

/// The exit status a row expects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    /// Bad input: status 2.
    Input,
    /// An I/O failure: a non-zero status the project chooses (1 or 2).
    Io,
}

/// One hostile invocation and what it must produce.
struct Row {
    /// The arguments; `{out}` stands for `out` in the row's working directory, `{fx}` for the
    /// fixtures directory.
    args: Vec<OsString>,
    /// The exit status expected.
    expect: Expect,
    /// What stderr must contain (placeholders as in `args`).
    words: Vec<String>,
}

/// A bad-input row.
fn bad(args: &[&str], words: &[&str]) -> Row {
    Row {
        args: args.iter().map(OsString::from).collect(),
        expect: Expect::Input,
        words: words.iter().map(|w| w.to_string()).collect(),
    }
}

/// An I/O-failure row.
fn io(args: &[&str], words: &[&str]) -> Row {
    Row {
        expect: Expect::Io,
        ..bad(args, words)
    }
}

/// How a parameter or option takes values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// A whole number.
    Integer,
    /// A real number.
    Number,
    /// `true` or `false`.
    Boolean,
    /// A word from a list of choices (or a small language such as `threads:K`).
    Text,
}

/// A parameter or option flag with what it allows.
struct Flag {
    /// `--banks`.
    flag: String,
    /// How it takes values.
    kind: Kind,
    /// The allowed values, as the error message must name them.
    allowed: String,
}

/// A block of the catalogue with its parameters.
struct Block {
    /// Its name (`gpr`).
    name: String,
    /// Its parameter flags.
    params: Vec<Flag>,
}

/// What the catalogue and the help texts say: the blocks, and the help of each command's block.
struct Catalogue {
    /// The top-level blocks with their parameters, from `grfgen blocks --json`.
    blocks: Vec<Block>,
    /// The designs `emit` writes.
    designs: Vec<String>,
    /// The blocks `sim`, `flow`, `sweep` and `bench` run.
    runnable: Vec<String>,
    /// The help text of `(command, block)`.
    helps: BTreeMap<(String, String), String>,
}

/// The standard output of a successful `grfgen <args>`.
fn query(args: &[&str]) -> String {
    let out = Command::new(BIN).args(args).output().expect("grfgen runs");
    assert!(out.status.success(), "grfgen {args:?} failed: {out:?}");
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// The subcommands a help text lists under `Commands:`, without `help`.
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|n| *n != "help")
        .map(String::from)
        .collect()
}

/// The flags of a help text that take a value: `(flag, value name, help)`.
fn valued_flags(help: &str) -> Vec<(String, String, String)> {
    help.lines()
        .filter_map(|line| {
            let line = line.trim_start();
            let (left, text) = line.strip_prefix("--").and(line.split_once("  "))?;
            let mut parts = left.split_whitespace();
            let flag = parts.next()?.to_string();
            let value = parts.next()?.trim_matches(|c| "[]<>".contains(c));
            Some((flag, value.to_string(), text.trim().to_string()))
        })
        .collect()
}

/// The command-line words of `command` for `block` (`slurm` is `sweep slurm`).
fn verb(command: &str, block: &str) -> Vec<String> {
    let mut words: Vec<String> = match command {
        "slurm" => vec!["sweep".into(), "slurm".into()],
        c => vec![c.into()],
    };
    words.push(block.into());
    words
}

/// Reads the catalogue and the help of every command of every block.
fn catalogue() -> Catalogue {
    let json: Value = serde_json::from_str(&query(&["blocks", "--json"])).expect("JSON");
    let blocks = json
        .as_array()
        .expect("a list of blocks")
        .iter()
        .filter(|b| b["top_level"].as_bool() == Some(true))
        .map(|b| Block {
            name: b["name"].as_str().expect("name").to_string(),
            params: b["params"]
                .as_array()
                .expect("params")
                .iter()
                .map(|p| Flag {
                    flag: p["flag"].as_str().expect("flag").to_string(),
                    kind: match p["kind"].as_str().expect("kind") {
                        "integer" => Kind::Integer,
                        "number" => Kind::Number,
                        "boolean" => Kind::Boolean,
                        _ => Kind::Text,
                    },
                    allowed: p["allowed"].as_str().expect("allowed").to_string(),
                })
                .collect(),
        })
        .collect();
    let designs = subcommands(&query(&["emit", "--help"]));
    let runnable = subcommands(&query(&["sim", "--help"]));
    let mut helps = BTreeMap::new();
    for name in &designs {
        helps.insert(
            ("emit".to_string(), name.clone()),
            query(&["emit", name, "--help"]),
        );
    }
    for command in BLOCK_COMMANDS {
        for name in &runnable {
            let mut args = verb(command, name);
            args.push("--help".into());
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            helps.insert((command.to_string(), name.clone()), query(&args));
        }
    }
    Catalogue {
        blocks,
        designs,
        runnable,
        helps,
    }
}

/// The run options of `(command, block)`: flags its help lists that are neither parameters
/// nor shared flags, whose allowed values the help states in a form the catalogue can test.
fn options(cat: &Catalogue, command: &str, block: &Block) -> Vec<Flag> {
    let help = &cat.helps[&(command.to_string(), block.name.clone())];
    valued_flags(help)
        .into_iter()
        .filter(|(flag, _, _)| {
            !SHARED_FLAGS.contains(&flag.as_str()) && block.params.iter().all(|p| p.flag != *flag)
        })
        .filter_map(|(flag, value_name, text)| {
            let text = text.rsplit_once(" [default").map_or(text.as_str(), |t| t.0);
            let allowed = text.rsplit_once(": ")?.1.to_string();
            let kind = if matches!(value_name.as_str(), "FILE" | "LIST") {
                return None;
            } else if allowed == "true or false" {
                Kind::Boolean
            } else if value_name == "PJ" || allowed.starts_with("a number") {
                Kind::Number
            } else if allowed.starts_with(|c: char| c.is_ascii_digit()) {
                Kind::Integer
            } else if allowed.contains(", ") || allowed.contains(" or ") {
                Kind::Text
            } else {
                return None;
            };
            Some(Flag {
                flag,
                kind,
                allowed,
            })
        })
        .collect()
}

/// The bounds an allowed-values text states: lowest, highest, and a value between them that is
/// not allowed (not in the set, not a power of two, not a multiple).
fn bounds(allowed: &str) -> (Option<u64>, Option<u64>, Option<u64>) {
    if let Some(at) = allowed.find("..=") {
        let head = &allowed[..at];
        let start = head
            .rfind(|c: char| !c.is_ascii_digit())
            .map_or(0, |i| i + 1);
        let low: Option<u64> = head[start..].parse().ok();
        let tail = &allowed[at + 3..];
        let end = tail
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(tail.len());
        let high: Option<u64> = tail[..end].parse().ok();
        let gap = match (low, high) {
            (Some(l), Some(h)) if allowed.contains("power") => {
                (l + 1..h).find(|n| !n.is_power_of_two())
            }
            (Some(l), Some(_)) if allowed.contains("multiple of") => Some(l + 1),
            _ => None,
        };
        return (low, high, gap);
    }
    let head = allowed.split('(').next().unwrap_or("");
    let set: Option<Vec<u64>> = head
        .split(',')
        .flat_map(|s| s.split(" or "))
        .map(|s| s.trim().parse().ok())
        .collect();
    match set {
        Some(set) if !set.is_empty() => {
            let (low, high) = (set[0], set[set.len() - 1]);
            let gap = (low + 1..high).find(|n| !set.contains(n));
            (Some(low), Some(high), gap)
        }
        _ => (None, None, None),
    }
}

/// The bad values of a flag of `kind` allowing `allowed`, the most telling first.
fn bad_values(kind: Kind, allowed: &str) -> Vec<String> {
    let mut values = Vec::new();
    if matches!(kind, Kind::Integer | Kind::Number) {
        let (low, high, gap) = bounds(allowed);
        if let Some(low) = low.filter(|&l| l > 0) {
            values.push((low - 1).to_string());
        }
        if let Some(high) = high {
            values.push((high + 1).to_string());
        }
        if let Some(gap) = gap {
            values.push(gap.to_string());
        }
    }
    let rest: &[&str] = match kind {
        Kind::Integer => &["abc", "", "-1", "4.5", "18446744073709551616"],
        Kind::Number => &["abc", "", "-1", "nan", "inf"],
        Kind::Boolean => &["maybe", "", "2", "-1"],
        Kind::Text => &["bogus", "", "-1", "4.5"],
    };
    values.extend(rest.iter().map(|v| v.to_string()));
    values
}

/// The first choice an allowed-values text lists (`rpt-mad` of `rpt-mad, random, ...`).
fn first_choice(allowed: &str) -> String {
    allowed
        .split([',', ';', ' '])
        .next()
        .unwrap_or("")
        .to_string()
}

/// The arguments that make `(command, block)` otherwise valid and quick: `--out` inside the
/// working directory, the RTL off, the fewest cycles, and a workload where one is required.
/// `skip` is the flag under test, left out.
fn base_args(cat: &Catalogue, command: &str, block: &str, skip: &str) -> Vec<String> {
    let help = &cat.helps[&(command.to_string(), block.to_string())];
    let flags = valued_flags(help);
    let has = |f: &str| f != skip && flags.iter().any(|(flag, _, _)| flag == f);
    let mut args: Vec<String> = Vec::new();
    let mut push = |words: &[&str]| args.extend(words.iter().map(|w| w.to_string()));
    match command {
        "emit" | "flow" => push(&["--out", "{out}"]),
        "sweep" => push(&["--out", "{out}", "--jobs", "1"]),
        "slurm" => push(&[
            "--out",
            "{out}",
            "--shards",
            "2",
            "--dry-run",
            "--jobs",
            "1",
        ]),
        _ => {}
    }
    if help.contains("--no-rtl") {
        push(&["--no-rtl"]);
    }
    for (flag, value) in QUICK {
        if has(flag) {
            push(&[flag, value]);
        }
    }
    for (flag, _, text) in &flags {
        if (flag == "--workload" || flag == "--example") && has(flag) {
            let text = text.rsplit_once(" [default").map_or(text.as_str(), |t| t.0);
            let choices = text.rsplit_once(": ").map_or(text, |t| t.1);
            push(&[flag, &first_choice(choices)]);
        }
    }
    args
}

/// The row giving `value` to `flag` of `block` under `command`; with `set`, through sweep's
/// `--set NAME=VALUE`.
fn flag_row(
    cat: &Catalogue,
    command: &str,
    block: &str,
    flag: &Flag,
    value: &str,
    set: bool,
) -> Row {
    let mut args = verb(command, block);
    if set && (command == "sweep" || command == "slurm") {
        args.push("--set".into());
        args.push(format!("{}={value}", flag.flag.trim_start_matches("--")));
    } else {
        args.push(flag.flag.clone());
        args.push(value.to_string());
    }
    args.extend(base_args(cat, command, block, &flag.flag));
    let mut words = vec![flag.flag.clone(), flag.allowed.clone()];
    if !value.is_empty() {
        words.push(value.to_string());
    }
    Row {
        args: args.into_iter().map(OsString::from).collect(),
        expect: Expect::Input,
        words,
    }
}

/// The systematic rows: every parameter of every block under `emit` and under one of the other
/// block commands, every run option under one of `sim`, `flow` and `sweep`, every benchmark
/// option under `bench`. The command, the kind of bad value and the form (`--flag V` or sweep's
/// `--set NAME=V`) rotate, so that each block meets every command and each flag several kinds
/// of bad value without running the whole cross product.
fn catalogue_rows(cat: &Catalogue) -> Vec<Row> {
    let mut rows = Vec::new();
    for (b, block) in cat.blocks.iter().enumerate() {
        let runs = cat.runnable.contains(&block.name);
        for (i, param) in block.params.iter().enumerate() {
            if cat.designs.contains(&block.name) {
                let bad = bad_values(param.kind, &param.allowed);
                let value = &bad[(i + b) % bad.len()];
                rows.push(flag_row(cat, "emit", &block.name, param, value, false));
            }
        }
        // Every parameter in some command, and every command with some parameter, however
        // few parameters the block has.
        let count = match runs && !block.params.is_empty() {
            true => block.params.len().max(BLOCK_COMMANDS.len()),
            false => 0,
        };
        for k in 0..count {
            let i = k % block.params.len();
            let param = &block.params[i];
            let bad = bad_values(param.kind, &param.allowed);
            let command = BLOCK_COMMANDS[(k + b) % BLOCK_COMMANDS.len()];
            let value = &bad[(k + b + 1) % bad.len()];
            rows.push(flag_row(
                cat,
                command,
                &block.name,
                param,
                value,
                i % 2 == 1,
            ));
        }
        if !runs {
            continue;
        }
        for (i, option) in options(cat, "sim", block).iter().enumerate() {
            let bad = bad_values(option.kind, &option.allowed);
            let command = OPTION_COMMANDS[(i + b) % OPTION_COMMANDS.len()];
            let help = &cat.helps[&(command.to_string(), block.name.clone())];
            let command = match valued_flags(help).iter().any(|(f, _, _)| *f == option.flag) {
                true => command,
                false => "sim",
            };
            let value = &bad[(i + b) % bad.len()];
            rows.push(flag_row(
                cat,
                command,
                &block.name,
                option,
                value,
                i % 2 == 0,
            ));
        }
        for (i, option) in options(cat, "bench", block).iter().enumerate() {
            let bad = bad_values(option.kind, &option.allowed);
            let value = &bad[(i + b) % bad.len()];
            rows.push(flag_row(cat, "bench", &block.name, option, value, false));
        }
    }
    rows
}

/// The `(command, block)` pairs of the catalogue that no row exercises.
fn uncovered(cat: &Catalogue, rows: &[Row]) -> Vec<(String, String)> {
    let names: Vec<String> = cat.designs.iter().chain(&cat.runnable).cloned().collect();
    let covered: Vec<(String, String)> = rows.iter().map(|r| group(&r.args, &names)).collect();
    let emit = cat.designs.iter().map(|d| ("emit".to_string(), d.clone()));
    let others = BLOCK_COMMANDS.iter().flat_map(|c| {
        let command = if *c == "slurm" { "sweep slurm" } else { c };
        cat.runnable
            .iter()
            .map(move |b| (command.to_string(), b.clone()))
    });
    emit.chain(others)
        .filter(|pair| !covered.contains(pair))
        .collect()
}

/// The directory of the hand-written rows: one file per class of hostile input
/// (`gen/tests/hostile/<class>.rows`), one row a line: `ARGS => WORD; WORD; ...`, a leading
/// `io` for an I/O failure (any non-zero status the project chooses) instead of bad input
/// (status 2). Arguments are separated by spaces; `''` is an empty argument and `'a b'` one
/// holding a space; `{rs}` is the 32 lanes `0,1,...,31` and `{rs31}` the first 31 of them;
/// `{out}` and `{fx}` are as in [`Row::args`]. Lines starting with `#` are comments. A new case
/// is one line in the file of its class.
const HAND_ROWS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/hostile");

/// The words of one line of `HAND_ROWS`: split at spaces, `''` empty, `'a b'` one word.
fn split_args(text: &str) -> Vec<String> {
    let mut args = Vec::new();
    let mut quoted: Option<String> = None;
    for word in text.split_whitespace() {
        quoted = match quoted {
            Some(open) if word.ends_with('\'') => {
                args.push(format!("{open} {}", word.trim_end_matches('\'')));
                None
            }
            Some(open) => Some(format!("{open} {word}")),
            None if word == "''" => {
                args.push(String::new());
                None
            }
            None if word.starts_with('\'') && word.len() > 1 && word.ends_with('\'') => {
                args.push(word.trim_matches('\'').to_string());
                None
            }
            None if word.starts_with('\'') => Some(word.trim_start_matches('\'').to_string()),
            None => {
                args.push(word.to_string());
                None
            }
        };
    }
    assert!(quoted.is_none(), "unclosed quote in {text:?}");
    args
}

/// The rows of every file in `HAND_ROWS`, file by file in name order.
fn hand_rows() -> Vec<Row> {
    let lanes: Vec<String> = (0..32).map(|i| i.to_string()).collect();
    let (rs, rs31) = (lanes.join(","), lanes[..31].join(","));
    let mut files: Vec<PathBuf> = std::fs::read_dir(HAND_ROWS)
        .expect("the rows directory")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "rows"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .rows files in {HAND_ROWS}");
    let text: String = files
        .iter()
        .map(|f| std::fs::read_to_string(f).expect("a rows file") + "\n")
        .collect();
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|line| {
            let (args, words) = line.split_once("=>").expect("ARGS => WORDS");
            let (expect, args) = match args.trim().strip_prefix("io ") {
                Some(rest) => (Expect::Io, rest),
                None => (Expect::Input, args),
            };
            let args = args.replace("{rs31}", &rs31).replace("{rs}", &rs);
            Row {
                args: split_args(&args).into_iter().map(OsString::from).collect(),
                expect,
                words: words.split(';').map(|w| w.trim().to_string()).collect(),
            }
        })
        .collect()
}

/// Rows whose arguments hold control characters or bytes that are not UTF-8: the message
/// must still be one line without raw control characters.
fn raw_byte_rows() -> Vec<Row> {
    let mut utf8 = bad(
        &["sim", "gpr", "--no-rtl", "--cycles", "10"],
        &["--banks", "1, 2, 4, 8 or 16"],
    );
    utf8.args.push("--banks".into());
    utf8.args.push(OsString::from_vec(vec![b'4', 0xff, 0xfe]));
    let emit = |flag: &str, value: &str, allowed: &str| {
        bad(
            &["emit", "gpr", "--out", "{out}", flag, value],
            &[flag, allowed],
        )
    };
    vec![
        utf8,
        emit("--banks", "4\u{1b}[2J", "1, 2, 4, 8 or 16"),
        emit("--banks", "1\n2", "1, 2, 4, 8 or 16"),
        emit("--bank-kind", "1r1w\r", "1r1w, 2r1w or 1rw"),
        emit("--top", "top\u{7f}", "Verilog identifier"),
        emit("--config", "{fx}/no\nsuch", "--config"),
        // A newline in a value that reaches a Slurm script would add a directive to it.
        bad(
            &[
                "sweep",
                "slurm",
                "gpr",
                "--no-rtl",
                "--shards",
                "2",
                "--out",
                "{out}",
                "--partition",
                "p\n#SBATCH --wrap=id",
            ],
            &["--partition", "letters, digits"],
        ),
        bad(
            &[
                "sweep",
                "slurm",
                "gpr",
                "--no-rtl",
                "--shards",
                "2",
                "--out",
                "{out}/a\nb",
            ],
            &["--out", "control characters"],
        ),
        io(
            &["emit", "gpr", "--out", "{fx}/file/\u{1b}[31mred"],
            &["--out", "{fx}/file"],
        ),
        bad(
            &[
                "sim",
                "core",
                "--no-rtl",
                "--workload",
                "\u{1b}]0;pwned\u{7}",
            ],
            &["--workload", "rpt-mad"],
        ),
        bad(
            &["sim", "gpr", "--no-rtl", "--ban\u{1b}ks", "4"],
            &["--ban"],
        ),
        bad(
            &[
                "sweep",
                "gpr",
                "--no-rtl",
                "--cycles",
                "10",
                "--set",
                "banks=\u{1b}[31m",
            ],
            &["--banks", "1, 2, 4, 8 or 16"],
        ),
    ]
}

/// Every reader of an input file given one that is missing, a directory, empty, binary
/// garbage, garbage behind a UTF-8 BOM, control characters, or CR-only lines with an error on
/// line 3 (which the message must name).
fn input_file_rows() -> Vec<Row> {
    let readers: [(&[&str], &str, &str, usize); 6] = [
        (&["sim", "core", "--no-rtl"], "--program", "core_cr.txt", 7),
        (
            &["sim", "grf", "--no-rtl", "--max-cycles", "100"],
            "--trace",
            "grf_cr.txt",
            7,
        ),
        (
            &["sim", "cluster", "--no-rtl"],
            "--program",
            "cluster_cr.txt",
            7,
        ),
        (&["sim", "alloc", "--no-rtl"], "--shader", "alloc_cr.txt", 7),
        (&["partition"], "--program", "cluster_cr.txt", 4),
        (
            &["flow", "core", "--out", "{out}"],
            "--program",
            "core_cr.txt",
            1,
        ),
    ];
    let mut rows = Vec::new();
    for (head, flag, cr, kinds) in readers {
        let files = [
            ("missing", Expect::Io),
            (cr, Expect::Input),
            ("empty", Expect::Input),
            ("garbage.bin", Expect::Input),
            ("adir", Expect::Io),
            ("bom.txt", Expect::Input),
            ("ctrl.txt", Expect::Input),
        ];
        for &(file, expect) in &files[..kinds] {
            let path = format!("{{fx}}/{file}");
            let args: Vec<&str> = head.iter().copied().chain([flag, path.as_str()]).collect();
            let mut words = vec![flag, path.as_str()];
            if file == cr {
                words.push("line 3");
            }
            let mut row = bad(&args, &words);
            row.expect = expect;
            rows.push(row);
        }
    }
    rows
}

/// Writes the input files the rows read into `dir`, and a small real sweep in `dir/sweep`.
fn fixtures(dir: &Path) {
    let write = |name: &str, bytes: &[u8]| std::fs::write(dir.join(name), bytes).expect("fixture");
    std::fs::create_dir(dir.join("adir")).expect("fixture");
    std::fs::create_dir(dir.join("badsweep")).expect("fixture");
    write("badsweep/sweep.json", b"{not json");
    write("file", b"a regular file\n");
    write("empty", b"");
    let mut state: u32 = 0x2545_f491;
    let mut garbage = vec![0xff, 0xfe, 0x00, 0x1b, 0xc3, 0x28];
    garbage.extend((0..506).map(|_| {
        state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        (state >> 24) as u8
    }));
    write("garbage.bin", &garbage);
    write("bom.txt", "\u{feff}garbage here\n".as_bytes());
    write("ctrl.txt", b"x\x1b[2J\x07y\x01\x7f\n");
    write(
        "core_cr.txt",
        b"add.u32 r5, r1, r2\radd.u32 r6, r1, r2\rfrob r1, r2\r",
    );
    write(
        "grf_cr.txt",
        b"0 1 write r5 0x1234\r0 1 read r5\r0 1 frob r5\r",
    );
    write(
        "cluster_cr.txt",
        b"c2: mov v1, #7\rc1: add v3, v1, #0x10\rc9: frob v3\r",
    );
    write(
        "alloc_cr.txt",
        b"main:\r  mov r0, #1\r  frob r1\r  out r0\r",
    );
    write("core_high.s", b"add.u32 R200, R1, R2\n");
    write("c_trunc.json", br#"{"banks": 4,"#);
    write("c_array.json", b"[1, 2]");
    write("c_unknown.json", br#"{"bankz": 4}"#);
    write("c_esc.json", br#"{"\u001b[2J\u0007": 4}"#);
    write("c_option.json", br#"{"cycles": 10}"#);
    write("c_negative.json", br#"{"banks": -1}"#);
    write("c_big.json", br#"{"banks": 18446744073709551616}"#);
    write("c_three.json", br#"{"banks": 3}"#);
    let sweep = dir.join("sweep");
    let out = Command::new(BIN)
        .args([
            "sweep", "gpr", "--no-rtl", "--cycles", "10", "--jobs", "1", "--banks", "2,4",
        ])
        .arg("--out")
        .arg(&sweep)
        .arg("--json")
        .env("PATH", "/nonexistent")
        .output()
        .expect("grfgen runs");
    assert!(out.status.success(), "the fixture sweep failed: {out:?}");
}

/// Every path under `dir` with its length and modification time.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, (u64, Option<std::time::SystemTime>)> {
    let mut seen = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).expect("readable").flatten() {
            let meta = entry.metadata().expect("metadata");
            if meta.is_dir() {
                todo.push(entry.path());
            }
            seen.insert(entry.path(), (meta.len(), meta.modified().ok()));
        }
    }
    seen
}

/// `bytes` as text with every control character escaped, for the report.
fn shown(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).escape_debug().to_string()
}

/// The invocation as one might type it.
fn command_line(args: &[OsString]) -> String {
    let quoted: Vec<String> = args
        .iter()
        .map(|a| {
            let text = shown(a.as_bytes());
            let plain = !text.is_empty()
                && text
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./=,:{}".contains(c));
            if plain {
                text
            } else {
                format!("'{text}'")
            }
        })
        .collect();
    format!("grfgen {}", quoted.join(" "))
}

/// Runs `args` in `cwd` with stdout and stderr into files under `scratch`: the exit code
/// (`None` for a signal or a timeout), stdout and stderr.
fn invoke(
    args: &[OsString],
    cwd: &Path,
    scratch: &Path,
) -> (Result<Option<i32>, ()>, Vec<u8>, Vec<u8>) {
    let (out_path, err_path) = (scratch.join("stdout"), scratch.join("stderr"));
    // PATH leads nowhere: an invocation wrongly accepted fails fast instead of starting
    // Verilator, Yosys, nextpnr or Slurm.
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(cwd)
        .env("PATH", "/nonexistent")
        .env_remove("RUST_BACKTRACE")
        .env_remove("RUST_LIB_BACKTRACE")
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("SLURM_ARRAY_TASK_COUNT")
        .stdin(Stdio::null())
        .stdout(File::create(&out_path).expect("scratch"))
        .stderr(File::create(&err_path).expect("scratch"))
        .spawn()
        .expect("grfgen starts");
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break Ok(status.code());
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            break Err(());
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let read = |p: &Path| std::fs::read(p).expect("scratch");
    (status, read(&out_path), read(&err_path))
}

/// Runs `row` in a fresh empty working directory and checks every promise; the list of what
/// was wrong, if anything. `fixtures` is the state of the fixtures directory `fx` before.
fn check(
    row: &Row,
    fx: &Path,
    scratch: &Path,
    fixtures: &mut BTreeMap<PathBuf, (u64, Option<std::time::SystemTime>)>,
) -> Result<(), String> {
    let cwd = tempfile::tempdir().expect("temp dir");
    let out = cwd.path().join("out");
    let subst = |s: &str| {
        s.replace("{out}", out.to_str().expect("UTF-8 temp dir"))
            .replace("{fx}", fx.to_str().expect("UTF-8 temp dir"))
    };
    let args: Vec<OsString> = (row.args.iter())
        .map(|a| a.to_str().map_or_else(|| a.clone(), |s| subst(s).into()))
        .collect();
    let (status, stdout, stderr) = invoke(&args, cwd.path(), scratch);
    let mut problems = Vec::new();
    match (status, row.expect) {
        (Err(()), _) => problems.push(format!("still running after {} s", TIMEOUT.as_secs())),
        (Ok(Some(2)), Expect::Input) | (Ok(Some(1 | 2)), Expect::Io) => {}
        (Ok(code), expect) => {
            let wanted = if expect == Expect::Input {
                "2"
            } else {
                "1 or 2"
            };
            problems.push(format!("exit status {code:?}, expected {wanted}"));
        }
    }
    let text = String::from_utf8_lossy(&stderr);
    if text.contains("panicked") || text.contains("RUST_BACKTRACE") {
        problems.push("panicked".into());
    }
    match stderr.split_last() {
        None => problems.push("nothing on stderr".into()),
        Some((&last, body)) => {
            let lines = body.iter().filter(|&&b| b == b'\n').count() + 1;
            if last != b'\n' || lines != 1 {
                problems.push(format!(
                    "{lines} lines on stderr, expected one ending in a newline"
                ));
            } else if body.iter().any(|&b| b < 0x20 || b == 0x7f) {
                problems.push("raw control characters on stderr".into());
            }
        }
    }
    let missing: Vec<String> = (row.words.iter())
        .map(|w| subst(w))
        .filter(|w| !text.contains(w.as_str()))
        .collect();
    if !missing.is_empty() {
        problems.push(format!("stderr lacks {missing:?}"));
    }
    if !stdout.is_empty() {
        problems.push(format!("{} bytes on stdout", stdout.len()));
    }
    let written: Vec<String> = (std::fs::read_dir(cwd.path()).expect("readable").flatten())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    if !written.is_empty() {
        problems.push(format!("wrote {written:?} in the working directory"));
    }
    let now = snapshot(fx);
    if now != *fixtures {
        problems.push("changed the fixtures (an existing file or sweep)".into());
        *fixtures = now;
    }
    match problems.is_empty() {
        true => Ok(()),
        false => Err(format!(
            "{}\n    {}\n    stderr: {}",
            command_line(&args),
            problems.join("; "),
            shown(&stderr)
        )),
    }
}

/// The command and the block (or `-`) of a row, for the counts.
fn group(args: &[OsString], names: &[String]) -> (String, String) {
    let words: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let mut command = words.first().cloned().unwrap_or_else(|| "(none)".into());
    let mut rest = words.iter().skip(1);
    if command == "sweep" {
        if let Some(tool) = words
            .get(1)
            .filter(|w| ["slurm", "merge", "status", "plot"].contains(&w.as_str()))
        {
            command = format!("sweep {tool}");
            rest.next();
        }
    }
    let block = rest
        .next()
        .filter(|w| names.contains(w))
        .cloned()
        .unwrap_or_else(|| "-".into());
    (command, block)
}

/// Prints how many rows each command, each block and each pair of them has.
fn print_counts(cat: &Catalogue, rows: &[Row]) {
    let mut names: Vec<String> = cat.designs.iter().chain(&cat.runnable).cloned().collect();
    names.extend(["eval", "shuffle", "window", "route", "gpr"].map(String::from));
    let mut by_command: BTreeMap<String, usize> = BTreeMap::new();
    let mut by_block: BTreeMap<String, usize> = BTreeMap::new();
    let mut by_pair: BTreeMap<(String, String), usize> = BTreeMap::new();
    for row in rows {
        let (command, block) = group(&row.args, &names);
        *by_command.entry(command.clone()).or_default() += 1;
        *by_block.entry(block.clone()).or_default() += 1;
        *by_pair.entry((command, block)).or_default() += 1;
    }
    println!("rows by command: {by_command:?}");
    println!("rows by block: {by_block:?}");
    for ((command, block), n) in by_pair {
        println!("  {command:14} {block:12} {n}");
    }
}

/// Runs the whole catalogue and reports every row that broke a promise.
#[test]
fn hostile_invocations_get_one_line_the_promised_status_and_write_nothing() {
    let start = Instant::now();
    let fx = tempfile::tempdir().expect("temp dir");
    fixtures(fx.path());
    let cat = catalogue();
    let mut rows = catalogue_rows(&cat);
    let systematic = rows.len();
    let missing = uncovered(&cat, &rows);
    assert!(missing.is_empty(), "no row for {missing:?}");
    rows.extend(hand_rows());
    rows.extend(raw_byte_rows());
    rows.extend(input_file_rows());
    assert!(rows.len() >= 250, "only {} rows", rows.len());
    // HOSTILE_LIST=1 prints the whole catalogue, one invocation a line.
    if std::env::var_os("HOSTILE_LIST").is_some() {
        for row in &rows {
            println!("{}", command_line(&row.args));
        }
    }
    let scratch = tempfile::tempdir().expect("temp dir");
    let mut state = snapshot(fx.path());
    let failures: Vec<String> = (rows.iter())
        .filter_map(|row| check(row, fx.path(), scratch.path(), &mut state).err())
        .collect();
    print_counts(&cat, &rows);
    println!(
        "{} rows ({systematic} from the catalogue, {} written by hand) in {:.1} s",
        rows.len(),
        rows.len() - systematic,
        start.elapsed().as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{} of {} hostile invocations broke a promise:\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n")
    );
}
