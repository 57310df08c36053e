//! The files written beside an emitted design: Verilator waivers, XDC and SDC constraints and
//! a manifest.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use super::{waivers, Emitted, Port, PortDirection};
use crate::design::Design;
use crate::params::ParamError;

const XDC_TEMPLATE: &str = include_str!("../../../constraints/timing.xdc");
const SDC_TEMPLATE: &str = include_str!("../../../constraints/timing.sdc");

/// The clock the constraint files describe.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Timing {
    /// Clock frequency in MHz.
    pub mhz: f64,
    /// Input and output delay in ns outside the module.
    pub io_delay_ns: f64,
}

impl Timing {
    /// A clock of `mhz` MHz (0 < mhz <= 2000) with `io_delay_ns` (default a quarter period,
    /// at most one period) of external delay.
    pub fn new(mhz: f64, io_delay_ns: Option<f64>) -> Result<Self, ParamError> {
        if !(mhz > 0.0 && mhz <= 2000.0) {
            return Err(ParamError::new(
                "clock_mhz",
                mhz,
                "more than 0 and at most 2000",
            ));
        }
        let period = 1000.0 / mhz;
        let io_delay_ns = io_delay_ns.unwrap_or(period / 4.0);
        if !(0.0..=period).contains(&io_delay_ns) {
            return Err(ParamError::new(
                "io_delay_ns",
                io_delay_ns,
                format!("0..={period:.3} (one period)"),
            ));
        }
        Ok(Self { mhz, io_delay_ns })
    }

    /// The clock period in ns.
    pub fn period_ns(&self) -> f64 {
        1000.0 / self.mhz
    }
}

/// A vector of ports sharing a base name (`read_data$0`, `read_data$1`, ...).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct PortGroup {
    /// Base name, before `$`.
    pub name: String,
    /// Input or output.
    pub direction: PortDirection,
    /// Width of each port in bits.
    pub width: usize,
    /// Number of ports (1 for a scalar port).
    pub count: usize,
}

/// Groups `ports` by base name, in first-appearance order.
pub fn port_groups(ports: &[Port]) -> Vec<PortGroup> {
    let mut groups: Vec<PortGroup> = Vec::new();
    for port in ports {
        let base = port.name.split('$').next().unwrap_or(&port.name);
        match groups.iter_mut().find(|g| g.name == base) {
            Some(group) => group.count += 1,
            None => groups.push(PortGroup {
                name: base.to_string(),
                direction: port.direction,
                width: port.width,
                count: 1,
            }),
        }
    }
    groups
}

/// What `manifest.json` records about an emitted design.
#[derive(Serialize)]
struct Manifest<'a> {
    generator: String,
    block: &'a str,
    top: &'a str,
    parameters: Value,
    derived: BTreeMap<&'static str, u64>,
    clock: ClockEntry<'a>,
    files: BTreeMap<&'static str, String>,
    port_groups: Vec<PortGroup>,
    ports: &'a [Port],
}

/// The clock as the manifest records it.
#[derive(Serialize)]
struct ClockEntry<'a> {
    port: &'a str,
    mhz: f64,
    period_ns: f64,
    io_delay_ns: f64,
}

/// Fills a constraint template for `emitted` with the clock `timing`.
fn constraints(template: &str, emitted: &Emitted, clock: &str, timing: Timing) -> String {
    let list = |direction: PortDirection| {
        emitted
            .ports
            .iter()
            .filter(|p| p.direction == direction && p.name != clock)
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    };
    template
        .replace("{{top}}", &emitted.top)
        .replace("{{version}}", env!("CARGO_PKG_VERSION"))
        .replace("{{clock}}", clock)
        .replace("{{mhz}}", &format!("{}", timing.mhz))
        .replace("{{period_ns}}", &format!("{:.3}", timing.period_ns()))
        .replace("{{io_delay_ns}}", &format!("{:.3}", timing.io_delay_ns))
        .replace("{{inputs}}", &list(PortDirection::Input))
        .replace("{{outputs}}", &list(PortDirection::Output))
}

/// The file set of design `D` emitted for `params`: `(file name, contents)` pairs, manifest
/// last.
pub fn design_files<D: Design>(
    params: &D::Params,
    emitted: &Emitted,
    timing: Timing,
) -> Vec<(String, String)> {
    let top = emitted.top.as_str();
    let name = |ext: &str| format!("{top}.{ext}");
    let clock = "clock";
    let files = BTreeMap::from([
        ("verilog", name("v")),
        ("waivers", name("vlt")),
        ("xdc", name("xdc")),
        ("sdc", name("sdc")),
    ]);
    let manifest = Manifest {
        generator: format!("grfgen {}", env!("CARGO_PKG_VERSION")),
        block: D::NAME,
        top,
        parameters: serde_json::to_value(params).expect("parameters serialise"),
        derived: D::derived(params).into_iter().collect(),
        clock: ClockEntry {
            port: clock,
            mhz: timing.mhz,
            period_ns: timing.period_ns(),
            io_delay_ns: timing.io_delay_ns,
        },
        files: files.clone(),
        port_groups: port_groups(&emitted.ports),
        ports: &emitted.ports,
    };
    let header = format!(
        "// {top}: generated by grfgen {} from rust-hdl. Do not edit; regenerate.\n",
        env!("CARGO_PKG_VERSION")
    );
    vec![
        (files["verilog"].clone(), header + &emitted.verilog),
        (files["waivers"].clone(), waivers(top)),
        (
            files["xdc"].clone(),
            constraints(XDC_TEMPLATE, emitted, clock, timing),
        ),
        (
            files["sdc"].clone(),
            constraints(SDC_TEMPLATE, emitted, clock, timing),
        ),
        (
            "manifest.json".to_string(),
            serde_json::to_string_pretty(&manifest).expect("manifest serialises") + "\n",
        ),
    ]
}
