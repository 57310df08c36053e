//! Simulation-only assertions on the wave slots' allocations.

use rust_hdl::prelude::*;

use crate::emit::INLINE;
use crate::params::POOL_BITS;
use crate::signals::signals;

/// Checks the slots' allocations at every rising edge, in simulation only (the Verilog is
/// inside `ifndef SYNTHESIS`, written into its parent like every checker of
/// [`crate::checkers`]; synthesis sees nothing). It reports with `$error`:
///
/// * the resident allocations together take more granules than the pool has;
/// * a launch takes a granule that another allocation holds after the edge;
/// * a resident wave's allocation changes before it retires.
///
/// Two allocations can come to share a granule only when one of them launches or changes
/// while resident, so checking the launches (and the changes) from the empty pool checks
/// every cycle's allocations: a wave's check costs nothing in a cycle it does not launch,
/// where the pairs of every resident slot took half the Verilated model's time.
///
/// Whether an allocation covers its wave's path is the draw's business, not the
/// allocator's: the co-simulation checks it (`docs/alloc.md`).
#[derive(LogicBlock)]
pub struct AllocationChecker {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Per slot: resident.
    pub valid: Vec<Signal<In, Bit>>,
    /// Per slot: first granule.
    pub base: Vec<Signal<In, Bits<POOL_BITS>>>,
    /// Per slot: granules.
    pub count: Vec<Signal<In, Bits<POOL_BITS>>>,
    /// Per slot: resident after the edge.
    pub next_valid: Vec<Signal<In, Bit>>,
    /// Per slot: first granule after the edge.
    pub next_base: Vec<Signal<In, Bits<POOL_BITS>>>,
    /// Per slot: granules after the edge.
    pub next_count: Vec<Signal<In, Bits<POOL_BITS>>>,
    _granules: usize,
}

impl AllocationChecker {
    /// The checker of `slots` slots over `granules` granules.
    pub fn new(slots: usize, granules: usize) -> Self {
        Self {
            clock: Signal::default(),
            valid: signals(slots),
            base: signals(slots),
            count: signals(slots),
            next_valid: signals(slots),
            next_base: signals(slots),
            next_count: signals(slots),
            _granules: granules,
        }
    }

    /// The checks of slot `s` alone and, when it launches, of its allocation after the edge
    /// against every other slot's: one launching with it (checked from the higher of the
    /// two), or resident.
    fn checks(&self, s: usize) -> String {
        let mut text = format!(
            "    if (valid${s} && next_valid${s} && (next_base${s} != base${s} || next_count${s} != count${s}))\n      \
             $error(\"alloc: slot {s}'s allocation changed while resident\");\n    \
             if (!valid${s} && next_valid${s} && next_count${s} != 0) begin\n"
        );
        for t in (0..self.valid.len()).filter(|&t| t != s) {
            let other = match t < s {
                true => format!("next_valid${t}"),
                false => format!("valid${t} && next_valid${t}"),
            };
            text += &format!(
                "      if ({other} && next_count${t} != 0 && \
                 next_base${s} < next_base${t} + next_count${t} && \
                 next_base${t} < next_base${s} + next_count${s})\n        \
                 $error(\"alloc: slots {} and {} share a granule\");\n",
                t.min(s),
                t.max(s)
            );
        }
        text + "    end\n"
    }
}

impl Logic for AllocationChecker {
    fn update(&mut self) {}

    fn connect(&mut self) {}

    fn hdl(&self) -> Verilog {
        let pad = 32 - POOL_BITS;
        let sum: String = (0..self.valid.len())
            .map(|s| format!("    if (valid${s}) total = total + {{{pad}'d0, count${s}}};\n"))
            .collect();
        let checks: String = (0..self.valid.len()).map(|s| self.checks(s)).collect();
        Verilog::Custom(format!(
            "{INLINE}\n`ifndef SYNTHESIS\nreg [31:0] total;\n\
             always @(*) begin\n    total = 32'd0;\n{sum}end\n\
             always @(posedge clock) begin\n{checks}    if (total > 32'd{granules})\n      \
             $error(\"alloc: allocations take %0d granules, more than the pool's {granules}\", total);\n\
             end\n`endif\n",
            granules = self._granules
        ))
    }
}
