//! The controller's answers to the EUs, registered for the next cycle.

use rust_hdl::prelude::*;

use crate::cells::regs::Registers;
use crate::grf::ports::ControllerAnswers;
use crate::grf::widths::{EuNumber, StatusCode};
use crate::params::{GrfParams, GrfStatus};
use crate::signals::{constant, constants, signals};

/// The answers (`docs/grf.md`). An answer decided this cycle is visible next cycle; in order of
/// precedence, the later winning for one EU: the taken transaction's, a dying group's waiters
/// turned away, an opening barrier's waiters let through, the serving EU's (a redirected read's
/// data from L3, or the end of a save), a slow read's answer leaving the pipeline (its data is
/// the pipeline's output in that cycle). `E` is the element width.
#[derive(LogicBlock)]
pub struct AnswerUnit<const E: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: no answer pending.
    pub reset: Signal<In, Bit>,
    /// Per EU: its transaction is taken this cycle.
    pub taken: Vec<Signal<In, Bit>>,
    /// The taken transaction is answered next cycle.
    pub answer: Signal<In, Bit>,
    /// Its status.
    pub status: Signal<In, StatusCode>,
    /// Its shared bit.
    pub shared: Signal<In, Bit>,
    /// Per EU: turned away by a dying group.
    pub turned_away: Vec<Signal<In, Bit>>,
    /// Per EU: let through by an opening barrier.
    pub open: Vec<Signal<In, Bit>>,
    /// Answer the serving EU.
    pub serve: Signal<In, Bit>,
    /// The serving EU.
    pub serve_eu: Signal<In, EuNumber>,
    /// Its shared bit.
    pub serve_shared: Signal<In, Bit>,
    /// Its data, one element per lane.
    pub serve_data: Vec<Signal<In, Bits<E>>>,
    /// Per EU: a read's answer to it leaves the slow-read pipeline next cycle.
    pub pipe_next: Vec<Signal<In, Bit>>,
    /// Its shared bit.
    pub pipe_next_shared: Signal<In, Bit>,
    /// The data of the read leaving the pipeline this cycle, one element per lane.
    pub pipe_data: Vec<Signal<In, Bits<E>>>,
    /// Per EU: the controller's answers.
    pub ans: ControllerAnswers<Out, In, E>,
    a_valid: Registers<Bit>,
    a_status: Registers<StatusCode>,
    /// Per EU: the answer is ok and not shared, decided before the register so that the front
    /// ends' decisions read one bit.
    a_plain: Registers<Bit>,
    /// The status being decided for one EU.
    status_d: Signal<Local, StatusCode>,
    /// The taken transaction's answer is ok and not shared.
    taken_plain: Signal<Local, Bit>,
    a_data: Registers<Bits<E>>,
    /// Per EU: the answer's data is the pipeline's.
    a_pipe: Registers<Bit>,
    s_ok: Constant<StatusCode>,
    s_no_group: Constant<StatusCode>,
    zero_e: Constant<Bits<E>>,
    eu_number: Vec<Constant<EuNumber>>,
    _eus: usize,
    _lanes: usize,
}

impl<const E: usize> AnswerUnit<E> {
    /// The answers for `params`' EUs and lanes.
    pub fn new(params: &GrfParams) -> Self {
        let (eus, lanes) = (params.eus, params.lanes);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            taken: signals(eus),
            answer: Default::default(),
            status: Default::default(),
            shared: Default::default(),
            turned_away: signals(eus),
            open: signals(eus),
            serve: Default::default(),
            serve_eu: Default::default(),
            serve_shared: Default::default(),
            serve_data: signals(lanes),
            pipe_next: signals(eus),
            pipe_next_shared: Default::default(),
            pipe_data: signals(lanes),
            ans: ControllerAnswers::new(eus, lanes),
            a_valid: Registers::new(eus),
            a_status: Registers::new(eus),
            a_plain: Registers::new(eus),
            status_d: Default::default(),
            a_data: Registers::new(eus * lanes),
            a_pipe: Registers::new(eus),
            taken_plain: Default::default(),
            s_ok: constant(GrfStatus::Ok.code()),
            s_no_group: constant(GrfStatus::NoSuchGroup.code()),
            zero_e: constant(0),
            eu_number: constants(0..eus as u64),
            _eus: eus,
            _lanes: lanes,
        }
    }
}

impl<const E: usize> Logic for AnswerUnit<E> {
    // A single-value loop binds the lanes (nl) for index arithmetic.
    #[hdl_gen]
    fn update(&mut self) {
        self.a_valid.clock.next = self.clock.val();
        self.a_status.clock.next = self.clock.val();
        self.a_plain.clock.next = self.clock.val();
        self.a_data.clock.next = self.clock.val();
        self.a_pipe.clock.next = self.clock.val();
        self.taken_plain.next = (self.status.val() == self.s_ok.val()) & !self.shared.val();
        for nl in self._lanes..(self._lanes + 1) {
            for e in 0..self._eus {
                // Next cycle's answer.
                self.a_valid.d[e].next = false;
                self.status_d.next = self.s_ok.val();
                for l in 0..self._lanes {
                    self.a_data.d[e * nl + l].next = self.zero_e.val();
                }
                if self.taken[e].val() {
                    self.a_valid.d[e].next = self.answer.val();
                    self.status_d.next = self.status.val();
                }
                if self.turned_away[e].val() {
                    self.a_valid.d[e].next = true;
                    self.status_d.next = self.s_no_group.val();
                }
                if self.open[e].val() {
                    self.a_valid.d[e].next = true;
                    self.status_d.next = self.s_ok.val();
                }
                if self.serve.val() & (self.serve_eu.val() == self.eu_number[e].val()) {
                    self.a_valid.d[e].next = true;
                    for l in 0..self._lanes {
                        self.a_data.d[e * nl + l].next = self.serve_data[l].val();
                    }
                }
                self.a_pipe.d[e].next = self.pipe_next[e].val();
                if self.pipe_next[e].val() {
                    self.a_valid.d[e].next = true;
                }
                if self.reset.val() {
                    self.a_valid.d[e].next = false;
                }
                self.a_status.d[e].next = self.status_d.val();
                // An EU has one transaction outstanding, so at most one of the answers above
                // is its own in a cycle (a taken transaction without an answer gives none):
                // the plain bit is an OR of each answer's, not the precedence's outcome.
                self.a_plain.d[e].next =
                    (self.taken[e].val() & self.answer.val() & self.taken_plain.val())
                        | self.open[e].val()
                        | (self.serve.val()
                            & (self.serve_eu.val() == self.eu_number[e].val())
                            & !self.serve_shared.val())
                        | (self.pipe_next[e].val() & !self.pipe_next_shared.val());
                // This cycle's, with the pipeline's data for its answer.
                self.ans.valid[e].next = self.a_valid.q[e].val();
                self.ans.status[e].next = self.a_status.q[e].val();
                self.ans.plain[e].next = self.a_plain.q[e].val();
                for l in 0..self._lanes {
                    self.ans.data[e * nl + l].next = self.a_data.q[e * nl + l].val();
                }
                if self.a_pipe.q[e].val() {
                    for l in 0..self._lanes {
                        self.ans.data[e * nl + l].next = self.pipe_data[l].val();
                    }
                }
            }
        }
    }
}
