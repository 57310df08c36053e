//! The model's controller: it takes one transaction at a time from the front ends, round
//! robin, and answers it from the translation table, the groups and the slow GRF.

use grfgen_hdl::params::{GrfParams, GrfStatus};

use super::*;
use crate::bits::element_mask;

impl GrfModel {
    /// The controller for one cycle: a busy controller advances, a free one takes the next
    /// transaction (with the pick stage, the one picked in an earlier cycle). `next` collects
    /// the answers visible next cycle; `slow_write_now` is set when it writes the slow GRF.
    pub(super) fn control(
        &mut self,
        t: u64,
        l3_answer: &Option<Vec<u64>>,
        next: &mut [Option<Answer>],
        out: &mut GrfCycle,
        slow_write_now: &mut bool,
    ) {
        let free = self.advance(t, l3_answer, next, out);
        let taken = match (free, self.params.pipeline) {
            (false, _) => None,
            (true, 0) => self.pick(),
            (true, _) => self.stage.take(),
        };
        if let Some((eu, tx)) = taken {
            self.decide(t, eu, tx, next, out, slow_write_now);
        }
        // The pick stage loads when it is empty or its transaction was taken.
        if self.params.pipeline > 0 && self.stage.is_none() {
            self.stage = self.pick();
        }
    }

    /// Round robin: the first EU after the one served last with a transaction waiting, and
    /// its transaction, taken from its outbox.
    fn pick(&mut self) -> Option<(usize, Transaction)> {
        let eus = self.params.eus;
        let eu = (1..=eus)
            .map(|k| (self.last_served + k) % eus)
            .find(|&e| self.front[e].central.is_some())?;
        self.last_served = eu;
        let tx = self.front[eu].central.take()?;
        Some((eu, tx))
    }

    /// Decides EU `eu`'s transaction `tx`.
    fn decide(
        &mut self,
        t: u64,
        eu: usize,
        tx: Transaction,
        next: &mut [Option<Answer>],
        out: &mut GrfCycle,
        slow_write_now: &mut bool,
    ) {
        let vb = tx.reg / GrfParams::BLOCK;
        let slot = tx.thread * self.params.virtual_blocks + vb;
        let map = self.table[slot];
        match tx.kind {
            Kind::Read | Kind::WriteMiss | Kind::Write | Kind::Writeback if !map.valid => {
                next[eu] = Some(self.fault(GrfStatus::Unmapped));
            }
            Kind::Read | Kind::WriteMiss | Kind::Write | Kind::Writeback => {
                self.access(t, eu, &tx, map, next, out, slow_write_now);
            }
            Kind::Alloc => next[eu] = Some(self.alloc(&tx, slot, vb, map)),
            Kind::Release => self.release(eu, slot, map, next),
            Kind::Wait => self.wait(eu, tx.group, next),
            Kind::Switch if !map.valid => next[eu] = Some(self.fault(GrfStatus::Unmapped)),
            Kind::Switch => self.save_when_free(t, eu, map.block, out),
        }
    }

    /// A successful answer without data.
    fn done(&self, shared: bool) -> Answer {
        Answer {
            status: GrfStatus::Ok,
            shared,
            data: self.zero(),
        }
    }

    /// A fault with `status`.
    fn fault(&self, status: GrfStatus) -> Answer {
        Answer {
            status,
            ..self.done(false)
        }
    }

    /// Advances a busy controller by one cycle; whether it is free to take a transaction.
    fn advance(
        &mut self,
        t: u64,
        l3_answer: &Option<Vec<u64>>,
        next: &mut [Option<Answer>],
        out: &mut GrfCycle,
    ) -> bool {
        match self.controller.clone() {
            Controller::Idle => return true,
            Controller::SlowRead { at } if at == t => {
                self.controller = Controller::Idle;
                return true;
            }
            Controller::SlowRead { .. } => {}
            Controller::Redirect { eu, addr, answer } => match answer {
                None => self.send_redirect(t, eu, addr, out),
                // The controller is busy until its answer is visible.
                Some(at) if at == t => {
                    next[eu] = Some(Answer {
                        status: GrfStatus::Ok,
                        shared: self.redirect_shared(eu),
                        data: l3_answer.clone().expect("L3 answers in time"),
                    });
                    self.controller = Controller::Idle;
                }
                Some(_) => {}
            },
            Controller::SwitchWait { eu, block } => self.save_when_free(t, eu, block, out),
            Controller::Save { .. } => self.save(t, out),
        }
        false
    }

