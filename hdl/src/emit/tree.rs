//! The design as rust-hdl describes it: a tree of module instances, each with its ports,
//! constants, locals, the signals standing for its children's ports, and its code.

use rust_hdl::core::ast::Verilog;
use rust_hdl::core::atom::{is_atom_signed, Atom, AtomKind};
use rust_hdl::prelude::*;

/// What an atom of a module is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// An input port.
    Input,
    /// An output port.
    Output,
    /// A constant (`localparam`).
    Constant,
    /// A local signal.
    Local,
    /// A child's input port, as the parent drives it.
    ChildInput,
    /// A child's output port, as the parent reads it.
    ChildOutput,
}

/// One named signal or constant of a module, under rust-hdl's name for it (`read_data$3`,
/// `banks$0$read_data`), a port group's name joined to its ports by `_` (`l3_valid`,
/// `controller$l3_valid`; `crate::port_group`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// rust-hdl's name, port groups joined.
    pub name: String,
    /// How the module's code spells it: rust-hdl's name as it is (`controller$l3$valid`).
    pub spelling: String,
    /// What it is.
    pub role: Role,
    /// Width in bits.
    pub width: usize,
    /// Signed arithmetic.
    pub signed: bool,
    /// A constant's value, as a Verilog literal.
    pub value: String,
}

/// One module instance.
pub struct Instance {
    /// Field names from the top down to this instance; a vector element adds `$<index>` to
    /// its field (`["top", "front", "control$2"]`).
    pub path: Vec<String>,
    /// Its ports, constants and locals, then its children's ports, in rust-hdl's order.
    pub items: Vec<Item>,
    /// Its children: their instance names and their indices in [`Tree::instances`].
    pub children: Vec<(String, usize)>,
    /// Its code: `#[hdl_gen]` logic, or Verilog text of its own.
    pub code: Verilog,
}

/// Every instance of a design, the top first, each before its children.
#[derive(Default)]
pub struct Tree {
    /// The instances.
    pub instances: Vec<Instance>,
    /// The instances being visited, innermost last.
    open: Vec<usize>,
    /// The port group being visited.
    group: Option<String>,
    /// What rust-hdl offered that this tree does not support.
    pub unsupported: Option<String>,
}

impl Tree {
    /// The tree of `block`, visited under the name `top`.
    pub fn of<B: Block>(block: &B, top: &str) -> Self {
        let mut tree = Tree::default();
        block.accept(top, &mut tree);
        tree
    }
}

impl Probe for Tree {
    fn visit_start_scope(&mut self, name: &str, node: &dyn Block) {
        let index = self.instances.len();
        let mut path = self
            .open
            .last()
            .map(|&parent| self.instances[parent].path.clone())
            .unwrap_or_default();
        path.push(name.to_string());
        if let Some(&parent) = self.open.last() {
            self.instances[parent]
                .children
                .push((name.to_string(), index));
        }
        self.instances.push(Instance {
            path,
            items: Vec::new(),
            children: Vec::new(),
            code: node.hdl(),
        });
        self.open.push(index);
    }

    fn visit_start_namespace(&mut self, name: &str, _node: &dyn Block) {
        if let Some(outer) = self.group.replace(name.to_string()) {
            self.unsupported = Some(format!("port group {name} inside port group {outer}"));
        }
    }

    fn visit_end_namespace(&mut self, _name: &str, _node: &dyn Block) {
        self.group = None;
    }

    fn visit_atom(&mut self, name: &str, atom: &dyn Atom) {
        let Some(&current) = self.open.last() else {
            self.unsupported = Some(format!("signal {name} outside a module"));
            return;
        };
        let role = match atom.kind() {
            AtomKind::InputParameter => Role::Input,
            AtomKind::OutputParameter => Role::Output,
            AtomKind::Constant => Role::Constant,
            AtomKind::LocalSignal => Role::Local,
            other => {
                self.unsupported = Some(format!("{other:?} {name}"));
                return;
            }
        };
        let (name, spelling) = match &self.group {
            Some(group) => (format!("{group}_{name}"), format!("{group}${name}")),
            None => (name.to_string(), name.to_string()),
        };
        let entry = Item {
            name,
            spelling,
            role,
            width: atom.bits(),
            signed: is_atom_signed(atom),
            value: atom.verilog().to_string(),
        };
        let parent = self.open.len().checked_sub(2).map(|i| self.open[i]);
        let child = self.instances[current].path.last().cloned();
        if let (Some(parent), Some(child)) = (parent, child) {
            let stub = match role {
                Role::Input => Some(Role::ChildInput),
                Role::Output => Some(Role::ChildOutput),
                _ => None,
            };
            if let Some(stub) = stub {
                self.instances[parent].items.push(Item {
                    name: format!("{child}${}", entry.name),
                    spelling: format!("{child}${}", entry.spelling),
                    role: stub,
                    ..entry.clone()
                });
            }
        }
        self.instances[current].items.push(entry);
    }

    // A child without ports (a part built for several waves, in a slice of one) is no
    // instance: it and everything under it, the last instances visited, are dropped.
    fn visit_end_scope(&mut self, _name: &str, _node: &dyn Block) {
        let Some(index) = self.open.pop() else {
            return;
        };
        let ports = (self.instances[index].items.iter())
            .any(|i| matches!(i.role, Role::Input | Role::Output));
        if let (false, Some(&parent)) = (ports, self.open.last()) {
            self.instances.truncate(index);
            self.instances[parent].children.retain(|&(_, c)| c != index);
        }
    }
}
