//! What a new user met that broke, each held here: output paths checked before the work,
//! links included; `emit` into a used directory; a lint file list that works from anywhere;
//! every drawn seed printed and recorded; options that do not fit refused the same way
//! everywhere; messages that name the right flag and read right; bare yes/no flags; charts with
//! integers and a legend that covers nothing; and the commands the tool prints run as printed.

use std::path::Path;
use std::process::{Command, Output};

fn grfgen_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_grfgen"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("grfgen runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Bad input run in `dir`: exit 2 and one line holding every one of `expected`.
fn refused(dir: &Path, args: &[&str], expected: &[&str]) -> String {
    let out = grfgen_in(dir, args);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    for part in expected {
        assert!(err.contains(part), "{args:?}: {err:?} lacks {part:?}");
    }
    err
}

/// Succeeds in `dir`: standard output.
fn ok(dir: &Path, args: &[&str]) -> String {
    let out = grfgen_in(dir, args);
    assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    text(&out.stdout)
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A small golden-model sweep of the GPR into `out`, from `dir`.
fn small_sweep(dir: &Path, out: &str, extra: &[&str]) -> String {
    let mut args = vec![
        "sweep", "gpr", "--banks", "2,4", "--cycles", "200", "--seed", "3", "--no-rtl", "--quiet",
        "--out", out,
    ];
    args.extend(extra);
    ok(dir, &args)
}

#[test]
fn emit_refuses_a_bad_out_with_exit_2_like_every_command() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("file"), "x").unwrap();
    for out in ["", "file", "file/", "file/sub"] {
        for verb in [&["emit", "gpr"][..], &["flow", "gpr"]] {
            let mut args = verb.to_vec();
            args.extend(["--out", out]);
            let err = refused(dir, &args, &["--out"]);
            assert!(!err.contains("  "), "{err}");
        }
    }
    assert_eq!(names(dir), ["file"], "nothing written");
}

#[test]
fn a_dangling_link_as_out_is_written_like_a_new_file_and_a_link_is_followed() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::os::unix::fs::symlink("target.txt", dir.join("link.txt")).unwrap();
    ok(
        dir,
        &[
            "allocate",
            "--workload",
            "rpt-mad",
            "--seed",
            "1",
            "--out",
            "link.txt",
        ],
    );
    assert!(std::fs::read_to_string(dir.join("target.txt"))
        .unwrap()
        .contains("allocated by grfgen allocate"));
    assert!(dir.join("link.txt").is_symlink(), "the link stays a link");
    small_sweep(dir, "sw", &[]);
    std::os::unix::fs::symlink("points.csv", dir.join("csv-link")).unwrap();
    ok(dir, &["sweep", "export", "sw", "--out", "csv-link"]);
    assert!(std::fs::read_to_string(dir.join("points.csv"))
        .unwrap()
        .starts_with("index,"));
    std::os::unix::fs::symlink("emitted", dir.join("out-link")).unwrap();
    ok(dir, &["emit", "gpr", "--banks", "2", "--out", "out-link"]);
    assert!(dir.join("emitted/manifest.json").exists());
    // A link whose target's directory is missing is refused before the work.
    std::os::unix::fs::symlink("nowhere/t.txt", dir.join("bad-link")).unwrap();
    refused(
        dir,
        &["allocate", "--workload", "rpt-mad", "--out", "bad-link"],
        &["--out", "does not exist"],
    );
}

