//! A model built from an empty cache and the same model taken from the cache behave alike:
//! the same report and the same waveform, value for value, for one seed.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// Runs a small GPR with a waveform; its JSON report and what it said on standard error.
fn run(cache: &Path, waveform: &Path) -> (Value, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_grfgen"))
        .args([
            "sim",
            "gpr",
            "--banks",
            "2",
            "--registers",
            "32",
            "--lanes",
            "2",
        ])
        .args(["--cycles", "3000", "--seed", "11", "--json", "--vcd"])
        .arg(waveform)
        .env("GRFGEN_CACHE", cache)
        .output()
        .expect("grfgen runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = serde_json::from_slice(&out.stdout).expect("the report is JSON");
    (report, String::from_utf8_lossy(&out.stderr).into_owned())
}

/// The cache's entries.
fn entries(cache: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(cache)
        .expect("the cache exists")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A VCD's value changes: everything after its definitions (the header holds a date).
fn changes(path: &Path) -> String {
    let text = std::fs::read_to_string(path).expect("the waveform is written");
    let at = text.find("$enddefinitions").expect("a VCD header");
    text[at..].to_string()
}

#[test]
fn the_cached_model_gives_the_first_builds_outputs() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let (first, cached) = (dir.path().join("first.vcd"), dir.path().join("cached.vcd"));
    let (mut built, said) = run(&cache, &first);
    assert!(said.contains("build the Verilator model"), "{said}");
    let after_build = entries(&cache);
    let (mut reused, said) = run(&cache, &cached);
    assert!(
        !said.contains("build the Verilator model"),
        "the second run builds nothing: {said}"
    );
    assert_eq!(entries(&cache), after_build);
    assert_eq!(built["mismatches"], 0);
    for report in [&mut built, &mut reused] {
        let report = report.as_object_mut().unwrap();
        report.remove("seconds");
        report.remove("model_seconds");
    }
    assert_eq!(built, reused);
    let (a, b) = (changes(&first), changes(&cached));
    assert!(a.lines().count() > 3000, "{} lines", a.lines().count());
    assert!(a == b, "the two waveforms differ");
}
