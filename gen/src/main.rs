//! `grfgen`: see `grfgen --help`.

use std::io::{ErrorKind as IoErrorKind, Write};

use clap::error::ErrorKind;

fn main() {
    grfgen_support::interrupt::install();
    let matches = match grfgen::cli::command().try_get_matches() {
        Ok(matches) => matches,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            e.exit()
        }
        Err(e) => {
            let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
            eprintln!("{}", grfgen::cli::refusal(&e, &args));
            std::process::exit(2);
        }
    };
    grfgen_engines::progress::install(matches.get_flag("quiet"));
    match grfgen::execute(&matches) {
        Ok(text) => print_result(&text),
        Err(e) => {
            if let grfgen_engines::error::CliError::Found { report, .. } = &e {
                // The failure's own status follows, whether or not the report could be written.
                let _ = print_out(report);
            }
            eprintln!("error: {e}");
            std::process::exit(e.exit_code());
        }
    }
}

/// Writes `text` and a newline to standard output.
fn print_out(text: &str) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{text}")?;
    out.flush()
}

/// Prints a successful command's output. A reader that went away (`| head`) ends the program
/// quietly with status 0; any other write error (a full device) is reported on one line with
/// status 1. Never a panic.
fn print_result(text: &str) {
    match print_out(text) {
        Ok(()) => {}
        Err(e) if e.kind() == IoErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => {
            eprintln!("error: cannot write the output: {e}");
            std::process::exit(1);
        }
    }
}
