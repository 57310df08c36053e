//! The Verilated banked GPR as the other side of a lock-step run.

use grfgen_hdl::gpr::Gpr;
use grfgen_hdl::params::GprParams;

use super::model::{GprRequests, GprResponse};
use crate::block::{Setup, SimError};
use crate::check::{compare_vector, Device, Mismatch};
use crate::verilator::{Input, InputVector, OutputVector, VerilatedModel};

/// The request inputs of a register file with read and write ports (the GPR and the
/// multi-ported files alike), resolved in a Verilated model.
pub(crate) struct RequestPorts {
    clock: Input,
    read_valid: InputVector,
    read_reg: InputVector,
    write_valid: InputVector,
    write_reg: InputVector,
    write_data: InputVector,
}

impl RequestPorts {
    /// Resolves the inputs of `read_ports` readers and `write_ports` writers of `lanes` lanes.
    pub(crate) fn resolve(
        model: &VerilatedModel,
        read_ports: usize,
        write_ports: usize,
        lanes: usize,
    ) -> Result<Self, SimError> {
        Ok(Self {
            clock: model.input("clock")?,
            read_valid: model.input_vector("read_valid", read_ports)?,
            read_reg: model.input_vector("read_reg", read_ports)?,
            write_valid: model.input_vector("write_valid", write_ports)?,
            write_reg: model.input_vector("write_reg", write_ports)?,
            write_data: model.input_vector("write_data", write_ports * lanes)?,
        })
    }

    /// Drives `requests` with the clock low.
    pub(crate) fn drive(&self, m: &mut VerilatedModel, requests: &GprRequests) {
        let valid = |r: &Option<usize>| r.is_some() as u64;
        let register = |r: &Option<usize>| r.unwrap_or(0) as u64;
        m.set(self.clock, 0);
        m.set_vector(&self.read_valid, requests.reads.iter().map(valid));
        m.set_vector(&self.read_reg, requests.reads.iter().map(register));
        m.set_vector(&self.write_valid, requests.writes.iter().map(valid));
        m.set_vector(&self.write_reg, requests.writes.iter().map(register));
        m.set_vector(&self.write_data, requests.write_data.iter().copied());
        m.eval();
    }

    /// Raises the clock.
    pub(crate) fn tick(&self, m: &mut VerilatedModel) {
        m.set(self.clock, 1);
        m.eval();
    }
}

/// The Verilated GPR with its ports resolved.
pub struct GprRtl {
    model: VerilatedModel,
    requests: RequestPorts,
    read_grant: OutputVector,
    read_data: OutputVector,
    write_grant: OutputVector,
    /// What the outputs read this cycle.
    actual: Vec<u64>,
}

impl GprRtl {
    /// Emits, verilates (or takes from the cache) and starts the GPR for `params`.
    pub fn build(params: &GprParams, setup: &Setup) -> Result<Self, SimError> {
        Self::with_model(params, setup.verilate::<Gpr>(params)?)
    }

    /// The GPR for `params` in `model`: any Verilated design with the GPR's ports.
    pub fn with_model(params: &GprParams, model: VerilatedModel) -> Result<Self, SimError> {
        let (p, w, l) = (params.read_ports, params.write_ports, params.lanes);
        Ok(Self {
            requests: RequestPorts::resolve(&model, p, w, l)?,
            read_grant: model.output_vector("read_grant", p)?,
            read_data: model.output_vector("read_data", p * l)?,
            write_grant: model.output_vector("write_grant", w)?,
            actual: vec![0; (p * l).max(p).max(w)],
            model,
        })
    }
}

impl Device for GprRtl {
    type Input = GprRequests;
    type Expected = GprResponse;

    /// Grants before the clock edge, read data after it.
    fn cycle(
        &mut self,
        cycle: u64,
        requests: &GprRequests,
        expected: &GprResponse,
    ) -> Result<(), Mismatch> {
        let m = &mut self.model;
        let actual = &mut self.actual;
        self.requests.drive(m, requests);
        let write_grants = expected.write_grants.iter().map(|&g| g as u64);
        compare_vector(
            m,
            &self.write_grant,
            actual,
            cycle,
            "write_grant",
            write_grants,
        )?;
        let read_grants = expected.read_grants.iter().map(|&g| g as u64);
        compare_vector(
            m,
            &self.read_grant,
            actual,
            cycle,
            "read_grant",
            read_grants,
        )?;
        self.requests.tick(m);
        let data = expected.read_data.iter().copied();
        compare_vector(m, &self.read_data, actual, cycle, "read_data", data)
    }
}
