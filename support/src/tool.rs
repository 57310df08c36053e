//! External tools' failures, reported in one line: the tool, how it ended (exit status or
//! signal), its first error line or a note that there was none, and where its whole log is.

use std::path::Path;
use std::process::Output;

/// The combined standard output and error of a tool.
pub fn log_of(out: &Output) -> String {
    let mut log = String::from_utf8_lossy(&out.stdout).into_owned();
    log.push_str(&String::from_utf8_lossy(&out.stderr));
    log
}

/// The first line of `log` that reports an error, if any.
pub fn first_error(log: &str) -> Option<&str> {
    log.lines()
        .map(str::trim)
        .find(|l| l.contains("ERROR") || l.contains("Error") || l.contains("error:"))
}

/// A tool that failed, in one line: the tool, how it ended (its exit status, or the signal that
/// killed it), its first error line or a note that there was none, and where its whole log is.
/// The log is written to `log_path`, or when that is `None` to a file of its own in the
/// system's temporary directory (the work directory of the run is about to be removed).
pub fn failure(tool: &str, out: &Output, log_path: Option<&Path>) -> String {
    let log = log_of(out);
    let kept = match log_path {
        Some(path) => std::fs::write(path, &log).map(|_| path.to_path_buf()),
        None => tempfile::Builder::new()
            .prefix(&format!(
                "grfgen-{}-",
                tool.split_whitespace().next().unwrap_or("tool")
            ))
            .suffix(".log")
            .tempfile()
            .and_then(|f| f.keep().map_err(|e| e.error))
            .and_then(|(mut file, path)| {
                use std::io::Write;
                file.write_all(log.as_bytes()).map(|_| path)
            }),
    };
    let error = match first_error(&log) {
        Some(line) => line.to_string(),
        None if log.trim().is_empty() => "it printed nothing".to_string(),
        None => "no error line in its output".to_string(),
    };
    let log = match kept {
        Ok(path) => format!("full log: {}", path.display()),
        Err(e) => format!("its log could not be kept: {e}"),
    };
    format!("{tool} failed ({}): {error}; {log}", ended(out.status))
}

/// How a process ended: `exit status 1`, or `killed by signal 9 (SIGKILL)`.
pub fn ended(status: std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exit status {code}"),
        (None, Some(signal)) => format!("killed by signal {signal} ({})", signal_name(signal)),
        (None, None) => status.to_string(),
    }
}

/// The name of a common signal number.
fn signal_name(signal: i32) -> &'static str {
    match signal {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGILL => "SIGILL",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL, often the out-of-memory killer",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGTERM => "SIGTERM",
        _ => "a signal",
    }
}
