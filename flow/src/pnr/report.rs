//! What nextpnr leaves behind, read: its JSON report (Fmax, utilisation, critical paths), its
//! log (routed arcs) and the routed netlist (the routing wires each net uses).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::FlowError;

/// nextpnr's `--report` file.
#[derive(Deserialize)]
pub struct NextpnrReport {
    /// Per clock: the frequency achieved and the one asked for.
    fmax: BTreeMap<String, ClockFmax>,
    /// Per cell type of the device: used and available.
    pub utilization: BTreeMap<String, Utilisation>,
    /// The worst path of each pair of clock domains.
    critical_paths: Vec<DomainPath>,
}

/// One clock's frequency in the report.
#[derive(Deserialize)]
struct ClockFmax {
    achieved: f64,
}

/// One cell type's use in the report.
#[derive(Deserialize)]
pub struct Utilisation {
    /// Cells placed.
    pub used: u64,
    /// Cells the device has.
    pub available: u64,
}

/// The worst path between two clock domains (`posedge clk`, or `<async>` for a pin).
#[derive(Deserialize)]
struct DomainPath {
    from: String,
    to: String,
    path: Vec<Hop>,
}

/// One step of a path: a clock-to-output, a logic cell, a routed net, or the setup time (a
/// routed net's name is in the report too; it is not read).
#[derive(Deserialize)]
struct Hop {
    #[serde(rename = "type")]
    kind: String,
    delay: f64,
    from: Pin,
    to: Pin,
}

/// A cell's pin on a path.
#[derive(Deserialize)]
struct Pin {
    cell: String,
    port: String,
}

/// The register-to-register critical path, as reported.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CriticalPath {
    /// Where it starts: the launching cell (a flip-flop or a block RAM) and its output pin.
    pub start: String,
    /// Where it ends: the capturing cell and its pin.
    pub end: String,
    /// Logic cells on the path (LUTs, wide-function muxes, carry cells).
    pub logic_levels: usize,
    /// Its whole delay, in ns.
    pub delay_ns: f64,
    /// Of which in routing, in ns.
    pub routing_ns: f64,
}

impl NextpnrReport {
    /// Reads the report text.
    pub fn parse(text: &str) -> Result<Self, FlowError> {
        serde_json::from_str(text)
            .map_err(|e| FlowError::Tool(format!("reading the nextpnr report: {e}")))
    }

    /// The Fmax of the design's one clock, in MHz.
    pub fn fmax_mhz(&self) -> Result<f64, FlowError> {
        self.fmax
            .values()
            .map(|c| c.achieved)
            .reduce(f64::min)
            .ok_or_else(|| FlowError::Tool("nextpnr reported no clock".into()))
    }

    /// Cells of `kind` placed.
    pub fn used(&self, kind: &str) -> u64 {
        self.utilization.get(kind).map_or(0, |u| u.used)
    }

    /// The worst register-to-register path (both ends on a clock edge, not a pin).
    pub fn critical_path(&self) -> Result<CriticalPath, FlowError> {
        let path = self
            .critical_paths
            .iter()
            .find(|p| p.from.starts_with("posedge") && p.to.starts_with("posedge"))
            .ok_or_else(|| {
                FlowError::Tool("nextpnr reported no register-to-register path".into())
            })?;
        let (first, last) = match (path.path.first(), path.path.last()) {
            (Some(first), Some(last)) => (first, last),
            _ => return Err(FlowError::Tool("nextpnr reported an empty path".into())),
        };
        Ok(CriticalPath {
            start: format!("{}.{}", first.from.cell, first.from.port),
            end: format!("{}.{}", last.to.cell, last.to.port),
            logic_levels: path.path.iter().filter(|h| h.kind == "logic").count(),
            delay_ns: round3(path.path.iter().map(|h| h.delay).sum()),
            routing_ns: round3(
                path.path
                    .iter()
                    .filter(|h| h.kind == "routing")
                    .map(|h| h.delay)
                    .sum(),
            ),
        })
    }
}

/// `x` to three decimals.
pub fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// The arcs (source-sink connections) the router routed, from nextpnr's log line
/// `Routing N arcs.`
pub fn routed_arcs(log: &str) -> Option<u64> {
    log.lines().find_map(|line| {
        let rest = line.split("Routing ").nth(1)?;
        let count = rest.strip_suffix(" arcs.")?;
        count.trim().parse().ok()
    })
}

