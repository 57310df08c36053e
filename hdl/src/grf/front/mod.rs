//! The EUs' front ends: the state machines that serve each EU's requests from its fast GRF, and
//! send misses, write-backs and commands to the controller.

mod control;
mod controller_answers;
mod eu_responses;
mod fast;
mod fast_entries;
mod first_dirty;
mod outboxes;

pub use control::FrontEndControl;
pub use controller_answers::FrontAnswers;
pub use eu_responses::Responses;
pub use fast::FastGrfs;
pub use fast_entries::FastEntries;
pub use first_dirty::FirstDirty;
pub use outboxes::Outboxes;

use rust_hdl::prelude::*;

use super::codes::front_state as state;
use crate::cells::regs::Registers;
use crate::grf::ports::{ControllerAnswers, EuRequests, EuResponses, Transactions};
use crate::grf::widths::{FrontState, GroupNumber, OpCode, RegIndex, ThreadIndex};
use crate::params::{GrfOp, GrfParams};
use crate::parts::logic_in_parts;
use crate::signals::constant;

/// Every EU's front end (`docs/grf.md`). Idle, a front end takes a request: a read or write
/// that hits the fast GRF is answered next cycle; a miss goes to the controller (`access`), and
/// its answer fills the fast GRF, after the victim is written back (`victim`) when it is dirty;
/// a command goes to the controller (`command`); a switch first writes back the block's dirty
/// entries one by one (`flush`). Vectors are EU-major: per EU `[e]`, per lane
/// `[e * lanes + l]`. `E` is the element width.
#[derive(LogicBlock)]
pub struct GrfFrontEnds<const E: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: every fast GRF empty, every front end idle.
    pub reset: Signal<In, Bit>,
    /// Per EU: the requests.
    pub req: EuRequests<In, Out, E>,
    /// Per EU: the responses.
    pub resp: EuResponses<Out, In, E>,
    /// Per EU: the transactions for the controller.
    pub tx: Transactions<Out, In, E>,
    /// Per EU: the controller's answers.
    pub ans: ControllerAnswers<In, Out, E>,
    /// Per EU: its decisions.
    control: Vec<FrontEndControl>,
    fast: FastGrfs<E>,
    outbox: Outboxes<E>,
    response: Responses<E>,
    state: Registers<FrontState>,
    /// The request being served: op, thread, register, data.
    rq_op: Registers<OpCode>,
    rq_thread: Registers<ThreadIndex>,
    rq_reg: Registers<RegIndex>,
    rq_data: Registers<Bits<E>>,
    /// The controller's answers as the decisions see them, and the one kept while the victim
    /// is written back.
    answers: FrontAnswers<E>,
    /// The thread and register of the block a release or a switch names: the incoming
    /// request's when idle, else the served one's. Computed apart from the fast GRF's lookup
    /// inputs, which share no local with the decisions that follow from the lookups.
    named_thread: Signal<Local, ThreadIndex>,
    named_reg: Signal<Local, RegIndex>,
    /// The front end is idle: a store is then a write hit, whose entry becomes dirty.
    idle: Signal<Local, Bit>,
    /// Per EU and lane, registered from the decisions: the front end is idle (or has just
    /// taken a miss, `FrontEndControl::data_idle`), waits for the victim's write-back, serves a
    /// write. They select the data that the lane's fill or
    /// response takes, while the decisions select whether it is taken. Each lane has its own
    /// flip-flops, marked `keep` so that synthesis keeps them apart: a select drives one lane's
    /// multiplexers, not every lane's.
    sel_idle: Registers<Bit>,
    sel_victim: Registers<Bit>,
    sel_write: Registers<Bit>,
    op_write: Constant<OpCode>,
    bit_busy: Constant<FrontState>,
    zero3: Constant<GroupNumber>,
    _eus: usize,
    _lanes: usize,
    _fast: usize,
}

impl<const E: usize> GrfFrontEnds<E> {
    /// The front ends of `params`' EUs.
    pub fn new(params: &GrfParams) -> Self {
        assert_eq!(E, params.element_bits);
        let (eus, lanes) = (params.eus, params.lanes);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            req: EuRequests::new(eus, lanes),
            resp: EuResponses::new(eus, lanes),
            tx: Transactions::new(eus, lanes),
            ans: ControllerAnswers::new(eus, lanes),
            control: (0..eus)
                .map(|_| FrontEndControl::new(params.pipeline >= 4))
                .collect(),
            fast: FastGrfs::new(params),
            outbox: Outboxes::new(params),
            response: Responses::new(params),
            state: Registers::new(eus),
            rq_op: Registers::new(eus),
            rq_thread: Registers::new(eus),
            rq_reg: Registers::new(eus),
            rq_data: Registers::new(eus * lanes),
            answers: FrontAnswers::new(params),
            named_thread: Default::default(),
            named_reg: Default::default(),
            idle: Default::default(),
            sel_idle: Registers::copies(eus * lanes, true),
            sel_victim: Registers::copies(eus * lanes, true),
            sel_write: Registers::copies(eus * lanes, true),
            op_write: constant(GrfOp::Write.code()),
            bit_busy: constant(state::BUSY),
            zero3: constant(0),
            _eus: eus,
            _lanes: lanes,
            _fast: params.fast_regs,
        }
    }
}

