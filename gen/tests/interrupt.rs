//! Ctrl-C in the middle of a run, as a user sends it: the run ends with status 130 and one line
//! saying how far it got and how to replay it, leaves no partial waveform, no staging
//! directory in the Verilator cache and no compiler running, and the cache works afterwards.
//! Needs `verilator`.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, ChildStderr, Command, Stdio};
use std::time::{Duration, Instant};

/// Starts `grfgen args --quiet` (no progress lines beside the interruption's) with the
/// Verilator cache in `cache/grfgen`, standard error piped.
fn start(args: &[&str], cache: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_grfgen"))
        .args(args)
        .arg("--quiet")
        .env("GRFGEN_CACHE", cache.join("grfgen"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("grfgen starts")
}

/// Sends SIGINT to `child`, as Ctrl-C does to the foreground process.
fn interrupt(child: &Child) {
    // SAFETY: signals a process this test started and has not yet reaped.
    let sent = unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    assert_eq!(sent, 0);
}

/// Waits for `child` to end (at most a minute); its status and its standard error, the
/// part already read by `reader` first.
fn finish(mut child: Child, reader: Option<BufReader<ChildStderr>>) -> (Option<i32>, String) {
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "still running");
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut text = String::new();
    match reader {
        Some(mut reader) => reader.read_to_string(&mut text).unwrap(),
        None => child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut text)
            .unwrap(),
    };
    (status.code(), text)
}

/// Waits for the first line `child` prints on standard error (the seed, once the first cycle
/// runs); the line and the reader positioned after it.
fn first_line(child: &mut Child) -> (String, BufReader<ChildStderr>) {
    let mut reader = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    (line, reader)
}

/// Processes whose command line or working directory mentions `path`.
fn processes_using(path: &Path) -> Vec<String> {
    let needle = path.to_string_lossy().into_owned();
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let dir = entry.path();
        let cmdline = std::fs::read(dir.join("cmdline")).unwrap_or_default();
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        let cwd = std::fs::read_link(dir.join("cwd")).unwrap_or_default();
        if cmdline.contains(&needle) || cwd.to_string_lossy().contains(&needle) {
            found.push(cmdline);
        }
    }
    found
}

