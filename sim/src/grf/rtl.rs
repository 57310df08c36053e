//! The Verilated hierarchical GRF as the other side of a lock-step run, with its own L3.

use std::path::Path;

use grfgen_hdl::grf::emit_grf;
use grfgen_hdl::params::GrfParams;

use super::l3::{L3Memory, L3Request};
use super::model::{GrfCycle, GrfRequest};
use super::run::{new_l3, Device};
use crate::check::{compare, Mismatch};
use crate::verilator::{self, BuildOptions, PortId, VerilatedModel, VerilatorError};

/// One EU's ports.
struct EuPorts {
    valid: PortId,
    op: PortId,
    thread: PortId,
    reg: PortId,
    group: PortId,
    data: Vec<PortId>,
    ready: PortId,
    resp_valid: PortId,
    resp_status: PortId,
    resp_data: Vec<PortId>,
}

/// The Verilated GRF with its ports looked up and the L3 it talks to.
pub struct GrfRtl {
    model: VerilatedModel,
    slow_regs: usize,
    clock: PortId,
    reset: PortId,
    eus: Vec<EuPorts>,
    l3_valid: PortId,
    l3_write: PortId,
    l3_area: PortId,
    l3_row: PortId,
    l3_data: Vec<PortId>,
    l3_rvalid: PortId,
    l3_rdata: Vec<PortId>,
    l3: L3Memory,
}

impl GrfRtl {
    /// Emits, verilates (or takes from the cache) and starts the GRF for `params` after one
    /// cycle of reset, with an L3 of `l3_latency` filled from `seed` (as the golden model's).
    pub fn build(
        params: &GrfParams,
        l3_latency: u64,
        seed: u64,
        options: &BuildOptions,
        trace: Option<&Path>,
    ) -> Result<Self, VerilatorError> {
        let emitted = emit_grf(params, &params.module_name()).expect("parameters were validated");
        let model = verilator::build_emitted(&emitted, options, trace)?;
        let one = |name: &str| model.port(name).unwrap_or_else(|| panic!("grf has {name}"));
        let lanes = params.lanes;
        let lane_ports = |name: &str, first: usize| {
            (first..first + lanes)
                .map(|i| one(&format!("{name}${i}")))
                .collect::<Vec<_>>()
        };
        let eus = (0..params.eus)
            .map(|e| EuPorts {
                valid: one(&format!("req_valid${e}")),
                op: one(&format!("req_op${e}")),
                thread: one(&format!("req_thread${e}")),
                reg: one(&format!("req_reg${e}")),
                group: one(&format!("req_group${e}")),
                data: lane_ports("req_data", e * lanes),
                ready: one(&format!("req_ready${e}")),
                resp_valid: one(&format!("resp_valid${e}")),
                resp_status: one(&format!("resp_status${e}")),
                resp_data: lane_ports("resp_data", e * lanes),
            })
            .collect();
        let mut rtl = Self {
            slow_regs: params.slow_regs,
            clock: one("clock"),
            reset: one("reset"),
            eus,
            l3_valid: one("l3_valid"),
            l3_write: one("l3_write"),
            l3_area: one("l3_area"),
            l3_row: one("l3_row"),
            l3_data: lane_ports("l3_data", 0),
            l3_rvalid: one("l3_rvalid"),
            l3_rdata: lane_ports("l3_rdata", 0),
            l3: new_l3(params, l3_latency, seed),
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

    fn get(&self, port: PortId) -> u64 {
        self.model.get(port)
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
                || format!("req_ready${e}"),
                expected.ready[e] as u64,
                self.get(ports.ready),
            )?;
            let response = &expected.responses[e];
            compare(
                cycle,
                || format!("resp_valid${e}"),
                response.is_some() as u64,
                self.get(ports.resp_valid),
            )?;
            if let Some(r) = response {
                compare(
                    cycle,
                    || format!("resp_status${e}"),
                    r.status as u64,
                    self.get(ports.resp_status),
                )?;
                for (l, &port) in ports.resp_data.iter().enumerate() {
                    let k = e * ports.resp_data.len() + l;
                    compare(
                        cycle,
                        || format!("resp_data${k}"),
                        r.data[l],
                        self.get(port),
                    )?;
                }
            }
        }
        Ok(())
    }

    /// Compares the L3 request with `expected` and hands the RTL's to its L3.
    fn check_l3(&mut self, cycle: u64, expected: &GrfCycle) -> Result<(), Mismatch> {
        let valid = self.get(self.l3_valid);
        compare(
            cycle,
            || "l3_valid".into(),
            expected.l3.is_some() as u64,
            valid,
        )?;
        let Some(want) = &expected.l3 else {
            return Ok(());
        };
        let write = self.get(self.l3_write) != 0;
        compare(cycle, || "l3_write".into(), want.write as u64, write as u64)?;
        let (area, row) = (self.get(self.l3_area), self.get(self.l3_row));
        let slow = self.slow_regs as u64;
        compare(cycle, || "l3_area".into(), want.addr as u64 / slow, area)?;
        compare(cycle, || "l3_row".into(), want.addr as u64 % slow, row)?;
        let data: Vec<u64> = self.l3_data.iter().map(|&p| self.get(p)).collect();
        if write {
            for (l, (&w, &a)) in want.data.iter().zip(&data).enumerate() {
                compare(cycle, || format!("l3_data${l}"), w, a)?;
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
    fn cycle(
        &mut self,
        cycle: u64,
        requests: &[Option<GrfRequest>],
        expected: &GrfCycle,
    ) -> Option<Mismatch> {
        self.drive(cycle, requests);
        let checked = self
            .check_eus(cycle, expected)
            .and_then(|()| self.check_l3(cycle, expected));
        self.model.set(self.clock, 1);
        self.model.eval();
        checked.err()
    }
}
