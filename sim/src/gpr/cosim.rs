//! Lock-step co-simulation of the banked GPR: the emitted Verilog in Verilator against the
//! golden model, every grant and every read value compared every cycle.

use std::path::Path;

use grfgen_hdl::emit::Emitted;
use grfgen_hdl::gpr::emit_gpr;
use grfgen_hdl::params::GprParams;
use serde::Serialize;

use super::model::{GprModel, GprRequests, GprResponse};
use super::stimulus::GprStimulus;
use crate::check::Mismatch;
use crate::verilator::{self, BuildOptions, PortId, VerilatedModel, VerilatorError};

/// The Verilated GPR with its ports looked up once.
pub struct GprRtl {
    model: VerilatedModel,
    lanes: usize,
    clock: PortId,
    read_valid: Vec<PortId>,
    read_reg: Vec<PortId>,
    read_grant: Vec<PortId>,
    read_data: Vec<PortId>,
    write_valid: Vec<PortId>,
    write_reg: Vec<PortId>,
    write_data: Vec<PortId>,
    write_grant: Vec<PortId>,
}

impl GprRtl {
    /// Emits, verilates (or takes from the cache) and starts the GPR for `params`.
    pub fn build(
        params: &GprParams,
        options: &BuildOptions,
        trace: Option<&Path>,
    ) -> Result<Self, VerilatorError> {
        let emitted: Emitted =
            emit_gpr(params, &params.module_name()).expect("parameters were validated");
        let model = verilator::build_emitted(&emitted, options, trace)?;
        let ports = |name: &str, count: usize| -> Vec<PortId> {
            (0..count)
                .map(|i| {
                    model
                        .port(&format!("{name}${i}"))
                        .unwrap_or_else(|| panic!("emitted GPR has port {name}${i}"))
                })
                .collect()
        };
        let (p, w, l) = (params.read_ports, params.write_ports, params.lanes);
        Ok(Self {
            lanes: l,
            clock: model.port("clock").expect("emitted GPR has a clock"),
            read_valid: ports("read_valid", p),
            read_reg: ports("read_reg", p),
            read_grant: ports("read_grant", p),
            read_data: ports("read_data", p * l),
            write_valid: ports("write_valid", w),
            write_reg: ports("write_reg", w),
            write_data: ports("write_data", w * l),
            write_grant: ports("write_grant", w),
            model,
        })
    }

    /// Drives `requests` for one cycle with the clock low and returns nothing; the grants can
    /// then be read with [`GprRtl::read_grant`] and [`GprRtl::write_grant`].
    pub fn drive(&mut self, requests: &GprRequests) {
        let m = &mut self.model;
        m.set(self.clock, 0);
        for (port, request) in requests.reads.iter().enumerate() {
            m.set(self.read_valid[port], request.is_some() as u64);
            m.set(self.read_reg[port], request.unwrap_or(0) as u64);
        }
        for (port, request) in requests.writes.iter().enumerate() {
            m.set(self.write_valid[port], request.is_some() as u64);
            m.set(self.write_reg[port], request.unwrap_or(0) as u64);
        }
        for (k, &datum) in requests.write_data.iter().enumerate() {
            m.set(self.write_data[k], datum);
        }
        m.eval();
    }

    /// Read port `port`'s grant in the current cycle.
    pub fn read_grant(&self, port: usize) -> bool {
        self.model.get(self.read_grant[port]) != 0
    }

    /// Write port `port`'s grant in the current cycle.
    pub fn write_grant(&self, port: usize) -> bool {
        self.model.get(self.write_grant[port]) != 0
    }

    /// Raises the clock: the cycle's writes and read launches happen.
    pub fn clock_edge(&mut self) {
        self.model.set(self.clock, 1);
        self.model.eval();
    }

    /// Lane `lane` of read port `port`'s data after the last clock edge.
    pub fn read_data(&self, port: usize, lane: usize) -> u64 {
        self.model.get(self.read_data[port * self.lanes + lane])
    }
}

