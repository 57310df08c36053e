//! A Verilog tokenizer, enough to rename identifiers in the text rust-hdl generates without
//! touching anything else: identifiers, numbers (sized and based), comments, white space and
//! single characters. The tokens of a text concatenate back to it exactly.

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// `[A-Za-z_][A-Za-z0-9_$]*`.
    Identifier,
    /// A system name, `$` followed by letters (`$signed`).
    System,
    /// A number: decimal digits, optionally a size, `'`, a base and its digits (`8'h3f`).
    Number,
    /// `// ...` to the end of the line, or `/* ... */`.
    Comment,
    /// A string literal.
    Text,
    /// A run of white space.
    Space,
    /// Any other single character: operators, brackets, punctuation.
    Symbol,
}

/// One token: its kind and its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    /// What it is.
    pub kind: TokenKind,
    /// Its text, exactly as in the source.
    pub text: &'a str,
}

/// The length of the run at the start of `rest` whose characters satisfy `keep`.
fn run(rest: &str, keep: impl Fn(char) -> bool) -> usize {
    rest.find(|c: char| !keep(c)).unwrap_or(rest.len())
}

/// The length of a based literal's tail at the start of `rest` (`'h3f`, `'sb01`), or 0.
fn based_tail(rest: &str) -> usize {
    let Some(after) = rest.strip_prefix('\'') else {
        return 0;
    };
    let signed = usize::from(after.starts_with(['s', 'S']));
    let after = &after[signed..];
    if !after.starts_with(['b', 'B', 'o', 'O', 'd', 'D', 'h', 'H']) {
        return 0;
    }
    let digits = run(&after[1..], |c| {
        c.is_ascii_hexdigit() || "_xXzZ?".contains(c)
    });
    if digits == 0 {
        return 0;
    }
    1 + signed + 1 + digits
}

/// The kind and length of the token at the start of `rest` (not empty).
fn next_token(rest: &str) -> (TokenKind, usize) {
    let first = rest.chars().next().expect("not empty");
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    if first.is_ascii_alphabetic() || first == '_' {
        return (TokenKind::Identifier, run(rest, ident));
    }
    if first == '$' {
        return (TokenKind::System, 1 + run(&rest[1..], ident));
    }
    if first.is_ascii_digit() {
        let size = run(rest, |c| c.is_ascii_digit() || c == '_');
        return (TokenKind::Number, size + based_tail(&rest[size..]));
    }
    if first == '\'' && based_tail(rest) > 0 {
        return (TokenKind::Number, based_tail(rest));
    }
    if first.is_whitespace() {
        return (TokenKind::Space, run(rest, char::is_whitespace));
    }
    if let Some(body) = rest.strip_prefix("//") {
        return (
            TokenKind::Comment,
            2 + body.find('\n').unwrap_or(body.len()),
        );
    }
    if let Some(body) = rest.strip_prefix("/*") {
        return (
            TokenKind::Comment,
            2 + body.find("*/").map_or(body.len(), |e| e + 2),
        );
    }
    if first == '"' {
        let mut escaped = false;
        for (i, c) in rest.char_indices().skip(1) {
            match c {
                '"' if !escaped => return (TokenKind::Text, i + 1),
                '\\' => escaped = !escaped,
                _ => escaped = false,
            }
        }
        return (TokenKind::Text, rest.len());
    }
    (TokenKind::Symbol, first.len_utf8())
}

/// The tokens of `text`, in order.
pub fn tokens(text: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let (kind, len) = next_token(rest);
        out.push(Token {
            kind,
            text: &rest[..len],
        });
        rest = &rest[len..];
    }
    out
}

/// `text` with every identifier replaced by what `rename` gives for it (`None` keeps it).
/// Fails, naming the token, on what this renaming cannot vouch for: a system name other than
/// `$error` (the simulation-only assertions' one), a string holding a `$`, an escaped
/// identifier, or a `$` in a comment.
pub fn rename_identifiers(
    text: &str,
    rename: impl Fn(&str) -> Option<String>,
) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    for token in tokens(text) {
        match token.kind {
            TokenKind::Identifier => match rename(token.text) {
                Some(name) => out.push_str(&name),
                None => out.push_str(token.text),
            },
            TokenKind::System if token.text == "$error" => out.push_str(token.text),
            TokenKind::Text if token.text.starts_with('"') && !token.text.contains('$') => {
                out.push_str(token.text)
            }
            TokenKind::System | TokenKind::Text => {
                return Err(format!("unexpected {:?} token {}", token.kind, token.text))
            }
            TokenKind::Comment if token.text.contains('$') => {
                return Err(format!("a `$` in the comment {}", token.text))
            }
            TokenKind::Symbol if token.text == "\\" => {
                return Err("an escaped identifier".to_string())
            }
            _ => out.push_str(token.text),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(TokenKind, &str)> {
        tokens(text).into_iter().map(|t| (t.kind, t.text)).collect()
    }

    #[test]
    fn tokens_concatenate_back_to_the_text() {
        let text =
            "always @(*) begin\n  a$0 = 8'hff & b$1[(3)+:(2)]; // note\n  /* x */ c = 'b1;\nend\n";
        let joined: String = tokens(text).iter().map(|t| t.text).collect();
        assert_eq!(joined, text);
    }

    #[test]
    fn identifiers_numbers_and_symbols_are_told_apart() {
        use TokenKind::*;
        assert_eq!(
            kinds("q$3 <= 32'd0;"),
            [
                (Identifier, "q$3"),
                (Space, " "),
                (Symbol, "<"),
                (Symbol, "="),
                (Space, " "),
                (Number, "32'd0"),
                (Symbol, ";")
            ]
        );
        // The hex digits of a literal are not an identifier.
        assert_eq!(kinds("4'hab"), [(Number, "4'hab")]);
        assert_eq!(kinds("'sh1f"), [(Number, "'sh1f")]);
        assert_eq!(kinds("$signed(x)")[0], (System, "$signed"));
        assert_eq!(kinds("1'bx")[0], (Number, "1'bx"));
    }

    #[test]
    fn renaming_touches_identifiers_only() {
        let renamed =
            rename_identifiers("x$1 = y$2 + 8'hab; // fine", |s| Some(s.replace('$', "_")))
                .unwrap();
        assert_eq!(renamed, "x_1 = y_2 + 8'hab; // fine");
    }

    #[test]
    fn renaming_refuses_what_it_cannot_vouch_for() {
        let same = |_: &str| None;
        assert!(rename_identifiers("x = $signed(y);", same).is_err());
        assert!(rename_identifiers("$display(\"a\");", same).is_err());
        assert!(rename_identifiers("// top$a\n", same).is_err());
        assert!(rename_identifiers("\\esc = 1;", same).is_err());
    }
}
