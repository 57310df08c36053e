//! Shaders for the GPR release study (SPEC S5): the text format (`docs/alloc.md`) and its
//! syntax tree.
//!
//! ```text
//! uniform mode            ; a uniform: fixed for the draw, unknown at compile time
//! preamble:               ; runs once per draw, before any wave of the main shader
//!   ld r0, #0x40
//! main:
//!   ld r0, wave           ; r0 = memory[wave]: a load with the run's memory latency
//!   if mode == 1          ; branches on uniform predicates (== or !=), nested freely
//!     mul r1, r0, r0
//!   else
//!     add r1, r0, #1
//!   end
//!   out r1                ; an output of the wave
//! ```
//!
//! The compiler's analysis follows every path, so a shader keeps to [`MAX_DEPTH`] `if`s open at
//! once, [`MAX_PATHS`] paths and [`MAX_PATH_INSTRUCTIONS`] instructions on them all together.

use super::super::cluster::program::{immediate, number};
use super::super::cluster::ClusterOp;
use crate::core::ParseError;
use grfgen_support::text::{column, quoted};

/// Registers a shader may name: `r0..r255`.
pub const MAX_REGISTERS: usize = 256;

/// Paths through the main shader at most (one per combination of sides at the branches met):
/// the compiler's analysis follows every one.
pub const MAX_PATHS: usize = 4096;

/// Instructions on all the paths through the main shader together, at most: what the analysis
/// walks.
pub const MAX_PATH_INSTRUCTIONS: usize = 1 << 18;

/// `if`s open at once at most.
pub const MAX_DEPTH: usize = 64;

/// A source operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Src {
    /// Register `r<N>`.
    Reg(usize),
    /// An immediate `#N`.
    Imm(u32),
    /// The wave's index in the draw.
    Wave,
}

/// What an instruction does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// An ALU operation (`mov add sub mul and or xor`), one cycle.
    Alu(ClusterOp),
    /// `ld d, a`: `d = memory[a]`, with the memory latency.
    Load,
    /// `out a`: an output of the wave.
    Out,
}

/// One instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instr {
    /// Its number in the shader, in text order (preamble first).
    pub id: usize,
    /// The operation.
    pub op: Op,
    /// The destination register.
    pub dst: Option<usize>,
    /// The sources.
    pub src: Vec<Src>,
}

/// `uniform == value` or `uniform != value`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cond {
    /// The uniform's index in [`Shader::uniforms`].
    pub uniform: usize,
    /// `==` (else `!=`).
    pub equal: bool,
    /// The value compared with.
    pub value: u32,
}

impl Cond {
    /// Whether it holds for the uniforms' `values`.
    pub fn holds(&self, values: &[u32]) -> bool {
        (values[self.uniform] == self.value) == self.equal
    }
}

/// A statement of the main shader.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stmt {
    /// An instruction.
    Instr(Instr),
    /// `if cond ... else ... end`, with its number among the shader's branches.
    If(usize, Cond, Vec<Stmt>, Vec<Stmt>),
}

/// A parsed shader.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Shader {
    /// The uniforms, by name, in declaration order.
    pub uniforms: Vec<String>,
    /// The preamble: straight-line loads and ALU operations.
    pub preamble: Vec<Instr>,
    /// The main shader.
    pub main: Vec<Stmt>,
    /// Instructions in all.
    pub instructions: usize,
    /// Branches (`if`s) in all.
    pub branches: usize,
    /// Where each instruction is in the text, by its `id`: line and column, from 1.
    pub places: Vec<(usize, usize)>,
}

/// Where the parser is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Section {
    Declarations,
    Preamble,
    Main,
}

/// The paths through a block of the main shader and the instructions on them all.
#[derive(Clone, Copy)]
struct Walk {
    /// Paths through the block.
    paths: usize,
    /// Instructions on all the paths together.
    instructions: usize,
}

impl Walk {
    /// An empty block: one path, no instructions.
    const EMPTY: Walk = Walk {
        paths: 1,
        instructions: 0,
    };

    /// This block followed by `next`: every path of one with every path of the other.
    fn then(self, next: Walk) -> Walk {
        Walk {
            paths: self.paths.saturating_mul(next.paths),
            instructions: (self.instructions.saturating_mul(next.paths))
                .saturating_add(next.instructions.saturating_mul(self.paths)),
        }
    }

    /// An `if` with this side and `other`: the paths of either.
    fn or(self, other: Walk) -> Walk {
        Walk {
            paths: self.paths.saturating_add(other.paths),
            instructions: self.instructions.saturating_add(other.instructions),
        }
    }

    /// What is wrong when the analysis would walk too much.
    fn too_much(self) -> Option<String> {
        if self.paths > MAX_PATHS {
            Some(format!(
                "more than {MAX_PATHS} paths through the branches (the analysis follows every one)"
            ))
        } else if self.instructions > MAX_PATH_INSTRUCTIONS {
            Some(format!(
                "more than {MAX_PATH_INSTRUCTIONS} instructions on all the paths through the \
                 branches together (the analysis follows every path)"
            ))
        } else {
            None
        }
    }
}

