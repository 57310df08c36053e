//! The Verilated banked GPR as the other side of a lock-step run.

use grfgen_hdl::gpr::Gpr;
use grfgen_hdl::params::GprParams;

use super::model::{GprRequests, GprResponse};
use crate::block::{Setup, SimError};
use crate::check::{compare, Device, Mismatch};
use crate::verilator::{Input, Output, VerilatedModel};

/// The request inputs of a register file with read and write ports (the GPR and the
/// multi-ported files alike), resolved in a Verilated model.
pub(crate) struct RequestPorts {
    clock: Input,
    read_valid: Vec<Input>,
    read_reg: Vec<Input>,
    write_valid: Vec<Input>,
    write_reg: Vec<Input>,
    write_data: Vec<Input>,
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
            read_valid: model.inputs("read_valid", read_ports)?,
            read_reg: model.inputs("read_reg", read_ports)?,
            write_valid: model.inputs("write_valid", write_ports)?,
            write_reg: model.inputs("write_reg", write_ports)?,
            write_data: model.inputs("write_data", write_ports * lanes)?,
        })
    }

    /// Drives `requests` with the clock low.
    pub(crate) fn drive(&self, m: &mut VerilatedModel, requests: &GprRequests) {
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
    read_grant: Vec<Output>,
    read_data: Vec<Output>,
    write_grant: Vec<Output>,
}

impl GprRtl {
    /// Emits, verilates (or takes from the cache) and starts the GPR for `params`.
    pub fn build(params: &GprParams, setup: &Setup) -> Result<Self, SimError> {
        let model = setup.verilate::<Gpr>(params)?;
        let (p, w, l) = (params.read_ports, params.write_ports, params.lanes);
        Ok(Self {
            requests: RequestPorts::resolve(&model, p, w, l)?,
            read_grant: model.outputs("read_grant", p)?,
            read_data: model.outputs("read_data", p * l)?,
            write_grant: model.outputs("write_grant", w)?,
            model,
        })
    }

    /// Compares a group of grants with the model's.
    fn grants(
        &self,
        cycle: u64,
        name: &str,
        ports: &[Output],
        expected: &[bool],
    ) -> Result<(), Mismatch> {
        for (port, (&grant, &output)) in expected.iter().zip(ports).enumerate() {
            let actual = self.model.get(output);
            compare(cycle, || format!("{name}[{port}]"), grant as u64, actual)?;
        }
        Ok(())
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
        self.requests.drive(&mut self.model, requests);
        self.grants(
            cycle,
            "write_grant",
            &self.write_grant,
            &expected.write_grants,
        )?;
        self.grants(cycle, "read_grant", &self.read_grant, &expected.read_grants)?;
        self.requests.tick(&mut self.model);
        for (k, (&value, &output)) in expected.read_data.iter().zip(&self.read_data).enumerate() {
            compare(
                cycle,
                || format!("read_data[{k}]"),
                value,
                self.model.get(output),
            )?;
        }
        Ok(())
    }
}
