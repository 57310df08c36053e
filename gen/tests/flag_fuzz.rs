//! Property-based fuzzing of the command line's value parsers: every parameter table behind
//! the flags and the config keys (each design's parameters, each block's run and benchmark
//! options), the choice flags of the router and the allocator, and JSON config files.
//!
//! The property: nothing panics or hangs; a value is either accepted and the parameters then
//! validate or name the parameter at fault, or it is rejected with one line that names the
//! flag (or, for a config file that is not JSON, the line and column). `GRFGEN_FUZZ_CASES`
//! sets the cases per parser (default [`DEFAULT_CASES`]), as in `sim/tests/parser_fuzz.rs`.
//!
//! Errors are checked as the command line prints them: through [`CliError`]'s message.

use std::str::FromStr;

use clap::Command;
use grfgen::params::{args, config_arg, resolve_with_config, Values};
use grfgen_engines::error::CliError;
use grfgen_hdl::design::{Design, DesignVisitor};
use grfgen_hdl::params::{GprParams, Params};
use grfgen_sim::alloc::AllocOptions;
use grfgen_sim::block::{Block, BlockVisitor};
use grfgen_sim::route::{Fill, LaneOpName};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

#[path = "../../sim/tests/common/fuzzing.rs"]
mod fuzzing;

use fuzzing::{config, fuzz, timed};

/// `error` is one line without control characters, and names every one of `names`.
fn check_error(error: &str, names: &[&str]) -> Result<(), TestCaseError> {
    prop_assert!(
        !error.chars().any(char::is_control),
        "a raw control character, or a second line, in {error:?}"
    );
    prop_assert!(!error.trim().is_empty(), "an empty error");
    for name in names {
        prop_assert!(error.contains(name), "{name} missing from {error:?}");
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Values
// ---------------------------------------------------------------------------------------------

/// Values that break number and word parsers.
fn edge_values() -> Vec<String> {
    [
        "0",
        "1",
        "2",
        "3",
        "4",
        "7",
        "8",
        "16",
        "31",
        "32",
        "64",
        "255",
        "256",
        "65535",
        "65536",
        "4294967295",
        "4294967296",
        "18446744073709551615",
        "18446744073709551616",
        "99999999999999999999999",
        "-1",
        "-0",
        "+1",
        " 1",
        "1 ",
        "01",
        "0x10",
        "1.5",
        "0.0",
        "-0.0",
        "1e3",
        "1e308",
        "1e309",
        "-1e309",
        "NaN",
        "inf",
        "-inf",
        "true",
        "false",
        "True",
        "none",
        "",
        "é",
        "🦀",
        "\u{200b}",
        "\0",
        "\u{7}",
        "\u{1b}[31m",
        "4\n",
        "4\r",
        "\t4",
        "\u{7f}",
        "\u{85}",
        "threads:4",
        "a,b",
        "--banks",
        "=",
    ]
    .into_iter()
    .map(str::to_string)
    .collect()
}

/// The words of an allowed-values text (`1..=8`, `naive, cq or cq-pq`): the values it names.
fn words_of(allowed: &str) -> Vec<String> {
    allowed
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | '(' | ')' | ';'))
        .flat_map(|w| w.split("..="))
        .filter(|w| !w.is_empty() && *w != "or")
        .map(str::to_string)
        .collect()
}

/// A flag value: the table's own words, edge values, small and huge numbers, printable junk.
fn value(words: Vec<String>) -> BoxedStrategy<String> {
    let words = if words.is_empty() {
        vec!["1".to_string()]
    } else {
        words
    };
    prop_oneof![
        4 => proptest::sample::select(words),
        3 => proptest::sample::select(edge_values()),
        2 => (0u64..300).prop_map(|n| n.to_string()),
        1 => any::<u64>().prop_map(|n| n.to_string()),
        1 => (-1e6f64..1e6).prop_map(|n| n.to_string()),
        1 => "[ -~]{0,12}",
        1 => "\\PC{0,6}",
        1 => vec(any::<char>(), 0..6).prop_map(String::from_iter),
    ]
    .boxed()
}

