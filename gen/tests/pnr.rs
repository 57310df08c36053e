//! `grfgen flow --pnr` as a user runs it: one small configuration of every block placed and
//! routed by nextpnr, with Fmax, utilisation, routing and the critical path in the JSON; a
//! design too big for its device reported as such; a bad device refused. The ECP5 placements
//! take minutes each and are marked slow: `make test` places the small router on the iCE40,
//! `scripts/slow-tests.sh` runs the rest. Needs the YoWASP
//! tools in the project's `.venv` (the Makefile and .ci/run install them).

use std::process::{Command, Output};

use serde_json::Value;

/// A GPR small enough to place and route in seconds: 2 banks of 64 rows, 2 lanes of 8 bits.
const SMALL_GPR: &[&str] = &[
    "--banks",
    "2",
    "--registers",
    "128",
    "--lanes",
    "2",
    "--element-bits",
    "8",
];

fn grfgen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_grfgen"))
        .args(args)
        .output()
        .expect("grfgen runs")
}

/// Runs `grfgen args`, which must succeed, and returns its standard output as JSON.
fn json_of(args: &[&str]) -> Value {
    let run = grfgen(args);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{args:?}: {stdout}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    serde_json::from_str(&stdout).unwrap()
}

/// Runs `grfgen flow <block> <params> --pnr --json ...` and returns its `pnr` object.
fn pnr(block: &str, params: &[&str], extra: &[&str]) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join(block);
    let mut args = vec!["flow", block];
    args.extend(params);
    args.extend([
        "--out",
        out.to_str().unwrap(),
        "--seed",
        "1",
        "--pnr",
        "--json",
    ]);
    args.extend(extra);
    let report = json_of(&args);
    let stdout = report.to_string();
    let placed = report["pnr"]["fits"] == true;
    assert_eq!(out.join("pnr/report.json").exists(), placed, "{stdout}");
    if let Some(path) = report["pnr"]["bitstream"]["path"].as_str() {
        let bytes = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        assert_eq!(report["pnr"]["bitstream"]["bytes"], bytes, "{stdout}");
        let packed = [".bit", ".bin", ".fs"].iter().any(|e| path.ends_with(e));
        assert!(packed && bytes > 0, "{stdout}");
        // The scratch directory of the second routing is gone.
        assert!(!out.join("pnr/bitstream").exists(), "{stdout}");
    }
    // The synthesis log is Yosys's own, placed or not.
    let log = std::fs::read_to_string(out.join("pnr/synth.log")).unwrap_or_default();
    assert!(log.contains("Yosys"), "DIR/pnr/synth.log: {log:?}");
    report["pnr"].clone()
}

fn number(report: &Value, field: &str) -> f64 {
    report[field]
        .as_f64()
        .unwrap_or_else(|| panic!("{field} missing in {report}"))
}

/// A placed and routed report: every figure present and plausible.
fn assert_placed(block: &str, device: &str, report: &Value, memories: bool) {
    assert_eq!(report["device"], device, "{block}");
    assert_eq!(report["fits"], true, "{block}: {report}");
    let fmax = number(report, "fmax_mhz");
    assert!(fmax > 10.0 && fmax < 500.0, "{block}: Fmax {fmax}");
    assert_eq!(report["timing_met"], fmax >= number(report, "clock_mhz"));
    assert!(number(report, "luts") > 0.0, "{block}");
    assert!(
        number(report, "ffs") > number(report, "harness_ffs"),
        "{block}: {report}"
    );
    assert_eq!(number(report, "brams") > 0.0, memories, "{block}: {report}");
    assert!(
        number(report, "routed_arcs") > number(report, "luts"),
        "{block}"
    );
    assert!(
        number(report, "wirelength") > number(report, "routed_arcs"),
        "{block}"
    );
    let path = &report["critical_path"];
    assert!(
        path["logic_levels"].as_u64().unwrap() >= 1,
        "{block}: {path}"
    );
    assert!(path["start"].as_str().unwrap().len() > 1, "{block}: {path}");
    let period = 1000.0 / fmax;
    let delay = number(path, "delay_ns");
    assert!(
        (delay - period).abs() < 0.05 * period,
        "{block}: {delay} ns at {fmax} MHz"
    );
}