    /// Sends a redirect's L3 read when no refill read is outstanding; the answer is due
    /// after L3's latency.
    fn send_redirect(&mut self, t: u64, eu: usize, addr: usize, out: &mut GrfCycle) {
        if self.engine.in_flight.is_none() {
            out.l3 = Some(L3Request {
                write: false,
                addr,
                data: self.zero(),
            });
            self.controller = Controller::Redirect {
                eu,
                addr,
                answer: Some(t + self.l3.latency()),
            };
        }
    }

    /// Starts saving physical `block` for a switch of `eu` once the refill engine is free.
    fn save_when_free(&mut self, t: u64, eu: usize, block: usize, out: &mut GrfCycle) {
        if self.engine.busy {
            self.controller = Controller::SwitchWait { eu, block };
        } else {
            self.controller = Controller::Save {
                eu,
                block,
                start: t,
            };
            self.save(t, out);
        }
    }

    /// A read or write of a mapped register: a read is answered from the slow GRF after its
    /// latency, or from L3 while its block is being refilled; a write lands at once (a write
    /// miss of a private register is kept by the front end).
    #[allow(clippy::too_many_arguments)]
    fn access(
        &mut self,
        t: u64,
        eu: usize,
        tx: &Transaction,
        map: Mapping,
        next: &mut [Option<Answer>],
        out: &mut GrfCycle,
        slow_write_now: &mut bool,
    ) {
        let offset = tx.reg % GrfParams::BLOCK;
        let phys = map.block * GrfParams::BLOCK + offset;
        if map.shared {
            self.stats.shared_accesses += 1;
            // The access count saturates (8 bits in the RTL).
            let count = &mut self.groups[map.group].count;
            *count = (*count + 1).min(255);
        }
        let refilling = self.engine.busy
            && self.engine.block == map.block
            && self.engine.pending & (1 << offset) != 0;
        if tx.kind == Kind::Read && refilling {
            self.stats.redirects += 1;
            let addr = self.engine.area * self.params.slow_regs + phys;
            self.controller = Controller::Redirect {
                eu,
                addr,
                answer: None,
            };
            // The redirect can go out this very cycle.
            self.send_redirect(t, eu, addr, out);
        } else if tx.kind == Kind::Read {
            let latency = self.params.slow_latency as u64;
            self.count_slow(phys);
            let answer = Answer {
                status: GrfStatus::Ok,
                shared: map.shared,
                data: self.slow[phys].clone(),
            };
            self.answers[eu] = Some((t + latency, answer));
            self.controller = Controller::SlowRead { at: t + latency };
        } else {
            let keep = tx.kind == Kind::WriteMiss && !map.shared;
            if !keep {
                let mask = element_mask(self.params.element_bits);
                self.slow[phys] = tx.data.iter().map(|v| v & mask).collect();
                self.count_slow(phys);
                *slow_write_now = true;
                if refilling {
                    self.engine.pending &= !(1 << offset);
                }
            }
            next[eu] = Some(self.done(map.shared));
        }
        if map.shared {
            self.open_barrier(map.group, next);
        }
    }

    /// Maps virtual block `vb` of the transaction's thread (table `slot`): to its group's block
    /// if the group is bound, else to a free block (binding the group to it).
    fn alloc(&mut self, tx: &Transaction, slot: usize, vb: usize, map: Mapping) -> Answer {
        if map.valid {
            return self.fault(GrfStatus::AlreadyMapped);
        }
        let g = tx.group;
        if g > 0 && self.groups[g].bound {
            self.groups[g].refs += 1;
            self.table[slot] = Mapping {
                valid: true,
                block: self.groups[g].block,
                shared: true,
                group: g,
            };
            return self.done(false);
        }
        let Some(block) = self.pick_block(tx.thread, vb) else {
            return self.fault(GrfStatus::NoFreeBlock);
        };
        self.free[block] = false;
        self.table[slot] = Mapping {
            valid: true,
            block,
            shared: g > 0,
            group: g,
        };
        if g > 0 {
            let group = &mut self.groups[g];
            group.bound = true;
            group.block = block;
            group.refs = 1;
            group.count = 0;
            group.passed = 0;
        }
        self.done(false)
    }