// ---------------------------------------------------------------------------------------------
// Parameter tables
// ---------------------------------------------------------------------------------------------

/// One parameter table, type erased: what the fuzzing needs of it.
trait Table: Send + Sync {
    /// What it belongs to, e.g. `core options`.
    fn name(&self) -> String;
    /// Its parameters' names.
    fn names(&self) -> Vec<&'static str>;
    /// The words its allowed-values texts name, over every parameter.
    fn words(&self) -> Vec<String> {
        self.own_words().concat()
    }
    /// Per parameter: the words its allowed-values text names, and its default.
    fn own_words(&self) -> Vec<Vec<String>>;
    /// Sets `assignments` (parameter index, value) on the defaults and validates: the property;
    /// whether the values were accepted.
    fn case(&self, assignments: Vec<(usize, String)>) -> Result<bool, TestCaseError>;
    /// Writes `json` to `path` and resolves it as `--config` with `flags`: the property;
    /// whether the file and flags were accepted.
    fn config_case(
        &self,
        path: &str,
        json: &str,
        flags: Vec<(usize, String)>,
    ) -> Result<bool, TestCaseError>;
}

/// The table of `P`.
struct TableOf<P>(String, std::marker::PhantomData<fn() -> P>);

impl<P: Params> Table for TableOf<P> {
    fn name(&self) -> String {
        self.0.clone()
    }

    fn names(&self) -> Vec<&'static str> {
        P::table().iter().map(|p| p.name).collect()
    }

    fn own_words(&self) -> Vec<Vec<String>> {
        let defaults = P::default();
        P::table()
            .iter()
            .map(|p| {
                let mut words = words_of(&p.allowed(&defaults));
                words.push(p.value(&defaults));
                words
            })
            .collect()
    }

    fn case(&self, assignments: Vec<(usize, String)>) -> Result<bool, TestCaseError> {
        let outcome = timed(move || {
            let table = P::table();
            let mut params = P::default();
            for (k, value) in assignments {
                let p = &table[k % table.len()];
                if let Err(e) = p.set(&mut params, &value) {
                    return Err((CliError::from(e).to_string(), p.flag()));
                }
            }
            params.validate().map_err(|e| {
                let flag = format!("--{}", e.param.replace('_', "-"));
                (CliError::from(e).to_string(), flag)
            })
        })?;
        match outcome {
            Ok(()) => Ok(true),
            Err((error, flag)) => check_error(&error, &[&flag, "invalid value"]).map(|()| false),
        }
    }

    fn config_case(
        &self,
        path: &str,
        json: &str,
        flags: Vec<(usize, String)>,
    ) -> Result<bool, TestCaseError> {
        std::fs::write(path, json).expect("a writable temporary directory");
        let table = P::table();
        let mut argv = vec!["fuzz".to_string(), "--config".to_string(), path.to_string()];
        for (k, value) in flags {
            argv.push(table[k % table.len()].flag());
            argv.push(value);
        }
        let outcome = timed(move || {
            let command = Command::new("fuzz")
                .args(args::<P>(Values::One))
                .arg(config_arg());
            // Clap's own refusals (a value it cannot hand over) are not this parser's.
            let Ok(matches) = command.try_get_matches_from(argv) else {
                return Ok(false);
            };
            resolve_with_config::<P>(&matches)
                .map(|_| true)
                .map_err(|e| e.to_string())
        })?;
        match outcome {
            Ok(accepted) => Ok(accepted),
            Err(error) if error.contains("--config") && json_syntax_error(json) => {
                check_error(&error, &["--config", " line ", " column "]).map(|()| false)
            }
            Err(error) => check_error(&error, &["invalid value"]).map(|()| false),
        }
    }
}

/// Whether `json` is not JSON at all (so that the error must name a line and a column); a
/// leading byte-order mark is dropped first, as the config reader does.
fn json_syntax_error(json: &str) -> bool {
    let json = json.strip_prefix('\u{feff}').unwrap_or(json);
    serde_json::from_str::<serde_json::Value>(json).is_err()
}