#[test]
#[ignore = "slow (minutes of place and route): scripts/slow-tests.sh runs it"]
fn a_small_configuration_of_every_block_is_placed_and_routed() {
    let small: [(&str, &[&str], bool); 4] = [
        (
            "gpr",
            &[
                "--banks",
                "2",
                "--registers",
                "512",
                "--lanes",
                "2",
                "--element-bits",
                "8",
            ],
            true,
        ),
        (
            "route",
            &["--lanes", "4", "--crossbar", "2", "--element-bits", "8"],
            false,
        ),
        (
            "core",
            &[
                "--banks",
                "2",
                "--registers",
                "512",
                "--lanes",
                "1",
                "--read-ports",
                "2",
            ],
            true,
        ),
        (
            "grf",
            &[
                "--eus",
                "2",
                "--threads",
                "1",
                "--fast-regs",
                "2",
                "--slow-regs",
                "256",
                "--lanes",
                "1",
                "--element-bits",
                "16",
            ],
            true,
        ),
    ];
    for (block, params, memories) in small {
        let report = pnr(block, params, &[]);
        assert_placed(block, "ecp5-85k", &report, memories);
        // The router is placed at its own timing weight on ECP5, the others at nextpnr's.
        let weight = if block == "route" { 30 } else { 10 };
        assert_eq!(report["timing_weight"], weight, "{block}: {report}");
    }
}

/// The quick one `make test` runs: a small router placed and routed on the iCE40 HX8K, and
/// packed by `icepack`.
#[test]
fn a_small_router_is_placed_and_routed_on_ice40() {
    let params = ["--lanes", "4", "--crossbar", "2", "--element-bits", "8"];
    let report = pnr("route", &params, &["--device", "ice40-hx8k", "--bitstream"]);
    assert_placed("route", "ice40-hx8k", &report, false);
    assert_eq!(report["bitstream"]["packer"], "yowasp-icepack", "{report}");
    // Off ECP5 the router is placed at nextpnr's own timing weight.
    assert_eq!(report["timing_weight"], 10, "{report}");
}

/// `--pnr-seeds 3` places the one netlist with seeds 1, 2 and 3: every seed's figures, the worst,
/// median and best Fmax, and the report (and the files in `DIR/pnr`) of the best seed.
#[test]
fn several_placement_seeds_give_each_seed_and_keep_the_best() {
    let params = ["--lanes", "4", "--crossbar", "2", "--element-bits", "8"];
    let extra = ["--device", "ice40-hx8k", "--pnr-seeds", "3"];
    let report = pnr("route", &params, &extra);
    assert_placed("route", "ice40-hx8k", &report, false);
    let seeds = report["seeds"].as_array().expect("seeds");
    let listed: Vec<u64> = seeds.iter().map(|s| s["seed"].as_u64().unwrap()).collect();
    assert_eq!(listed, [1, 2, 3], "{report}");
    let mut fmax: Vec<f64> = seeds.iter().map(|s| number(s, "fmax_mhz")).collect();
    let best = seeds
        .iter()
        .find(|s| number(s, "fmax_mhz") == number(&report, "fmax_mhz_best"))
        .unwrap();
    assert_eq!(report["seed"], best["seed"], "{report}");
    assert_eq!(number(&report, "fmax_mhz"), number(best, "fmax_mhz"));
    assert_eq!(report["critical_path"], best["critical_path"]);
    fmax.sort_by(f64::total_cmp);
    assert_eq!(number(&report, "fmax_mhz_worst"), fmax[0]);
    assert_eq!(number(&report, "fmax_mhz_median"), fmax[1]);
    assert_eq!(number(&report, "fmax_mhz_best"), fmax[2]);
}

