//! Golden model of the banked GPR, written from SPEC S1 and the documented port rules.
//!
//! It keeps one flat array of registers; banks appear only in the arbitration rule
//! (register `n` is in bank `n mod banks` under the document's map, `crate::bank_map`).

use std::collections::VecDeque;

use grfgen_hdl::params::GprParams;

use crate::bank_map::bank;

/// `Clone` for a struct of vectors, whose `clone_from` copies field by field into the storage
/// already there (the derived one allocates anew): lock-step runs copy a cycle's requests and
/// responses every cycle.
macro_rules! clone_by_field {
    ($type:ident { $($field:ident),* }) => {
        impl Clone for $type {
            fn clone(&self) -> Self {
                Self { $($field: self.$field.clone()),* }
            }

            fn clone_from(&mut self, source: &Self) {
                $(self.$field.clone_from(&source.$field);)*
            }
        }
    };
}

clone_by_field!(GprRequests {
    reads,
    writes,
    write_data
});
clone_by_field!(GprResponse {
    read_grants,
    write_grants,
    read_data
});

/// One cycle's requests at the GPR's ports.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct GprRequests {
    /// Per read port: the register to read, if any.
    pub reads: Vec<Option<usize>>,
    /// Per write port: the register to write, if any.
    pub writes: Vec<Option<usize>>,
    /// Write data, port-major: `w * lanes + l` is lane `l` of write port `w`.
    pub write_data: Vec<u64>,
}

/// A port's optional register as one word: `u64::MAX` for none.
fn save_port(port: Option<usize>) -> u64 {
    port.map_or(u64::MAX, |r| r as u64)
}

/// The optional register that [`save_port`] wrote.
fn load_port(word: u64) -> Option<usize> {
    (word != u64::MAX).then_some(word as usize)
}

impl GprRequests {
    /// Words that [`GprRequests::save`] writes: one per port and per lane of write data.
    pub fn words(&self) -> usize {
        self.reads.len() + self.writes.len() + self.write_data.len()
    }

    /// Writes the requests into `words` (reads, writes, write data), to be read back by
    /// [`GprRequests::load`] into requests of the same size.
    pub fn save(&self, words: &mut [u64]) {
        let (reads, rest) = words.split_at_mut(self.reads.len());
        let (writes, data) = rest.split_at_mut(self.writes.len());
        reads
            .iter_mut()
            .zip(&self.reads)
            .for_each(|(w, &p)| *w = save_port(p));
        writes
            .iter_mut()
            .zip(&self.writes)
            .for_each(|(w, &p)| *w = save_port(p));
        data[..self.write_data.len()].copy_from_slice(&self.write_data);
    }

    /// Reads back what [`GprRequests::save`] wrote.
    pub fn load(&mut self, words: &[u64]) {
        let (reads, rest) = words.split_at(self.reads.len());
        let (writes, data) = rest.split_at(self.writes.len());
        self.reads
            .iter_mut()
            .zip(reads)
            .for_each(|(p, &w)| *p = load_port(w));
        self.writes
            .iter_mut()
            .zip(writes)
            .for_each(|(p, &w)| *p = load_port(w));
        let lanes = self.write_data.len();
        self.write_data.copy_from_slice(&data[..lanes]);
    }

    /// No requests, sized for `params`.
    pub fn idle(params: &GprParams) -> Self {
        Self::sized(params.read_ports, params.write_ports, params.lanes)
    }

    /// No requests at `read_ports` readers and `write_ports` writers of `lanes` lanes.
    pub fn sized(read_ports: usize, write_ports: usize, lanes: usize) -> Self {
        Self {
            reads: vec![None; read_ports],
            writes: vec![None; write_ports],
            write_data: vec![0; write_ports * lanes],
        }
    }
}

/// What the GPR answers in one cycle.
#[derive(Debug, PartialEq, Eq)]
pub struct GprResponse {
    /// Per read port: granted this cycle.
    pub read_grants: Vec<bool>,
    /// Per write port: granted this cycle.
    pub write_grants: Vec<bool>,
    /// Read data after this cycle's clock edge, port-major (`p * lanes + l`): for the reads
    /// granted `read_latency - 1` cycles before this one; zero for a port not granted then.
    pub read_data: Vec<u64>,
}

impl GprResponse {
    /// Words that [`GprResponse::save`] writes: one per grant and per lane of read data.
    pub fn words(&self) -> usize {
        self.read_grants.len() + self.write_grants.len() + self.read_data.len()
    }

