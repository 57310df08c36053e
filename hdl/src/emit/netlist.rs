//! rust-hdl's instance tree written as Verilog modules with clean names, each distinct module
//! once.
//!
//! The rules (`docs/rust-hdl.md`, 7):
//! - **Names.** rust-hdl joins a vector index or a child's port to a name with `$`
//!   (`read_data$3`, `banks$0$read_data`); here every `$` becomes `__` (`read_data__3`,
//!   `banks__0__read_data`). Field names never hold `__` nor an `_` beside a `$` (checked), so
//!   no two names become one. A name that is a Verilog keyword stops the emission.
//! - **Modules.** Every instance is written out with its children's module names in it; two
//!   instances whose text is the same are one module. A module is named `<top>_<base>`: the
//!   base is a primitive's own name (a first line `// name: <base>` in its Verilog), or the
//!   instance's field names without vector indices, as few of the last ones as keep the base
//!   of each distinct module unique (`control`, then `front_control`), then a number.
//! - **Pass-through primitives** (a first line [`PASS_THROUGH`]: a pipeline stage switched
//!   off) are no module at all: their parent assigns each output `q$i` from input `d$i`.
//! - **Inline checkers** (a first line [`INLINE`]: simulation-only assertions, inputs only) are
//!   no module either: their text is written into the parent, each port renamed to the
//!   parent's signal for it (`check$bits$3` becomes `check__bits__3`) and each name of their
//!   own prefixed with the instance (`check__total`; `unused_x` becomes `unused_check__x`).

use std::collections::HashMap;

use rust_hdl::core::ast::Verilog;
use rust_hdl::core::verilog_gen::{verilog_combinatorial, verilog_link_extraction};

use super::keywords::is_keyword;
use super::lexer::{rename_identifiers, tokens, TokenKind};
use super::tree::{Instance, Item, Role, Tree};

/// Marks a module name in a module's text until names are given out.
const MARK: char = '\u{1}';

/// The first line of a primitive that only connects `q$i` to `d$i` and ignores its other
/// inputs: its parent writes it as assigns instead of an instance.
pub(crate) const PASS_THROUGH: &str = "// pass-through: q = d";

/// The first line of a primitive whose text is written into its parent instead of a module
/// of its own: a checker of simulation-only assertions (`crate::checkers`), which has inputs
/// only.
pub(crate) const INLINE: &str = "// simulation-only checks, written into the parent";

/// The prefix of the wires that read a pass-through's ignored inputs; no design name may start
/// with it, so they never clash.
const UNUSED: &str = "unused_";

/// Whether `code` is a pass-through primitive's.
fn is_pass_through(code: &Verilog) -> bool {
    matches!(code, Verilog::Custom(text) if text.lines().next() == Some(PASS_THROUGH))
}

/// Whether `code` is an inline checker's.
fn is_inline(code: &Verilog) -> bool {
    matches!(code, Verilog::Custom(text) if text.lines().next() == Some(INLINE))
}

/// Whether the instance of `code` is written into its parent rather than as a module.
fn is_written_in_parent(code: &Verilog) -> bool {
    is_pass_through(code) || is_inline(code)
}

