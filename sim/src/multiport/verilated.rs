//! A Verilated multi-ported file as the other side of a lock-step run.

use grfgen_hdl::design::Design;
use grfgen_hdl::params::MultiportParams;

use super::model::MultiportResponse;
use crate::block::{Setup, SimError};
use crate::check::{compare, Device, Mismatch};
use crate::gpr::verilated::RequestPorts;
use crate::gpr::GprRequests;
use crate::verilator::{Output, VerilatedModel};

/// The Verilated file with its ports resolved.
pub struct MultiportRtl {
    model: VerilatedModel,
    requests: RequestPorts,
    read_data: Vec<Output>,
    lanes: usize,
}

impl MultiportRtl {
    /// Emits, verilates (or takes from the cache) and starts design `D` for `params`.
    pub fn build<D: Design<Params = MultiportParams>>(
        params: &MultiportParams,
        setup: &Setup,
    ) -> Result<Self, SimError> {
        let model = setup.verilate::<D>(params)?;
        let (p, w, l) = (params.read_ports, params.write_ports, params.lanes);
        Ok(Self {
            requests: RequestPorts::resolve(&model, p, w, l)?,
            read_data: model.outputs("read_data", p * l)?,
            lanes: l,
            model,
        })
    }
}

impl Device for MultiportRtl {
    type Input = GprRequests;
    type Expected = MultiportResponse;

    /// Read data after the clock edge, on every port whose data the model defines.
    fn cycle(
        &mut self,
        cycle: u64,
        requests: &GprRequests,
        expected: &MultiportResponse,
    ) -> Result<(), Mismatch> {
        self.requests.drive(&mut self.model, requests);
        self.requests.tick(&mut self.model);
        for (k, (&value, &output)) in expected.read_data.iter().zip(&self.read_data).enumerate() {
            if expected.defined[k / self.lanes] {
                let actual = self.model.get(output);
                compare(cycle, || format!("read_data[{k}]"), value, actual)?;
            }
        }
        Ok(())
    }
}
