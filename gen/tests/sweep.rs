//! `grfgen sweep` as users run it: results that survive SIGKILL and resume without losing or
//! repeating a point, shards that merge into the unsharded run, bad grids that write nothing.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use serde_json::Value;

fn grfgen() -> Command {
    Command::new(env!("CARGO_BIN_EXE_grfgen"))
}

fn run(args: &[&str]) -> Output {
    grfgen().args(args).output().expect("grfgen runs")
}

/// A golden-model GPR sweep of 24 points of `cycles` cycles into `out`, with `extra`
/// arguments.
fn sweep_of<'a>(cycles: &'a str, out: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "sweep",
        "gpr",
        "--set",
        "banks=1,2,4,8",
        "--set",
        "read-ports=1,2,4",
        "--set",
        "load=50,90",
        "--cycles",
        cycles,
        "--seed",
        "77",
        "--no-rtl",
        "--out",
        out,
    ];
    args.extend_from_slice(extra);
    args
}

/// The sweep of the shard test: short points.
fn sweep_args<'a>(out: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    sweep_of("60000", out, extra)
}

/// The sweep of the kill test: points of about a tenth of a second.
fn slow_sweep<'a>(out: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    sweep_of("1500000", out, extra)
}

/// The lines of `dir/results.jsonl`, as JSON.
fn lines(dir: &Path) -> Vec<Value> {
    std::fs::read_to_string(dir.join("results.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("every line whole"))
        .collect()
}

/// Per point: its seed and figures (what must not depend on how the sweep was run).
fn figures(dir: &Path) -> BTreeMap<u64, (Value, Value)> {
    lines(dir)
        .into_iter()
        .map(|r| {
            (
                r["index"].as_u64().unwrap(),
                (r["seed"].clone(), r["metrics"].clone()),
            )
        })
        .collect()
}

#[test]
fn a_sweep_killed_three_times_resumes_with_no_point_lost_or_repeated() {
    let dir = tempfile::tempdir().unwrap();
    let (killed, whole) = (dir.path().join("killed"), dir.path().join("whole"));
    let (killed_s, whole_s) = (killed.to_str().unwrap(), whole.to_str().unwrap());
    // Each round is killed once the results hold `target` lines: in the middle of the sweep,
    // whatever the machine's speed.
    for (round, target) in [4usize, 10, 16].into_iter().enumerate() {
        let extra: &[&str] = if round == 0 {
            &["--jobs", "2"]
        } else {
            &["--jobs", "2", "--resume"]
        };
        let mut child = grfgen()
            .args(slow_sweep(killed_s, extra))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let results = killed.join("results.jsonl");
        while std::fs::read_to_string(&results).map_or(0, |t| t.lines().count()) < target {
            assert!(
                child.try_wait().unwrap().is_none(),
                "round {round} ended before its kill"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        // Tear the last line as a kill in mid-write would.
        if round == 1 {
            let mut text = std::fs::read_to_string(&results).unwrap();
            text.push_str("{\"index\": 23, \"seed\"");
            std::fs::write(&results, text).unwrap();
        }
    }
    assert!(lines(&killed).len() < 24, "the kills landed mid-sweep");
    let resumed = run(&slow_sweep(killed_s, &["--jobs", "2", "--resume"]));
    assert_eq!(
        resumed.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    let records = lines(&killed);
    let mut indices: Vec<u64> = records
        .iter()
        .map(|r| r["index"].as_u64().unwrap())
        .collect();
    indices.sort();
    assert_eq!(indices, (0..24).collect::<Vec<_>>(), "each point once");
    let straight = run(&slow_sweep(whole_s, &["--jobs", "1"]));
    assert_eq!(straight.status.code(), Some(0));
    assert_eq!(figures(&killed), figures(&whole));
    let status = run(&["sweep", "status", killed_s, "--json"]);
    let status: Value = serde_json::from_slice(&status.stdout).unwrap();
    assert_eq!(
        (status["done"].as_u64(), status["missing"].as_u64()),
        (Some(24), Some(0))
    );
}

#[test]
fn shards_merge_into_the_unsharded_sweep() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let mut shards = Vec::new();
    for i in 0..3 {
        let shard = format!("{i}/3");
        let out = path(&format!("shard{i}"));
        let done = run(&sweep_args(&out, &["--shard", &shard]));
        assert_eq!(
            done.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&done.stderr)
        );
        assert_eq!(lines(Path::new(&out)).len(), 8);
        shards.push(out);
    }
    let partial = run(&[
        "sweep",
        "merge",
        &shards[0],
        &shards[1],
        "--out",
        &path("partial"),
        "--json",
    ]);
    let partial: Value = serde_json::from_slice(&partial.stdout).unwrap();
    assert_eq!(partial["missing"], 8, "{partial}");
    let mut args = vec!["sweep", "merge"];
    args.extend(shards.iter().map(String::as_str));
    let merged = path("merged");
    args.extend(["--out", &merged]);
    assert_eq!(run(&args).status.code(), Some(0));
    let whole = path("whole");
    assert_eq!(run(&sweep_args(&whole, &[])).status.code(), Some(0));
    assert_eq!(figures(Path::new(&merged)), figures(Path::new(&whole)));
    // A sweep of another seed is refused.
    let other = path("other");
    let mut args = sweep_args(&other, &[]);
    args[11] = "78";
    assert_eq!(run(&args).status.code(), Some(0));
    let refused = run(&[
        "sweep",
        "merge",
        &shards[0],
        &other,
        "--out",
        &path("mixed"),
    ]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("a different sweep"));
}

#[test]
fn a_bad_grid_or_flag_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("never");
    let out_s = out.to_str().unwrap();
    for (extra, expected) in [
        (vec!["--set", "banks=1,3"], "--banks"),
        (vec!["--set", "colour=1"], "--set"),
        (vec!["--jobs", "0"], "--jobs"),
        (vec!["--shard", "3/3"], "--shard"),
        (vec!["--shard", "slurm"], "SLURM_ARRAY_TASK_ID"),
        (
            vec!["--memory", "inferred,gowin-bsram", "--synth"],
            "invalid value gowin-bsram for --memory: allowed inferred with --synth, an iCE40 synthesis (SDPB",
        ),
        (
            vec!["--memory", "nexus-ebr", "--pnr", "--device", "gw5a-25"],
            "allowed inferred or gowin-bsram with --device gw5a-25 (PDPSC16K is Nexus block RAM)",
        ),
    ] {
        let mut args = vec![
            "sweep", "gpr", "--no-rtl", "--cycles", "100", "--out", out_s,
        ];
        args.extend(&extra);
        let done = grfgen()
            .args(&args)
            .env_remove("SLURM_ARRAY_TASK_ID")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&done.stderr);
        assert_eq!(done.status.code(), Some(2), "{extra:?}: {err}");
        assert!(err.contains(expected), "{extra:?}: {err}");
        assert!(!out.exists(), "{extra:?} wrote {out_s}");
    }
    // A directory holding a sweep is not overwritten without --resume.
    let first = run(&[
        "sweep", "gpr", "--no-rtl", "--cycles", "100", "--seed", "1", "--out", out_s,
    ]);
    assert_eq!(first.status.code(), Some(0));
    let again = run(&[
        "sweep", "gpr", "--no-rtl", "--cycles", "100", "--seed", "1", "--out", out_s,
    ]);
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("--resume"));
}