    /// Writes the response into `words` (read grants, write grants, read data), to be read
    /// back by [`GprResponse::load`] into a response of the same size.
    pub fn save(&self, words: &mut [u64]) {
        let (reads, rest) = words.split_at_mut(self.read_grants.len());
        let (writes, data) = rest.split_at_mut(self.write_grants.len());
        reads
            .iter_mut()
            .zip(&self.read_grants)
            .for_each(|(w, &g)| *w = u64::from(g));
        writes
            .iter_mut()
            .zip(&self.write_grants)
            .for_each(|(w, &g)| *w = u64::from(g));
        data[..self.read_data.len()].copy_from_slice(&self.read_data);
    }

    /// Reads back what [`GprResponse::save`] wrote.
    pub fn load(&mut self, words: &[u64]) {
        let (reads, rest) = words.split_at(self.read_grants.len());
        let (writes, data) = rest.split_at(self.write_grants.len());
        self.read_grants
            .iter_mut()
            .zip(reads)
            .for_each(|(g, &w)| *g = w != 0);
        self.write_grants
            .iter_mut()
            .zip(writes)
            .for_each(|(g, &w)| *g = w != 0);
        let lanes = self.read_data.len();
        self.read_data.copy_from_slice(&data[..lanes]);
    }

    /// An all-zero response sized for `params`.
    pub fn new(params: &GprParams) -> Self {
        Self {
            read_grants: vec![false; params.read_ports],
            write_grants: vec![false; params.write_ports],
            read_data: vec![0; params.read_ports * params.lanes],
        }
    }
}

/// The banked GPR as the specification describes it.
#[derive(Clone, Debug)]
pub struct GprModel {
    params: GprParams,
    /// Register `n`, lane `l` at `n * lanes + l`. All zero at power-up.
    values: Vec<u64>,
    /// Read data of the grants of the last `read_latency - 1` cycles, oldest first, not yet at
    /// the ports.
    in_flight: VecDeque<Vec<u64>>,
    /// The requests of the last `grant_latency` cycles, oldest first, which this cycle
    /// arbitrates (none before the first cycle).
    held: VecDeque<GprRequests>,
}

impl GprModel {
    /// A GPR with every register zero and no read in flight.
    pub fn new(params: &GprParams) -> Self {
        let idle = vec![0; params.read_ports * params.lanes];
        Self {
            params: params.clone(),
            values: vec![0; params.registers * params.lanes],
            in_flight: std::iter::repeat_n(idle, params.read_latency() - 1).collect(),
            held: std::iter::repeat_n(GprRequests::idle(params), params.grant_latency()).collect(),
        }
    }

    /// The lanes of register `n`.
    pub fn register(&self, n: usize) -> &[u64] {
        let lanes = self.params.lanes;
        &self.values[n * lanes..(n + 1) * lanes]
    }

    /// Runs one clock cycle: arbitrates `requests`, performs the granted reads and writes and
    /// fills `response`.
    ///
    /// Rules: per bank at most one write (lowest write port first); a read of a register that a
    /// granted write writes in the same cycle is refused, and so is, with 1RW banks, any read
    /// of a bank being written; then per bank at most one read (two with 2R1W banks), lowest
    /// read port first. Reads see the registers as they were before this cycle; their
    /// data reaches the ports `read_latency - 1` cycles later than the grant's own clock edge.
    /// With a grant latency the grants and accesses of a cycle are those of the requests that
    /// many cycles before.
    pub fn step(&mut self, requests: &GprRequests, response: &mut GprResponse) {
        match self.held.pop_front() {
            Some(mut oldest) => {
                self.arbitrate(&oldest, response);
                oldest.clone_from(requests);
                self.held.push_back(oldest);
            }
            None => self.arbitrate(requests, response),
        }
        // This cycle's data joins the end of the queue; the oldest reaches the ports.
        if let Some(mut oldest) = self.in_flight.pop_front() {
            std::mem::swap(&mut oldest, &mut response.read_data);
            self.in_flight.push_back(oldest);
        }
    }

