//! The model's slow side: a switch's save phase and the refill engine.

use grfgen_hdl::params::GrfParams;

use super::*;

impl GrfModel {
    /// One cycle of a switch's save phase.
    pub(super) fn save(&mut self, t: u64, out: &mut GrfCycle) {
        let Controller::Save { eu, block, start } = self.controller.clone() else {
            unreachable!("called in the save phase")
        };
        let latency = self.params.slow_latency as u64;
        let step = t - start;
        if step < 16 {
            self.count_slow(block * GrfParams::BLOCK);
        }
        if step >= latency && step < latency + 16 {
            let offset = (step - latency) as usize;
            let area = self.parity[block] as usize;
            out.l3 = Some(L3Request {
                write: true,
                addr: area * self.params.slow_regs + block * GrfParams::BLOCK + offset,
                data: self.slow[block * GrfParams::BLOCK + offset].clone(),
            });
        }
        if step == latency + 15 {
            // Answer and arm the refill: both visible next cycle.
            self.answers[eu] = Some((
                t + 1,
                Answer {
                    status: GrfStatus::Ok,
                    shared: false,
                    data: self.zero(),
                },
            ));
            self.parity[block] = !self.parity[block];
            self.armed = Some(Engine {
                busy: true,
                block,
                area: self.parity[block] as usize,
                pending: 0xffff,
                in_flight: None,
                hold: None,
            });
            self.controller = Controller::Idle;
        }
    }

    /// The refill engine for one cycle.
    pub(super) fn refill(
        &mut self,
        t: u64,
        l3_answer: &Option<Vec<u64>>,
        slow_write_now: bool,
        pending_at_start: u16,
        out: &mut GrfCycle,
    ) {
        if !self.engine.busy {
            return;
        }
        let held = self.engine.hold.take();
        let in_flight = self.engine.in_flight;
        // A held answer goes into the slow GRF unless the controller writes it this cycle.
        if let Some((offset, data)) = held.clone() {
            if slow_write_now {
                self.engine.hold = Some((offset, data));
            } else if self.engine.pending & (1 << offset) != 0 {
                let phys = self.engine.block * GrfParams::BLOCK + offset;
                self.slow[phys] = data;
                self.count_slow(phys);
                self.engine.pending &= !(1 << offset);
            }
        }
        // The next read, when nothing is outstanding and the port is free.
        let controller_reading = matches!(
            self.controller,
            Controller::Redirect {
                answer: Some(_),
                ..
            }
        );
        if in_flight.is_none() && held.is_none() && out.l3.is_none() && !controller_reading {
            if let Some(offset) = (0..16).find(|o| pending_at_start & (1 << o) != 0) {
                out.l3 = Some(L3Request {
                    write: false,
                    addr: self.engine.area * self.params.slow_regs
                        + self.engine.block * GrfParams::BLOCK
                        + offset,
                    data: self.zero(),
                });
                self.engine.in_flight = Some((offset, t + self.l3.latency()));
            }
        }
        // An answer arrives: held for the next cycle.
        if let Some((offset, due)) = in_flight {
            if due == t {
                self.engine.in_flight = None;
                self.engine.hold = Some((offset, l3_answer.clone().expect("L3 answers in time")));
            }
        }
        if self.engine.pending == 0 && self.engine.in_flight.is_none() && self.engine.hold.is_none()
        {
            self.engine.busy = false;
        }
    }
}