/// Whether `text` is well-formed XML as far as elements go: every tag closed in order.
fn well_formed(text: &str) -> bool {
    let mut open: Vec<&str> = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find('<') {
        let Some(len) = rest[start..].find('>') else {
            return false;
        };
        let tag = &rest[start + 1..start + len];
        rest = &rest[start + len + 1..];
        if tag.starts_with('?') || tag.starts_with('!') || tag.ends_with('/') {
            continue;
        }
        let name = tag
            .trim_start_matches('/')
            .split_whitespace()
            .next()
            .unwrap_or("");
        match tag.starts_with('/') {
            true if open.pop() != Some(name) => return false,
            true => {}
            false => open.push(name),
        }
    }
    open.is_empty()
}

#[test]
fn a_plot_is_an_svg_with_one_series_per_value() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sweep");
    let out_s = out.to_str().unwrap();
    let done = run(&[
        "sweep",
        "gpr",
        "--set",
        "banks=1,2,4,8",
        "--set",
        "read-ports=1,2,4",
        "--cycles",
        "3000",
        "--seed",
        "3",
        "--no-rtl",
        "--out",
        out_s,
    ]);
    assert_eq!(done.status.code(), Some(0));
    let svg = dir.path().join("conflicts.svg");
    let drawn = run(&[
        "sweep",
        "plot",
        out_s,
        "--x",
        "banks",
        "--y",
        "conflict_rate",
        "--series",
        "read_ports",
        "-o",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(
        drawn.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&drawn.stderr)
    );
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") && well_formed(&text), "{text}");
    for ports in [1, 2, 4] {
        let legend = format!("read_ports = {ports}");
        let entries = text.lines().filter(|l| l.trim() == legend).count();
        assert_eq!(entries, 1, "legend of {ports}");
    }
    assert!(text.contains("banks (count)") && text.contains("conflict_rate (fraction)"));
    // A name that is no number in the records is refused, and no file is written.
    let never = dir.path().join("never.svg");
    let refused = run(&[
        "sweep",
        "plot",
        out_s,
        "--x",
        "colour",
        "--y",
        "conflict_rate",
        "-o",
        never.to_str().unwrap(),
    ]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(!never.exists());
}

#[test]
fn a_sweep_with_pnr_reports_fmax_and_time_per_point_over_two_placement_seeds() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("pnr");
    let done = run(&[
        "sweep",
        "alloc",
        "--pool",
        "8",
        "--granularity",
        "1",
        "--wave-slots",
        "1",
        "--example",
        "traffic",
        "--set",
        "cycles=1000,2000",
        "--seed",
        "2",
        "--no-rtl",
        "--pnr",
        "--device",
        "ice40-up5k",
        "--pnr-seeds",
        "2",
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(
        done.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    let records = lines(&out);
    assert_eq!(records.len(), 2);
    for r in &records {
        let metric = |name: &str| {
            (r["metrics"].as_array().unwrap().iter())
                .find(|m| m[0] == name)
                .and_then(|m| m[1].as_f64())
                .unwrap_or_else(|| panic!("{name} missing: {r}"))
        };
        let (fmax, time) = (metric("fmax_mhz"), metric("time_ns"));
        let cycles = r["report"]["cycles"].as_f64().unwrap();
        assert!(
            fmax > 1.0 && (time - cycles * 1000.0 / fmax).abs() < 1e-6,
            "{r}"
        );
        assert_eq!(r["pnr"]["device"], "ice40-up5k");
        // Two placement seeds: the metric is the Fmax both meet, the others beside it.
        assert_eq!(r["pnr"]["seeds"].as_array().map(Vec::len), Some(2), "{r}");
        assert_eq!(Some(fmax), r["pnr"]["fmax_mhz_worst"].as_f64(), "{r}");
        // The worst, median (the mean of two) and best from the seeds' own figures.
        let mut seeds: Vec<f64> = (r["pnr"]["seeds"].as_array().unwrap().iter())
            .map(|s| s["fmax_mhz"].as_f64().unwrap())
            .collect();
        seeds.sort_by(f64::total_cmp);
        assert_eq!(fmax, seeds[0], "{r}");
        assert_eq!(metric("fmax_mhz_best"), seeds[1], "{r}");
        let mean = ((seeds[0] + seeds[1]) / 2.0 * 1000.0).round() / 1000.0;
        assert_eq!(metric("fmax_mhz_median"), mean, "{r}");
    }
    // One design: placed and routed once, the same figures for both points.
    assert_eq!(records[0]["pnr"], records[1]["pnr"]);
}

/// The permission bits a new file gets under this process's umask (0666 less the umask).
fn new_file_mode() -> u32 {
    // SAFETY: reading the umask by setting it and putting it back at once.
    let mask = unsafe {
        let mask = libc::umask(0o022);
        libc::umask(mask);
        mask
    };
    0o666 & !(mask as u32)
}

#[test]
fn a_sweep_records_its_files_by_absolute_path_and_resumes_from_any_directory() {
    use std::os::unix::fs::PermissionsExt;
    let work = tempfile::tempdir().unwrap();
    let (here, elsewhere) = (work.path().join("here"), work.path().join("elsewhere"));
    std::fs::create_dir(&here).unwrap();
    std::fs::create_dir(&elsewhere).unwrap();
    std::fs::write(here.join("prog.s"), "add.u32 R1, R2, R3\nmov R9, R1\n").unwrap();
    let out = work.path().join("out");
    let sweep = |dir: &Path, program: &str, resume: bool| {
        let mut command = grfgen();
        command
            .current_dir(dir)
            .args(["sweep", "core", "--program", program]);
        command.args([
            "--set",
            "policy=naive,cq",
            "--seed",
            "1",
            "--no-rtl",
            "--out",
        ]);
        command.arg(&out);
        if resume {
            command.arg("--resume");
        }
        command.output().unwrap()
    };
    let first = sweep(&here, "prog.s", false);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let spec = std::fs::read_to_string(out.join("sweep.json")).unwrap();
    let absolute = here.join("prog.s").display().to_string();
    assert!(spec.contains(&absolute), "{spec}");
    for file in ["sweep.json", "results.jsonl"] {
        let mode = std::fs::metadata(out.join(file))
            .unwrap()
            .permissions()
            .mode()
            & 0o777;
        assert_eq!(mode, new_file_mode(), "{file} is {mode:o}");
    }
    // The same program named from another directory is the same sweep: nothing left to run.
    let resumed = sweep(&elsewhere, &absolute, true);
    let err = String::from_utf8_lossy(&resumed.stderr);
    assert!(resumed.status.success(), "{err}");
    assert!(err.contains("0 points to run of 2"), "{err}");
    // A name that means another file there is refused before anything runs, and named.
    let moved = sweep(&elsewhere, "prog.s", true);
    let err = String::from_utf8_lossy(&moved.stderr);
    assert_eq!(moved.status.code(), Some(2), "{err}");
    assert!(err.contains("--program") && err.contains("prog.s"), "{err}");
    assert_eq!(lines(&out).len(), 2, "the results were touched");
}

#[test]
fn a_point_that_fails_is_failed_never_skipped_and_the_sweep_exits_non_zero() {
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    // --rtl on the ideal policy (a model with no RTL) cannot run: the point fails.
    let ran = run(&[
        "sweep",
        "core",
        "--workload",
        "rpt-mad",
        "--set",
        "policy=ideal",
        "--rtl",
        "--seed",
        "1",
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(
        ran.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&ran.stderr)
    );
    let statuses: Vec<String> = lines(&out)
        .iter()
        .map(|r| r["status"].as_str().unwrap().to_string())
        .collect();
    assert!(statuses.contains(&"failed".to_string()), "{statuses:?}");
    assert!(!statuses.contains(&"skipped".to_string()), "{statuses:?}");
}

/// A core sweep crosses the bank map like any parameter: one point per map, each recorded and
/// replayed with its map, and the map changes the figures (which of matmul4's reads share a
/// bank).
#[test]
fn a_core_sweep_crosses_the_bank_map() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("maps");
    let ran = run(&[
        "sweep",
        "core",
        "--bank-map",
        "mod,row,xor",
        "--workload",
        "matmul4",
        "--seed",
        "1",
        "--no-rtl",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(
        ran.status.success(),
        "{}",
        String::from_utf8_lossy(&ran.stderr)
    );
    let mut records = lines(&out);
    records.sort_by_key(|r| r["index"].as_u64());
    let maps: Vec<&str> = (records.iter())
        .map(|r| r["parameters"]["bank_map"].as_str().unwrap())
        .collect();
    assert_eq!(maps, ["mod", "row", "xor"]);
    for (record, map) in records.iter().zip(&maps).skip(1) {
        let replay = record["replay"].as_str().unwrap();
        assert!(replay.contains(&format!("--bank-map {map}")), "{replay}");
    }
    let cycles: Vec<u64> = (records.iter())
        .map(|r| r["report"]["cycles"].as_u64().unwrap())
        .collect();
    assert!(
        cycles[0] != cycles[1] && cycles[1] != cycles[2] && cycles[0] != cycles[2],
        "{cycles:?}"
    );
}
