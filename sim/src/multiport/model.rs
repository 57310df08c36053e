//! Golden model of a true multi-ported register file, written from `docs/multiport.md`: every
//! port is served every cycle; a read's data comes `read_latency` cycles after its request and
//! holds the writes requested `write_delay` cycles before it and earlier.

use std::collections::VecDeque;

use grfgen_hdl::params::MultiportParams;

use crate::gpr::GprRequests;

/// When a file's reads return and which writes they see: its documented contract.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    /// Cycles from a read's request to its data: 1 shows it after the request cycle's rising
    /// edge, 2 after the next one.
    pub read_latency: usize,
    /// A read sees every write requested at least this many cycles before it (1: every write
    /// of an earlier cycle). A write of its register requested `write_delay - 1` cycles before
    /// it (in its own cycle, for 1) makes its data undefined; writes after that one it does
    /// not see.
    pub write_delay: usize,
}

/// What a multi-ported file shows after one cycle's clock edge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MultiportResponse {
    /// Read data, port-major (`p * lanes + l`), for the reads whose data is due now.
    pub read_data: Vec<u64>,
    /// Per read port: its data is defined (a read is due, and no write made it undefined).
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

/// One cycle's write requests: per port, the register and its data.
type Writes = Vec<Option<(usize, Vec<u64>)>>;

/// An ideal register file with any number of ports and the timing of one of the designs.
#[derive(Clone, Debug)]
pub struct MultiportModel {
    lanes: usize,
    element_mask: u64,
    timing: Timing,
    /// Register `n`, lane `l` at `n * lanes + l`: the writes reads see. All zero at power-up.
    values: Vec<u64>,
    /// The writes of the last `write_delay - 1` cycles, oldest first: not seen yet.
    pending: VecDeque<Writes>,
    /// The responses of the last `read_latency - 1` cycles' reads, oldest first: not due yet.
    due: VecDeque<MultiportResponse>,
}

impl MultiportModel {
    /// A file with every register zero and the given timing.
    pub fn new(params: &MultiportParams, timing: Timing) -> Self {
        assert!(timing.read_latency >= 1 && timing.write_delay >= 1);
        Self {
            lanes: params.lanes,
            element_mask: crate::bits::element_mask(params.element_bits),
            timing,
            values: vec![0; params.registers * params.lanes],
            pending: VecDeque::new(),
            due: VecDeque::new(),
        }
    }

    /// Runs one clock cycle: the writes old enough become visible, every read takes the
    /// register as they left it (undefined when the write of its colliding cycle names it),
    /// and `response` shows the reads due after this cycle's edge. Returns how many of this
    /// cycle's reads are undefined.
    pub fn step(&mut self, requests: &GprRequests, response: &mut MultiportResponse) -> usize {
        let lanes = self.lanes;
        let writes: Writes = (requests.writes.iter().enumerate())
            .map(|(port, w)| {
                w.map(|reg| (reg, requests.write_data[port * lanes..][..lanes].to_vec()))
            })
            .collect();
        while self.pending.len() >= self.timing.write_delay {
            let oldest = self.pending.pop_front().expect("not empty");
            self.store(&oldest);
        }
        // The writes committed in this cycle: this cycle's own, or the oldest pending once
        // there are `write_delay - 1` cycles of them (none in the first cycles).
        let none = Writes::new();
        let colliding = match self.timing.write_delay {
            1 => &writes,
            d if self.pending.len() == d - 1 => self.pending.front().expect("not empty"),
            _ => &none,
        };
        let mut now = response.clone();
        let mut undefined = 0;
        for (port, request) in requests.reads.iter().enumerate() {
            let out = &mut now.read_data[port * lanes..(port + 1) * lanes];
            now.defined[port] = match *request {
                Some(reg) if !colliding.iter().flatten().any(|(w, _)| *w == reg) => {
                    out.copy_from_slice(&self.values[reg * lanes..(reg + 1) * lanes]);
                    true
                }
                Some(_) => {
                    undefined += 1;
                    false
                }
                None => false,
            };
        }
        self.pending.push_back(writes);
        self.due.push_back(now);
        match self.due.len() >= self.timing.read_latency {
            true => *response = self.due.pop_front().expect("not empty"),
            false => response.defined.fill(false),
        }
        undefined
    }

    /// Stores one cycle's writes: of several to one register, the lowest port's is kept.
    fn store(&mut self, writes: &Writes) {
        let lanes = self.lanes;
        for (reg, data) in writes.iter().rev().flatten() {
            for (value, &datum) in self.values[reg * lanes..(reg + 1) * lanes]
                .iter_mut()
                .zip(data)
            {
                *value = datum & self.element_mask;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn requests(
        reads: Vec<Option<usize>>,
        writes: Vec<Option<usize>>,
        data: Vec<u64>,
    ) -> GprRequests {
        let mut req = GprRequests::sized(reads.len(), writes.len(), 1);
        req.reads = reads;
        req.writes = writes;
        req.write_data = data;
        req
    }

    #[test]
    fn reads_see_earlier_cycles_and_the_lowest_write_port_wins() {
        let p = MultiportParams {
            lanes: 1,
            ..MultiportParams::default()
        };
        let timing = Timing {
            read_latency: 1,
            write_delay: 1,
        };
        let mut model = MultiportModel::new(&p, timing);
        let mut response = MultiportResponse::new(&p);
        let req = requests(
            vec![Some(5), Some(6), None, None],
            vec![Some(5), Some(5)],
            vec![11, 22],
        );
        assert_eq!(model.step(&req, &mut response), 1);
        assert_eq!(response.defined, vec![false, true, false, false]);
        assert_eq!(response.read_data[1], 0);
        let req = requests(vec![Some(5); 4], vec![None, None], vec![0, 0]);
        model.step(&req, &mut response);
        assert_eq!(response.defined, vec![true; 4]);
        assert_eq!(response.read_data, vec![11; 4]);
    }

    #[test]
    fn a_later_write_delay_and_read_latency_shift_what_a_read_sees_and_when() {
        let p = MultiportParams {
            lanes: 1,
            read_ports: 1,
            write_ports: 1,
            ..MultiportParams::default()
        };
        let timing = Timing {
            read_latency: 2,
            write_delay: 2,
        };
        let mut model = MultiportModel::new(&p, timing);
        let mut response = MultiportResponse::new(&p);
        // A write of 7 to register 3 with a read of it, then reads of it in the two cycles
        // after, then nothing.
        let cycles = [
            requests(vec![Some(3)], vec![Some(3)], vec![7]),
            requests(vec![Some(3)], vec![None], vec![0]),
            requests(vec![Some(3)], vec![None], vec![0]),
            requests(vec![None], vec![None], vec![0]),
        ];
        let mut undefined = Vec::new();
        let mut due = Vec::new();
        for cycle in &cycles {
            undefined.push(model.step(cycle, &mut response));
            due.push(response.defined[0].then_some(response.read_data[0]));
        }
        // The read in the cycle after the write collides; each read is due a cycle late: the
        // old value (the write's own cycle), undefined, then the new value.
        assert_eq!(undefined, vec![0, 1, 0, 0]);
        assert_eq!(due, vec![None, Some(0), None, Some(7)]);
    }
}
