//! Verilog emission for any block: the text, its top module name and its ports; the files
//! written beside it (waivers, constraints, manifest, FuseSoC core) and how they are written.
//!
//! rust-hdl describes the design; the text is written here (`netlist`, `packed`), so that
//! names are clean, each distinct module is written once and the top's ports are packed.

mod files;
mod keywords;
mod lexer;
mod netlist;
mod packed;
mod tree;
mod write;

pub use files::{design_files, Timing};
pub use keywords::is_keyword;
pub(crate) use netlist::{INLINE, PASS_THROUGH};
pub use packed::{Port, PortDirection, PortOrder};
pub use write::{write_atomically, WriteError};

use std::fmt;

use rust_hdl::core::check_error::CheckError;
use rust_hdl::prelude::*;

use crate::params::ParamError;
use netlist::Netlist;
use tree::{Role, Tree};

/// An emitted design: Verilog text, its top module and that module's ports in declaration order.
#[derive(Clone, Debug)]
pub struct Emitted {
    /// Name of the top module.
    pub top: String,
    /// The Verilog text: the top module and every sub-module.
    pub verilog: String,
    /// Ports of the top module, in declaration order.
    pub ports: Vec<Port>,
    /// Distinct modules in the text, the top among them.
    pub modules: usize,
    /// Simulation models of the vendor primitives the text instantiates, as `(file name,
    /// text)`: written beside it, read by simulators and linters, never by synthesis.
    pub models: Vec<(&'static str, &'static str)>,
}

impl Emitted {
    /// The files `emit` writes for it, in one line: `<top>.v (lines, modules, ports)` and the
    /// rest.
    pub fn summary(&self) -> String {
        let models: String = self.models.iter().map(|(f, _)| format!(", {f}")).collect();
        format!(
            "{top}.v ({} lines, {} modules, {} ports), .vlt, .xdc, .sdc, .core, .f, .lint.f, _inst.vh, \
             manifest.json{models}",
            self.verilog.lines().count(),
            self.modules,
            self.ports.len(),
            top = self.top,
        )
    }

    /// The design as a simulator compiles it: the Verilog, then each simulation model.
    pub fn simulation_text(&self) -> String {
        let mut text = self.verilog.clone();
        for (_, model) in &self.models {
            text.push_str(model);
        }
        text
    }
}

/// Why a design could not be emitted.
#[derive(Debug)]
pub enum EmitError {
    /// A parameter is out of range: bad input.
    Param(ParamError),
    /// rust-hdl refused the design: it is not fully connected, has a combinational loop, or
    /// writes its own inputs. This is a bug in a block, not bad user input.
    Rejected(String),
}

impl fmt::Display for EmitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EmitError::Param(e) => e.fmt(f),
            EmitError::Rejected(why) => write!(f, "rust-hdl rejected the design: {why}"),
        }
    }
}

impl std::error::Error for EmitError {}

impl From<ParamError> for EmitError {
    fn from(e: ParamError) -> Self {
        EmitError::Param(e)
    }
}

/// Checks a top module name: a Verilog identifier.
pub fn check_top(name: &str) -> Result<(), ParamError> {
    let mut chars = name.chars();
    let first_ok = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    if first_ok && chars.all(|c| c.is_ascii_alphanumeric() || c == '_') {
        Ok(())
    } else {
        Err(ParamError::new(
            "top",
            name,
            "a Verilog identifier: [A-Za-z_][A-Za-z0-9_]*",
        ))
    }
}

/// Connects, checks and emits `block` as Verilog with top module `top`; `order` says what
/// the element index of each two-level vector port counts.
pub fn emit<B: Block>(block: &mut B, top: &str, order: PortOrder) -> Result<Emitted, EmitError> {
    block.connect_all();
    check_all(block).map_err(|e| EmitError::Rejected(describe(&e)))?;
    let tree = Tree::of(block, top);
    if let Some(what) = &tree.unsupported {
        return Err(EmitError::Rejected(format!("unsupported: {what}")));
    }
    let netlist = Netlist::of(&tree).map_err(EmitError::Rejected)?;
    let items: Vec<_> = tree.instances[0]
        .items
        .iter()
        .filter(|i| matches!(i.role, Role::Input | Role::Output))
        .collect();
    let ports = packed::pack(&items, order).map_err(EmitError::Rejected)?;
    let body = format!("{top}_body");
    let verilog = packed::header(top, &ports)
        + &packed::wrapper(top, &body, &ports, &items)
        + &netlist.verilog(top, &body);
    Ok(Emitted {
        top: top.to_string(),
        models: crate::sram::simulation_models(&verilog),
        verilog,
        ports,
        modules: netlist.len() + 1,
    })
}

/// Emits `block` on its own with top module `top`: one part of a design (see
/// [`crate::design::Design::parts`]).
pub fn part<B: Block>(top: &str, mut block: B) -> Result<Emitted, EmitError> {
    emit(&mut block, top, &[])
}

fn describe(error: &CheckError) -> String {
    let names = |list: &[rust_hdl::core::check_error::PathedName]| {
        list.iter()
            .map(|n| format!("{}.{}", n.path, n.name))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match error {
        CheckError::OpenSignal(map) => {
            let open: Vec<_> = map.values().cloned().collect();
            format!("undriven signals: {}", names(&open))
        }
        CheckError::LogicLoops(list) => format!("combinational loops through {}", names(list)),
        CheckError::WritesToInputs(list) => format!("inputs written: {}", names(list)),
    }
}

/// The Verilator configuration shipped beside an emitted design: lint waivers scoped to the
/// generated file `<top>.v`, each with the reason it is there.
pub fn waivers(top: &str) -> String {
    format!(
        "`verilator_config\n\
         // rust-hdl writes every sub-module of a design into the one file named for the top\n\
         // module, so the sub-modules cannot match their file name.\n\
         lint_off -rule DECLFILENAME -file \"*{top}.v\"\n"
    )
}
