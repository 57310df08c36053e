//! The external unit beside the core (part of the harness, the same for the golden model and
//! the RTL): it takes each long-latency value the core hands over and, its unit's latency
//! later, writes the result's registers back through the core's external write port.

use grfgen_hdl::param;
use grfgen_hdl::params::{Allowed, CoreUnit, Param, Params};
use serde::{Deserialize, Serialize};

use super::model::{element_mask, ExternalWrite, LongResult};

/// The latency of each long-latency unit, in cycles from the hand-over to the first write it
/// may present (run options).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct UnitLatencies {
    /// The special-function unit's.
    pub sfu_latency: usize,
    /// Varying interpolation's.
    pub varying_latency: usize,
    /// The texture unit's.
    pub tex_latency: usize,
    /// Local and global memory's.
    pub mem_latency: usize,
}

impl Default for UnitLatencies {
    fn default() -> Self {
        Self {
            sfu_latency: 8,
            varying_latency: 4,
            tex_latency: 32,
            mem_latency: 48,
        }
    }
}

/// The longest latency a unit may have, in cycles.
pub const MAX_LATENCY: usize = 1024;

impl Params for UnitLatencies {
    fn table() -> Vec<Param<Self>> {
        let range = |_: &Self| Allowed::range(1, MAX_LATENCY);
        vec![
            param!(
                sfu_latency,
                "cycles from an SFU instruction's hand-over to its result's first write",
                "N",
                range
            ),
            param!(
                varying_latency,
                "cycles from a varying instruction's hand-over to its result's first write",
                "N",
                range
            ),
            param!(
                tex_latency,
                "cycles from a texture instruction's hand-over to its result's first write",
                "N",
                range
            ),
            param!(
                mem_latency,
                "cycles from a local- or global-memory instruction's hand-over to its result's first write",
                "N",
                range
            ),
        ]
    }
}

impl UnitLatencies {
    /// The latency of `unit` (the ALU's results never reach the external unit: 0).
    pub fn of(&self, unit: CoreUnit) -> usize {
        match unit {
            CoreUnit::Alu => 0,
            CoreUnit::Sfu => self.sfu_latency,
            CoreUnit::Varying => self.varying_latency,
            CoreUnit::Tex => self.tex_latency,
            CoreUnit::LocalMem | CoreUnit::GlobalMem => self.mem_latency,
        }
    }
}

/// A result in the unit: ready from cycle `ready`, its registers `reg + k` written with
/// `values + k` in order, `next` of them written so far.
#[derive(Clone, Debug)]
struct Waiting {
    ready: u64,
    reg: usize,
    writes: usize,
    values: Vec<u64>,
    next: usize,
}

/// The external unit: results wait their unit's latency, then queue their writes in the order
/// they became ready (ties: hand-over order); the oldest ready write is presented each cycle
/// until it is performed.
#[derive(Clone, Debug, Default)]
pub struct ExternalUnit {
    latencies: UnitLatencies,
    /// Results by ready cycle, then hand-over.
    queue: Vec<Waiting>,
}

impl ExternalUnit {
    /// An empty unit with `latencies`.
    pub fn new(latencies: &UnitLatencies) -> Self {
        Self {
            latencies: latencies.clone(),
            queue: Vec::new(),
        }
    }

    /// Takes `result`, handed over in `cycle`: ready `latency(unit)` cycles later. A result
    /// that writes nothing is dropped.
    pub fn hand_over(&mut self, cycle: u64, result: &LongResult) {
        if result.writes == 0 {
            return;
        }
        let ready = cycle + self.latencies.of(result.unit) as u64;
        let at = self.queue.partition_point(|w| w.ready <= ready);
        let waiting = Waiting {
            ready,
            reg: result.reg,
            writes: result.writes,
            values: result.values.clone(),
            next: 0,
        };
        self.queue.insert(at, waiting);
    }

    /// The write to present in `cycle`: the next register of the oldest ready result.
    pub fn offer(&self, cycle: u64) -> Option<ExternalWrite> {
        let first = self.queue.first().filter(|w| w.ready <= cycle)?;
        let k = first.next as u64;
        Some(ExternalWrite {
            reg: first.reg + first.next,
            values: (first.values.iter())
                .map(|v| v.wrapping_add(k) & element_mask())
                .collect(),
            result: true,
        })
    }

    /// The write offered last was performed: the result's next register comes next.
    pub fn performed(&mut self) {
        let first = self.queue.first_mut().expect("a write was offered");
        first.next += 1;
        if first.next == first.writes {
            self.queue.remove(0);
        }
    }

    /// Whether no result waits.
    pub fn idle(&self) -> bool {
        self.queue.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(reg: usize, writes: usize, unit: CoreUnit, value: u64) -> LongResult {
        LongResult {
            reg,
            writes,
            unit,
            values: vec![value, 0xffff_ffff],
        }
    }

    /// Drains `unit` from `cycle`, every write performed: (cycle, register, lane values).
    fn drain(unit: &mut ExternalUnit, mut cycle: u64) -> Vec<(u64, usize, Vec<u64>)> {
        let mut writes = Vec::new();
        while !unit.idle() {
            if let Some(w) = unit.offer(cycle) {
                writes.push((cycle, w.reg, w.values));
                unit.performed();
            }
            cycle += 1;
        }
        writes
    }

    #[test]
    fn results_come_back_after_their_latency_one_register_a_cycle_with_data_plus_k() {
        let latencies = UnitLatencies::default();
        let mut unit = ExternalUnit::new(&latencies);
        unit.hand_over(10, &result(4, 3, CoreUnit::Sfu, 7));
        unit.hand_over(11, &result(9, 0, CoreUnit::Varying, 1));
        assert_eq!(unit.offer(17), None);
        let writes = drain(&mut unit, 17);
        let expected = [
            (18, 4, vec![7, 0xffff_ffff]),
            (19, 5, vec![8, 0]),
            (20, 6, vec![9, 1]),
        ];
        assert_eq!(writes, expected);
    }

    #[test]
    fn results_leave_in_the_order_they_became_ready_ties_by_hand_over() {
        let mut unit = ExternalUnit::new(&UnitLatencies::default());
        unit.hand_over(0, &result(20, 1, CoreUnit::Tex, 1)); // ready 32
        unit.hand_over(1, &result(30, 2, CoreUnit::Sfu, 2)); // ready 9
        unit.hand_over(5, &result(40, 1, CoreUnit::Varying, 3)); // ready 9, handed over later
        let order: Vec<usize> = drain(&mut unit, 0).into_iter().map(|w| w.1).collect();
        assert_eq!(order, [30, 31, 40, 20]);
    }
}