/// Per EU: the ports, the fast GRF's lookups, the decisions and the state and request registers,
/// the response and the transaction sent.
enum Decisions {}

/// Per EU: the fast GRF's writes, and every per-lane datum (request, answer, response).
enum Writes {}

// Each part runs its own loop over the EUs. The second reads no local of the first (`idle`,
// `named_thread`, `named_reg` are reused per EU), only per-EU signals, so it sees what the
// first decided for the same EU. Single-value loops bind lanes (nl) and fast entries (nf) for
// index arithmetic. The fast GRFs' lookup inputs come from registers and ports only, so that
// a lookup never waits for the writes decided on it.
impl<const E: usize> Logic for GrfFrontEnds<E> {
    logic_in_parts!(Decisions, Writes);
}

impl<const E: usize> crate::parts::Part<Decisions> for GrfFrontEnds<E> {
    #[hdl_gen]
    fn update(&mut self) {
        self.fast.clock.next = self.clock.val();
        self.outbox.clock.next = self.clock.val();
        self.response.clock.next = self.clock.val();
        self.fast.reset.next = self.reset.val();
        self.outbox.reset.next = self.reset.val();
        self.response.reset.next = self.reset.val();
        self.state.clock.next = self.clock.val();
        self.sel_idle.clock.next = self.clock.val();
        self.sel_victim.clock.next = self.clock.val();
        self.sel_write.clock.next = self.clock.val();
        self.rq_op.clock.next = self.clock.val();
        self.rq_thread.clock.next = self.clock.val();
        self.rq_reg.clock.next = self.clock.val();
        self.rq_data.clock.next = self.clock.val();
        self.answers.clock.next = self.clock.val();
        self.answers.reset.next = self.reset.val();
        for e in 0..self._eus {
            self.idle.next = !(self.state.q[e].val() & self.bit_busy.val()).any();
            self.req.ready[e].next = self.idle.val() & !self.reset.val();
            self.resp.valid[e].next = self.response.valid[e].val();
            self.resp.status[e].next = self.response.status_out[e].val();
            self.tx.valid[e].next = self.outbox.valid[e].val();
            self.tx.kind[e].next = self.outbox.kind[e].val();
            self.tx.thread[e].next = self.outbox.thread[e].val();
            self.tx.reg[e].next = self.outbox.reg_index[e].val();
            self.tx.group[e].next = self.outbox.group[e].val();
            self.outbox.take[e].next = self.tx.take[e].val();
            // Lookups: the incoming request, the served one, and the block a
            // release or switch names (the incoming one's when idle, else the served).
            self.fast.req_thread[e].next = self.req.thread[e].val();
            self.fast.req_reg[e].next = self.req.reg[e].val();
            self.fast.rq_thread[e].next = self.rq_thread.q[e].val();
            self.fast.rq_reg[e].next = self.rq_reg.q[e].val();
            self.fast.idle[e].next = self.idle.val();
            // Decisions; state and request registers (the taken request's, or kept).
            self.control[e].reset.next = self.reset.val();
            self.control[e].state.next = self.state.q[e].val();
            self.control[e].req_valid.next = self.req.valid[e].val();
            self.control[e].req_op.next = self.req.op[e].val();
            self.control[e].rq_op.next = self.rq_op.q[e].val();
            self.answers.state[e].next = self.state.q[e].val();
            self.answers.rq_op[e].next = self.rq_op.q[e].val();
            self.answers.ans_valid[e].next = self.ans.valid[e].val();
            self.answers.ans_status[e].next = self.ans.status[e].val();
            self.answers.ans_plain[e].next = self.ans.plain[e].val();
            self.answers.keep[e].next = self.control[e].keep_answer.val();
            self.control[e].ans_status.next = self.answers.status[e].val();
            self.control[e].ans_plain.next = self.answers.plain[e].val();
            self.control[e].ans_access.next = self.answers.access[e].val();
            self.control[e].ans_victim.next = self.answers.victim[e].val();
            self.control[e].ans_flush.next = self.answers.flush[e].val();
            self.control[e].ans_command.next = self.answers.command[e].val();
            self.control[e].rq_write.next = self.answers.write[e].val();
            self.control[e].hit.next = self.fast.hit[e].val();
            self.control[e].victim_dirty.next = self.fast.victim_dirty[e].val();
            self.control[e].found.next = self.fast.found[e].val();
            self.named_thread.next = self.rq_thread.q[e].val();
            self.named_reg.next = self.rq_reg.q[e].val();
            if self.idle.val() {
                self.named_thread.next = self.req.thread[e].val();
                self.named_reg.next = self.req.reg[e].val();
            }
            self.state.d[e].next = self.control[e].next_state.val();
            self.rq_op.d[e].next = self.control[e].op.val();
            self.rq_thread.d[e].next = self.named_thread.val();
            self.rq_reg.d[e].next = self.named_reg.val();
            // The response and the transaction sent.
            self.response.respond[e].next = self.control[e].respond.val();
            self.response.status[e].next = self.control[e].status.val();
            self.response.from_hit[e].next = self.control[e].take_read.val();
            self.response.hit_pending[e].next = self.fast.hit_pending[e].val();
            self.response.from_answer[e].next = self.control[e].respond_answer.val();
            self.response.from_kept[e].next = self.control[e].respond_kept.val();
            self.outbox.from_victim[e].next = self.control[e].send_victim.val();
            self.outbox.from_found[e].next = self.control[e].send_found.val();
            self.outbox.send[e].next = self.control[e].send.val();
            self.outbox.send_kind[e].next = self.control[e].send_kind.val();
            self.outbox.send_thread[e].next = self.named_thread.val();
            self.outbox.send_reg[e].next = self.named_reg.val();
            self.outbox.victim_thread[e].next = self.fast.victim_thread[e].val();
            self.outbox.victim_reg[e].next = self.fast.victim_reg[e].val();
            self.outbox.found_reg[e].next = self.fast.found_reg[e].val();
            self.outbox.send_group[e].next = self.zero3.val();
            if self.control[e].send_group.val() {
                self.outbox.send_group[e].next = self.req.group[e].val();
            }
            // What the fast GRF stores (the writes: `Writes`). A write hit is taken only when
            // idle, a fill only when waiting, so the dirty bit stored follows the state and
            // the served op.
            self.fast.set.dirty[e].next = self.idle.val() | self.answers.write[e].val();
            self.fast.set.thread[e].next = self.named_thread.val();
            self.fast.set.reg[e].next = self.named_reg.val();
        }
    }
}

