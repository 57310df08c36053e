//! A user's own Verilog in place of the emitted design (`sim --verilog FILE`): a hand-edited
//! copy, a netlist Yosys wrote of it, or another implementation. Its top module's ports are
//! read from the text and checked against the block's before anything is built, so that a
//! missing or mis-sized port is one line, not a C++ error from the model's shim.

use grfgen_hdl::emit::{Port, PortDirection};

/// A Verilog file given to run in place of the emitted design.
#[derive(Clone, Debug)]
pub struct Foreign {
    /// The file as the user named it, for messages.
    pub file: String,
    /// Its text.
    pub text: String,
    /// The module to run (`--top`); `None` takes the emitted design's top name.
    pub top: Option<String>,
    /// An input the module has beyond the block's ports, held at one value through the run;
    /// `None` for a module with the block's ports only.
    pub select: Option<Select>,
}

/// An input held at one value through a run: the control input of a netlist holding many
/// mutants (Yosys's `mutate -ctrl`), whose value picks the mutant that is switched on.
#[derive(Clone, Debug)]
pub struct Select {
    /// The input's name.
    pub name: String,
    /// Its width in bits, 1 to 64.
    pub width: usize,
    /// The value it holds.
    pub value: u64,
}

/// A port as the text declares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declared {
    /// Its name.
    pub name: String,
    /// `input`, `output` or `inout`.
    pub direction: String,
    /// Its width in bits; `None` when its range is not two plain numbers.
    pub width: Option<usize>,
}

impl Foreign {
    /// Checks that module `top` of the file has every port in `ports` with its direction and
    /// width; the first that does not, in one line.
    pub fn check(&self, top: &str, ports: &[Port], block: &str) -> Result<(), String> {
        let declared = module_ports(&self.text, top).ok_or_else(|| {
            format!(
                "invalid value {} for --verilog: it has no module {top} (name the module with --top)",
                self.file
            )
        })?;
        for port in ports {
            let direction = match port.direction {
                PortDirection::Input => "input",
                PortDirection::Output => "output",
            };
            let wanted = format!("{direction} {}, {} bits", port.name, port.width);
            let Some(found) = declared.iter().find(|d| d.name == port.name) else {
                return Err(format!(
                    "invalid value {} for --verilog: module {top} has no port {} (the {block}'s {wanted})",
                    self.file, port.name
                ));
            };
            if found.direction != direction || found.width.is_some_and(|w| w != port.width) {
                let width = found.width.map_or("?".to_string(), |w| w.to_string());
                return Err(format!(
                    "invalid value {} for --verilog: module {top} has {} {}, {width} bits, where the {block} has {wanted}",
                    self.file, found.direction, found.name
                ));
            }
        }
        Ok(())
    }

    /// The text to verilate: the file, then each simulation model of `models` whose module it
    /// does not define itself (an emitted design's `DP16KD` model, say).
    pub fn text_with(&self, models: &[(&str, &str)]) -> String {
        let defined = module_names(&self.text);
        let mut text = self.text.clone();
        for (_, model) in models {
            let missing = module_names(model).iter().any(|m| !defined.contains(m));
            if missing {
                text.push('\n');
                text.push_str(model);
            }
        }
        text
    }
}

/// The names of the modules `text` defines.
fn module_names(text: &str) -> Vec<String> {
    let tokens = tokens(&strip_comments(text));
    tokens
        .windows(2)
        .filter(|w| w[0] == "module")
        .map(|w| w[1].clone())
        .collect()
}

/// The ports of module `top` in `text`, from an ANSI header (`module m (input [3:0] a, ...)`)
/// or from declarations in the body (`module m (a, ...); input [3:0] a;`); `None` when the text
/// has no such module.
pub fn module_ports(text: &str, top: &str) -> Option<Vec<Declared>> {
    let tokens = tokens(&strip_comments(text));
    let start = tokens
        .windows(2)
        .position(|w| w[0] == "module" && w[1] == top)?;
    let end = tokens[start..]
        .iter()
        .position(|t| t == "endmodule")
        .map_or(tokens.len(), |n| start + n);
    let body = &tokens[start + 2..end];
    let mut declared = Vec::new();
    let mut at = 0;
    while at < body.len() {
        if is_direction(&body[at]) {
            at = declaration(body, at, &mut declared);
        } else {
            at += 1;
        }
    }
    Some(declared)
}

/// Whether `token` starts a port declaration.
fn is_direction(token: &str) -> bool {
    matches!(token, "input" | "output" | "inout")
}