/// The routed netlist nextpnr writes with `--write`; only the routing of each net is read.
#[derive(Deserialize)]
struct Routed {
    modules: BTreeMap<String, RoutedModule>,
}

/// A module of the routed netlist.
#[derive(Deserialize)]
struct RoutedModule {
    netnames: BTreeMap<String, RoutedNet>,
}

/// A net of the routed netlist.
#[derive(Deserialize)]
struct RoutedNet {
    #[serde(default)]
    attributes: NetAttributes,
}

/// The attribute holding a net's routing: `wire;pip;strength;` per wire, the source wire with
/// an empty pip.
#[derive(Default, Deserialize)]
struct NetAttributes {
    #[serde(rename = "ROUTING", default)]
    routing: Option<String>,
}

/// The wirelength as the router left it: routing wires used, summed over every net (each
/// wire entered through a programmable switch, the net's source wire not counted).
pub fn wirelength(routed_json: &str) -> Result<u64, FlowError> {
    let routed: Routed = serde_json::from_str(routed_json)
        .map_err(|e| FlowError::Tool(format!("reading the routed netlist: {e}")))?;
    Ok(routed
        .modules
        .values()
        .flat_map(|m| m.netnames.values())
        .filter_map(|n| n.attributes.routing.as_deref())
        .map(|r| {
            r.split(';')
                .skip(1)
                .step_by(3)
                .filter(|pip| !pip.is_empty())
                .count() as u64
        })
        .sum())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routed_arcs_are_read_from_the_log() {
        let log = "Info: Setting up routing queue.\nInfo: Routing 12676 arcs.\nInfo: done\n";
        assert_eq!(routed_arcs(log), Some(12676));
        assert_eq!(routed_arcs("Info: Routing globals...\n"), None);
    }

    #[test]
    fn wirelength_counts_pips_not_source_wires() {
        let json = r#"{"modules": {"top": {"netnames": {
            "a": {"attributes": {"ROUTING": "X1/Y1/F0;;1;X2/Y1/H0;X1/Y1/F0->H0;1;X3/Y1/A0;X2/Y1/H0->A0;1;"}},
            "b": {"attributes": {}},
            "c": {"hide_name": 1}
        }}}}"#;
        assert_eq!(wirelength(json).unwrap(), 2);
    }

    #[test]
    fn the_critical_path_is_the_register_to_register_one() {
        let pin = |cell: &str, port: &str| {
            format!(r#"{{"cell": "{cell}", "port": "{port}", "loc": [0, 0]}}"#)
        };
        let hop = |kind: &str, delay: f64, net: &str| {
            format!(
                r#"{{"type": "{kind}", "delay": {delay}, "from": {}, "to": {}{net}}}"#,
                pin("a", "Q"),
                pin("b", "D")
            )
        };
        let text = format!(
            r#"{{"fmax": {{"clk": {{"achieved": 97.5, "constraint": 200}}}},
                "utilization": {{"TRELLIS_COMB": {{"used": 10, "available": 100}}}},
                "critical_paths": [
                  {{"from": "<async>", "to": "posedge clk", "path": [{}]}},
                  {{"from": "posedge clk", "to": "posedge clk", "path": [{}, {}, {}, {}, {}]}}]}}"#,
            hop("logic", 9.0, ""),
            hop("clk-to-q", 0.5, ""),
            hop("routing", 1.0, r#", "net": "x[3]""#),
            hop("logic", 0.25, ""),
            hop("routing", 0.5, r#", "net": "y""#),
            hop("setup", 0.25, ""),
        );
        let report = NextpnrReport::parse(&text).unwrap();
        assert_eq!(report.fmax_mhz().unwrap(), 97.5);
        assert_eq!(report.used("TRELLIS_COMB"), 10);
        let path = report.critical_path().unwrap();
        assert_eq!(path.start, "a.Q");
        assert_eq!(path.end, "b.D");
        assert_eq!(path.logic_levels, 1);
        assert_eq!(path.delay_ns, 2.5);
        assert_eq!(path.routing_ns, 1.5);
    }
}
