//! Designs compared with their alternatives: the router's two-stage network against one full
//! crossbar (`grfgen compare route`), and the banked GPR against the multi-ported register
//! files it replaces (`grfgen compare gpr`).

mod files;
pub mod gpr;
mod route;
mod rows;
mod spec;
mod verdict;

pub use route::{route_networks, NetworkCells, NetworkComparison};
