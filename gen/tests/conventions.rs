//! The command line as its ecosystem's users expect it: progress on standard error (a line per
//! finished step off a terminal, nothing with `--quiet`), results on standard output, one
//! spelling for every name, a resume that reuses what it recorded, categorical and PNG plots,
//! CSV that parses, waveforms in real time, and an instantiation template no tool globs.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

fn grfgen(args: &[&str], cache: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_grfgen"))
        .args(args)
        .env("GRFGEN_CACHE", cache)
        .output()
        .expect("grfgen runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn ok(out: &Output) {
    assert!(out.status.success(), "{}", stderr(out));
}

/// The rows of RFC 4180 `text`: fields split at commas outside quotes, `""` a quote.
fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let (mut rows, mut row, mut field) = (Vec::new(), Vec::new(), String::new());
    let (mut quoted, mut chars) = (false, text.chars().peekable());
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut field)),
            (false, '\r') => {}
            (false, '\n') => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            (false, c) => field.push(c),
        }
    }
    if !field.is_empty() || !row.is_empty() {
        row.push(field);
        rows.push(row);
    }
    rows
}

#[test]
fn long_steps_report_progress_off_a_terminal_and_quiet_silences_it() {
    let work = tempfile::tempdir().unwrap();
    let cache = work.path().join("cache");
    let out = work.path().join("gpr");
    let args = [
        "flow",
        "gpr",
        "--banks",
        "2",
        "--registers",
        "16",
        "--lanes",
        "1",
    ];
    let mut first: Vec<&str> = args.to_vec();
    first.extend([
        "--cycles",
        "100",
        "--seed",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    let ran = grfgen(&first, &cache);
    ok(&ran);
    let err = stderr(&ran);
    for step in [
        "emit ",
        "lint ",
        "synthesize ",
        "build the Verilator model",
        "co-simulate ",
    ] {
        assert!(
            err.lines().any(|l| l.starts_with(step) || l.contains(step)),
            "{step}:\n{err}"
        );
    }
    assert!(String::from_utf8_lossy(&ran.stdout).contains("ok    co-sim"));
    // Again: nothing changed, so nothing is synthesized or built again.
    let again = grfgen(&first, &cache);
    ok(&again);
    let err = stderr(&again);
    assert!(!err.contains("synthesize "), "{err}");
    assert!(!err.contains("build the Verilator model"), "{err}");
    first.push("--quiet");
    let quiet = grfgen(&first, &cache);
    ok(&quiet);
    assert_eq!(stderr(&quiet), "", "--quiet printed progress");
}

#[test]
fn names_take_dashes_or_underscores_and_choices_any_case() {
    let work = tempfile::tempdir().unwrap();
    let cache = work.path().join("cache");
    let ran = grfgen(
        &[
            "sim",
            "gpr",
            "--no-rtl",
            "--cycles",
            "50",
            "--bank-kind",
            "2R1W",
            "--json",
        ],
        &cache,
    );
    ok(&ran);
    let report: Value = serde_json::from_slice(&ran.stdout).unwrap();
    assert_eq!(report["parameters"]["bank_kind"], "2r1w");
    let config = work.path().join("c.json");
    std::fs::write(&config, r#"{"read-ports": 2, "banks": 2}"#).unwrap();
    let out = work.path().join("emitted");
    let ran = grfgen(
        &[
            "emit",
            "gpr",
            "--config",
            config.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        &cache,
    );
    ok(&ran);
    let manifest = std::fs::read_to_string(out.join("manifest.json")).unwrap();
    let manifest: Value = serde_json::from_str(&manifest).unwrap();
    assert_eq!(manifest["parameters"]["read_ports"], 2);
    // sweep takes --config too, and flow every emit flag.
    let sweep = work.path().join("sweep");
    let ran = grfgen(
        &[
            "sweep",
            "gpr",
            "--config",
            config.to_str().unwrap(),
            "--set",
            "load=50,90",
            "--cycles",
            "100",
            "--no-rtl",
            "--seed",
            "2",
            "--out",
            sweep.to_str().unwrap(),
        ],
        &cache,
    );
    ok(&ran);
    let spec = std::fs::read_to_string(sweep.join("sweep.json")).unwrap();
    let spec: Value = serde_json::from_str(&spec).unwrap();
    assert_eq!(spec["config"]["read_ports"], 2);
    let plot = work.path().join("p.svg");
    let ran = grfgen(
        &[
            "sweep",
            "plot",
            sweep.to_str().unwrap(),
            "--x",
            "load",
            "--y",
            "grants",
            "--series",
            "read-ports",
            "--out",
            plot.to_str().unwrap(),
        ],
        &cache,
    );
    // read-ports is not swept here: the refusal names the swept names.
    assert_eq!(ran.status.code(), Some(2), "{}", stderr(&ran));
    assert!(stderr(&ran).contains("load"), "{}", stderr(&ran));
}

#[test]
fn a_resume_takes_up_the_recorded_seed_and_lists_and_names_what_differs() {
    let work = tempfile::tempdir().unwrap();
    let cache = work.path().join("cache");
    let out = work.path().join("sweep");
    let out = out.to_str().unwrap();
    let first = grfgen(
        &[
            "sweep",
            "gpr",
            "--set",
            "banks=1,2",
            "--cycles",
            "100",
            "--no-rtl",
            "--seed",
            "5",
            "--out",
            out,
        ],
        &cache,
    );
    ok(&first);
    let resumed = grfgen(&["sweep", "gpr", "--out", out, "--resume"], &cache);
    ok(&resumed);
    assert!(
        stderr(&resumed).contains("seed 5: 0 points to run of 2"),
        "{}",
        stderr(&resumed)
    );
    let other = grfgen(
        &[
            "sweep",
            "gpr",
            "--set",
            "banks=1,2",
            "--cycles",
            "100",
            "--no-rtl",
            "--seed",
            "6",
            "--out",
            out,
            "--resume",
        ],
        &cache,
    );
    assert_eq!(other.status.code(), Some(2));
    let err = stderr(&other);
    assert!(
        err.contains("the seed is 5 there and 6 here") && err.contains("--seed 5"),
        "{err}"
    );
}

#[test]
fn plots_take_categorical_axes_and_write_real_png_and_sweeps_export_csv() {
    let work = tempfile::tempdir().unwrap();
    let cache = work.path().join("cache");
    let sweep = work.path().join("core");
    let ran = grfgen(
        &[
            "sweep",
            "core",
            "--workload",
            "rpt-mad",
            "--set",
            "policy=naive,cq,cq-pq",
            "--set",
            "banks=2,4",
            "--no-rtl",
            "--seed",
            "1",
            "--out",
            sweep.to_str().unwrap(),
        ],
        &cache,
    );
    ok(&ran);
    let png = work.path().join("p.png");
    let ran = grfgen(
        &[
            "sweep",
            "plot",
            sweep.to_str().unwrap(),
            "--x",
            "policy",
            "--y",
            "cycles",
            "--series",
            "banks",
            "-o",
            png.to_str().unwrap(),
        ],
        &cache,
    );
    ok(&ran);
    let decoder = png::Decoder::new(std::fs::File::open(&png).unwrap());
    let mut reader = decoder.read_info().expect("a PNG");
    let mut pixels = vec![0; reader.output_buffer_size()];
    let frame = reader.next_frame(&mut pixels).expect("its pixels");
    // The plotting area is 800 pixels wide, the legend beside it 250.
    assert_eq!((frame.width, frame.height), (1050, 520));
    assert!(pixels.iter().any(|&p| p < 128), "a blank image");

    let csv = grfgen(&["sweep", "export", sweep.to_str().unwrap()], &cache);
    ok(&csv);
    let rows = parse_csv(&String::from_utf8_lossy(&csv.stdout));
    assert_eq!(rows.len(), 7, "a header and six points");
    let header = &rows[0];
    for column in ["index", "status", "banks", "policy", "cycles", "replay"] {
        assert!(header.iter().any(|h| h == column), "{column} in {header:?}");
    }
    assert!(rows.iter().all(|r| r.len() == header.len()));
    let policy = header.iter().position(|h| h == "policy").unwrap();
    assert_eq!(rows[1][policy], "naive");
}

#[test]
fn a_waveform_runs_in_real_time_and_the_template_is_no_module() {
    let work = tempfile::tempdir().unwrap();
    let cache = work.path().join("cache");
    let vcd = work.path().join("w.vcd");
    let ran = grfgen(
        &[
            "sim",
            "gpr",
            "--banks",
            "2",
            "--registers",
            "16",
            "--lanes",
            "1",
            "--cycles",
            "4",
            "--seed",
            "1",
            "--clock-mhz",
            "100",
            "--vcd",
            vcd.to_str().unwrap(),
        ],
        &cache,
    );
    ok(&ran);
    let text = std::fs::read_to_string(&vcd).unwrap();
    assert!(text.contains("$timescale 1ps $end"), "{text}");
    // Two samples a cycle, half a 10 ns period apart.
    assert!(
        text.contains("\n#5000\n") && text.contains("\n#10000\n"),
        "{text}"
    );
    let out = work.path().join("emitted");
    ok(&grfgen(
        &["emit", "gpr", "--out", out.to_str().unwrap()],
        &cache,
    ));
    let names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().any(|n| n.ends_with("_inst.vh")), "{names:?}");
    assert!(!names.iter().any(|n| n.ends_with(".sv")), "{names:?}");
}