/// An `if` being parsed.
struct OpenIf {
    id: usize,
    cond: Cond,
    /// The `then` body, once `else` is seen.
    then: Option<Vec<Stmt>>,
    /// The paths through the `then` body, once `else` is seen.
    then_walk: Walk,
    /// The body being filled.
    body: Vec<Stmt>,
    /// The paths through the body being filled, so far.
    walk: Walk,
}

/// The main shader being parsed: its body, the paths through it so far, and the open `if`s.
struct Blocks {
    main: Vec<Stmt>,
    main_walk: Walk,
    open: Vec<OpenIf>,
}

impl Blocks {
    /// An empty main shader: one path.
    fn new() -> Self {
        Self {
            main: Vec::new(),
            main_walk: Walk::EMPTY,
            open: Vec::new(),
        }
    }

    /// The body statements go to now.
    fn body(&mut self) -> &mut Vec<Stmt> {
        match self.open.last_mut() {
            Some(open) => &mut open.body,
            None => &mut self.main,
        }
    }

    /// Adds `stmt`, whose paths are `walk`, to the body statements go to now; what is wrong
    /// when the paths then grow past the analysis's limits.
    fn push(&mut self, stmt: Stmt, walk: Walk) -> Result<(), String> {
        let so_far = match self.open.last_mut() {
            Some(open) => &mut open.walk,
            None => &mut self.main_walk,
        };
        *so_far = so_far.then(walk);
        let too_much = so_far.too_much();
        self.body().push(stmt);
        too_much.map_or(Ok(()), Err)
    }

    /// `if`, `else` or `end`.
    fn structure(
        &mut self,
        word: &str,
        rest: &str,
        shader: &mut Shader,
        error: impl Fn(&str, String) -> ParseError,
    ) -> Result<(), ParseError> {
        if word != "if" && !rest.is_empty() {
            return Err(error(
                rest,
                format!("unexpected `{}` after `{word}`", quoted(rest)),
            ));
        }
        match word {
            "if" => {
                if self.open.len() >= MAX_DEPTH {
                    return Err(error(
                        word,
                        format!("more than {MAX_DEPTH} `if`s open at once"),
                    ));
                }
                let cond = condition(rest, &shader.uniforms, &error)?;
                self.open.push(OpenIf {
                    id: shader.branches,
                    cond,
                    then: None,
                    then_walk: Walk::EMPTY,
                    body: Vec::new(),
                    walk: Walk::EMPTY,
                });
                shader.branches += 1;
            }
            "else" => match self.open.last_mut() {
                Some(open) if open.then.is_none() => {
                    open.then = Some(std::mem::take(&mut open.body));
                    open.then_walk = std::mem::replace(&mut open.walk, Walk::EMPTY);
                }
                _ => return Err(error(word, "`else` without an open `if`".into())),
            },
            _ => {
                let open = self
                    .open
                    .pop()
                    .ok_or_else(|| error(word, "`end` without an open `if`".into()))?;
                let (then, other, walk) = match open.then {
                    Some(then) => (then, open.body, open.then_walk.or(open.walk)),
                    None => (open.body, Vec::new(), open.walk.or(Walk::EMPTY)),
                };
                self.push(Stmt::If(open.id, open.cond, then, other), walk)
                    .map_err(|message| error(word, message))?;
            }
        }
        Ok(())
    }
}