#[test]
fn emit_into_a_used_directory_refuses_or_cleans_what_an_earlier_emit_wrote() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    ok(dir, &["emit", "gpr", "--memory", "dp16kd", "--out", "d"]);
    std::fs::write(dir.join("d/mine.txt"), "the user's").unwrap();
    let before = names(&dir.join("d"));
    let err = refused(
        dir,
        &["emit", "gpr", "--banks", "2", "--out", "d"],
        &["--clean", "dp16kd_model.v", "gpr_b4_"],
    );
    assert!(!err.contains("mine.txt"), "{err}");
    assert_eq!(names(&dir.join("d")), before, "nothing written");
    // The same design again replaces its own files.
    ok(dir, &["emit", "gpr", "--memory", "dp16kd", "--out", "d"]);
    ok(
        dir,
        &["emit", "gpr", "--banks", "2", "--out", "d", "--clean"],
    );
    let left = names(&dir.join("d"));
    assert!(left.iter().all(|n| !n.starts_with("gpr_b4_")), "{left:?}");
    assert!(!left.contains(&"dp16kd_model.v".to_string()), "{left:?}");
    assert!(left.contains(&"mine.txt".to_string()), "{left:?}");
    // What is left lints as one design, globbed as the README says.
    let lint = Command::new("sh")
        .args(["-c", "verilator --lint-only -Wall *.vlt *.v"])
        .current_dir(dir.join("d"))
        .output()
        .unwrap();
    assert!(lint.status.success(), "{}", text(&lint.stderr));
}

#[test]
fn the_lint_file_list_lints_from_another_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    ok(dir, &["emit", "gpr", "--memory", "dp16kd", "--out", "d"]);
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("d/manifest.json")).unwrap())
            .unwrap();
    let list = manifest["files"]["lint_file_list"].as_str().unwrap();
    let listed = std::fs::read_to_string(dir.join("d").join(list)).unwrap();
    assert!(
        listed.contains(".vlt") && listed.contains("dp16kd_model.v"),
        "{listed}"
    );
    let elsewhere = dir.join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    let lint = Command::new("verilator")
        .args(["--lint-only", "-Wall", "-F"])
        .arg(Path::new("../d").join(list))
        .current_dir(&elsewhere)
        .output()
        .unwrap();
    assert!(lint.status.success(), "{}", text(&lint.stderr));
}

#[test]
fn every_command_that_draws_a_seed_prints_it_and_records_it() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let seed_of = |err: &str| -> u64 {
        let line = (err.lines())
            .find(|l| l.contains("replay with --seed"))
            .unwrap_or_else(|| panic!("no seed line: {err}"));
        let seed = line
            .split("seed ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap();
        assert!(
            line.ends_with(&format!("seed {seed} (replay with --seed {seed})")),
            "{line}"
        );
        seed.parse().unwrap()
    };
    // allocate: on standard error, in --json and in the file it writes.
    let run = grfgen_in(
        dir,
        &[
            "allocate",
            "--workload",
            "random",
            "--json",
            "--out",
            "a.txt",
        ],
    );
    assert!(run.status.success(), "{}", text(&run.stderr));
    let seed = seed_of(&text(&run.stderr));
    let json: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(json["seed"], seed);
    assert!(std::fs::read_to_string(dir.join("a.txt"))
        .unwrap()
        .contains(&format!("seed {seed} (replay with --seed {seed})")));
    // sweep, even with --quiet and --json: its records hold it.
    let run = grfgen_in(
        dir,
        &[
            "sweep", "gpr", "--banks", "2", "--cycles", "100", "--no-rtl", "--quiet", "--json",
            "--out", "s",
        ],
    );
    assert!(run.status.success(), "{}", text(&run.stderr));
    let seed = seed_of(&text(&run.stderr));
    let json: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(json["seed"], seed);
    // route window.
    let run = grfgen_in(dir, &["route", "window", "--json"]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let seed = seed_of(&text(&run.stderr));
    let json: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(json["seed"], seed);
    // A seed given is not announced.
    let run = grfgen_in(dir, &["route", "window", "--seed", "5"]);
    assert!(
        !text(&run.stderr).contains("replay with"),
        "{}",
        text(&run.stderr)
    );
}

#[test]
fn options_that_do_not_fit_are_refused_before_the_work() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    refused(
        dir,
        &[
            "sweep", "gpr", "--memory", "dp16kd", "--synth", "--no-rtl", "--out", "s",
        ],
        &["--memory", "dp16kd", "--synth"],
    );
    refused(
        dir,
        &[
            "sweep",
            "gpr",
            "--memory",
            "dp16kd",
            "--pnr",
            "--device",
            "ice40-hx8k",
            "--no-rtl",
        ],
        &["--memory", "dp16kd", "ice40-hx8k"],
    );
    refused(
        dir,
        &[
            "compare",
            "gpr",
            "--memory",
            "dp16kd",
            "--pnr",
            "--device",
            "ice40-up5k",
        ],
        &["--memory", "dp16kd", "ice40-up5k"],
    );
    refused(
        dir,
        &[
            "route",
            "eval",
            "--op",
            "shff.left",
            "--amount",
            "1",
            "--fill",
            "one",
            "--rs",
            "1,2,3,4",
            "--rf",
            "5,5,5,5",
            "--lanes",
            "4",
            "--crossbar",
            "2",
        ],
        &["--rf", "--fill one", "--fill rf"],
    );
    assert!(!dir.join("s").exists());
}

