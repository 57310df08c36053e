//! Verilog emission for any block: the text, its top module name and its ports; the files
//! written beside it (waivers, constraints, manifest) and how they are written.

mod files;
mod write;

pub use files::{design_files, Timing};
pub use write::{write_atomically, WriteError};

use std::fmt;

use rust_hdl::core::check_error::CheckError;
use rust_hdl::core::module_defines::ModuleDefines;
use rust_hdl::prelude::*;
use serde::{Deserialize, Serialize};

use crate::params::ParamError;

/// Direction of a top-level port.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PortDirection {
    /// Driven from outside the module.
    Input,
    /// Driven by the module.
    Output,
}

/// One top-level port of an emitted module.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Port {
    /// The port's Verilog name, e.g. `read_reg$0`.
    pub name: String,
    /// Input or output.
    pub direction: PortDirection,
    /// Width in bits, 1 or more.
    pub width: usize,
}

/// An emitted design: Verilog text, its top module and that module's ports in declaration order.
#[derive(Clone, Debug)]
pub struct Emitted {
    /// Name of the top module.
    pub top: String,
    /// The Verilog text: the top module and every sub-module.
    pub verilog: String,
    /// Ports of the top module, in declaration order.
    pub ports: Vec<Port>,
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

/// Connects, checks and emits `block` as Verilog with top module `top`.
pub fn emit<B: Block>(block: &mut B, top: &str) -> Result<Emitted, EmitError> {
    block.connect_all();
    check_all(block).map_err(|e| EmitError::Rejected(describe(&e)))?;
    let mut defines = ModuleDefines::default();
    block.accept(top, &mut defines);
    let mut ports = PortLister::default();
    block.accept(top, &mut ports);
    Ok(Emitted {
        top: top.to_string(),
        verilog: defines.defines(),
        ports: ports.ports,
    })
}

/// Emits `block` on its own with top module `top`: one part of a design (see
/// [`crate::design::Design::parts`]).
pub fn part<B: Block>(top: &str, mut block: B) -> Result<Emitted, EmitError> {
    emit(&mut block, top)
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

/// Collects the atoms of the top scope that are module parameters.
#[derive(Default)]
struct PortLister {
    depth: usize,
    ports: Vec<Port>,
}

impl Probe for PortLister {
    fn visit_start_scope(&mut self, _name: &str, _node: &dyn Block) {
        self.depth += 1;
    }

    fn visit_atom(&mut self, name: &str, signal: &dyn Atom) {
        if self.depth != 1 {
            return;
        }
        let direction = match signal.kind() {
            AtomKind::InputParameter => PortDirection::Input,
            AtomKind::OutputParameter | AtomKind::OutputPassthrough => PortDirection::Output,
            _ => return,
        };
        self.ports.push(Port {
            name: name.to_string(),
            direction,
            width: signal.bits(),
        });
    }

    fn visit_end_scope(&mut self, _name: &str, _node: &dyn Block) {
        self.depth -= 1;
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
