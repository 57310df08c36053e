//! `grfgen explore` as a user runs it: on a space small enough to place and route every
//! design, the front it finds is the exhaustive sweep's front; its front is non-dominated,
//! its recommendation meets the constraints and its command emits Verilog that lints; its
//! chart parses as SVG; a killed exploration resumes to the same answer; unmet constraints
//! name the constraint and the closest design; bad input is refused before anything runs.
//! Needs the YoWASP tools in the project's `.venv` and Verilator (the Makefile and .ci/run
//! install them). The exhaustive front and the killed exploration place and route a dozen
//! designs each and are marked slow (`scripts/slow-tests.sh`).

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

/// Eight GPR designs that place and route in seconds: 2 or 4 banks, pipeline 0 or 2, two
/// bank kinds, one lane of 64 registers.
const SPACE: &[&str] = &[
    "--banks",
    "2,4",
    "--lanes",
    "1",
    "--registers",
    "64",
    "--pipeline",
    "0,2",
    "--bank-kind",
    "1r1w,2r1w",
    "--seed",
    "1",
];

fn grfgen(args: &[&str], cache: Option<&Path>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_grfgen"));
    command.args(args);
    if let Some(cache) = cache {
        command.env("GRFGEN_CACHE", cache);
    }
    command.output().expect("grfgen runs")
}

fn ok(args: &[&str], cache: Option<&Path>) -> Value {
    let run = grfgen(args, cache);
    assert!(
        run.status.success(),
        "{args:?}: {}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    serde_json::from_slice(&run.stdout).expect("--json prints JSON")
}

/// Runs `explore gpr` over the space into `out` with `extra` flags.
fn explore(out: &Path, extra: &[&str], cache: Option<&Path>) -> Value {
    let mut args = vec!["explore", "gpr"];
    args.extend(SPACE);
    args.extend(["--out", out.to_str().unwrap(), "--json", "--jobs", "2"]);
    args.extend(extra);
    ok(&args, cache)
}

/// The swept values of a design, as a key to compare fronts by.
fn design(params: &Value) -> String {
    ["banks", "pipeline", "bank_kind"]
        .map(|k| params[k].to_string())
        .join(" ")
}

/// Whether `a` dominates `b` in LUT+FF, block RAMs and time.
fn dominates(a: [f64; 3], b: [f64; 3]) -> bool {
    a.iter().zip(&b).all(|(x, y)| x <= y) && a.iter().zip(&b).any(|(x, y)| x < y)
}

#[test]
#[ignore = "slow (minutes of place and route): scripts/slow-tests.sh runs it"]
fn the_front_is_the_exhaustive_front_and_the_recommendation_emits_and_lints() {
    let dir = tempfile::tempdir().unwrap();
    // Every design placed and routed: the truth.
    let sweep = dir.path().join("sweep");
    let mut args = vec!["sweep", "gpr"];
    args.extend(SPACE);
    let out = sweep.to_str().unwrap();
    args.extend([
        "--memory", "dp16kd", "--pnr", "--no-rtl", "--out", out, "--json", "--jobs", "2",
    ]);
    let truth = ok(&args, None);
    let figures: Vec<(String, [f64; 3])> = (truth["points"].as_array().unwrap().iter())
        .map(|r| {
            let pnr = &r["pnr"];
            let cost = pnr["luts"].as_f64().unwrap() + pnr["ffs"].as_f64().unwrap();
            let time =
                r["work_cycles"].as_f64().unwrap() * 1000.0 / pnr["fmax_mhz"].as_f64().unwrap();
            (
                design(&r["parameters"]),
                [cost, pnr["brams"].as_f64().unwrap(), time],
            )
        })
        .collect();
    assert_eq!(figures.len(), 8);
    let mut exhaustive: Vec<String> = (figures.iter())
        .filter(|(_, f)| !figures.iter().any(|(_, g)| dominates(*g, *f)))
        .map(|(d, _)| d.clone())
        .collect();
    exhaustive.sort();

    let out = dir.path().join("explore");
    let result = explore(&out, &["--budget-pnr", "4", "--min-fmax", "100"], None);
    assert!(result["placed"].as_u64().unwrap() <= 4, "{result}");
    let front = result["front"].as_array().unwrap();
    let mut found: Vec<String> = front.iter().map(|p| design(&p["params"])).collect();
    found.sort();
    assert_eq!(
        found, exhaustive,
        "explore's front against every design placed"
    );
    // front.json is the same front, and no point of it dominates another.
    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("front.json")).unwrap()).unwrap();
    assert_eq!(written.as_array().unwrap().len(), front.len());
    let at = |p: &Value| {
        let f = |k: &str| p[k].as_f64().unwrap();
        [f("luts") + f("ffs"), f("brams"), f("time_ns")]
    };
    for p in front {
        assert!(!front.iter().any(|q| dominates(at(q), at(p))), "{p}");
        assert!(["placed", "predicted"].contains(&p["fmax_source"].as_str().unwrap()));
    }
    // The recommendation was placed, meets --min-fmax, and its command emits and lints.
    let best = &result["recommendation"];
    assert_eq!(best["fmax_source"], "placed", "{best}");
    assert!(best["fmax_mhz"].as_f64().unwrap() >= 100.0, "{best}");
    emits_and_lints(best, dir.path());
    // The chart is SVG that an XML parser reads, with the front drawn.
    let svg = std::fs::read_to_string(out.join("front.svg")).unwrap();
    let doc = roxmltree::Document::parse(&svg).expect("front.svg parses as XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    assert!(svg.contains("Pareto front") && svg.contains("recommended"));
    let png = std::fs::read(out.join("front.png")).unwrap();
    assert!(png.starts_with(b"\x89PNG"), "front.png is a PNG");
    // Every record is the sweep's, readable by `sweep status`.
    let status = ok(&["sweep", "status", out.to_str().unwrap(), "--json"], None);
    assert_eq!(status["failed"], 0, "{status}");
}

