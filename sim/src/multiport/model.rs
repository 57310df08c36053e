//! Golden model of a true multi-ported register file, written from `docs/multiport.md`: every
//! port is served every cycle, and a read sees every write of the cycles before it.

use grfgen_hdl::params::MultiportParams;

use crate::gpr::GprRequests;

/// What a multi-ported file shows after one cycle's clock edge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MultiportResponse {
    /// Read data, port-major (`p * lanes + l`), for this cycle's reads.
    pub read_data: Vec<u64>,
    /// Per read port: its data is defined (it read, and no write port wrote the register in
    /// the same cycle).
    pub defined: Vec<bool>,
}

impl MultiportResponse {
    /// Nothing read, sized for `params`.
    pub fn new(params: &MultiportParams) -> Self {
        Self {
            read_data: vec![0; params.read_ports * params.lanes],
            defined: vec![false; params.read_ports],
        }
    }
}

/// An ideal register file with any number of ports.
#[derive(Clone, Debug)]
pub struct MultiportModel {
    lanes: usize,
    element_mask: u64,
    /// Register `n`, lane `l` at `n * lanes + l`. All zero at power-up.
    values: Vec<u64>,
}

impl MultiportModel {
    /// A file with every register zero.
    pub fn new(params: &MultiportParams) -> Self {
        Self {
            lanes: params.lanes,
            element_mask: crate::bits::element_mask(params.element_bits),
            values: vec![0; params.registers * params.lanes],
        }
    }

    /// Runs one clock cycle: every read returns the register as it was before the cycle, then
    /// every write is stored; of several writes to one register, the lowest port's is kept. A
    /// read of a register written in the same cycle is undefined.
    pub fn step(&mut self, requests: &GprRequests, response: &mut MultiportResponse) {
        let lanes = self.lanes;
        for (port, request) in requests.reads.iter().enumerate() {
            let out = &mut response.read_data[port * lanes..(port + 1) * lanes];
            response.defined[port] = match *request {
                Some(reg) if !requests.writes.contains(&Some(reg)) => {
                    out.copy_from_slice(&self.values[reg * lanes..(reg + 1) * lanes]);
                    true
                }
                _ => false,
            };
        }
        for (port, request) in requests.writes.iter().enumerate().rev() {
            if let Some(reg) = *request {
                let data = &requests.write_data[port * lanes..(port + 1) * lanes];
                for (value, &datum) in self.values[reg * lanes..(reg + 1) * lanes]
                    .iter_mut()
                    .zip(data)
                {
                    *value = datum & self.element_mask;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_see_earlier_cycles_and_the_lowest_write_port_wins() {
        let p = MultiportParams {
            lanes: 1,
            ..MultiportParams::default()
        };
        let mut model = MultiportModel::new(&p);
        let mut response = MultiportResponse::new(&p);
        let mut req = GprRequests::sized(4, 2, 1);
        req.writes = vec![Some(5), Some(5)];
        req.write_data = vec![11, 22];
        req.reads = vec![Some(5), Some(6), None, None];
        model.step(&req, &mut response);
        assert_eq!(response.defined, vec![false, true, false, false]);
        assert_eq!(response.read_data[1], 0);
        let mut req = GprRequests::sized(4, 2, 1);
        req.reads = vec![Some(5), Some(5), Some(5), Some(5)];
        model.step(&req, &mut response);
        assert_eq!(response.defined, vec![true; 4]);
        assert_eq!(response.read_data, vec![11; 4]);
    }
}
