//! The model's front ends: one per EU, serving its requests from the fast GRF or through
//! the controller.

use grfgen_hdl::params::{GrfOp, GrfParams, GrfStatus};

use super::*;
use crate::bits::element_mask;

impl GrfModel {
    /// Front end of `eu` for one cycle.
    pub(super) fn front_end(
        &mut self,
        eu: usize,
        request: Option<&GrfRequest>,
        answer: Option<Answer>,
        out: &mut GrfCycle,
    ) {
        let state = self.front[eu].state;
        match state {
            Front::Idle => {
                out.ready[eu] = true;
                if let Some(r) = request {
                    self.accept(eu, r.clone());
                }
            }
            Front::Access => {
                if let Some(a) = answer {
                    self.access_answered(eu, a);
                }
            }
            Front::Victim => {
                if answer.is_some() {
                    let fill = self.front[eu]
                        .fill
                        .take()
                        .expect("victim state keeps the fill");
                    self.fill(eu, fill);
                }
            }
            Front::Scan => self.flush_next(eu),
            Front::Flush => {
                if answer.is_some() {
                    self.flush_next(eu);
                }
            }
            Front::Command => {
                if let Some(a) = answer {
                    self.respond(eu, a.status, a.data);
                }
            }
        }
    }

    fn respond(&mut self, eu: usize, status: GrfStatus, data: Vec<u64>) {
        if status != GrfStatus::Ok {
            self.stats.faults += 1;
        }
        let f = &mut self.front[eu];
        f.response = Some(GrfResponse { status, data });
        f.state = Front::Idle;
        f.request = None;
    }

    fn send(&mut self, eu: usize, kind: Kind, data: Vec<u64>, state: Front) {
        let r = self.front[eu]
            .request
            .clone()
            .expect("a request is in progress");
        self.front[eu].central = Some(Transaction {
            kind,
            thread: eu * self.params.threads + r.thread,
            reg: r.reg,
            group: r.group,
            data,
        });
        self.front[eu].state = state;
    }

    fn accept(&mut self, eu: usize, mut r: GrfRequest) {
        let fast = !self.flat;
        let mask = element_mask(self.params.element_bits);
        r.data.iter_mut().for_each(|v| *v &= mask);
        self.front[eu].request = Some(r.clone());
        match r.op {
            GrfOp::Read | GrfOp::Write => {
                self.stats.accesses += 1;
                let i = self.fast_index(r.thread, r.reg);
                let hit = fast && {
                    let e = &self.front[eu].entries[i];
                    e.valid && e.thread == r.thread && e.reg == r.reg
                };
                if hit {
                    self.stats.fast_hits += 1;
                    self.stats.fast_accesses += 1;
                    let e = &mut self.front[eu].entries[i];
                    let data = if r.op == GrfOp::Write {
                        e.data = r.data.clone();
                        e.dirty = true;
                        vec![0; r.data.len()]
                    } else {
                        e.data.clone()
                    };
                    self.respond(eu, GrfStatus::Ok, data);
                } else {
                    self.stats.fast_misses += 1;
                    let kind = match (r.op, fast) {
                        (GrfOp::Read, _) => Kind::Read,
                        (_, true) => Kind::WriteMiss,
                        (_, false) => Kind::Write,
                    };
                    self.send(eu, kind, r.data.clone(), Front::Access);
                }
            }
            GrfOp::Alloc => self.send(eu, Kind::Alloc, self.zero(), Front::Command),
            GrfOp::Wait => self.send(eu, Kind::Wait, self.zero(), Front::Command),
            GrfOp::Release => {
                self.invalidate_block(eu, r.thread, r.reg / GrfParams::BLOCK);
                self.send(eu, Kind::Release, self.zero(), Front::Command);
            }
            // With the switch's search registered, its first write-back waits a cycle; nothing
            // else changes this EU's fast GRF meanwhile.
            GrfOp::Switch if self.params.pipeline >= 4 => self.front[eu].state = Front::Scan,
            GrfOp::Switch => self.flush_next(eu),
        }
    }

    /// Switch: write back the next dirty entry of the block, or invalidate and send the switch.
    fn flush_next(&mut self, eu: usize) {
        let r = self.front[eu]
            .request
            .clone()
            .expect("a switch is in progress");
        let block = r.reg / GrfParams::BLOCK;
        let dirty = self.front[eu].entries.iter().position(|e| {
            e.valid && e.dirty && e.thread == r.thread && e.reg / GrfParams::BLOCK == block
        });
        match dirty {
            Some(i) => {
                let e = &mut self.front[eu].entries[i];
                e.dirty = false;
                let transaction = Transaction {
                    kind: Kind::Writeback,
                    thread: eu * self.params.threads + e.thread,
                    reg: e.reg,
                    group: 0,
                    data: e.data.clone(),
                };
                self.front[eu].central = Some(transaction);
                self.front[eu].state = Front::Flush;
            }
            None => {
                self.invalidate_block(eu, r.thread, block);
                self.send(eu, Kind::Switch, self.zero(), Front::Command);
            }
        }
    }

    fn invalidate_block(&mut self, eu: usize, thread: usize, block: usize) {
        for e in &mut self.front[eu].entries {
            if e.valid && e.thread == thread && e.reg / GrfParams::BLOCK == block {
                e.valid = false;
                e.dirty = false;
            }
        }
    }

    fn access_answered(&mut self, eu: usize, a: Answer) {
        if a.status != GrfStatus::Ok || a.shared || self.flat {
            let data = if a.status == GrfStatus::Ok {
                a.data
            } else {
                self.zero()
            };
            return self.respond(eu, a.status, data);
        }
        let r = self.front[eu]
            .request
            .clone()
            .expect("an access is in progress");
        let i = self.fast_index(r.thread, r.reg);
        let victim = self.front[eu].entries[i].clone();
        if victim.valid && victim.dirty {
            self.front[eu].fill = Some(a);
            self.front[eu].central = Some(Transaction {
                kind: Kind::Writeback,
                thread: eu * self.params.threads + victim.thread,
                reg: victim.reg,
                group: 0,
                data: victim.data,
            });
            self.front[eu].state = Front::Victim;
        } else {
            self.fill(eu, a);
        }
    }

    fn fill(&mut self, eu: usize, a: Answer) {
        let r = self.front[eu]
            .request
            .clone()
            .expect("an access is in progress");
        let i = self.fast_index(r.thread, r.reg);
        let write = r.op == GrfOp::Write;
        self.front[eu].entries[i] = Entry {
            valid: true,
            dirty: write,
            thread: r.thread,
            reg: r.reg,
            data: if write {
                r.data.clone()
            } else {
                a.data.clone()
            },
        };
        self.stats.fast_accesses += 1;
        let data = if write { self.zero() } else { a.data };
        self.respond(eu, GrfStatus::Ok, data);
    }
}