#[test]
fn a_config_value_is_named_by_file_line_column_and_key_in_sweep_and_explore() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(
        dir.join("c.json"),
        "{\n  \"lanes\": 4,\n  \"banks\": 3\n}\n",
    )
    .unwrap();
    for verb in ["sweep", "explore"] {
        refused(
            dir,
            &[
                verb,
                "gpr",
                "--config",
                "c.json",
                "--read-ports",
                "2,4",
                "--out",
                "x",
            ],
            &[
                "invalid value 3 for --banks",
                "--config c.json",
                "line 3, column 3",
                "`banks`",
            ],
        );
    }
    assert!(!dir.join("x").exists());
}

#[test]
fn messages_name_the_conflict_and_read_right() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("p.txt"), "add.u32 r5, r1, r2\n").unwrap();
    let err = refused(
        dir,
        &[
            "sim",
            "core",
            "--workload",
            "rpt-mad",
            "--program",
            "p.txt",
            "--no-rtl",
        ],
        &["--workload", "--program", "conflict"],
    );
    assert!(!err.contains("allowed rpt-mad"), "{err}");
    let err = refused(dir, &["sim", "gpr", "--banks", ""], &["''", "--banks"]);
    assert!(!err.contains("  "), "{err}");
    refused(
        dir,
        &["sim", "gpr", "--bnaks", "2"],
        &["did you mean '--banks'"],
    );
    refused(
        dir,
        &["sim", "gpr", "--cylces", "2"],
        &["did you mean '--cycles'"],
    );
    small_sweep(dir, "s", &[]);
    let err = refused(
        dir,
        &[
            "sweep", "gpr", "--banks", "2,8", "--cycles", "200", "--seed", "3", "--no-rtl",
            "--out", "s", "--resume",
        ],
        &["the lists are"],
    );
    assert!(!err.contains("lists is"), "{err}");
}

#[test]
fn a_sweep_directory_and_an_exploration_directory_advise_what_works() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    small_sweep(dir, "s", &[]);
    for resume in [&[][..], &["--resume"]] {
        let mut args = vec![
            "explore", "gpr", "--banks", "2,4", "--seed", "3", "--out", "s",
        ];
        args.extend(resume);
        let err = refused(
            dir,
            &args,
            &["holds a sweep of gpr, not an exploration", "another --out"],
        );
        assert!(!err.contains("add --resume"), "{err}");
    }
    // An exploration's directory: a sweep there says how to go on with the exploration.
    let spec = std::fs::read_to_string(dir.join("s/sweep.json")).unwrap();
    let mut spec: serde_json::Value = serde_json::from_str(&spec).unwrap();
    spec["explore"] = true.into();
    spec["rtl"] = "off".into();
    spec["pnr"] = serde_json::json!(["ecp5-85k", 1]);
    std::fs::create_dir(dir.join("e")).unwrap();
    std::fs::write(dir.join("e/sweep.json"), spec.to_string()).unwrap();
    for resume in [&[][..], &["--resume"]] {
        let mut args = vec!["sweep", "gpr", "--banks", "2,4", "--no-rtl", "--out", "e"];
        args.extend(resume);
        refused(dir, &args, &["grfgen explore gpr --out DIR --resume"]);
    }
}

