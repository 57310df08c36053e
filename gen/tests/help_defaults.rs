//! Every default a help text promises holds: a command run with a flag left out behaves
//! exactly as with the flag given its documented default.

use std::process::Command;

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_grfgen");

/// The `(flag, default)` pairs a help text documents with a one-word default
/// (`[default 4]` or clap's `[default: zeros]`).
fn defaults(help: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for line in help.lines().map(str::trim) {
        let Some(flag) = line.split_whitespace().find(|w| w.starts_with("--")) else {
            continue;
        };
        let flag = flag.trim_end_matches(',').to_string();
        for marker in ["[default: ", "[default "] {
            if let Some(at) = line.find(marker) {
                let rest = &line[at + marker.len()..];
                let value = rest.split(']').next().unwrap_or("");
                if !value.is_empty() && !value.contains(' ') {
                    found.push((flag.clone(), value.to_string()));
                }
            }
        }
    }
    found
}

/// The JSON `args` print, without the fields that change from run to run (times, rates).
fn run(args: &[String]) -> Value {
    let out = Command::new(BIN).args(args).arg("--json").output().unwrap();
    assert!(
        out.status.success(),
        "grfgen {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    let mut value: Value = serde_json::from_slice(&out.stdout).unwrap();
    strip(&mut value);
    value
}

/// `value` without its timing fields, at any depth.
fn strip(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.retain(|k, _| !k.contains("seconds") && !k.contains("per_second"));
            map.values_mut().for_each(strip);
        }
        Value::Array(items) => items.iter_mut().for_each(strip),
        _ => {}
    }
}

#[test]
fn every_documented_default_is_what_an_omitted_flag_does() {
    let lanes: Vec<String> = (0..32).map(|i| i.to_string()).collect();
    let rs = lanes.join(",");
    let cases: Vec<Vec<&str>> = vec![
        vec!["sim", "gpr", "--no-rtl", "--cycles", "300", "--seed", "1"],
        vec![
            "sim",
            "core",
            "--no-rtl",
            "--workload",
            "rpt-mad",
            "--seed",
            "1",
        ],
        vec![
            "sim",
            "grf",
            "--no-rtl",
            "--workload",
            "private-hot",
            "--rounds",
            "1",
            "--seed",
            "1",
        ],
        vec![
            "sim",
            "alloc",
            "--no-rtl",
            "--example",
            "document",
            "--waves",
            "4",
            "--seed",
            "1",
        ],
        vec![
            "sim",
            "cluster",
            "--no-rtl",
            "--example",
            "fig11",
            "--seed",
            "1",
        ],
        vec!["sim", "route", "--no-rtl", "--cycles", "200", "--seed", "1"],
        vec!["sim", "lvt", "--no-rtl", "--cycles", "200", "--seed", "1"],
        vec![
            "route",
            "eval",
            "--op",
            "shff.left",
            "--amount",
            "3",
            "--rs",
            &rs,
        ],
        vec!["route", "window", "--seed", "1"],
        vec!["partition", "--example", "fig11"],
    ];
    let mut checked = 0;
    for case in cases {
        let given: Vec<String> = case.iter().map(|s| s.to_string()).collect();
        let help = Command::new(BIN)
            .args(
                &given[..given
                    .iter()
                    .position(|a| a.starts_with("--"))
                    .unwrap_or(given.len())],
            )
            .arg("--help")
            .output()
            .unwrap();
        let help = String::from_utf8_lossy(&help.stdout).into_owned();
        let omitted: Vec<(String, String)> = defaults(&help)
            .into_iter()
            .filter(|(flag, _)| !given.contains(flag) && flag != "--json")
            .collect();
        assert!(
            !omitted.is_empty(),
            "no defaults in the help of {given:?}:\n{help}"
        );
        let bare = run(&given);
        let mut explicit = given.clone();
        for (flag, value) in &omitted {
            explicit.push(flag.clone());
            explicit.push(value.clone());
        }
        assert_eq!(
            bare,
            run(&explicit),
            "{}: the help's defaults {omitted:?} are not what leaving them out does",
            given.join(" ")
        );
        checked += omitted.len();
    }
    assert!(checked > 50, "only {checked} defaults checked");
}
