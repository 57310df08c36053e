//! Fetch: which wave's offered instruction enters the window (the issue policy), and when a
//! wave is ready to offer it (`docs/core.md`, "Waves").

use grfgen_hdl::params::IssuePolicy;

use super::{CoreModel, Instruction};

/// The wave whose instruction enters the window under `policy`, of `waves` waves: the first
/// for which `ready` holds in the policy's order, given the wave that entered `last`.
/// Round-robin looks at the waves after `last` in turn (ending with `last`); greedy then
/// oldest takes `last` while it is ready, else the lowest-numbered ready wave.
pub fn choose(
    policy: IssuePolicy,
    last: usize,
    waves: usize,
    ready: impl Fn(usize) -> bool,
) -> Option<usize> {
    match policy {
        IssuePolicy::RoundRobin => (1..=waves).map(|k| (last + k) % waves).find(|&w| ready(w)),
        IssuePolicy::OldestReady if ready(last) => Some(last),
        IssuePolicy::OldestReady => (0..waves).find(|&w| ready(w)),
    }
}

impl CoreModel {
    /// The end of the cycle's fetch: with a window slot free after this cycle's issue, one
    /// offered instruction enters it. One wave offers through the single stream's rule (no
    /// readiness: it enters and waits in the window); several, the policy's first ready wave.
    /// Per wave, `instr_ready`.
    pub(super) fn fetch(&mut self, offered: &[Option<Instruction>]) -> Vec<bool> {
        let free = self.window.len() < self.params.window();
        let mut ready = vec![false; self.waves];
        let offer = |w: usize| offered.get(w).and_then(Option::as_ref);
        let chosen = match (free, self.waves) {
            (false, _) => None,
            (true, 1) => {
                ready[0] = true;
                offer(0).map(|_| 0)
            }
            (true, waves) => choose(self.params.issue, self.last, waves, |w| {
                offer(w).is_some_and(|i| self.wave_ready(i, w))
            }),
        };
        if let Some(wave) = chosen {
            let instruction = offer(wave).expect("chosen among the offered");
            let slot = self.decode(instruction, wave);
            self.window.push_back(slot);
            self.last = wave;
            ready[wave] = true;
        }
        ready
    }

    /// Whether wave `wave`'s offered `instruction` is ready to enter, from the state after this
    /// cycle's issue, frees and stage moves: no register it reads or writes is outstanding,
    /// its sync waits are met by its wave's entries, and no source is still to be written by
    /// a window slot or an instruction in the ALU.
    fn wave_ready(&self, instruction: &Instruction, wave: usize) -> bool {
        let outstanding =
            (instruction.reads().chain(instruction.written())).any(|r| self.outstanding(r));
        let written = instruction.reads().any(|r| {
            self.in_flight_writes(r) || (self.window.iter()).any(|s| Self::writes_for(s, wave, r))
        });
        !outstanding && !written && !self.waits(instruction, wave)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin_starts_after_the_last_and_skips_waves_not_ready() {
        let all = |_| true;
        assert_eq!(choose(IssuePolicy::RoundRobin, 3, 4, all), Some(0));
        assert_eq!(choose(IssuePolicy::RoundRobin, 1, 4, all), Some(2));
        assert_eq!(choose(IssuePolicy::RoundRobin, 1, 4, |w| w != 2), Some(3));
        assert_eq!(choose(IssuePolicy::RoundRobin, 1, 4, |w| w == 1), Some(1));
        assert_eq!(choose(IssuePolicy::RoundRobin, 1, 4, |_| false), None);
    }

    #[test]
    fn oldest_ready_keeps_the_last_wave_then_takes_the_lowest() {
        assert_eq!(choose(IssuePolicy::OldestReady, 2, 4, |_| true), Some(2));
        assert_eq!(choose(IssuePolicy::OldestReady, 2, 4, |w| w != 2), Some(0));
        assert_eq!(choose(IssuePolicy::OldestReady, 0, 4, |w| w >= 3), Some(3));
        assert_eq!(choose(IssuePolicy::OldestReady, 0, 4, |_| false), None);
    }
}