/// The text of inline checker child `name` as its parent holds it: every identifier of the
/// checker renamed, its ports to the parent's signals for them and its own names (declared in
/// its text) prefixed with the instance; keywords, compiler directives and the macro a
/// `` `ifdef `` or `` `ifndef `` tests are kept.
fn inline_checks(module: &str, name: &str, child: &Instance) -> Result<String, String> {
    let Verilog::Custom(text) = &child.code else {
        return Err(format!("{module}: checker {name} has no text"));
    };
    let ports: Vec<&str> = child.items.iter().map(|i| i.name.as_str()).collect();
    let instance = clean(name);
    let mut out = String::with_capacity(text.len());
    // The last word that was not white space, and the one before it.
    let (mut last, mut before) = ("", "");
    for token in tokens(text) {
        let renamed = match token.kind {
            TokenKind::Identifier
                if last == "`" || (before == "`" && MACRO_TESTS.contains(&last)) =>
            {
                token.text.to_string()
            }
            TokenKind::Identifier if is_keyword(token.text) => token.text.to_string(),
            TokenKind::Identifier if ports.contains(&token.text) => {
                clean(&format!("{name}${}", token.text))
            }
            TokenKind::Identifier if token.text.contains('$') || token.text.contains("__") => {
                return Err(format!(
                    "{module}: checker {name} names {} of its own",
                    token.text
                ))
            }
            TokenKind::Identifier => match token.text.strip_prefix(UNUSED) {
                Some(rest) => format!("{UNUSED}{instance}__{rest}"),
                None => format!("{instance}__{}", token.text),
            },
            _ => token.text.to_string(),
        };
        if !matches!(token.kind, TokenKind::Space | TokenKind::Comment) {
            (before, last) = (last, token.text);
        }
        out.push_str(&renamed);
    }
    // The renaming rules of every module's text (`$error` and plain strings only) hold here too.
    let checked = rename_identifiers(&out, |_| None).map_err(|why| format!("{module}: {why}"))?;
    Ok(checked
        .lines()
        .map(|line| match line {
            "" => "\n".to_string(),
            INLINE => format!("    // {instance}: simulation-only checks\n"),
            _ => format!("    {line}\n"),
        })
        .collect())
}

/// The compiler directives whose next word is a macro name, not a signal.
const MACRO_TESTS: &[&str] = &["ifdef", "ifndef", "elsif", "define", "undef"];

/// The assigns that stand for pass-through child `name` in its parent: `q$i` from `d$i`, and
/// every other input read by a wire Verilator's lint leaves alone (`unused_*`).
fn pass_through(name: &str, child: &Instance) -> String {
    let mut text = String::new();
    for item in &child.items {
        let port = clean(&format!("{name}${}", item.name));
        match (&item.role, item.name.strip_prefix("q$")) {
            (Role::Output, Some(index)) => text.push_str(&format!(
                "    assign {port} = {};\n",
                clean(&format!("{name}$d${index}"))
            )),
            (Role::Input, _) if !item.name.starts_with("d$") => text.push_str(&format!(
                "    wire {}{UNUSED}{port} = {port};\n",
                range(item.width)
            )),
            _ => {}
        }
    }
    text
}

/// A module's name in rust-hdl's terms made clean: `$` becomes `__`.
pub fn clean(name: &str) -> String {
    name.replace('$', "__")
}

/// A distinct module: its text with placeholders for module names, and where it came from.
struct Shape {
    /// The text, `MARK<shape>MARK` standing for module names (its own is `MARK-MARK`).
    text: String,
    /// Field names of its first instance, below the top, without vector indices.
    fields: Vec<String>,
    /// A primitive's own base name.
    primitive: Option<String>,
}

/// The modules of a design, each distinct one once.
pub struct Netlist {
    shapes: Vec<Shape>,
    /// Per instance of the tree: its shape.
    shape_of: Vec<usize>,
    /// Shapes in the order they are written: first appearance, top down.
    order: Vec<usize>,
}

/// The declaration keyword of an item.
fn declaration(item: &Item) -> &'static str {
    match item.role {
        Role::Input => "input wire",
        Role::Output => "output reg",
        Role::Constant => "localparam",
        Role::Local | Role::ChildInput => "reg",
        Role::ChildOutput => "wire",
    }
}

/// `[w-1:0] ` for a vector of `width` bits, nothing for one bit.
pub fn range(width: usize) -> String {
    match width {
        1 => String::new(),
        w => format!("[{}:0] ", w - 1),
    }
}

/// The declaration line of `item`.
fn declare(item: &Item) -> String {
    let signed = if item.signed { "signed " } else { "" };
    let name = clean(&item.name);
    match item.role {
        Role::Constant => format!("    localparam {signed}{name} = {};\n", item.value),
        _ => format!(
            "    {} {signed}{}{name};\n",
            declaration(item),
            range(item.width)
        ),
    }
}

