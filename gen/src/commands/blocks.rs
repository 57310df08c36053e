//! `grfgen blocks`: the catalogue.

use clap::{ArgMatches, Command};
use grfgen_hdl::catalogue;

use super::{json_arg, render};

/// The `blocks` command.
pub fn command() -> Command {
    Command::new("blocks")
        .about("List every block with its parameters, their ranges and defaults")
        .arg(json_arg())
}

/// The catalogue as a table, or as JSON.
pub fn blocks(m: &ArgMatches) -> String {
    let blocks = catalogue();
    render(m, &blocks, || {
        let mut text = String::new();
        for block in &blocks {
            let kind = if block.top_level {
                "top level"
            } else {
                "component"
            };
            text += &format!(
                "{} ({kind}, SPEC {}): {}\n",
                block.name, block.spec, block.title
            );
            let width = block.params.iter().map(|p| p.flag.len()).max().unwrap_or(0);
            for p in &block.params {
                text += &format!(
                    "  {:width$}  default {:>4}  allowed {}  ({})\n",
                    p.flag, p.default, p.allowed, p.meaning
                );
            }
            text.push('\n');
        }
        text.trim_end().to_string()
    })
}