/// Collects every parameter table: the designs' parameters, the blocks' run and benchmark
/// options.
#[derive(Default)]
struct Tables(Vec<Box<dyn Table>>);

impl DesignVisitor for Tables {
    fn visit<D: Design>(&mut self) {
        let name = format!("{} parameters", D::NAME);
        self.0
            .push(Box::new(TableOf::<D::Params>(name, Default::default())));
    }
}

impl BlockVisitor for Tables {
    fn visit<B: Block>(&mut self) {
        let name = B::Design::NAME;
        self.0.push(Box::new(TableOf::<B::Options>(
            format!("{name} options"),
            Default::default(),
        )));
        self.0.push(Box::new(TableOf::<B::BenchOptions>(
            format!("{name} benchmark options"),
            Default::default(),
        )));
    }
}

/// Every parameter table with at least one parameter.
fn tables() -> Vec<Box<dyn Table>> {
    let mut tables = Tables::default();
    grfgen_hdl::visit_designs(&mut tables);
    grfgen_sim::visit_blocks(&mut tables);
    tables.0.retain(|t| !t.names().is_empty());
    tables.0
}

/// The design tables only: the ones `--config` applies to.
fn design_tables() -> Vec<Box<dyn Table>> {
    let mut tables = Tables::default();
    grfgen_hdl::visit_designs(&mut tables);
    tables.0.retain(|t| !t.names().is_empty());
    tables.0
}

/// One to four (parameter index, value) pairs for a table whose parameters have `own` words:
/// half of them a parameter's own word (most of them allowed), the rest any value.
fn assignments(own: Vec<Vec<String>>) -> BoxedStrategy<Vec<(usize, String)>> {
    let all = own.concat();
    let fitting = (0..own.len()).prop_flat_map(move |k| {
        let words = own[k].clone();
        (Just(k), proptest::sample::select(words))
    });
    let pair = prop_oneof![1 => fitting, 1 => (any::<usize>(), value(all))];
    vec(pair, 1..5).boxed()
}

/// A config file of a table's own keys, each with one of its own words (numbers as JSON
/// numbers), and nothing broken: the files a user writes.
fn plain_config_file(names: Vec<&'static str>, own: Vec<Vec<String>>) -> BoxedStrategy<String> {
    let entry = (0..names.len()).prop_flat_map(move |k| {
        let words = own[k].clone();
        (Just(names[k]), proptest::sample::select(words))
    });
    vec(entry, 0..4)
        .prop_map(|entries| {
            let body: Vec<String> = entries
                .into_iter()
                .map(|(key, word)| {
                    let value = match word.parse::<u64>() {
                        Ok(_) => word,
                        Err(_) => serde_json::to_string(&word).expect("a string"),
                    };
                    format!("{}: {value}", serde_json::to_string(key).expect("a key"))
                })
                .collect();
            format!("{{{}}}\n", body.join(", "))
        })
        .boxed()
}

// ---------------------------------------------------------------------------------------------
// Config files
// ---------------------------------------------------------------------------------------------

/// A JSON value of any type, with edge numbers and printable strings.
fn json_value(words: Vec<String>) -> BoxedStrategy<String> {
    let words = if words.is_empty() {
        vec!["1".to_string()]
    } else {
        words
    };
    prop_oneof![
        4 => proptest::sample::select(words.clone()).prop_map(|w| match w.parse::<f64>() {
            Ok(_) => w,
            Err(_) => serde_json::to_string(&w).expect("a string"),
        }),
        3 => proptest::sample::select(words).prop_map(|w| serde_json::to_string(&w).expect("a string")),
        2 => (0u64..300).prop_map(|n| n.to_string()),
        1 => proptest::sample::select(vec![
            "-1", "1.5", "4.0", "1e400", "-0", "18446744073709551616", "true", "false", "null",
            "[]", "{}", "[4]", "{\"a\":1}", "\"\"", "1e-400", "\"\\u0000\"",
            "\"\\u001b[31m\"", "\"a\\nb\"",
        ])
        .prop_map(str::to_string),
        1 => "[ -~]{0,10}".prop_map(|s| serde_json::to_string(&s).expect("a string")),
    ]
    .boxed()
}