/// Fails if a name of a module could become another once clean (it holds `__`, or an `_`
/// beside a `$`), two names are equal once clean, one is a Verilog keyword, or one starts with
/// the prefix kept for pass-through wires.
fn check_names<'a>(module: &str, names: impl Iterator<Item = &'a str>) -> Result<(), String> {
    let mut seen: HashMap<String, &str> = HashMap::new();
    for name in names {
        let taken = name.starts_with(UNUSED);
        if taken || ["__", "_$", "$_"].iter().any(|bad| name.contains(bad)) || name.ends_with('_') {
            return Err(format!(
                "{module}: {name} would not stay distinct once clean"
            ));
        }
        let cleaned = clean(name);
        if is_keyword(&cleaned) {
            return Err(format!("{module}: {name} is a Verilog keyword"));
        }
        if let Some(other) = seen.insert(cleaned.clone(), name) {
            return Err(format!("{module}: {other} and {name} are both {cleaned}"));
        }
    }
    Ok(())
}

/// The code of `instance`, named `module`, with clean names.
fn code(module: &str, instance: &Instance) -> Result<String, String> {
    let code = &instance.code;
    // A port group's port, spelled by rust-hdl as a path (`l3$valid`), is the group's name
    // joined to the port (`l3_valid`).
    let grouped: HashMap<&str, &str> = (instance.items.iter())
        .filter(|item| item.spelling != item.name)
        .map(|item| (item.spelling.as_str(), item.name.as_str()))
        .collect();
    let text = match code {
        Verilog::Combinatorial(block) => {
            if !verilog_link_extraction(block).is_empty() {
                return Err(format!("{module}: rust-hdl links are not supported"));
            }
            verilog_combinatorial(block)
        }
        Verilog::Custom(text) => text.clone(),
        Verilog::Empty => String::new(),
        _ => {
            return Err(format!(
                "{module}: wrapped or black-box Verilog is not supported"
            ))
        }
    };
    let renamed = rename_identifiers(&text, |name| {
        (name.contains('$')).then(|| clean(grouped.get(name).copied().unwrap_or(name)))
    })
    .map_err(|why| format!("{module}: {why}"))?;
    Ok(renamed
        .lines()
        .map(|line| match line.is_empty() {
            true => "\n".to_string(),
            false => format!("    {line}\n"),
        })
        .collect())
}

/// A primitive's own base name: the first line of its Verilog, `// name: <base>`.
fn primitive_name(code: &Verilog) -> Option<String> {
    let Verilog::Custom(text) = code else {
        return None;
    };
    let first = text.lines().next()?;
    Some(first.strip_prefix("// name: ")?.trim().to_string())
}

impl Netlist {
    /// The distinct modules of `tree`.
    pub fn of(tree: &Tree) -> Result<Self, String> {
        let mut shapes: Vec<Shape> = Vec::new();
        let mut by_text: HashMap<String, usize> = HashMap::new();
        let mut shape_of = vec![0; tree.instances.len()];
        // Children come after their parent in the tree: backwards, every child is done first.
        let mut inlined = vec![false; tree.instances.len()];
        for index in (0..tree.instances.len()).rev() {
            if index > 0 && is_written_in_parent(&tree.instances[index].code) {
                inlined[index] = true;
                continue;
            }
            let text = render(tree, index, &shape_of)?;
            let instance = &tree.instances[index];
            let shape = *by_text.entry(text.clone()).or_insert_with(|| {
                shapes.push(Shape {
                    text,
                    fields: Vec::new(),
                    primitive: primitive_name(&instance.code),
                });
                shapes.len() - 1
            });
            // Named after its first instance, top down: the last one seen here.
            shapes[shape].fields = fields(&instance.path);
            shape_of[index] = shape;
        }
        let mut order = Vec::new();
        for (&shape, _) in shape_of.iter().zip(&inlined).filter(|(_, &i)| !i) {
            if !order.contains(&shape) {
                order.push(shape);
            }
        }
        Ok(Self {
            shapes,
            shape_of,
            order,
        })
    }

    /// How many distinct modules.
    pub fn len(&self) -> usize {
        self.shapes.len()
    }