/// Runs the recommendation's `grfgen emit` command as printed, in `dir`, and lints what it
/// wrote through its `.lint.f` from another directory: the constraints ask for the placed
/// Fmax, rounded down.
fn emits_and_lints(best: &Value, dir: &Path) {
    let command = best["command"].as_str().unwrap();
    let words: Vec<&str> = command.split_whitespace().collect();
    assert_eq!(&words[..3], ["grfgen", "emit", "gpr"], "{command}");
    let run = Command::new(env!("CARGO_BIN_EXE_grfgen"))
        .args(&words[1..])
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{command}: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    let out = dir.join(words[words.len() - 1]);
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    for (key, value) in manifest["parameters"].as_object().unwrap() {
        assert_eq!(&best["params"][key], value, "parameter {key} of {command}");
    }
    let fmax = best["fmax_mhz"].as_f64().unwrap();
    assert_eq!(
        manifest["clock"]["mhz"].as_f64(),
        Some(fmax.floor()),
        "{command}"
    );
    let top = manifest["top"].as_str().unwrap();
    let list = out.join(format!("{top}.lint.f"));
    let lint = Command::new("verilator")
        .current_dir(std::env::temp_dir())
        .args(["--lint-only", "-Wall", "--top-module", top, "-F"])
        .arg(&list)
        .output()
        .expect("verilator runs");
    assert!(
        lint.status.success(),
        "{}",
        String::from_utf8_lossy(&lint.stderr)
    );
}