/// Reads the declaration starting at `tokens[at]` (a direction) into `declared`: its kind
/// words, its range and its names, up to the next direction, `;` or `)`; where it stopped.
fn declaration(tokens: &[String], mut at: usize, declared: &mut Vec<Declared>) -> usize {
    let direction = tokens[at].clone();
    at += 1;
    let mut width = Some(1);
    while let Some(token) = tokens.get(at) {
        match token.as_str() {
            "wire" | "reg" | "logic" | "signed" | "unsigned" | "var" => at += 1,
            "[" => {
                let close = (at..tokens.len()).find(|&k| tokens[k] == "]");
                let close = close.unwrap_or(tokens.len() - 1);
                width = range_width(&tokens[at + 1..close]);
                at = close + 1;
            }
            _ => break,
        }
    }
    let mut expecting_name = true;
    while let Some(token) = tokens.get(at) {
        match token.as_str() {
            ";" | ")" => return at + 1,
            t if is_direction(t) => return at,
            "," => expecting_name = true,
            name if expecting_name && is_identifier(name) => {
                declared.push(Declared {
                    name: name.trim_start_matches('\\').to_string(),
                    direction: direction.clone(),
                    width,
                });
                expecting_name = false;
            }
            // An initial value, an unpacked range: skipped to the next name.
            _ => {}
        }
        at += 1;
    }
    at
}

/// The width of a range `msb : lsb` of two plain numbers.
fn range_width(range: &[String]) -> Option<usize> {
    match range {
        [msb, colon, lsb] if colon == ":" => {
            let (msb, lsb) = (msb.parse::<i64>().ok()?, lsb.parse::<i64>().ok()?);
            usize::try_from((msb - lsb).abs() + 1).ok()
        }
        _ => None,
    }
}

/// Whether `token` is a Verilog identifier (plain or escaped).
fn is_identifier(token: &str) -> bool {
    token.starts_with('\\')
        || token
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
}

/// `text` with its `//` and `/* */` comments and its strings blanked, lines kept.
fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, chars.peek()) {
            ('/', Some('/')) => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            ('/', Some('*')) => {
                chars.next();
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
                out.push(' ');
            }
            ('"', _) => {
                for c in chars.by_ref() {
                    if c == '"' {
                        break;
                    }
                }
                out.push(' ');
            }
            _ => out.push(c),
        }
    }
    out
}

/// The tokens of comment-free Verilog: identifiers (escaped ones up to their space), numbers
/// and single punctuation characters.
fn tokens(text: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c == '\\' {
            let mut word = String::new();
            while let Some(&c) = chars.peek().filter(|c| !c.is_whitespace()) {
                word.push(c);
                chars.next();
            }
            tokens.push(word);
        } else if c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == '\'' {
            let mut word = String::new();
            while let Some(&c) = chars
                .peek()
                .filter(|&&c| c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == '\'')
            {
                word.push(c);
                chars.next();
            }
            tokens.push(word);
        } else {
            tokens.push(c.to_string());
            chars.next();
        }
    }
    tokens
}

#[cfg(test)]
mod tests {
    use super::*;

    fn port(name: &str, direction: &str, width: Option<usize>) -> Declared {
        Declared {
            name: name.into(),
            direction: direction.into(),
            width,
        }
    }

    #[test]
    fn ansi_headers_and_body_declarations_give_the_same_ports() {
        let ansi = "// a comment: module top (input x);\nmodule top #(parameter N = 4) (\n  input wire clock,\n  input [7:0] a, b, /* both */\n  output reg [0:3] q\n);\nendmodule\n";
        let body = "module other(input z); endmodule\nmodule top(clock, a, b, q);\n  input clock;\n  input wire [7:0] a, b;\n  output [0:3] q;\n  reg [0:3] q;\nendmodule\n";
        let expected = vec![
            port("clock", "input", Some(1)),
            port("a", "input", Some(8)),
            port("b", "input", Some(8)),
            port("q", "output", Some(4)),
        ];
        assert_eq!(module_ports(ansi, "top"), Some(expected.clone()));
        assert_eq!(module_ports(body, "top"), Some(expected));
        assert_eq!(module_ports(body, "missing"), None);
        assert_eq!(
            module_ports("module m(input [N-1:0] a); endmodule", "m"),
            Some(vec![port("a", "input", None)])
        );
    }

    #[test]
    fn a_model_the_file_defines_is_not_added_again() {
        let foreign = Foreign {
            file: "x.v".into(),
            text: "module top(); endmodule\nmodule DP16KD(); endmodule\n".into(),
            top: None,
            select: None,
        };
        let models = [("dp16kd_model.v", "module DP16KD(); endmodule\n")];
        assert_eq!(foreign.text_with(&models), foreign.text);
        let bare = Foreign {
            text: "module top(); endmodule\n".into(),
            ..foreign
        };
        assert!(bare.text_with(&models).contains("module DP16KD"));
    }
}