/// Counts and outcome of a GPR simulation.
#[derive(Clone, Debug, Default, Serialize)]
pub struct GprSimReport {
    /// Cycles simulated.
    pub cycles: u64,
    /// Seed of the stimulus and of Verilator's randomisation.
    pub seed: u64,
    /// Requests presented (reads and writes).
    pub requests: u64,
    /// Requests granted.
    pub grants: u64,
    /// Requests refused because of a bank conflict or a read/write clash.
    pub conflicts: u64,
    /// Read requests presented.
    pub read_requests: u64,
    /// Read requests granted.
    pub read_grants: u64,
    /// Write requests presented.
    pub write_requests: u64,
    /// Write requests granted.
    pub write_grants: u64,
    /// Mismatches found (the run stops at the first).
    pub mismatches: u64,
    /// The first mismatch, if any.
    pub first_mismatch: Option<Mismatch>,
    /// Whether the RTL ran (false: golden model only).
    pub rtl: bool,
}

impl GprSimReport {
    fn count(&mut self, requests: &GprRequests, response: &GprResponse) {
        let reads = requests.reads.iter().filter(|r| r.is_some()).count() as u64;
        let writes = requests.writes.iter().filter(|w| w.is_some()).count() as u64;
        let read_grants = response.read_grants.iter().filter(|&&g| g).count() as u64;
        let write_grants = response.write_grants.iter().filter(|&&g| g).count() as u64;
        self.read_requests += reads;
        self.write_requests += writes;
        self.read_grants += read_grants;
        self.write_grants += write_grants;
        self.requests += reads + writes;
        self.grants += read_grants + write_grants;
        self.conflicts += reads + writes - read_grants - write_grants;
    }
}

/// Runs `stimulus` for up to `cycles` cycles through the golden model and, when `rtl` is
/// given, through the RTL in lock step, stopping at the first mismatch.
pub fn run(
    params: &GprParams,
    stimulus: &mut dyn GprStimulus,
    cycles: u64,
    seed: u64,
    mut rtl: Option<&mut GprRtl>,
    progress: &mut dyn FnMut(u64),
) -> GprSimReport {
    let mut model = GprModel::new(params);
    let mut requests = GprRequests::idle(params);
    let mut response = GprResponse::new(params);
    let mut report = GprSimReport {
        seed,
        rtl: rtl.is_some(),
        ..Default::default()
    };
    for cycle in 0..cycles {
        if !stimulus.next(cycle, &response, &mut requests) {
            break;
        }
        model.step(&requests, &mut response);
        report.cycles = cycle + 1;
        report.count(&requests, &response);
        if let Some(rtl) = rtl.as_deref_mut() {
            if let Some(mismatch) = compare(rtl, cycle, &requests, &response) {
                report.mismatches = 1;
                report.first_mismatch = Some(mismatch);
                break;
            }
        }
        if cycle % 65536 == 65535 {
            progress(cycle + 1);
        }
    }
    report
}

fn compare(
    rtl: &mut GprRtl,
    cycle: u64,
    requests: &GprRequests,
    expected: &GprResponse,
) -> Option<Mismatch> {
    rtl.drive(requests);
    for (port, &grant) in expected.write_grants.iter().enumerate() {
        let actual = rtl.write_grant(port);
        if grant != actual {
            return Some(Mismatch::new(
                cycle,
                || format!("write_grant${port}"),
                grant as u64,
                actual as u64,
            ));
        }
    }
    for (port, &grant) in expected.read_grants.iter().enumerate() {
        let actual = rtl.read_grant(port);
        if grant != actual {
            return Some(Mismatch::new(
                cycle,
                || format!("read_grant${port}"),
                grant as u64,
                actual as u64,
            ));
        }
    }
    rtl.clock_edge();
    let lanes = rtl.lanes;
    for (k, &value) in expected.read_data.iter().enumerate() {
        let actual = rtl.read_data(k / lanes, k % lanes);
        if value != actual {
            return Some(Mismatch::new(
                cycle,
                || format!("read_data${k}"),
                value,
                actual,
            ));
        }
    }
    None
}
