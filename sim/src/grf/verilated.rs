//! The Verilated hierarchical GRF as the other side of a lock-step run, with its own L3.

use grfgen_hdl::grf::Grf;
use grfgen_hdl::params::GrfParams;

use super::l3::new_l3;
use super::l3::{L3Memory, L3Request};
use super::model::{GrfCycle, GrfRequest};
use crate::block::{Setup, SimError};
use crate::check::{compare, Device, Mismatch};
use crate::verilator::{Input, Output, VerilatedModel};

/// One EU's ports.
struct EuPorts {
    valid: Input,
    op: Input,
    thread: Input,
    reg: Input,
    group: Input,
    data: Vec<Input>,
    ready: Output,
    resp_valid: Output,
    resp_status: Output,
    resp_data: Vec<Output>,
}

/// The Verilated GRF with its ports resolved and the L3 it talks to.
pub struct GrfRtl {
    model: VerilatedModel,
    slow_regs: usize,
    clock: Input,
    reset: Input,
    eus: Vec<EuPorts>,
    l3_valid: Output,
    l3_write: Output,
    l3_area: Output,
    l3_row: Output,
    l3_data: Vec<Output>,
    l3_rvalid: Input,
    l3_rdata: Vec<Input>,
    l3: L3Memory,
}

impl GrfRtl {
    /// Emits, verilates (or takes from the cache) and starts the GRF for `params` after one
    /// cycle of reset, with an L3 of `l3_latency` filled from the run's seed (as the golden
    /// model's).
    pub fn build(params: &GrfParams, l3_latency: u64, setup: &Setup) -> Result<Self, SimError> {
        let model = setup.verilate::<Grf>(params)?;
        let (eus, lanes) = (params.eus, params.lanes);
        let (req_valid, req_op) = (
            model.inputs("req_valid", eus)?,
            model.inputs("req_op", eus)?,
        );
        let req_thread = model.inputs("req_thread", eus)?;
        let (req_reg, req_group) = (
            model.inputs("req_reg", eus)?,
            model.inputs("req_group", eus)?,
        );
        let req_data = model.inputs("req_data", eus * lanes)?;
        let req_ready = model.outputs("req_ready", eus)?;
        let resp_valid = model.outputs("resp_valid", eus)?;
        let resp_status = model.outputs("resp_status", eus)?;
        let resp_data = model.outputs("resp_data", eus * lanes)?;
        let eu_ports = (0..eus)
            .map(|e| EuPorts {
                valid: req_valid[e],
                op: req_op[e],
                thread: req_thread[e],
                reg: req_reg[e],
                group: req_group[e],
                data: req_data[e * lanes..(e + 1) * lanes].to_vec(),
                ready: req_ready[e],
                resp_valid: resp_valid[e],
                resp_status: resp_status[e],
                resp_data: resp_data[e * lanes..(e + 1) * lanes].to_vec(),
            })
            .collect();
        let mut rtl = Self {
            slow_regs: params.slow_regs,
            clock: model.input("clock")?,
            reset: model.input("reset")?,
            eus: eu_ports,
            l3_valid: model.output("l3_valid")?,
            l3_write: model.output("l3_write")?,
            l3_area: model.output("l3_area")?,
            l3_row: model.output("l3_row")?,
            l3_data: model.outputs("l3_data", lanes)?,
            l3_rvalid: model.input("l3_rvalid")?,
            l3_rdata: model.inputs("l3_rdata", lanes)?,
            l3: new_l3(params, l3_latency, setup.seed),
            model,
        };
        // Every input is driven from the start: Verilator randomises undriven ones.
        let mut inputs = vec![rtl.l3_rvalid];
        inputs.extend(&rtl.l3_rdata);
        for e in &rtl.eus {
            inputs.extend([e.valid, e.op, e.thread, e.reg, e.group]);
            inputs.extend(&e.data);
        }
        for port in inputs {
            rtl.model.set(port, 0);
        }
        rtl.model.set(rtl.reset, 1);
        rtl.model.set(rtl.clock, 0);
        rtl.model.eval();
        rtl.model.set(rtl.clock, 1);
        rtl.model.eval();
        rtl.model.set(rtl.reset, 0);
        Ok(rtl)
    }

