//! What every emitted block declares, and the catalogue built from it.

use serde::Serialize;

use crate::emit::{check_top, EmitError, Emitted, PortOrder};
use crate::params::{Kind, ParamError, Params};

/// A block the generator emits as a top-level design.
pub trait Design: 'static {
    /// Its parameters, with their table.
    type Params: Params;
    /// Its name on the command line (`grfgen emit <name>`).
    const NAME: &'static str;
    /// What it is, in one line.
    const TITLE: &'static str;
    /// The specification section it implements.
    const SPEC: &'static str;
    /// What its block RAMs hold (e.g. `GPR banks`), or `None` for a design without memories.
    const MEMORIES: Option<&'static str>;
    /// For each top port whose element index is a formula: what the index counts, outer
    /// first (`("read_data", "read port, then lane")`).
    const PORT_ORDER: PortOrder;
    /// The top module name that encodes `params`: the block's name, then every parameter
    /// (see [`crate::params::module_name`]).
    fn top(params: &Self::Params) -> String {
        crate::params::module_name(Self::NAME, params)
    }
    /// Refuses what the parameter table allows but this design does not take: a value of an
    /// option that its parameter struct shares with designs built otherwise (an encoding on
    /// a file without a table). Called after [`Params::validate`].
    fn check(_params: &Self::Params) -> Result<(), ParamError> {
        Ok(())
    }
    /// Builds and emits the design for validated `params` with top module `top`.
    fn build(params: &Self::Params, top: &str) -> Result<Emitted, EmitError>;
    /// Emits every sub-block of the design for validated `params` on its own, as the design
    /// instantiates it, with top module `<name>_<sub-block>`: to lint, test or read one at a
    /// time.
    fn parts(params: &Self::Params) -> Result<Vec<Emitted>, EmitError>;
    /// Quantities derived from `params`, recorded in the manifest.
    fn derived(params: &Self::Params) -> Vec<(&'static str, u64)>;
}

/// Validates `params` for design `D`: every parameter in its range ([`Params::validate`]), then
/// what `D` alone refuses ([`Design::check`]).
pub fn validate<D: Design>(params: &D::Params) -> Result<(), ParamError> {
    params.validate()?;
    D::check(params)
}

/// Validates `params` and the top name, then emits design `D`.
pub fn emit_design<D: Design>(params: &D::Params, top: &str) -> Result<Emitted, EmitError> {
    validate::<D>(params)?;
    check_top(top)?;
    D::build(params, top)
}

/// Something done for every design (see [`crate::visit_designs`], the registry).
pub trait DesignVisitor {
    /// Called once per design.
    fn visit<D: Design>(&mut self);
}

/// One parameter as the catalogue lists it.
#[derive(Clone, Debug, Serialize)]
pub struct ParamInfo {
    /// Command-line flag, e.g. `--banks`.
    pub flag: String,
    /// JSON config key, e.g. `banks`.
    pub key: &'static str,
    /// How the value is written.
    pub kind: Kind,
    /// Default value.
    pub default: String,
    /// Allowed values, in words (with the other parameters at their defaults).
    pub allowed: String,
    /// What it sets, with its unit.
    pub meaning: &'static str,
}

impl ParamInfo {
    /// Every parameter of `P`, as listed.
    pub fn of<P: Params>() -> Vec<ParamInfo> {
        let defaults = P::default();
        P::table()
            .iter()
            .map(|p| ParamInfo {
                flag: p.flag(),
                key: p.name,
                kind: p.kind(),
                default: p.value(&defaults),
                allowed: p.allowed(&defaults),
                meaning: p.doc,
            })
            .collect()
    }
}

/// One block of the catalogue.
#[derive(Clone, Debug, Serialize)]
pub struct BlockInfo {
    /// Name used on the command line (`grfgen emit <name>`), or the component's name.
    pub name: &'static str,
    /// One-line description.
    pub title: &'static str,
    /// The specification section it implements.
    pub spec: &'static str,
    /// Whether `grfgen emit` takes it as a top level; components are emitted inside one.
    pub top_level: bool,
    /// Its parameters.
    pub params: Vec<ParamInfo>,
}

impl BlockInfo {
    /// The catalogue entry of design `D`.
    pub fn of<D: Design>() -> Self {
        Self {
            name: D::NAME,
            title: D::TITLE,
            spec: D::SPEC,
            top_level: true,
            params: ParamInfo::of::<D::Params>(),
        }
    }
}