    /// One cycle with read data at the grant's clock edge.
    fn arbitrate(&mut self, requests: &GprRequests, response: &mut GprResponse) {
        let (banks, map) = (self.params.banks, self.params.bank_map);
        let lanes = self.params.lanes;
        let element_mask = crate::bits::element_mask(self.params.element_bits);

        let mut banks_writing = 0u32;
        for (grant, request) in response.write_grants.iter_mut().zip(&requests.writes) {
            *grant = match *request {
                Some(register) if banks_writing & (1 << bank(map, register, banks)) == 0 => {
                    banks_writing |= 1 << bank(map, register, banks);
                    true
                }
                _ => false,
            };
        }
        let written = |register: usize| {
            requests
                .writes
                .iter()
                .zip(&response.write_grants)
                .any(|(w, &granted)| granted && *w == Some(register))
        };

        // Reads per bank: one, or two with 2R1W banks; none of a 1RW bank being written.
        let capacity = self.params.bank_kind.reads_per_bank();
        let single_port = self.params.bank_kind.single_port();
        // Banks are at most 32: `banks_writing` is a bit mask.
        let mut reads_of_bank = [0; 32];
        for (port, request) in requests.reads.iter().enumerate() {
            let out = &mut response.read_data[port * lanes..(port + 1) * lanes];
            let granted = match *request {
                Some(register) => {
                    let bank = bank(map, register, banks);
                    let refused = written(register)
                        || (single_port && banks_writing & (1 << bank) != 0)
                        || reads_of_bank[bank] == capacity;
                    if !refused {
                        reads_of_bank[bank] += 1;
                    }
                    !refused
                }
                None => false,
            };
            match (granted, *request) {
                (true, Some(register)) => {
                    out.copy_from_slice(&self.values[register * lanes..(register + 1) * lanes])
                }
                _ => out.fill(0),
            }
            response.read_grants[port] = granted;
        }

        for (port, request) in requests.writes.iter().enumerate() {
            if let (Some(register), true) = (*request, response.write_grants[port]) {
                let data = &requests.write_data[port * lanes..(port + 1) * lanes];
                for (value, &datum) in self.values[register * lanes..(register + 1) * lanes]
                    .iter_mut()
                    .zip(data)
                {
                    *value = datum & element_mask;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params() -> GprParams {
        GprParams::default()
    }

    fn write(model: &mut GprModel, register: usize, value: u64) {
        let p = params();
        let mut req = GprRequests::idle(&p);
        req.writes[0] = Some(register);
        req.write_data[..p.lanes].fill(value);
        let mut resp = GprResponse::new(&p);
        model.step(&req, &mut resp);
        assert!(resp.write_grants[0]);
    }

    #[test]
    fn the_documents_conflict_r0_plus_r4_needs_two_cycles() {
        let p = params();
        let mut model = GprModel::new(&p);
        write(&mut model, 0, 10);
        write(&mut model, 4, 44);
        let mut req = GprRequests::idle(&p);
        req.reads[0] = Some(0);
        req.reads[1] = Some(4);
        req.reads[2] = Some(5);
        let mut resp = GprResponse::new(&p);
        model.step(&req, &mut resp);
        assert_eq!(resp.read_grants, vec![true, false, true, false]);
        assert_eq!(&resp.read_data[0..4], &[10; 4]);
        assert_eq!(&resp.read_data[4..8], &[0; 4]);
        req.reads = vec![None, Some(4), None, None];
        model.step(&req, &mut resp);
        assert_eq!(resp.read_grants, vec![false, true, false, false]);
        assert_eq!(&resp.read_data[4..8], &[44; 4]);
    }

    #[test]
    fn writes_to_one_bank_serialise_and_a_clashing_read_waits() {
        let p = params();
        let mut model = GprModel::new(&p);
        write(&mut model, 8, 1);
        let mut req = GprRequests::idle(&p);
        req.writes = vec![Some(8), Some(12)];
        req.write_data = vec![2, 2, 2, 2, 3, 3, 3, 3];
        req.reads[0] = Some(8);
        req.reads[1] = Some(12);
        let mut resp = GprResponse::new(&p);
        model.step(&req, &mut resp);
        assert_eq!(resp.write_grants, vec![true, false]);
        // R8 is being written: refused. R12 is in the same bank but not written: granted.
        assert_eq!(resp.read_grants, vec![false, true, false, false]);
        assert_eq!(model.register(8), &[2; 4]);
        assert_eq!(model.register(12), &[0; 4]);
    }

    #[test]
    fn values_are_masked_to_the_element_width() {
        let p = GprParams {
            element_bits: 16,
            ..params()
        };
        let mut model = GprModel::new(&p);
        let mut req = GprRequests::idle(&p);
        req.writes[0] = Some(3);
        req.write_data[..4].fill(0x1_2345);
        let mut resp = GprResponse::new(&p);
        model.step(&req, &mut resp);
        assert_eq!(model.register(3), &[0x2345; 4]);
    }
}