/// A config file for a table with `names` and `words`: an object of known (and now and then
/// unknown) keys, whitespace and line endings of every kind, sometimes a byte-order mark,
/// sometimes cut or changed so that it is no longer JSON.
fn config_file(names: Vec<&'static str>, words: Vec<String>) -> BoxedStrategy<String> {
    let key = prop_oneof![
        8 => proptest::sample::select(names).prop_map(str::to_string),
        1 => "[a-z_]{1,12}",
        1 => Just("__proto__".to_string()),
        1 => Just("ba\u{1b}[31mnks".to_string()),
    ];
    let gap = proptest::sample::select(vec!["", " ", "\n", "\r\n", "\r", "\t", "\n  "]);
    let entry = (key, json_value(words), gap.clone());
    let object = (vec(entry, 0..6), gap, 0..10u8).prop_map(|(entries, end, shape)| {
        let body: Vec<String> = entries
            .into_iter()
            .map(|(k, v, g)| format!("{g}{}:{g}{v}", serde_json::to_string(&k).expect("a key")))
            .collect();
        let text = format!("{{{}{end}}}", body.join(","));
        match shape {
            0 => format!("\u{feff}{text}"),
            1 => format!("[{text}]"),
            2 => text.replacen(':', "", 1),
            3 => text[..text.len() / 2].to_string(),
            4 => format!("{text},"),
            5 => format!("{text}\n{text}"),
            6 => "[".repeat(200) + &"]".repeat(200),
            _ => text,
        }
    });
    (object, vec((any::<usize>(), any::<u8>()), 0..3))
        .prop_map(|(text, flips)| {
            let mut bytes = text.into_bytes();
            for (at, mask) in flips {
                if !bytes.is_empty() {
                    let at = at % bytes.len();
                    bytes[at] ^= mask & 0x3f;
                }
            }
            String::from_utf8_lossy(&bytes).into_owned()
        })
        .boxed()
}

// ---------------------------------------------------------------------------------------------
// The tests
// ---------------------------------------------------------------------------------------------

/// Every parameter of every table, one to four set at once, then validated.
#[test]
fn flag_values() {
    let all = tables();
    let inputs = (0..all.len()).prop_flat_map(|w| (Just(w), assignments(tables()[w].own_words())));
    fuzz(file!(), "flag values", inputs, |(which, values)| {
        let table = &all[which];
        table
            .case(values)
            .map_err(|e| TestCaseError::fail(format!("{}: {e}", table.name())))
    });
}

/// JSON config files for every design, with flags over them.
#[test]
fn config_files() {
    let all = design_tables();
    let inputs = (0..all.len()).prop_flat_map(|w| {
        let table = &design_tables()[w];
        let flags = prop_oneof![
            1 => Just(Vec::new()),
            1 => assignments(table.own_words()),
        ];
        let file = prop_oneof![
            1 => plain_config_file(table.names(), table.own_words()),
            1 => config_file(table.names(), table.words()),
        ];
        (Just(w), file, flags)
    });
    let dir = scratch();
    let path = dir.path().join("config.json");
    fuzz(file!(), "config files", inputs, |(which, json, flags)| {
        let table = &all[which];
        table
            .config_case(path.to_str().expect("a UTF-8 path"), &json, flags)
            .map_err(|e| TestCaseError::fail(format!("{}: {e}", table.name())))
    });
}