/// `--pnr-timing-weight` reaches nextpnr's placer and the report, and the results cache keeps
/// the weights apart; nextpnr's own weight is the default.
#[test]
fn the_placer_timing_weight_is_recorded_and_cached_apart() {
    let dir = tempfile::tempdir().unwrap();
    let run = |weight: &[&str]| {
        let out = dir.path().join("gpr");
        let mut args = vec!["flow", "gpr"];
        args.extend(SMALL_GPR);
        args.extend(["--out", out.to_str().unwrap(), "--cycles", "1000", "--pnr"]);
        args.extend(["--device", "ice40-hx8k", "--clock-mhz", "50", "--json"]);
        args.extend(weight);
        let run = Command::new(env!("CARGO_BIN_EXE_grfgen"))
            .args(&args)
            .env("GRFGEN_CACHE", dir.path().join("cache"))
            .output()
            .expect("grfgen runs");
        let stdout = String::from_utf8_lossy(&run.stdout).into_owned();
        assert!(run.status.success(), "{args:?}: {stdout}");
        serde_json::from_str::<Value>(&stdout).unwrap()["pnr"].clone()
    };
    let default = run(&[]);
    assert_eq!(default["timing_weight"], 10, "{default}");
    let weighted = run(&["--pnr-timing-weight", "30"]);
    assert_placed("gpr", "ice40-hx8k", &weighted, true);
    assert_eq!(weighted["timing_weight"], 30, "{weighted}");
    // nextpnr placed it otherwise (this netlist: 116.9 MHz, 3,707 wires at 10; 121.4, 3,734 at
    // 30), so the weight reached it.
    let placed = |r: &Value| (r["fmax_mhz"].to_string(), r["wirelength"].to_string());
    assert_ne!(placed(&weighted), placed(&default), "{weighted}");
    // Placed again, not the default weight's placement from the cache; then from the cache.
    assert_eq!(weighted["cached"], false, "{weighted}");
    assert_eq!(run(&["--pnr-timing-weight", "30"])["cached"], true);
    assert_eq!(run(&["--pnr-timing-weight", "10"])["cached"], true);
}

/// Each pipeline option added for timing places and routes on a small configuration: the GPR's
/// registered arbitration with its SRAM port stage (4, its banks DP16KD instances, the ECP5
/// default), the router's input
/// stage (4), the GRF's answer stage with every stage before it (5; its default, 4, is placed
/// above), the core on the GPR's deepest pipeline (4) with its request stage.
#[test]
#[ignore = "slow (minutes of place and route): scripts/slow-tests.sh runs it"]
fn a_small_configuration_of_every_new_pipeline_option_is_placed_and_routed() {
    let options: [(&str, &[&str], &str, bool); 4] = [
        ("gpr", SMALL_GPR, "4", true),
        (
            "route",
            &["--lanes", "8", "--crossbar", "4", "--element-bits", "8"],
            "4",
            false,
        ),
        (
            "grf",
            &[
                "--eus",
                "2",
                "--threads",
                "1",
                "--fast-regs",
                "2",
                "--lanes",
                "1",
                "--element-bits",
                "16",
            ],
            "5",
            true,
        ),
        (
            "core",
            &[
                "--banks",
                "2",
                "--registers",
                "64",
                "--lanes",
                "1",
                "--read-ports",
                "2",
                "--request-stage",
                "true",
            ],
            "4",
            true,
        ),
    ];
    for (block, params, stages, memories) in options {
        let report = pnr(block, params, &["--pipeline", stages]);
        assert_placed(block, "ecp5-85k", &report, memories);
    }
}

/// The router's pipeline stages and the GPR's pay off where they are placed: each option's Fmax
/// beats the unpipelined design's (nextpnr is deterministic for a given seed).
#[test]
#[ignore = "slow (minutes of place and route): scripts/slow-tests.sh runs it"]
fn pipeline_stages_raise_fmax_after_place_and_route() {
    let route = ["--lanes", "8", "--crossbar", "4", "--element-bits", "16"];
    for (block, params, stages) in [("route", &route[..], "3"), ("gpr", SMALL_GPR, "2")] {
        let plain = pnr(block, params, &["--pipeline", "0"]);
        let staged = pnr(block, params, &["--pipeline", stages]);
        let (before, after) = (number(&plain, "fmax_mhz"), number(&staged, "fmax_mhz"));
        assert!(
            after > before,
            "{block} --pipeline {stages}: {after} MHz, {before} without"
        );
        assert!(number(&staged, "ffs") > number(&plain, "ffs"), "{block}");
    }
}

#[test]
fn a_design_too_big_for_its_device_is_a_result() {
    // The default GPR needs 32 iCE40 block RAMs; the UltraPlus 5K has 30.
    let report = pnr("gpr", &[], &["--device", "ice40-up5k"]);
    assert_eq!(report["fits"], false, "{report}");
    assert_eq!(report["reason"], "does not fit: 32 block RAMs of 30");
    assert!(report["fmax_mhz"].is_null());
}

