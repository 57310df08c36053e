//! The hierarchical GRF of one execution cluster: the EUs' front ends and fast GRFs, the
//! controller and the slow GRF's SRAM banks.

use rust_hdl::prelude::*;

use super::controller::GrfController;
use super::front::GrfFrontEnds;
use crate::checkers::CollisionChecker;
use crate::grf::ports::{EuRequests, EuResponses, L3Port};
use crate::params::GrfParams;
use crate::sram::SramBank;

/// The hierarchical GRF (SPEC S3, `docs/grf.md`). `E` is the element width, `A` the slow GRF's
/// row-address width (`slow_regs = 2^A`). Vectors indexed by EU and lane are EU-major
/// (`eu * lanes + l`).
#[derive(LogicBlock)]
pub struct GrfCluster<const E: usize, const A: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: fast GRFs empty, table back to its pre-allocation, groups unbound.
    pub reset: Signal<In, Bit>,
    /// Per EU: the requests.
    pub req: EuRequests<In, Out, E>,
    /// Per EU: the responses.
    pub resp: EuResponses<Out, In, E>,
    /// The L3 port.
    pub l3: L3Port<Out, In, E, A>,
    front: GrfFrontEnds<E>,
    controller: GrfController<E, A>,
    banks: Vec<SramBank<E, A>>,
    /// Simulation-only: the slow GRF never reads the row it writes ([`slow_collision_checks`]).
    slow_check: CollisionChecker<A>,
    _eus: usize,
    _lanes: usize,
}

impl<const E: usize, const A: usize> GrfCluster<E, A> {
    /// The cluster for `params` (validated; `E` and `A` must match).
    pub fn new(params: &GrfParams) -> Self {
        let (eus, lanes) = (params.eus, params.lanes);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            req: EuRequests::new(eus, lanes),
            resp: EuResponses::new(eus, lanes),
            l3: L3Port::new(lanes),
            front: GrfFrontEnds::new(params),
            controller: GrfController::new(params),
            banks: (0..lanes).map(|_| SramBank::default()).collect(),
            slow_check: slow_collision_checks(),
            _eus: eus,
            _lanes: lanes,
        }
    }
}

impl<const E: usize, const A: usize> Logic for GrfCluster<E, A> {
    #[hdl_gen]
    fn update(&mut self) {
        self.front.clock.next = self.clock.val();
        self.controller.clock.next = self.clock.val();
        self.front.reset.next = self.reset.val();
        self.controller.reset.next = self.reset.val();
        for nl in self._lanes..(self._lanes + 1) {
            for e in 0..self._eus {
                self.front.req.valid[e].next = self.req.valid[e].val();
                self.front.req.op[e].next = self.req.op[e].val();
                self.front.req.thread[e].next = self.req.thread[e].val();
                self.front.req.reg[e].next = self.req.reg[e].val();
                self.front.req.group[e].next = self.req.group[e].val();
                self.req.ready[e].next = self.front.req.ready[e].val();
                self.resp.valid[e].next = self.front.resp.valid[e].val();
                self.resp.status[e].next = self.front.resp.status[e].val();
                self.controller.tx.valid[e].next = self.front.tx.valid[e].val();
                self.controller.tx.kind[e].next = self.front.tx.kind[e].val();
                self.controller.tx.thread[e].next = self.front.tx.thread[e].val();
                self.controller.tx.reg[e].next = self.front.tx.reg[e].val();
                self.controller.tx.group[e].next = self.front.tx.group[e].val();
                self.front.tx.take[e].next = self.controller.tx.take[e].val();
                self.front.ans.valid[e].next = self.controller.ans.valid[e].val();
                self.front.ans.status[e].next = self.controller.ans.status[e].val();
                self.front.ans.plain[e].next = self.controller.ans.plain[e].val();
                for l in 0..self._lanes {
                    self.front.req.data[e * nl + l].next = self.req.data[e * nl + l].val();
                    self.resp.data[e * nl + l].next = self.front.resp.data[e * nl + l].val();
                    self.controller.tx.data[e * nl + l].next = self.front.tx.data[e * nl + l].val();
                    self.front.ans.data[e * nl + l].next =
                        self.controller.ans.data[e * nl + l].val();
                }
            }
        }
        // The slow GRF: one bank per lane, addressed together by the controller.
        for l in 0..self._lanes {
            self.banks[l].clock.next = self.clock.val();
            self.banks[l].read_enable.next = self.controller.sram.read.val();
            self.banks[l].read_address.next = self.controller.sram.read_row.val();
            self.banks[l].write_enable.next = self.controller.sram.write.val();
            self.banks[l].write_address.next = self.controller.sram.write_row.val();
            self.banks[l].write_data.next = self.controller.sram.write_data[l].val();
            self.controller.sram.read_data[l].next = self.banks[l].read_data.val();
            self.l3.data[l].next = self.controller.l3.data[l].val();
            self.controller.l3.rdata[l].next = self.l3.rdata[l].val();
        }
        self.slow_check.clock.next = self.clock.val();
        self.slow_check.read_enable[0].next = self.controller.sram.read.val();
        self.slow_check.read_address[0].next = self.controller.sram.read_row.val();
        self.slow_check.write_enable[0].next = self.controller.sram.write.val();
        self.slow_check.write_address[0].next = self.controller.sram.write_row.val();
        self.l3.valid.next = self.controller.l3.valid.val();
        self.l3.write.next = self.controller.l3.write.val();
        self.l3.area.next = self.controller.l3.area.val();
        self.l3.row.next = self.controller.l3.row.val();
        self.controller.l3.rvalid.next = self.l3.rvalid.val();
    }
}

/// The slow GRF's banks (1W1R, one per lane, addressed together): never read at the row
/// written in the same cycle, `grf: slow GRF reads row <r> while writing it (1W1R: the data
/// is undefined)`.
pub(crate) fn slow_collision_checks<const A: usize>() -> CollisionChecker<A> {
    CollisionChecker::new(["grf: slow GRF".to_string()], false)
}
