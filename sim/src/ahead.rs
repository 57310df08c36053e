//! A golden model run ahead of the device it checks: on a second thread, a batch of cycles at a
//! time, so that the model and the Verilated design each have a core.
//!
//! The check still sees every cycle in order and stops at the first one it rejects: the model's
//! cycles after that one are computed and thrown away, never reported. Everything a run reports
//! is counted by the check, so a run ahead reports what a run in one thread reports.
//!
//! A cycle travels as a fixed number of 64-bit words, and a batch is one block of them: the
//! check then reads the other core's writes in one sequential stream, which costs far less than
//! following a structure of separately allocated vectors.

use std::sync::mpsc::{channel, sync_channel, Receiver, Sender};

/// Bytes of cycles in one batch: large enough that handing a batch over costs nothing per
/// cycle, small enough that a run stopped early wastes little.
const BATCH_BYTES: usize = 1 << 18;

/// Batches in flight: one being filled, one handed over, one being checked.
const BATCHES: usize = 3;

/// Runs up to `cycles` cycles of `words` words each. Each cycle `model` fills its words (false:
/// the stream has ended, and the cycle is not checked); then `check` reads them (false: stop).
/// With `ahead`, the model runs on a second thread up to two batches ahead of the check;
/// without, the two alternate. The cycles checked and accepted.
pub fn run_ahead(
    cycles: u64,
    ahead: bool,
    words: usize,
    mut model: impl FnMut(u64, &mut [u64]) -> bool + Send,
    mut check: impl FnMut(u64, &[u64]) -> bool,
) -> u64 {
    let words = words.max(1);
    if !ahead {
        let mut slot = vec![0; words];
        for cycle in 0..cycles {
            if !model(cycle, &mut slot) || !check(cycle, &slot) {
                return cycle;
            }
        }
        return cycles;
    }
    let per_batch = (BATCH_BYTES / 8 / words).clamp(16, 4096);
    let (full_tx, full_rx) = sync_channel::<(Vec<u64>, usize)>(1);
    let (empty_tx, empty_rx) = channel::<Vec<u64>>();
    let model = &mut model;
    std::thread::scope(|scope| {
        // The producer owns its ends of the channels: when it returns, the check sees the end.
        let producer = scope.spawn(move || {
            let (mut cycle, mut made) = (0, 0);
            while cycle < cycles {
                let mut batch = match made < BATCHES {
                    true => {
                        made += 1;
                        vec![0; per_batch * words]
                    }
                    false => match empty_rx.recv() {
                        Ok(batch) => batch,
                        Err(_) => return,
                    },
                };
                let (mut filled, mut ended) = (0, false);
                for slot in batch.chunks_exact_mut(words) {
                    if cycle == cycles {
                        break;
                    }
                    if !model(cycle, slot) {
                        ended = true;
                        break;
                    }
                    (cycle, filled) = (cycle + 1, filled + 1);
                }
                if full_tx.send((batch, filled)).is_err() || ended {
                    return;
                }
            }
        });
        let checked = consume(full_rx, empty_tx, words, &mut check);
        match producer.join() {
            Ok(()) => checked,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

/// Checks the batches from `full` in order, handing each back on `empty`; the cycles accepted.
/// Both channels close when it returns, which stops the producer.
fn consume(
    full: Receiver<(Vec<u64>, usize)>,
    empty: Sender<Vec<u64>>,
    words: usize,
    check: &mut impl FnMut(u64, &[u64]) -> bool,
) -> u64 {
    let mut cycle = 0;
    while let Ok((batch, filled)) = full.recv() {
        for slot in batch.chunks_exact(words).take(filled) {
            if !check(cycle, slot) {
                return cycle;
            }
            cycle += 1;
        }
        // The producer may have stopped: a batch it will not take back is simply dropped.
        let _ = empty.send(batch);
    }
    cycle
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cycles `check` saw, each as (cycle, its words), for a model that writes the cycle
    /// number and its square, ends after `end` cycles, and is stopped at cycle `stop`.
    fn seen(cycles: u64, ahead: bool, end: u64, stop: u64) -> (u64, Vec<(u64, Vec<u64>)>) {
        let mut seen = Vec::new();
        let model = |cycle: u64, slot: &mut [u64]| {
            slot.copy_from_slice(&[cycle, cycle * cycle]);
            cycle < end
        };
        let check = |cycle: u64, slot: &[u64]| {
            seen.push((cycle, slot.to_vec()));
            cycle != stop
        };
        let accepted = run_ahead(cycles, ahead, 2, model, check);
        (accepted, seen)
    }

    #[test]
    fn a_run_ahead_checks_every_cycle_in_order_as_a_run_in_one_thread_does() {
        // Over several batches (4096 cycles each at 2 words): to the end, to the model's end,
        // and to a rejected cycle in the middle of a batch.
        for (cycles, end, stop) in [(10_000, u64::MAX, u64::MAX), (10_000, 5_000, u64::MAX)] {
            let alone = seen(cycles, false, end, stop);
            assert_eq!(seen(cycles, true, end, stop), alone);
        }
        let (accepted, seen_ahead) = seen(10_000, true, u64::MAX, 6_001);
        assert_eq!(accepted, 6_001);
        assert_eq!(seen_ahead.len(), 6_002);
        assert!(seen_ahead
            .iter()
            .enumerate()
            .all(|(k, (cycle, words))| *cycle == k as u64 && words[..] == [*cycle, cycle * cycle]));
        assert_eq!(seen(10_000, false, u64::MAX, 6_001).0, 6_001);
        assert_eq!(seen(10_000, true, 5_000, u64::MAX).0, 5_000);
    }
}