/// Waits (at most a minute) until a process whose command line names `program` works in or on
/// `path`; fails if `child` ends first. `what` names it in the failure.
fn wait_for_process(child: &mut Child, path: &Path, program: &str, what: &str) {
    let started = Instant::now();
    while !processes_using(path).iter().any(|p| p.contains(program)) {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "{what} never started"
        );
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before {what} started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn ctrl_c_mid_run_prints_how_far_and_the_seed_and_removes_the_waveform() {
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    let out = tmp.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let wave = out.join("run.vcd");
    let args = [
        "sim",
        "gpr",
        "--banks",
        "2",
        "--registers",
        "16",
        "--lanes",
        "1",
        "--cycles",
        "1000000000",
        "--vcd-max-mb",
        "100000",
        "--vcd",
        wave.to_str().unwrap(),
    ];
    let mut child = start(&args, &cache);
    let (seed, reader) = first_line(&mut child);
    assert!(seed.contains("replay with --seed"), "{seed}");
    std::thread::sleep(Duration::from_millis(500));
    interrupt(&child);
    let (status, rest) = finish(child, Some(reader));
    let err = seed + &rest;
    assert_eq!(status, Some(130), "{err}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[1].starts_with("interrupted: sim gpr stopped after ")
            && lines[1].contains("cycles")
            && lines[1].contains("replay with --seed"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_dir(&out).unwrap().count(),
        0,
        "a waveform was left"
    );
}

#[test]
fn ctrl_c_during_the_first_build_leaves_a_working_cache_and_no_compiler() {
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    let args = [
        "sim",
        "core",
        "--banks",
        "2",
        "--lanes",
        "1",
        "--workload",
        "random",
        "--instructions",
        "50",
        "--seed",
        "3",
    ];
    let mut child = start(&args, &cache);
    // Wait for the build (Verilator, then the compiler, in a staging directory of the cache)
    // to start, however long the emission before it takes on a busy machine; then interrupt.
    wait_for_process(&mut child, &cache, "verilator", "the build");
    std::thread::sleep(Duration::from_millis(500));
    interrupt(&child);
    let (status, err) = finish(child, None);
    assert_eq!(status, Some(130), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("interrupted: sim core stopped before its first cycle"),
        "{err}"
    );
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(processes_using(&cache), Vec::<String>::new());
    let root = cache.join("grfgen");
    let staged: Vec<String> = std::fs::read_dir(&root)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains('.'))
        .collect();
    assert_eq!(staged, Vec::<String>::new(), "staging left in the cache");

    // A build killed outright (SIGKILL) leaves its staging behind; the next build removes it.
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap();
    let abandoned = root.join(format!("staging-0123abcd-999999999.{}", host.trim()));
    std::fs::create_dir_all(abandoned.join("obj")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_grfgen"))
        .args(args)
        .env("GRFGEN_CACHE", cache.join("grfgen"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!abandoned.exists());
}

#[test]
fn ctrl_c_during_synthesis_leaves_no_temporary_file() {
    let tmp = tempfile::tempdir().unwrap();
    let (out, scratch) = (tmp.path().join("out"), tmp.path().join("tmp"));
    std::fs::create_dir(&scratch).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_grfgen"))
        .args([
            "flow", "gpr", "--quiet", "--cycles", "10", "--seed", "1", "--out",
        ])
        .arg(&out)
        .env("TMPDIR", &scratch)
        .env("GRFGEN_CACHE", tmp.path().join("cache"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for Yosys to start (after emission and lint), then interrupt it.
    wait_for_process(&mut child, &out, "yosys", "yosys");
    interrupt(&child);
    let (status, err) = finish(child, None);
    assert_eq!(status, Some(130), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let hidden: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert_eq!(
        hidden,
        Vec::<String>::new(),
        "temporary files left in --out"
    );
    assert_eq!(
        std::fs::read_dir(&scratch).unwrap().count(),
        0,
        "temporaries left"
    );
}

#[test]
fn a_waveform_past_its_limit_keeps_its_first_part_and_says_where_it_stopped() {
    let tmp = tempfile::tempdir().unwrap();
    let wave = tmp.path().join("run.vcd");
    let out = Command::new(env!("CARGO_BIN_EXE_grfgen"))
        .args(["sim", "gpr", "--quiet", "--cycles", "300000", "--seed", "4"])
        .args(["--vcd-max-mb", "1", "--vcd", wave.to_str().unwrap()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("--vcd-max-mb 1"), "{err}");
    let cycle: u64 = err
        .split("stops at cycle ")
        .nth(1)
        .and_then(|rest| rest.split(':').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no cycle named: {err}"));
    assert!(cycle > 0 && cycle < 300_000, "{err}");
    // The first part is kept, whole: a VCD whose last sample is at the cycle named.
    let text = std::fs::read_to_string(&wave).unwrap();
    assert!(text.len() as u64 > 1 << 20, "{} bytes kept", text.len());
    assert!(text.contains("$enddefinitions"), "the header is there");
    let last: u64 = (text.lines().rev())
        .find_map(|l| l.strip_prefix('#')?.parse().ok())
        .unwrap();
    // Two samples a cycle, half a period (2500 ps at 200 MHz) apart.
    assert!(
        last / 5000 <= cycle && cycle <= last / 5000 + 1,
        "last sample {last} ps, cycle {cycle}"
    );
    let names: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().collect();
    assert_eq!(names.len(), 1, "only the waveform is there");
}

#[test]
fn ctrl_c_during_a_sweeps_synthesis_leaves_no_staging_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let (out, scratch) = (tmp.path().join("out"), tmp.path().join("tmp"));
    std::fs::create_dir(&scratch).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_grfgen"))
        .args([
            "sweep", "gpr", "--banks", "2,4", "--cycles", "10", "--seed", "1",
        ])
        .args(["--no-rtl", "--synth", "--jobs", "1", "--quiet", "--out"])
        .arg(&out)
        .env("TMPDIR", &scratch)
        .env("GRFGEN_CACHE", tmp.path().join("cache"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for Yosys to run on a point's emitted design, then interrupt.
    wait_for_process(&mut child, &scratch, "yosys", "yosys");
    interrupt(&child);
    let (status, err) = finish(child, None);
    assert_eq!(status, Some(130), "{err}");
    let left: Vec<_> = std::fs::read_dir(&scratch).unwrap().collect();
    assert!(left.is_empty(), "staging left in TMPDIR: {left:?}");
}