    /// Drives the EUs' requests and L3's answer for `cycle`, clock low.
    fn drive(&mut self, cycle: u64, requests: &[Option<GrfRequest>]) {
        let m = &mut self.model;
        m.set(self.clock, 0);
        for (ports, request) in self.eus.iter().zip(requests) {
            m.set(ports.valid, request.is_some() as u64);
            if let Some(r) = request {
                m.set(ports.op, r.op.code());
                m.set(ports.thread, r.thread as u64);
                m.set(ports.reg, r.reg as u64);
                m.set(ports.group, r.group as u64);
                for (l, &port) in ports.data.iter().enumerate() {
                    m.set(port, r.data.get(l).copied().unwrap_or(0));
                }
            }
        }
        let answer = self.l3.answer(cycle);
        m.set(self.l3_rvalid, answer.is_some() as u64);
        for (l, &port) in self.l3_rdata.iter().enumerate() {
            m.set(port, answer.as_ref().map_or(0, |a| a[l]));
        }
        m.eval();
    }

    /// Compares the EUs' ready bits and responses with `expected`.
    fn check_eus(&self, cycle: u64, expected: &GrfCycle) -> Result<(), Mismatch> {
        for (e, ports) in self.eus.iter().enumerate() {
            compare(
                cycle,
                || format!("req_ready[{e}]"),
                expected.ready[e] as u64,
                self.model.get(ports.ready),
            )?;
            let response = &expected.responses[e];
            compare(
                cycle,
                || format!("resp_valid[{e}]"),
                response.is_some() as u64,
                self.model.get(ports.resp_valid),
            )?;
            if let Some(r) = response {
                compare(
                    cycle,
                    || format!("resp_status[{e}]"),
                    r.status.code(),
                    self.model.get(ports.resp_status),
                )?;
                for (l, &port) in ports.resp_data.iter().enumerate() {
                    let k = e * ports.resp_data.len() + l;
                    compare(
                        cycle,
                        || format!("resp_data[{k}]"),
                        r.data[l],
                        self.model.get(port),
                    )?;
                }
            }
        }
        Ok(())
    }

    /// Compares the L3 request with `expected` and hands the RTL's to its L3.
    fn check_l3(&mut self, cycle: u64, expected: &GrfCycle) -> Result<(), Mismatch> {
        let valid = self.model.get(self.l3_valid);
        compare(
            cycle,
            || "l3_valid".into(),
            expected.l3.is_some() as u64,
            valid,
        )?;
        let Some(want) = &expected.l3 else {
            return Ok(());
        };
        let write = self.model.get(self.l3_write) != 0;
        compare(cycle, || "l3_write".into(), want.write as u64, write as u64)?;
        let (area, row) = (self.model.get(self.l3_area), self.model.get(self.l3_row));
        let slow = self.slow_regs as u64;
        compare(cycle, || "l3_area".into(), want.addr as u64 / slow, area)?;
        compare(cycle, || "l3_row".into(), want.addr as u64 % slow, row)?;
        let data: Vec<u64> = self.l3_data.iter().map(|&p| self.model.get(p)).collect();
        if write {
            for (l, (&w, &a)) in want.data.iter().zip(&data).enumerate() {
                compare(cycle, || format!("l3_data[{l}]"), w, a)?;
            }
        }
        let request = L3Request {
            write,
            addr: (area * slow + row) as usize,
            data,
        };
        self.l3.request(cycle, &request);
        Ok(())
    }
}

impl Device for GrfRtl {
    type Input = Vec<Option<GrfRequest>>;
    type Expected = GrfCycle;

    fn cycle(
        &mut self,
        cycle: u64,
        requests: &Vec<Option<GrfRequest>>,
        expected: &GrfCycle,
    ) -> Result<(), Mismatch> {
        self.drive(cycle, requests);
        let checked = self
            .check_eus(cycle, expected)
            .and_then(|()| self.check_l3(cycle, expected));
        self.model.set(self.clock, 1);
        self.model.eval();
        checked
    }
}