proptest! {
    #![proptest_config(config())]

    /// The router's `--op` and `--fill` and the allocator's `--uniform`.
    #[test]
    fn choice_flags(
        op in value(LaneOpName::NAMES.iter().map(|s| s.to_string()).collect()),
        fill in value(vec!["rf".into(), "zero".into(), "one".into(), "ones".into()]),
        uniform in vec(
            (
                prop_oneof![3 => Just("mode".to_string()), 1 => "[ -~&&[^,=]]{0,6}"],
                proptest::sample::select(vec!["=", "=", " = ", ""]),
                value(vec!["0".into(), "1".into(), "4294967295".into(), "4294967296".into()]),
            ),
            0..4,
        ),
    ) {
        let outcome = timed(move || {
            let message = |e| CliError::from(e).to_string();
            let op = LaneOpName::from_str(&op).err().map(message);
            let fill = Fill::from_str(&fill).err().map(message);
            let uniform: Vec<String> = uniform.into_iter().map(|(n, s, v)| format!("{n}{s}{v}")).collect();
            let options = AllocOptions { uniform: uniform.join(","), ..AllocOptions::default() };
            let names = ["mode".to_string(), "colour".to_string()];
            let values = options.values(&names);
            if let Ok(values) = &values {
                assert_eq!(values.len(), names.len());
            }
            (op, fill, values.err().map(|e| CliError::Input(e).to_string()))
        })?;
        if let Some(e) = outcome.0 { check_error(&e, &["--op"])?; }
        if let Some(e) = outcome.1 { check_error(&e, &["--fill"])?; }
        if let Some(e) = outcome.2 { check_error(&e, &["--uniform"])?; }
    }
}

// ---------------------------------------------------------------------------------------------
// The corpus: inputs that found bugs
// ---------------------------------------------------------------------------------------------

/// A temporary directory, in memory where the machine has `/dev/shm` (a config file written
/// per case costs more than the case on a disk).
fn scratch() -> tempfile::TempDir {
    let shm = std::path::Path::new("/dev/shm");
    match shm.is_dir() {
        true => tempfile::tempdir_in(shm).or_else(|_| tempfile::tempdir()),
        false => tempfile::tempdir(),
    }
    .expect("a temporary directory")
}

/// A corpus file of `tests/corpus/<parser>/`.
fn corpus(parser: &str, name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus")
        .join(parser)
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A flag value with a new line and an escape sequence: the error is one line, the value
/// escaped.
#[test]
fn corpus_flag_values_raw_echo() {
    let value = corpus("flags", "001-newline-and-escape.txt");
    let table = tables()
        .into_iter()
        .find(|t| t.name() == "gpr parameters")
        .expect("the GPR");
    let banks = table
        .names()
        .iter()
        .position(|&n| n == "banks")
        .expect("--banks");
    table
        .case(vec![(banks, value)])
        .unwrap_or_else(|e| panic!("{e}"));
}

/// A config key or text value with a control character: the error is one line, the key or the
/// value escaped.
#[test]
fn corpus_config_files_raw_echo() {
    let dir = scratch();
    let path = dir.path().join("config.json");
    let table = design_tables()
        .into_iter()
        .find(|t| t.name() == "core parameters")
        .expect("the core");
    for name in [
        "001-control-character-key.json",
        "003-control-character-value.json",
    ] {
        let json = corpus("config", name);
        table
            .config_case(path.to_str().expect("a UTF-8 path"), &json, Vec::new())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

/// A config file saved with a byte-order mark reads as without one, like every other input
/// file of the project (it used to be refused: `expected value at line 1 column 1`).
#[test]
fn corpus_config_files_bom() {
    let json = corpus("config", "002-byte-order-mark.json");
    let dir = scratch();
    let read = |text: &str| {
        let path = dir.path().join("config.json");
        std::fs::write(&path, text).expect("written");
        let argv = ["fuzz", "--config", path.to_str().expect("a UTF-8 path")];
        let matches = Command::new("fuzz")
            .args(args::<GprParams>(Values::One))
            .arg(config_arg())
            .get_matches_from(argv);
        resolve_with_config::<GprParams>(&matches).unwrap_or_else(|e| panic!("{e}"))
    };
    let with_mark = read(&json);
    // The file's value, not the default, and the same as without the mark.
    assert_eq!(with_mark.banks, 8);
    assert_ne!(GprParams::default().banks, 8);
    let without = read(
        json.strip_prefix('\u{feff}')
            .expect("the file starts with the mark"),
    );
    assert_eq!(with_mark, without);
}