#[test]
fn each_design_is_synthesized_once_on_a_first_run_and_on_resume() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let out = dir.path().join("explore");
    let run = |extra: &[&str]| {
        let mut args = vec!["explore", "gpr"];
        args.extend(SPACE);
        args.extend(["--out", out.to_str().unwrap(), "--jobs", "1"]);
        args.extend(extra);
        let run = grfgen(&args, Some(&cache));
        let err = String::from_utf8_lossy(&run.stderr).into_owned();
        assert!(run.status.success(), "{args:?}: {err}");
        let syntheses: Vec<String> = (err.lines())
            .filter(|l| l.starts_with("synthesize "))
            .map(|l| l.split(" (").next().unwrap().to_string())
            .collect();
        (syntheses, err)
    };
    let (first, err) = run(&["--budget-synth", "3", "--budget-pnr", "1"]);
    assert_eq!(
        first.len(),
        3,
        "three designs costed, each synthesized once: {err}"
    );
    // Off a terminal the count runs over every stage: 1, 2, 3, ... of one most.
    let counts: Vec<(usize, usize)> = (err.lines())
        .filter_map(|l| {
            let (done, rest) = l.strip_prefix('[')?.split_once(" of at most ")?;
            Some((done.parse().ok()?, rest.split(']').next()?.parse().ok()?))
        })
        .collect();
    assert_eq!(
        counts.len(),
        8 + 3 + 1,
        "8 model runs, 3 syntheses, 1 placement: {err}"
    );
    for (k, &(done, most)) in counts.iter().enumerate() {
        assert_eq!((done, most), (k + 1, 8 + 3 + 1), "{err}");
    }
    // Placing one more of the costed designs synthesizes none of them again.
    let (resumed, err) = run(&["--budget-synth", "3", "--budget-pnr", "2", "--resume"]);
    assert!(
        resumed.is_empty(),
        "a costed design synthesized again: {err}"
    );
    let result: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("explore.json")).unwrap()).unwrap();
    assert_eq!(result["placed"].as_u64(), Some(2), "{result}");
}