/// Every Gowin and Nexus part, each with its block RAM primitive and its output register
/// (pipeline 2): the small GPR on the GW1N-9 and GW2A-18, packed into bitstreams by apycula's
/// `gowin_pack`; on the GW5A-25, whose block RAM contents that packer cannot write, placed with
/// no bitstream and the reason said; and on the CrossLink-NX LIFCL-40, packed by `prjoxide`.
#[test]
fn a_small_gpr_is_placed_and_routed_on_gowin_with_a_bitstream_and_on_nexus() {
    let params = [SMALL_GPR, &["--pipeline", "2", "--cycles", "5000"]].concat();
    for (device, part) in [("gw1n-9", "GW1N-9C"), ("gw2a-18", "GW2A-18C")] {
        let report = pnr("gpr", &params, &["--device", device, "--bitstream"]);
        assert_placed("gpr", device, &report, true);
        let packer = format!("gowin_pack -d {part}");
        assert_eq!(report["bitstream"]["packer"], packer.as_str(), "{report}");
    }
    let report = pnr("gpr", &params, &["--device", "gw5a-25", "--bitstream"]);
    assert_placed("gpr", "gw5a-25", &report, true);
    assert!(report["bitstream"].is_null(), "{report}");
    let report = pnr("gpr", &params, &["--device", "nexus-40", "--bitstream"]);
    assert_placed("gpr", "nexus-40", &report, true);
    assert_eq!(
        report["bitstream"]["packer"], "yowasp-prjoxide pack",
        "{report}"
    );
}

#[test]
fn a_bad_device_seed_or_memory_is_refused() {
    let devices = "ecp5-85k, ecp5-25k, ice40-hx8k, ice40-up5k, gw1n-9, gw2a-18, gw5a-25, nexus-40";
    let cases: [(&[&str], &[&str]); 9] = [
        (&["--device", "virtex7"], &["--device", "virtex7", devices]),
        (
            &["--pnr-timing-weight", "0"],
            &["--pnr-timing-weight", "0", "1..=100"],
        ),
        (
            &["--pnr-timing-weight", "101"],
            &["--pnr-timing-weight", "101", "1..=100"],
        ),
        (&["--pnr-seed", "0"], &["--pnr-seed", "0", "1..=2147483647"]),
        (&["--pnr-seed", "x"], &["--pnr-seed", "x", "1..=2147483647"]),
        (&["--pnr-seeds", "0"], &["--pnr-seeds", "0", "1..=64"]),
        (&["--pnr-seeds", "65"], &["--pnr-seeds", "65", "1..=64"]),
        (
            &["--device", "ecp5-85k", "--memory", "gowin-bsram"],
            &[
                "gowin-bsram",
                "--memory",
                "inferred or dp16kd",
                "SDPB is Gowin",
            ],
        ),
        (
            &["--device", "gw2a-18", "--memory", "nexus-ebr"],
            &[
                "nexus-ebr",
                "--memory",
                "inferred or gowin-bsram",
                "PDPSC16K is Nexus",
            ],
        ),
    ];
    for (flags, needles) in cases {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let mut args = vec!["flow", "gpr", "--out", out.to_str().unwrap(), "--pnr"];
        args.extend(flags);
        let run = grfgen(&args);
        let err = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        for needle in needles {
            assert!(err.contains(needle), "{needle} not in {err}");
        }
        assert!(!out.exists());
    }
}