    /// Unmaps table `slot`: a private block is freed; a shared one when its group's last
    /// reference goes, which unbinds the group and fails its waiters.
    fn release(&mut self, eu: usize, slot: usize, map: Mapping, next: &mut [Option<Answer>]) {
        if !map.valid {
            next[eu] = Some(self.fault(GrfStatus::NotOwned));
            return;
        }
        self.table[slot] = Mapping::default();
        next[eu] = Some(self.done(false));
        if !map.shared {
            self.free[map.block] = true;
            return;
        }
        let g = map.group;
        self.groups[g].refs -= 1;
        if self.groups[g].refs > 0 {
            self.open_barrier(g, next);
            return;
        }
        self.free[map.block] = true;
        let gone = self.fault(GrfStatus::NoSuchGroup);
        let group = &mut self.groups[g];
        group.bound = false;
        group.count = 0;
        group.passed = 0;
        let waiters: Vec<usize> = (0..self.params.eus)
            .filter(|&w| std::mem::take(&mut group.waiting[w]))
            .collect();
        for w in waiters {
            self.let_go(w, gone.clone(), next);
        }
    }

    /// `eu` waits at group `g`'s barrier.
    fn wait(&mut self, eu: usize, g: usize, next: &mut [Option<Answer>]) {
        if g == 0 || g > GrfParams::GROUPS || !self.groups[g].bound {
            next[eu] = Some(self.fault(GrfStatus::NoSuchGroup));
            return;
        }
        self.groups[g].waiting[eu] = true;
        self.open_barrier(g, next);
    }

    /// Whether the register a redirect serves is shared (for the front end's fill decision).
    fn redirect_shared(&self, eu: usize) -> bool {
        let r = self.front[eu]
            .request
            .as_ref()
            .expect("a read is in progress");
        let thread = eu * self.params.threads + r.thread;
        self.table[thread * self.params.virtual_blocks + r.reg / GrfParams::BLOCK].shared
    }

    /// Opens group `g`'s barrier if its accesses reach its reference count.
    fn open_barrier(&mut self, g: usize, next: &mut [Option<Answer>]) {
        let done = self.done(false);
        let group = &mut self.groups[g];
        if !group.bound || group.count < group.refs {
            return;
        }
        let waiters: Vec<usize> = (0..self.params.eus)
            .filter(|&w| std::mem::take(&mut group.waiting[w]))
            .collect();
        group.passed += waiters.len();
        if group.passed >= group.refs {
            group.count = 0;
            group.passed = 0;
        }
        for w in waiters {
            self.let_go(w, done.clone(), next);
        }
    }

    /// Answers `eu`, parked on a group, with `answer`: next cycle, or with the bookkeeping a
    /// cycle later (`pipeline` 3), the cycle after.
    fn let_go(&mut self, eu: usize, answer: Answer, next: &mut [Option<Answer>]) {
        if self.params.pipeline >= 3 {
            self.answers[eu] = Some((self.cycle + 2, answer));
        } else {
            next[eu] = Some(answer);
        }
    }

    /// The lowest free block, in the part the mapping policy picks first.
    fn pick_block(&self, thread: usize, vb: usize) -> Option<usize> {
        let low = self.params.low_energy_blocks;
        let blocks = self.params.blocks();
        let first = |range: std::ops::Range<usize>| range.into_iter().find(|&b| self.free[b]);
        if self.params.wants_low_energy(thread, vb) {
            first(0..low).or_else(|| first(low..blocks))
        } else {
            first(low..blocks).or_else(|| first(0..low))
        }
    }
}