#[test]
#[ignore = "slow (minutes of place and route): scripts/slow-tests.sh runs it"]
fn a_killed_exploration_resumes_to_the_same_answer() {
    let dir = tempfile::tempdir().unwrap();
    let extra = ["--budget-pnr", "2", "--budget-synth", "8"];
    let whole = explore(&dir.path().join("whole"), &extra, None);
    // A cold cache, so that the run is still synthesizing when it is killed.
    let cache = dir.path().join("cache");
    let out = dir.path().join("killed");
    let mut args: Vec<String> = ["explore", "gpr"]
        .iter()
        .chain(SPACE)
        .map(|s| s.to_string())
        .collect();
    args.extend(
        [
            "--out",
            out.to_str().unwrap(),
            "--json",
            "--jobs",
            "1",
            "-q",
        ]
        .map(String::from),
    );
    args.extend(extra.map(String::from));
    let mut child = Command::new(env!("CARGO_BIN_EXE_grfgen"))
        .args(&args)
        .env("GRFGEN_CACHE", &cache)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let results = out.join("results.jsonl");
    let started = std::time::Instant::now();
    // Killed once the model's 8 records and one synthesis are in.
    while std::fs::read_to_string(&results).map_or(0, |t| t.lines().count()) < 9 {
        assert!(
            started.elapsed().as_secs() < 300,
            "no synthesis recorded in 5 minutes"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // Killed mid-run: a run that ended first would leave the resume nothing to do.
    assert!(
        child.try_wait().unwrap().is_none(),
        "the run ended before the kill"
    );
    child.kill().unwrap();
    child.wait().unwrap();
    let before = std::fs::read_to_string(&results).unwrap().lines().count();
    // The whole run's records: 8 model runs, 8 syntheses, 2 placements.
    assert!(
        before < 8 + 8 + 2,
        "every record was in at the kill ({before})"
    );
    let mut resumed_args: Vec<&str> = args.iter().map(String::as_str).collect();
    resumed_args.push("--resume");
    let resumed = ok(&resumed_args, Some(&cache));
    let after = std::fs::read_to_string(&results).unwrap().lines().count();
    assert!(
        after > before,
        "the resume recorded nothing ({before} records)"
    );
    for key in ["front", "recommendation", "placed", "synthesized"] {
        assert_eq!(
            whole[key], resumed[key],
            "{key} after a kill at {before} records"
        );
    }
}

#[test]
fn unmet_constraints_name_the_constraint_and_the_closest_design() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("explore");
    let mut args = vec!["explore", "gpr"];
    args.extend(SPACE);
    args.extend([
        "--out",
        out.to_str().unwrap(),
        "--max-luts",
        "10",
        "--budget-pnr",
        "2",
        "--budget-synth",
        "8",
    ]);
    let run = grfgen(&args, None);
    assert_eq!(run.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("no placed design meets the constraints; the closest misses --max-luts 10"),
        "{stderr}"
    );
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(stdout.contains("closest:\ngrfgen emit gpr"), "{stdout}");
}

#[test]
fn bad_input_is_refused_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("never");
    let o = out.to_str().unwrap();
    for (extra, says) in [
        (
            vec!["--objective", "speed"],
            "invalid value speed for --objective: allowed time, area or energy",
        ),
        (
            vec!["--min-fmax", "0"],
            "invalid value 0 for --min-fmax: allowed 0 < f <= 2000",
        ),
        (
            vec!["--budget-pnr", "0"],
            "invalid value 0 for --budget-pnr: allowed 1..=10000",
        ),
        (
            vec!["--budget-synth", "1.5"],
            "invalid value 1.5 for --budget-synth: allowed 1..=100000",
        ),
        (
            vec!["--max-luts", "many"],
            "for --max-luts: allowed 1..=10000000",
        ),
        (
            vec!["--device", "ice40-hx8k", "--memory", "dp16kd"],
            "dp16kd",
        ),
        (
            vec!["--device", "nexus-40", "--memory", "gowin-bsram"],
            "invalid value gowin-bsram for --memory: allowed inferred or nexus-ebr with --device nexus-40",
        ),
        (vec!["--banks", "3"], "--banks"),
    ] {
        let mut args = vec!["explore", "gpr", "--out", o];
        args.extend(&extra);
        let run = grfgen(&args, None);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{extra:?}: {stderr}");
        assert_eq!(stderr.trim().lines().count(), 1, "{extra:?}: {stderr}");
        assert!(stderr.contains(says), "{extra:?}: {stderr}");
        assert!(!out.exists(), "{extra:?} left {o} behind");
    }
    let run = grfgen(&["explore", "route", "--out", o], None);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("its runs time no workload"), "{stderr}");
}

#[test]
fn slurm_dry_run_prints_one_job_that_resumes_the_exploration_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("explore");
    let mut args = vec!["explore", "slurm", "gpr"];
    args.extend(SPACE);
    args.extend([
        "--out",
        out.to_str().unwrap(),
        "--cpus",
        "4",
        "--partition",
        "fast",
        "--dry-run",
    ]);
    let run = grfgen(&args, None);
    let script = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    for line in [
        "#SBATCH --job-name=grfgen-explore-gpr-job",
        "#SBATCH --cpus-per-task=4",
        "#SBATCH --partition=fast",
    ] {
        assert!(script.contains(line), "{line}: {script}");
    }
    let exec = script
        .lines()
        .find(|l| l.starts_with("exec "))
        .expect("an exec line");
    assert!(exec.contains(" explore gpr --banks 2,4 "), "{exec}");
    assert!(exec.ends_with("--resume --jobs 4"), "{exec}");
    assert!(exec.contains("--seed 1"), "{exec}");
    assert!(!out.exists(), "--dry-run wrote {}", out.display());
    let bad = grfgen(
        &[
            "explore",
            "slurm",
            "gpr",
            "--out",
            out.to_str().unwrap(),
            "--cpus",
            "0",
        ],
        None,
    );
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr)
        .contains("invalid value 0 for --cpus: allowed 1..=256"));
}
