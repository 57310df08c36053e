//! The router's two-stage network against one full N x N crossbar, by synthesized cost.

use grfgen_hdl::emit::Timing;
use grfgen_hdl::params::{RouteFullParams, RouteParams};
use grfgen_hdl::route::{Route, RouteFull};
use serde::Serialize;

use crate::steps::write_design;
use crate::tools::{synth, SynthTarget};
use crate::FlowError;

/// Yosys generic cells of both networks for one group size.
#[derive(Clone, Debug, Serialize)]
pub struct NetworkCells {
    /// Lanes N.
    pub lanes: usize,
    /// Crossbar size q of the two-stage network.
    pub crossbar: usize,
    /// Bits per lane.
    pub element_bits: usize,
    /// The document's two-stage network (combinational).
    pub two_stage: u64,
    /// One full N x N crossbar.
    pub full_crossbar: u64,
}

/// The two networks side by side.
#[derive(Clone, Debug, Serialize)]
pub struct NetworkComparison {
    /// One row per group size.
    pub cells: Vec<NetworkCells>,
}

impl NetworkComparison {
    /// The comparison as a table.
    pub fn text(&self) -> String {
        let mut text =
            String::from("yosys synth cells, combinational network (two-stage vs full crossbar)\n");
        for c in &self.cells {
            text += &format!(
                "  N={:2} q={} {}-bit: two-stage {:>7}  full crossbar {:>7}\n",
                c.lanes, c.crossbar, c.element_bits, c.two_stage, c.full_crossbar
            );
        }
        text.trim_end().to_string()
    }
}

/// Synthesizes (Yosys generic) the two-stage network with crossbar size `crossbar` and the
/// full crossbar for 16, 32 and 64 lanes of `element_bits`.
pub fn route_networks(
    crossbar: usize,
    element_bits: usize,
) -> Result<NetworkComparison, FlowError> {
    let work = grfgen_support::interrupt::Scratch::new("grfgen-route-")?;
    let timing = Timing::new(200.0, None)?;
    let mut cells = Vec::new();
    for lanes in [16usize, 32, 64] {
        let two_stage = RouteParams {
            lanes,
            crossbar,
            element_bits,
            registered: false,
            pipeline: 0,
        };
        let full = RouteFullParams {
            lanes,
            element_bits,
        };
        let dir = work.path().join(format!("two_stage_{lanes}"));
        write_design::<Route>(&two_stage, "two_stage", &dir, timing)?;
        let two_stage_cells = synth(&dir, "two_stage", SynthTarget::Generic)?.cells;
        let dir = work.path().join(format!("full_{lanes}"));
        write_design::<RouteFull>(&full, "full_crossbar", &dir, timing)?;
        cells.push(NetworkCells {
            lanes,
            crossbar,
            element_bits,
            two_stage: two_stage_cells,
            full_crossbar: synth(&dir, "full_crossbar", SynthTarget::Generic)?.cells,
        });
    }
    Ok(NetworkComparison { cells })
}
