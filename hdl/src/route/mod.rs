//! The SIMD shift-and-fill operand router (SPEC S2): decoder, register select, the front stage,
//! the two networks, the combinational network, the registered and optionally pipelined
//! router, and a full-crossbar network for comparison.

mod above;
mod control;
mod decoder;
mod fills;
mod full;
mod network;
mod register_select;
mod router;
mod select_decode;
mod shuffle;
mod stages;
pub mod widths;

pub use above::AboveConstants;
pub use control::ControlDecode;
pub use decoder::RouteDecoder;
pub use fills::{FillDecode, FillTerms, Fills};
pub use full::FullCrossbarNetwork;
pub use network::RouteNetwork;
pub use register_select::RegisterSelect;
pub use router::ShiftFillRouter;
pub use select_decode::SelectDecode;
pub use shuffle::ShuffleDecode;
pub use stages::{LaneMuxes, QuadCrossbars};

use crate::cells::crossbar::Crossbar;
use crate::design::Design;
use crate::emit::{emit, part, EmitError, Emitted, PortOrder};
use crate::params::{RouteFullParams, RouteParams};
use crate::widths::{dispatch, WidthOp};

/// Runs `op` with element width `E` from `element_bits` (the router has no other width).
fn with_route_widths<V: WidthOp>(element_bits: usize, op: V) -> V::Output {
    dispatch!(op, (element_bits, 1, 1), E in [8, 16, 32, 64], (A, R) in [(1, 1)])
}

/// The shift-and-fill router as a design: `grfgen emit route`. Registered, it is
/// [`ShiftFillRouter`]; otherwise the bare [`RouteNetwork`].
pub struct Route;

impl Design for Route {
    type Params = RouteParams;
    const NAME: &'static str = "route";
    const TITLE: &'static str = "SIMD shift-and-fill operand router: N/q quad crossbars, \
         register select, per-lane (N/q):1 muxes";
    const SPEC: &'static str = "S2";
    const MEMORIES: Option<&'static str> = None;
    const PORT_ORDER: PortOrder = &[("xbar_pos", "first-stage crossbar, then its output")];

    fn build(params: &RouteParams, top: &str) -> Result<Emitted, EmitError> {
        struct Build<'a>(&'a RouteParams, &'a str);
        impl WidthOp for Build<'_> {
            type Output = Result<Emitted, EmitError>;
            fn run<const E: usize, const A: usize, const R: usize>(self) -> Self::Output {
                match self.0.registered {
                    true => emit(
                        &mut ShiftFillRouter::<E>::new(self.0),
                        self.1,
                        Route::PORT_ORDER,
                    ),
                    false => emit(
                        &mut RouteNetwork::<E>::new(self.0),
                        self.1,
                        Route::PORT_ORDER,
                    ),
                }
            }
        }
        with_route_widths(params.element_bits, Build(params, top))
    }

    fn parts(params: &RouteParams) -> Result<Vec<Emitted>, EmitError> {
        struct Parts<'a>(&'a RouteParams);
        impl WidthOp for Parts<'_> {
            type Output = Result<Vec<Emitted>, EmitError>;
            fn run<const E: usize, const A: usize, const R: usize>(self) -> Self::Output {
                let p = self.0;
                let positions: Vec<u64> = (0..p.crossbar as u64).collect();
                let mut parts = vec![
                    part("route_control_decode", ControlDecode::new(p))?,
                    part("route_position_compare", AboveConstants::new(&positions))?,
                    part("route_fill_decode", FillDecode::new(p))?,
                    part("route_shuffle_decode", ShuffleDecode::new(p))?,
                    part("route_select_decode", SelectDecode::new(p))?,
                    part("route_decoder", RouteDecoder::new(p))?,
                    part("route_register_select", RegisterSelect::<E>::new(p.lanes))?,
                    part("route_quad_crossbars", QuadCrossbars::<E>::new(p))?,
                    part("route_lane_muxes", LaneMuxes::<E>::new(p))?,
                ];
                if p.registered {
                    parts.push(part("route_network", RouteNetwork::<E>::new(p))?);
                }
                Ok(parts)
            }
        }
        with_route_widths(params.element_bits, Parts(params))
    }

    fn derived(params: &RouteParams) -> Vec<(&'static str, u64)> {
        vec![
            ("crossbars", params.crossbars() as u64),
            ("crossbar_size", params.crossbar as u64),
            ("lane_mux_inputs", params.crossbars() as u64),
            ("lane_muxes", params.lanes as u64),
            ("index_bits", widths::INDEX_BITS as u64),
            ("latency_cycles", params.latency() as u64),
        ]
    }
}

/// The comparison network as a design: `grfgen emit route-full`, one full N x N crossbar.
pub struct RouteFull;

impl Design for RouteFull {
    type Params = RouteFullParams;
    const NAME: &'static str = "route-full";
    const TITLE: &'static str = "Comparison network: the router's operations on one full \
         N x N crossbar, combinational";
    const SPEC: &'static str = "S2";
    const MEMORIES: Option<&'static str> = None;
    const PORT_ORDER: PortOrder = &[];

    fn build(params: &RouteFullParams, top: &str) -> Result<Emitted, EmitError> {
        struct Build<'a>(&'a RouteParams, &'a str);
        impl WidthOp for Build<'_> {
            type Output = Result<Emitted, EmitError>;
            fn run<const E: usize, const A: usize, const R: usize>(self) -> Self::Output {
                emit(&mut FullCrossbarNetwork::<E>::new(self.0), self.1, &[])
            }
        }
        let router = params.router();
        with_route_widths(params.element_bits, Build(&router, top))
    }

    fn parts(params: &RouteFullParams) -> Result<Vec<Emitted>, EmitError> {
        struct Parts<'a>(&'a RouteParams);
        impl WidthOp for Parts<'_> {
            type Output = Result<Vec<Emitted>, EmitError>;
            fn run<const E: usize, const A: usize, const R: usize>(self) -> Self::Output {
                let (p, n) = (self.0, self.0.lanes);
                Ok(vec![
                    part("route_full_control_decode", ControlDecode::new(p))?,
                    part("route_full_shuffle_decode", ShuffleDecode::new(p))?,
                    part("route_full_decoder", RouteDecoder::new(p))?,
                    part("route_full_register_select", RegisterSelect::<E>::new(n))?,
                    part("route_full_crossbar", Crossbar::<E>::new(n, n, 1))?,
                ])
            }
        }
        let router = params.router();
        with_route_widths(params.element_bits, Parts(&router))
    }

    fn derived(params: &RouteFullParams) -> Vec<(&'static str, u64)> {
        vec![
            ("crossbar_inputs", params.lanes as u64),
            ("index_bits", widths::INDEX_BITS as u64),
        ]
    }
}