#[test]
fn bare_yes_no_flags_mean_yes_in_lists_too() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let json = ok(
        dir,
        &[
            "sweep",
            "core",
            "--workload",
            "matmul4",
            "--allocate",
            "--no-rtl",
            "--seed",
            "1",
            "--quiet",
            "--json",
        ],
    );
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["points"][0]["options"]["allocate"], true, "{json}");
}

#[test]
fn a_waveform_on_standard_output_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    refused(
        tmp.path(),
        &["sim", "gpr", "--vcd", "-"],
        &["--vcd", "standard output"],
    );
    assert!(!tmp.path().join("-").exists());
}

#[test]
fn charts_write_integers_as_integers_and_the_legend_covers_no_point() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    ok(
        dir,
        &[
            "sweep",
            "gpr",
            "--banks",
            "1,2,4,8,16",
            "--read-ports",
            "2,4",
            "--cycles",
            "300",
            "--seed",
            "1",
            "--no-rtl",
            "--quiet",
            "--out",
            "s",
        ],
    );
    ok(
        dir,
        &[
            "sweep",
            "plot",
            "s",
            "--x",
            "banks",
            "--y",
            "grants",
            "--series",
            "read_ports",
            "--out",
            "p.svg",
        ],
    );
    let svg = std::fs::read_to_string(dir.join("p.svg")).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let texts: Vec<(f64, String)> = (doc.descendants())
        .filter(|n| n.has_tag_name("text"))
        .map(|n| {
            let x = n.attribute("x").and_then(|x| x.parse().ok()).unwrap_or(0.0);
            (x, n.text().unwrap_or_default().trim().to_string())
        })
        .collect();
    for (_, t) in &texts {
        assert!(
            !(t.ends_with(".0") && t[..t.len() - 2].parse::<f64>().is_ok()),
            "tick {t:?}"
        );
    }
    let rightmost_point = (doc.descendants())
        .filter(|n| n.has_tag_name("circle"))
        .filter_map(|n| n.attribute("cx")?.parse::<f64>().ok())
        .fold(0.0f64, f64::max);
    let legend = texts
        .iter()
        .find(|(_, t)| t.starts_with("read_ports = "))
        .unwrap();
    assert!(
        legend.0 > rightmost_point + 20.0,
        "legend at {} over points to {rightmost_point}",
        legend.0
    );
}

#[test]
fn the_commands_a_sweep_and_its_refusals_print_run_as_printed() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let json = small_sweep(dir, "s", &["--json"]);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    for point in json["points"].as_array().unwrap() {
        let replay = point["replay"].as_str().unwrap();
        let words: Vec<&str> = replay.split_whitespace().collect();
        assert_eq!(words[0], "grfgen", "{replay}");
        let mut args = words[1..].to_vec();
        args.push("--json");
        let run: serde_json::Value = serde_json::from_str(&ok(dir, &args)).unwrap();
        assert_eq!(run["grants"], point["report"]["grants"], "{replay}");
    }
    // Each refusal's hint, followed, is accepted.
    let base = [
        "sweep", "gpr", "--banks", "2,4", "--cycles", "200", "--no-rtl", "--quiet", "--out", "s",
    ];
    refused(
        dir,
        &[&base[..], &["--seed", "3"]].concat(),
        &["add --resume"],
    );
    ok(dir, &[&base[..], &["--seed", "3", "--resume"]].concat());
    let err = refused(
        dir,
        &[&base[..], &["--seed", "4", "--resume"]].concat(),
        &["give --seed 3"],
    );
    assert!(err.contains("or leave --seed out"), "{err}");
    ok(dir, &[&base[..], &["--resume"]].concat());
}
