//! Output files as users point them: a FIFO or `/dev/stdout` is written in place and never
//! replaced, a regular file is created with the umask's mode, and a tool that dies is reported
//! in one line with how it died and where its log is.

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn grfgen() -> Command {
    Command::new(env!("CARGO_BIN_EXE_grfgen"))
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A FIFO at `path`, and a thread that reads it to the end.
fn fifo(path: &Path) -> std::thread::JoinHandle<Vec<u8>> {
    let c = CString::new(path.as_os_str().as_bytes()).unwrap();
    // SAFETY: `c` is a valid path string.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    let path = path.to_path_buf();
    std::thread::spawn(move || std::fs::read(path).unwrap())
}

/// A small golden-model sweep in `dir/sweep`, to plot.
fn sweep(dir: &Path) -> PathBuf {
    let out = dir.join("sweep");
    let ran = grfgen()
        .args([
            "sweep", "gpr", "--banks", "1,2", "--cycles", "200", "--no-rtl", "--seed", "1",
        ])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(ran.status.success(), "{}", stderr(&ran));
    out
}

/// The permission bits a new file gets under this process's umask.
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
fn a_plot_or_junit_into_a_fifo_goes_through_it_and_the_fifo_stays() {
    let work = tempfile::tempdir().unwrap();
    let dir = sweep(work.path());
    let pipe = work.path().join("plot.pipe");
    let reader = fifo(&pipe);
    let plotted = grfgen()
        .args(["sweep", "plot"])
        .arg(&dir)
        .args(["--x", "banks", "--y", "cycles", "-o"])
        .arg(&pipe)
        .output()
        .unwrap();
    assert!(plotted.status.success(), "{}", stderr(&plotted));
    let svg = String::from_utf8(reader.join().unwrap()).unwrap();
    assert!(svg.contains("<svg"), "{svg}");
    assert!(std::fs::metadata(&pipe).unwrap().file_type().is_fifo());

    let pipe = work.path().join("junit.pipe");
    let reader = fifo(&pipe);
    let out = work.path().join("regress");
    let ran = grfgen()
        .args([
            "regress", "--blocks", "alloc", "--seeds", "1", "--cycles", "100",
        ])
        .arg("--out")
        .arg(&out)
        .arg("--junit")
        .arg(&pipe)
        .output()
        .unwrap();
    assert!(ran.status.success(), "{}", stderr(&ran));
    let xml = String::from_utf8(reader.join().unwrap()).unwrap();
    assert!(xml.contains("<testsuites"), "{xml}");
    assert!(std::fs::metadata(&pipe).unwrap().file_type().is_fifo());
}

#[test]
fn a_plot_to_dev_stdout_reaches_standard_output_and_a_file_gets_the_umask_mode() {
    let work = tempfile::tempdir().unwrap();
    let dir = sweep(work.path());
    let plotted = grfgen()
        .args(["sweep", "plot"])
        .arg(&dir)
        .args(["--x", "banks", "--y", "cycles", "-o", "/dev/stdout"])
        .stdout(Stdio::piped())
        .output()
        .unwrap();
    assert!(plotted.status.success(), "{}", stderr(&plotted));
    assert!(String::from_utf8_lossy(&plotted.stdout).contains("<svg"));

    let file = work.path().join("p.svg");
    let plotted = grfgen()
        .args(["sweep", "plot"])
        .arg(&dir)
        .args(["--x", "banks", "--y", "cycles", "-o"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(plotted.status.success(), "{}", stderr(&plotted));
    let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, new_file_mode(), "{mode:o}");
    let names: Vec<_> = std::fs::read_dir(work.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 2, "a temporary file was left: {names:?}");
}

#[test]
fn a_waveform_into_a_fifo_goes_through_it() {
    let work = tempfile::tempdir().unwrap();
    let pipe = work.path().join("wave.pipe");
    let reader = fifo(&pipe);
    let ran = grfgen()
        .args([
            "sim",
            "gpr",
            "--banks",
            "2",
            "--registers",
            "16",
            "--lanes",
            "1",
        ])
        .args(["--cycles", "20", "--seed", "1", "--vcd"])
        .arg(&pipe)
        .env("GRFGEN_CACHE", work.path().join("cache"))
        .output()
        .unwrap();
    assert!(ran.status.success(), "{}", stderr(&ran));
    let vcd = String::from_utf8_lossy(&reader.join().unwrap()).into_owned();
    assert!(vcd.contains("$enddefinitions"), "{vcd}");
    assert!(std::fs::metadata(&pipe).unwrap().file_type().is_fifo());
}

#[test]
fn a_tool_killed_by_a_signal_is_one_line_with_the_signal_and_its_log() {
    let work = tempfile::tempdir().unwrap();
    let bin = work.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let yosys = bin.join("yosys");
    std::fs::write(&yosys, "#!/bin/sh\necho 'working...'\nkill -9 $$\n").unwrap();
    std::fs::set_permissions(&yosys, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let ran = grfgen()
        .args(["compare", "route", "--crossbar", "2", "--element-bits", "8"])
        .env("PATH", &path)
        .output()
        .unwrap();
    let err = stderr(&ran);
    assert_eq!(ran.status.code(), Some(1), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("killed by signal 9 (SIGKILL"), "{err}");
    assert!(err.contains("no error line in its output"), "{err}");
    let log = err
        .split("full log: ")
        .nth(1)
        .expect("the log's path")
        .trim();
    let text = std::fs::read_to_string(log).unwrap();
    assert!(text.contains("working..."), "{text}");
    let _ = std::fs::remove_file(log);
}
