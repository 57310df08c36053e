//! `grfgen`: see `grfgen --help`.

use clap::error::ErrorKind;

fn main() {
    let matches = match grfgen::cli::command().try_get_matches() {
        Ok(matches) => matches,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            e.exit()
        }
        Err(e) if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print();
            std::process::exit(2);
        }
        Err(e) => {
            // One line: clap's first line names the flag and the value.
            let rendered = e.render().to_string();
            let first = rendered.lines().next().unwrap_or("invalid arguments");
            eprintln!("{first} (see grfgen --help)");
            std::process::exit(2);
        }
    };
    match grfgen::execute(&matches) {
        Ok(text) => println!("{text}"),
        Err(e) => {
            if let grfgen::error::CliError::Found { report, .. } = &e {
                println!("{report}");
            }
            eprintln!("error: {e}");
            std::process::exit(e.exit_code());
        }
    }
}