/// `grfgen compare gpr --pnr` at a small size: every row placed and routed (or reported as not
/// fitting) with its cost, routing and Fmax; the banked rows under naive and cq-pq, the
/// multi-ported files (each at its deepest option) under ideal, each with cycles and time per
/// workload; and a verdict.
#[test]
#[ignore = "slow (minutes of place and route): scripts/slow-tests.sh runs it"]
fn compare_gpr_places_routes_and_judges_every_design() {
    let run = grfgen(&[
        "compare",
        "gpr",
        "--registers",
        "32",
        "--lanes",
        "1",
        "--read-ports",
        "2",
        "--pipelines",
        "0",
        "--bank-kinds",
        "1r1w",
        "--workloads",
        "rpt-mad,random",
        "--pnr",
        "--json",
    ]);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let report: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["placed_and_routed"], true);
    let designs = report["designs"].as_array().unwrap();
    let names: Vec<&str> = designs
        .iter()
        .map(|d| d["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "banked-1r1w-p0 naive",
            "banked-1r1w-p0 cq-pq",
            "flops ideal",
            "lvt-p2 ideal",
            "ilvt-binary-p2 ideal",
            "ilvt-onehot-p2 ideal",
            "xor-p2 ideal"
        ]
    );
    for d in designs {
        assert_eq!(d["fits"], true, "{d}");
        let fmax = number(d, "fmax_mhz");
        assert!(fmax > 10.0 && fmax < 500.0, "{d}");
        for field in ["luts", "ffs", "routed_arcs", "wirelength"] {
            assert!(number(d, field) > 0.0, "{field}: {d}");
        }
        for w in ["rpt-mad", "random"] {
            let figures = &d["workloads"][w];
            let cycles = number(figures, "cycles");
            let time = number(figures, "time_ns");
            assert!((time - cycles * 1000.0 / fmax).abs() < 1e-6 * time, "{d}");
        }
    }
    // The flip-flop file holds every bit in flip-flops and no RAM; the block-RAM files keep
    // theirs in DP16KDs (ECP5's default), with flip-flops for their stages only.
    assert_eq!(number(&designs[2], "brams"), 0.0);
    assert!(number(&designs[2], "ffs") >= 32.0 * 32.0, "{}", designs[2]);
    for file in &designs[3..] {
        assert!(number(file, "brams") >= 4.0, "{file}");
        assert!(number(file, "ffs") < number(&designs[2], "ffs"), "{file}");
    }
    // Without queues, a file that never conflicts is never slower than banks of its read
    // latency that do (with queues, prefetching can beat it: the ideal file reads only for the
    // head); the block-RAM files, two stages deeper, take more cycles than the flip-flop file.
    for w in ["rpt-mad", "random"] {
        let cycles = |d: &Value| number(&d["workloads"][w], "cycles");
        assert!(cycles(&designs[0]) >= cycles(&designs[2]), "{w}");
        for file in &designs[3..] {
            assert!(cycles(file) > cycles(&designs[2]), "{w}: {file}");
        }
    }
    let verdict: Vec<&str> = report["verdict"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert!(
        verdict[0].starts_with("the document's design: banked-1r1w-p0 cq-pq"),
        "{verdict:?}"
    );
    assert!(verdict[1].starts_with("routing (wirelength"), "{verdict:?}");
    assert!(
        verdict[2].starts_with("performance (time per workload"),
        "{verdict:?}"
    );
}

/// `grfgen ceiling`: the device's block RAM alone, one primitive of 512 x 32 between the
/// harness's registers, with and without its output register where the device has a primitive
/// (GW1N-9's SDPB), inferred where it has none (iCE40): every row placed, one block RAM and no
/// flip-flop beyond the harness's, its files kept under `DIR/<top>/pnr`.
#[test]
fn the_block_ram_ceiling_is_placed_alone_with_and_without_its_output_register() {
    for (device, memory, registers) in [
        ("gw1n-9", "gowin-bsram", &[true, false][..]),
        ("ice40-hx8k", "inferred", &[false][..]),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("ceiling");
        let args = [
            "ceiling",
            "--device",
            device,
            "--out",
            out.to_str().unwrap(),
            "--json",
        ];
        let report = json_of(&args);
        let stdout = report.to_string();
        let rows = report.as_array().expect("a list of rows");
        let shown: Vec<bool> = rows.iter().map(|r| r["output_register"] == true).collect();
        assert_eq!(shown, registers, "{stdout}");
        for row in rows {
            assert_eq!(row["memory"], memory, "{row}");
            let pnr = &row["pnr"];
            assert_eq!(
                (&pnr["device"], &pnr["fits"]),
                (&device.into(), &true.into()),
                "{row}"
            );
            assert!(number(pnr, "fmax_mhz") > 50.0, "{row}");
            assert_eq!(number(pnr, "brams"), 1.0, "{row}");
            assert_eq!(number(pnr, "ffs"), number(pnr, "harness_ffs"), "{row}");
            let top = row["top"].as_str().unwrap();
            assert!(out.join(top).join("pnr/report.json").exists(), "{row}");
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("ceiling");
    let run = grfgen(&[
        "ceiling",
        "--pnr-seeds",
        "0",
        "--out",
        out.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.contains("--pnr-seeds") && err.contains("1..=64"),
        "{err}"
    );
    assert!(!out.exists());
}
