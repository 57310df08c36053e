//! ir3 program files on the command line: `bench core --program FILE...`, `--isa` refused
//! without a program by every command that reads one, and a sweep over an ir3 program.

use std::process::{Command, Output};

fn grfgen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_grfgen"))
        .args(args)
        .output()
        .expect("grfgen runs")
}

/// The path of the project's own ir3 program `name`.
fn own(name: &str) -> String {
    format!(
        "{}/../sim/programs/ir3/{name}.asm",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// The keys every row of `bench core --program --json` has.
const ROW_KEYS: [&str; 10] = [
    "program",
    "isa",
    "instructions",
    "gpr_reads",
    "naive_cycles",
    "cq_cycles",
    "cq_pq_cycles",
    "ideal_cycles",
    "conflicts",
    "allocated_cycles",
];

#[test]
fn bench_core_gives_a_row_per_program_and_the_geometric_mean() {
    let (a, b) = (own("rpt-mad"), own("vertex-transform"));
    let out = grfgen(&["bench", "core", "--program", &a, &b, "--json"]);
    assert!(out.status.success(), "{out:?}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = json["programs"].as_array().expect("an array of rows");
    assert_eq!(rows.len(), 2);
    for (row, path) in rows.iter().zip([&a, &b]) {
        for key in ROW_KEYS {
            assert!(!row[key].is_null(), "{key} missing from {row}");
        }
        assert_eq!(row["program"], path.as_str());
        assert_eq!(row["isa"], "ir3");
    }
    assert_eq!(
        (
            rows[0]["instructions"].as_u64(),
            rows[0]["gpr_reads"].as_u64()
        ),
        (Some(4), Some(12))
    );
    for column in [
        "naive_cycles",
        "cq_cycles",
        "cq_pq_cycles",
        "ideal_cycles",
        "allocated_cycles",
    ] {
        let product = rows[0][column].as_f64().unwrap() * rows[1][column].as_f64().unwrap();
        let mean = json["geomean"][column].as_f64().unwrap();
        assert!(
            (mean - product.sqrt()).abs() < 1e-6,
            "{column}: {mean} for {product}"
        );
    }
    // The text: a header, one row per program and the mean.
    let out = grfgen(&["bench", "core", "--program", &a, &b, "--seed", "3"]);
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 6, "{text}");
    assert!(
        lines[2].starts_with("program ") && lines[2].contains("allocated"),
        "{text}"
    );
    assert!(
        lines[3].starts_with(&a) && lines[4].starts_with(&b),
        "{text}"
    );
    assert!(lines[5].starts_with("geomean (2 programs)"), "{text}");
    // Without --program the benchmark is the built-in workloads' as before.
    let out = grfgen(&["bench", "core", "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        json["kernel_mean"].is_array() && json["programs"].is_null(),
        "{json}"
    );
}

#[test]
fn bench_core_refuses_a_program_that_does_not_read_before_running_any() {
    let tmp = tempfile::tempdir().unwrap();
    let bad = tmp.path().join("bad.asm");
    std::fs::write(&bad, "add.f r0.x, r1.x, r2.x\nfrobnicate r0.x\n").unwrap();
    let bad = bad.to_str().unwrap();
    let out = grfgen(&["bench", "core", "--program", &own("rpt-mad"), bad]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains(&format!("{bad}:2:1: unknown opcode")), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn isa_without_a_program_is_refused_by_every_command_that_reads_one() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("out");
    let dir = dir.to_str().unwrap();
    let commands: [&[&str]; 6] = [
        &["sim", "core"],
        &["bench", "core"],
        &["sweep", "core", "--out", dir],
        &["explore", "core", "--out", dir],
        &["flow", "core", "--out", dir],
        &["compare", "gpr"],
    ];
    for command in commands {
        let args = [command, &["--isa", "ir3"]].concat();
        let out = grfgen(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.contains("invalid value ir3 for --isa: allowed core or ir3, with --program FILE"),
            "{args:?}: {err}"
        );
        assert!(
            !tmp.path().join("out").exists(),
            "{args:?} wrote its output"
        );
    }
}

#[test]
fn sweep_core_runs_an_ir3_program_at_every_point() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("sweep");
    let out = grfgen(&[
        "sweep",
        "core",
        "--program",
        &own("vertex-transform"),
        "--banks",
        "2,4",
        "--no-rtl",
        "--seed",
        "1",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{out:?}");
    let results = std::fs::read_to_string(dir.join("results.jsonl")).unwrap();
    let points: Vec<serde_json::Value> = (results.lines())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(points.len(), 2, "{results}");
    for point in points {
        let text = point.to_string();
        assert!(text.contains("\"status\":\"ok\""), "{text}");
        assert!(text.contains("\"cycles\":"), "{text}");
    }
}