    /// The modules' Verilog, top first, named `<prefix>_<base>`; the top's module is named
    /// `body_name`.
    pub fn verilog(&self, prefix: &str, body_name: &str) -> String {
        let top = self.shape_of[0];
        let bases = bases(&self.shapes);
        let name = |shape: usize| match shape == top {
            true => body_name.to_string(),
            false => format!("{prefix}_{}", bases[shape]),
        };
        let mut out = String::new();
        for &shape in &self.order {
            let mut pieces = self.shapes[shape].text.split(MARK);
            out.push_str(pieces.next().unwrap_or_default());
            while let (Some(mark), Some(rest)) = (pieces.next(), pieces.next()) {
                let id = mark.parse().unwrap_or(shape);
                out.push_str(&name(id));
                out.push_str(rest);
            }
            out.push('\n');
        }
        out
    }
}

/// Field names of `path` below the top, without vector indices (`control$2` is `control`).
fn fields(path: &[String]) -> Vec<String> {
    path.iter()
        .skip(1)
        .map(|segment| segment.split('$').next().unwrap_or(segment).to_string())
        .collect()
}

/// The base names of `shapes`: primitives' own, else the fewest last field names that keep
/// every base unique, else numbered.
fn bases(shapes: &[Shape]) -> Vec<String> {
    let mut depth = vec![1; shapes.len()];
    let base = |shape: &Shape, depth: usize| match &shape.primitive {
        Some(name) => name.clone(),
        None => {
            let fields = &shape.fields;
            fields[fields.len().saturating_sub(depth)..].join("_")
        }
    };
    loop {
        let names: Vec<String> = shapes
            .iter()
            .zip(&depth)
            .map(|(s, &d)| base(s, d))
            .collect();
        let mut grew = false;
        for (i, shape) in shapes.iter().enumerate() {
            let clash = names.iter().filter(|n| **n == names[i]).count() > 1;
            if clash && shape.primitive.is_none() && depth[i] < shape.fields.len() {
                depth[i] += 1;
                grew = true;
            }
        }
        if grew {
            continue;
        }
        // What is still equal is numbered in order.
        let mut seen: HashMap<String, usize> = HashMap::new();
        return names
            .into_iter()
            .map(|name| {
                let count = seen.entry(name.clone()).or_insert(0);
                *count += 1;
                match *count {
                    1 => name,
                    n => format!("{name}_{n}"),
                }
            })
            .collect();
    }
}

/// The text of instance `index` of `tree`, its children's shapes in `shape_of`.
fn render(tree: &Tree, index: usize, shape_of: &[usize]) -> Result<String, String> {
    let instance = &tree.instances[index];
    let module = instance.path.join(".");
    let children = instance.children.iter().map(|(name, _)| name.as_str());
    check_names(
        &module,
        instance
            .items
            .iter()
            .map(|i| i.name.as_str())
            .chain(children),
    )?;
    let ports: Vec<&Item> = instance
        .items
        .iter()
        .filter(|i| matches!(i.role, Role::Input | Role::Output))
        .collect();
    let port_list: Vec<String> = ports
        .iter()
        .map(|p| format!("    {}", clean(&p.name)))
        .collect();
    let mut text = format!("module {MARK}-{MARK}(\n{}\n);\n", port_list.join(",\n"));
    let mut checks = String::new();
    for item in ports.iter().copied().chain(
        instance
            .items
            .iter()
            .filter(|i| !matches!(i.role, Role::Input | Role::Output)),
    ) {
        text.push_str(&declare(item));
    }
    for (name, child) in &instance.children {
        if is_pass_through(&tree.instances[*child].code) {
            text.push_str(&pass_through(name, &tree.instances[*child]));
            continue;
        }
        if is_inline(&tree.instances[*child].code) {
            checks.push_str(&inline_checks(&module, name, &tree.instances[*child])?);
            continue;
        }
        let connections: Vec<String> = tree.instances[*child]
            .items
            .iter()
            .filter(|i| matches!(i.role, Role::Input | Role::Output))
            .map(|p| {
                format!(
                    "        .{}({})",
                    clean(&p.name),
                    clean(&format!("{name}${}", p.name))
                )
            })
            .collect();
        text.push_str(&format!(
            "    {MARK}{}{MARK} {}(\n{}\n    );\n",
            shape_of[*child],
            clean(name),
            connections.join(",\n")
        ));
    }
    text.push_str(&code(&module, instance)?);
    text.push_str(&checks);
    text.push_str("endmodule\n");
    Ok(text)
}