impl<const E: usize> crate::parts::Part<Writes> for GrfFrontEnds<E> {
    #[hdl_gen]
    fn update(&mut self) {
        for nl in self._lanes..(self._lanes + 1) {
            for nf in self._fast..(self._fast + 1) {
                for e in 0..self._eus {
                    // The fast GRF's writes: write hit, fill, flush write-back, drop; the value
                    // stored follows the state and the served op.
                    for i in 0..self._fast {
                        self.fast.set.slot[e * nf + i].next = (self.control[e].take_write.val()
                            & self.fast.hit_slot[e * nf + i].val())
                            | (self.control[e].fill.val() & self.fast.rq_slot[e * nf + i].val());
                        self.fast.clean[e * nf + i].next =
                            self.control[e].flush.val() & self.fast.found_slot[e * nf + i].val();
                        self.fast.drop[e * nf + i].next =
                            self.control[e].drop.val() & self.fast.in_block[e * nf + i].val();
                    }
                    self.fast.hold[e].next = self.control[e].hold.val();
                    self.fast.flush[e].next = self.control[e].flush.val();
                    for l in 0..self._lanes {
                        self.rq_data.d[e * nl + l].next = self.rq_data.q[e * nl + l].val();
                        if self.control[e].accept.val() {
                            self.rq_data.d[e * nl + l].next = self.req.data[e * nl + l].val();
                        }
                        self.answers.ans_data[e * nl + l].next = self.ans.data[e * nl + l].val();
                        self.response.hit_data[e * nl + l].next =
                            self.fast.hit_data[e * nl + l].val();
                        self.response.pending_data[e * nl + l].next =
                            self.fast.pending_data[e * nl + l].val();
                        self.response.answer_data[e * nl + l].next =
                            self.answers.data[e * nl + l].val();
                        self.response.kept_data[e * nl + l].next =
                            self.answers.kept[e * nl + l].val();
                        self.outbox.request_data[e * nl + l].next = self.req.data[e * nl + l].val();
                        self.outbox.victim_data[e * nl + l].next =
                            self.fast.victim_data[e * nl + l].val();
                        self.outbox.found_data[e * nl + l].next =
                            self.fast.found_data[e * nl + l].val();
                        self.sel_idle.d[e * nl + l].next = self.control[e].data_idle.val();
                        self.sel_victim.d[e * nl + l].next = self.control[e].next_victim.val();
                        self.sel_write.d[e * nl + l].next =
                            self.control[e].op.val() == self.op_write.val();
                        self.response.load_hit[e * nl + l].next = self.sel_idle.q[e * nl + l].val();
                        self.response.load_kept[e * nl + l].next =
                            self.sel_victim.q[e * nl + l].val();
                        self.fast.set.data[e * nl + l].next = self.answers.data[e * nl + l].val();
                        if self.sel_victim.q[e * nl + l].val() {
                            self.fast.set.data[e * nl + l].next =
                                self.answers.kept[e * nl + l].val();
                        }
                        if self.sel_write.q[e * nl + l].val() {
                            self.fast.set.data[e * nl + l].next = self.rq_data.q[e * nl + l].val();
                        }
                        if self.sel_idle.q[e * nl + l].val() {
                            self.fast.set.data[e * nl + l].next = self.req.data[e * nl + l].val();
                        }
                        self.resp.data[e * nl + l].next = self.response.data_out[e * nl + l].val();
                        self.tx.data[e * nl + l].next = self.outbox.data[e * nl + l].val();
                    }
                }
            }
        }
    }
}
