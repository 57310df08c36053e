//! The L3 the test bench provides: in-order, a fixed read latency, one request per cycle.

use grfgen_hdl::params::GrfParams;

use crate::bits::element_mask;
use crate::rng::Rng;

/// A request on the GRF's L3 port.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct L3Request {
    /// Write (no answer) or read (answered `latency` cycles later).
    pub write: bool,
    /// Register address.
    pub addr: usize,
    /// Lanes to write.
    pub data: Vec<u64>,
}

/// The L3 memory model: register-sized words, reads answered after a fixed latency.
#[derive(Clone, Debug)]
pub struct L3Memory {
    words: Vec<Vec<u64>>,
    latency: u64,
    answers: std::collections::VecDeque<(u64, Vec<u64>)>,
}

impl L3Memory {
    /// `words` registers of `lanes` lanes filled from `seed` (masked to `element_bits`), with
    /// reads answered after `latency` cycles.
    pub fn new(words: usize, lanes: usize, element_bits: usize, latency: u64, seed: u64) -> Self {
        let mut rng = Rng::new(seed ^ 0x13);
        let mask = element_mask(element_bits);
        Self {
            words: (0..words)
                .map(|_| (0..lanes).map(|_| rng.next_u64() & mask).collect())
                .collect(),
            latency,
            answers: Default::default(),
        }
    }

    /// The read answer due in cycle `cycle` (for a read made `latency` cycles earlier).
    pub fn answer(&mut self, cycle: u64) -> Option<Vec<u64>> {
        match self.answers.front() {
            Some((due, _)) if *due == cycle => self.answers.pop_front().map(|(_, d)| d),
            _ => None,
        }
    }

    /// Takes the request made in cycle `cycle`.
    pub fn request(&mut self, cycle: u64, request: &L3Request) {
        if request.write {
            self.words[request.addr] = request.data.clone();
        } else {
            self.answers
                .push_back((cycle + self.latency, self.words[request.addr].clone()));
        }
    }

    /// The word at `addr` now.
    pub fn word(&self, addr: usize) -> &[u64] {
        &self.words[addr]
    }

    /// The read latency.
    pub fn latency(&self) -> u64 {
        self.latency
    }
}

/// The L3 both sides of a run start from: `2 * slow_regs` words (two context areas per block).
pub fn new_l3(params: &GrfParams, latency: u64, seed: u64) -> L3Memory {
    L3Memory::new(
        2 * params.slow_regs,
        params.lanes,
        params.element_bits,
        latency,
        seed,
    )
}