/// Parses `text`. Errors name the line and column.
pub fn parse(text: &str) -> Result<Shader, ParseError> {
    let mut shader = Shader::default();
    let mut section = Section::Declarations;
    let mut blocks = Blocks::new();
    let mut lines = 0;
    for (n, raw) in grfgen_support::text::source_lines(text)
        .into_iter()
        .enumerate()
    {
        lines = n + 1;
        let code = raw.split(';').next().unwrap_or("");
        let code = code.split("//").next().unwrap_or("").trim();
        if code.is_empty() {
            continue;
        }
        let error = |at: &str, message: String| ParseError {
            line: n + 1,
            column: column(raw, at),
            message,
        };
        let (word, rest) = code
            .split_once(char::is_whitespace)
            .unwrap_or((code, &code[code.len()..]));
        let rest = rest.trim();
        match word {
            "uniform" if section == Section::Declarations => {
                let name_ok = !rest.is_empty()
                    && rest.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
                if !name_ok || shader.uniforms.iter().any(|u| u == rest) {
                    return Err(error(
                        code,
                        format!("`{}`: expected a new uniform name", quoted(rest)),
                    ));
                }
                shader.uniforms.push(rest.to_string());
            }
            "preamble:" | "main:" if !rest.is_empty() && section != Section::Main => {
                return Err(error(
                    rest,
                    format!("unexpected `{}` after `{word}`", quoted(rest)),
                ))
            }
            "preamble:" if section == Section::Declarations => section = Section::Preamble,
            "main:" if section != Section::Main => section = Section::Main,
            "if" | "else" | "end" if section == Section::Main => {
                blocks.structure(word, rest, &mut shader, error)?
            }
            _ if section == Section::Declarations => {
                return Err(error(
                    code,
                    format!(
                        "`{}`: expected `uniform`, `preamble:` or `main:`",
                        quoted(word)
                    ),
                ))
            }
            _ => {
                let instr = instruction(word, rest, shader.instructions, error)?;
                if section == Section::Preamble && instr.op == Op::Out {
                    return Err(error(code, "the preamble has no outputs".into()));
                }
                shader.instructions += 1;
                shader.places.push((n + 1, column(raw, code)));
                match section {
                    Section::Preamble => shader.preamble.push(instr),
                    _ => {
                        let walk = Walk {
                            paths: 1,
                            instructions: 1,
                        };
                        blocks
                            .push(Stmt::Instr(instr), walk)
                            .map_err(|message| error(code, message))?
                    }
                }
            }
        }
    }
    if !blocks.open.is_empty() {
        return Err(ParseError {
            line: lines,
            column: 1,
            message: format!("{} `if` without `end`", blocks.open.len()),
        });
    }
    shader.main = blocks.main;
    Ok(shader)
}

/// `<uniform> == <value>` or `<uniform> != <value>`.
fn condition(
    text: &str,
    uniforms: &[String],
    error: &impl Fn(&str, String) -> ParseError,
) -> Result<Cond, ParseError> {
    let (name, op, value) = match (text.split_once("=="), text.split_once("!=")) {
        (Some((n, v)), _) => (n.trim(), true, v.trim()),
        (None, Some((n, v))) => (n.trim(), false, v.trim()),
        _ => {
            return Err(error(
                text,
                "expected `if <uniform> == <value>` or `!=`".into(),
            ))
        }
    };
    let uniform = uniforms.iter().position(|u| u == name).ok_or_else(|| {
        error(
            name,
            format!(
                "`{}`: not a declared uniform ({})",
                quoted(name),
                uniforms.join(", ")
            ),
        )
    })?;
    let value = immediate(value).ok_or_else(|| {
        error(
            value,
            format!("`{}`: expected a 32-bit number", quoted(value)),
        )
    })?;
    Ok(Cond {
        uniform,
        equal: op,
        value,
    })
}

/// One instruction: `<op> <operands>`.
fn instruction(
    name: &str,
    operands: &str,
    id: usize,
    error: impl Fn(&str, String) -> ParseError,
) -> Result<Instr, ParseError> {
    let op = match name {
        "ld" => Op::Load,
        "out" => Op::Out,
        _ => match ClusterOp::from_mnemonic(name).filter(|&op| op != ClusterOp::Out) {
            Some(op) => Op::Alu(op),
            None => {
                return Err(error(
                    name,
                    format!("unknown operation `{}`: expected ld, mov, add, sub, mul, and, or, xor, out, if, else or end", quoted(name)),
                ))
            }
        },
    };
    let (writes, sources) = match op {
        Op::Load => (true, 1),
        Op::Out => (false, 1),
        Op::Alu(alu) => (true, alu.sources()),
    };
    let fields: Vec<&str> = operands.split(',').map(str::trim).collect();
    let wanted = sources + usize::from(writes);
    if fields.len() != wanted || fields.iter().any(|f| f.is_empty()) {
        return Err(error(
            name,
            format!("`{name}` takes {wanted} operand(s), separated by commas"),
        ));
    }
    let dst = match writes {
        true => Some(register(fields[0]).ok_or_else(|| {
            error(
                fields[0],
                format!("`{}`: expected a register r0..r255", quoted(fields[0])),
            )
        })?),
        false => None,
    };
    let src = fields[usize::from(writes)..]
        .iter()
        .map(|f| {
            source(f).ok_or_else(|| {
                error(
                    f,
                    format!(
                        "`{}`: expected a register r0..r255, an immediate #N or `wave`",
                        quoted(f)
                    ),
                )
            })
        })
        .collect::<Result<_, _>>()?;
    Ok(Instr { id, op, dst, src })
}

/// `r<N>`, N below 256.
fn register(text: &str) -> Option<usize> {
    text.strip_prefix('r')
        .and_then(number)
        .filter(|&n| n < MAX_REGISTERS)
}

/// A register, `#N` or `wave`.
fn source(text: &str) -> Option<Src> {
    if text == "wave" {
        return Some(Src::Wave);
    }
    match text.strip_prefix('#') {
        Some(imm) => immediate(imm).map(Src::Imm),
        None => register(text).map(Src::Reg),
    }
}
