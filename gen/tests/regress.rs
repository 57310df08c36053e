//! `grfgen regress`: a deliberately broken golden model (the test-only fault
//! `alloc-off-by-one`) is caught, the failure prints its replay command, the replay fails the
//! same way, and JUnit XML records it.

use std::process::Command;

fn grfgen(args: &[&str], fault: bool) -> std::process::Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_grfgen"));
    command.args(args);
    match fault {
        true => command.env("GRFGEN_FAULT", "alloc-off-by-one"),
        false => command.env_remove("GRFGEN_FAULT"),
    };
    command.output().expect("grfgen runs")
}

#[test]
fn regress_catches_a_broken_model_and_its_replay_fails_the_same_way() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("regress");
    let junit = dir.path().join("junit.xml");
    let args = [
        "regress",
        "--blocks",
        "alloc",
        "--seeds",
        "1",
        "--cycles",
        "20000",
        "--seed",
        "3",
        "--out",
        out.to_str().unwrap(),
        "--junit",
        junit.to_str().unwrap(),
    ];
    let clean = grfgen(&args, false);
    assert_eq!(
        clean.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&clean.stderr)
    );
    let text = String::from_utf8_lossy(&clean.stdout);
    assert!(
        text.contains("PASS alloc") && !text.contains("FAIL"),
        "{text}"
    );
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.starts_with("<?xml") && xml.contains("<testsuite name=\"alloc\""));
    assert!(
        xml.contains("failures=\"0\""),
        "the clean run's JUnit: {xml}"
    );

    let broken_out = dir.path().join("broken");
    let mut broken_args = args.to_vec();
    broken_args[10] = broken_out.to_str().unwrap();
    let broken = grfgen(&broken_args, true);
    assert_eq!(broken.status.code(), Some(1));
    let text = String::from_utf8_lossy(&broken.stdout).to_string();
    let fail = text
        .lines()
        .position(|l| l.starts_with("FAIL alloc"))
        .expect("a FAIL line");
    let error = text
        .lines()
        .nth(fail)
        .unwrap()
        .split(": ")
        .skip(1)
        .collect::<Vec<_>>()
        .join(": ");
    let replay = text
        .lines()
        .nth(fail + 1)
        .unwrap()
        .trim()
        .strip_prefix("replay: ")
        .unwrap();
    assert!(replay.starts_with("grfgen sim alloc "), "{replay}");
    // The replay, with the same fault, fails with the same mismatch.
    let words: Vec<&str> = replay.split_whitespace().skip(1).collect();
    let again = grfgen(&words, true);
    assert_eq!(again.status.code(), Some(1));
    let message = String::from_utf8_lossy(&again.stderr);
    let mismatch = error.split(" (seed").next().unwrap();
    assert!(message.contains(mismatch), "{message} lacks {mismatch}");
    // Without the fault, the replay passes.
    assert_eq!(grfgen(&words, false).status.code(), Some(0));
    let broken_xml = std::fs::read_to_string(&junit).unwrap();
    assert!(broken_xml.contains("<failure message="), "{broken_xml}");
}
