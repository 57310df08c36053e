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

use super::super::cluster::program::{immediate, number, offset};
use super::super::cluster::ClusterOp;
use crate::core::ParseError;

/// Registers a shader may name: `r0..r255`.
pub const MAX_REGISTERS: usize = 256;

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
}

/// Where the parser is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Section {
    Declarations,
    Preamble,
    Main,
}

/// An `if` being parsed.
struct OpenIf {
    id: usize,
    cond: Cond,
    /// The `then` body, once `else` is seen.
    then: Option<Vec<Stmt>>,
    /// The body being filled.
    body: Vec<Stmt>,
}

/// The main shader being parsed: its body and the open `if`s.
#[derive(Default)]
struct Blocks {
    main: Vec<Stmt>,
    open: Vec<OpenIf>,
}

impl Blocks {
    /// The body statements go to now.
    fn body(&mut self) -> &mut Vec<Stmt> {
        match self.open.last_mut() {
            Some(open) => &mut open.body,
            None => &mut self.main,
        }
    }

    /// `if`, `else` or `end`.
    fn structure(
        &mut self,
        word: &str,
        rest: &str,
        shader: &mut Shader,
        error: impl Fn(&str, String) -> ParseError,
    ) -> Result<(), ParseError> {
        match word {
            "if" => {
                let cond = condition(rest, &shader.uniforms, &error)?;
                self.open.push(OpenIf {
                    id: shader.branches,
                    cond,
                    then: None,
                    body: Vec::new(),
                });
                shader.branches += 1;
            }
            "else" => match self.open.last_mut() {
                Some(open) if open.then.is_none() && rest.is_empty() => {
                    open.then = Some(std::mem::take(&mut open.body));
                }
                _ => return Err(error(word, "`else` without an open `if`".into())),
            },
            _ => {
                let open = self
                    .open
                    .pop()
                    .ok_or_else(|| error(word, "`end` without an open `if`".into()))?;
                let (then, other) = match open.then {
                    Some(then) => (then, open.body),
                    None => (open.body, Vec::new()),
                };
                self.body().push(Stmt::If(open.id, open.cond, then, other));
            }
        }
        Ok(())
    }
}

/// Parses `text`. Errors name the line and column.
pub fn parse(text: &str) -> Result<Shader, ParseError> {
    let mut shader = Shader::default();
    let mut section = Section::Declarations;
    let mut blocks = Blocks::default();
    let mut lines = 0;
    for (n, raw) in crate::text::source_lines(text).into_iter().enumerate() {
        lines = n + 1;
        let code = raw.split(';').next().unwrap_or("");
        let code = code.split("//").next().unwrap_or("").trim();
        if code.is_empty() {
            continue;
        }
        let error = |at: &str, message: String| ParseError {
            line: n + 1,
            column: offset(raw, at) + 1,
            message,
        };
        let (word, rest) = code.split_once(char::is_whitespace).unwrap_or((code, ""));
        let rest = rest.trim();
        match word {
            "uniform" if section == Section::Declarations => {
                let name_ok = !rest.is_empty()
                    && rest.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
                if !name_ok || shader.uniforms.iter().any(|u| u == rest) {
                    return Err(error(
                        code,
                        format!("`{rest}`: expected a new uniform name"),
                    ));
                }
                shader.uniforms.push(rest.to_string());
            }
            "preamble:" if section == Section::Declarations => section = Section::Preamble,
            "main:" if section != Section::Main => section = Section::Main,
            "if" | "else" | "end" if section == Section::Main => {
                blocks.structure(word, rest, &mut shader, error)?
            }
            _ if section == Section::Declarations => {
                return Err(error(
                    code,
                    format!("`{word}`: expected `uniform`, `preamble:` or `main:`"),
                ))
            }
            _ => {
                let instr = instruction(word, rest, shader.instructions, error)?;
                if section == Section::Preamble && instr.op == Op::Out {
                    return Err(error(code, "the preamble has no outputs".into()));
                }
                shader.instructions += 1;
                match section {
                    Section::Preamble => shader.preamble.push(instr),
                    _ => blocks.body().push(Stmt::Instr(instr)),
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
            format!("`{name}`: not a declared uniform ({})", uniforms.join(", ")),
        )
    })?;
    let value = immediate(value)
        .ok_or_else(|| error(value, format!("`{value}`: expected a 32-bit number")))?;
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
                    format!("unknown operation `{name}`: expected ld, mov, add, sub, mul, and, or, xor, out, if, else or end"),
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
                format!("`{}`: expected a register r0..r255", fields[0]),
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
                    format!("`{f}`: expected a register r0..r255, an immediate #N or `wave`"),
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
