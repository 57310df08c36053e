//! How the points of a sweep run and are recorded: threads, progress lines, and each record
//! appended to the sweep's directory as it finishes.

use std::collections::BTreeMap;

use grfgen_sim::block::{Block, Rtl};

use super::runner::{run_all, Implementation, Job};
use super::store::{Record, SweepDir};
use crate::error::CliError;
use crate::progress::Progress;

/// How the points of a sweep run and are recorded.
pub struct Recording<'a> {
    /// Points run at once.
    pub threads: usize,
    /// Whether the RTL runs.
    pub rtl: Rtl,
    /// Where each record is appended as it finishes, if anywhere.
    pub dir: Option<&'a SweepDir>,
    /// No progress lines.
    pub quiet: bool,
    /// The count over a command of several batches (an exploration's stages), if it is one.
    pub tally: Option<&'a Tally>,
}

/// Points done over a command that runs several batches of them, and at most how many it runs:
/// its progress lines count over the whole command, not per batch.
pub struct Tally {
    /// Points done so far.
    pub done: std::sync::atomic::AtomicUsize,
    /// Points the command runs at most.
    pub most: usize,
}

impl Tally {
    /// The progress line of one more point done: `[12 of at most 40] <step> of point 4: ok`.
    fn line(&self, step: &str, record: &Record) -> String {
        let done = self.done.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
        format!(
            "[{done} of at most {}] {step} of point {}: {} ({:.1} s)",
            self.most, record.index, record.status, record.seconds
        )
    }
}

impl Recording<'_> {
    /// Runs `jobs`, implementing each design as `implementation` says, with progress under
    /// `label`: each record is appended to the directory and put in `records` as it finishes.
    pub fn run<B: Block>(
        &self,
        label: &str,
        jobs: &[Job<B>],
        implementation: &Implementation,
        records: &mut BTreeMap<usize, Record>,
    ) -> Result<(), CliError> {
        let progress = Progress::points(label.to_string(), jobs.len() as u64, self.quiet);
        let (total, mut finished, mut failed) = (jobs.len(), 0, 0);
        let ran = run_all(jobs, self.threads, self.rtl, implementation, |record| {
            finished += 1;
            failed += usize::from(!record.settled());
            let line = match self.tally {
                Some(tally) => tally.line(label, &record),
                None => format!(
                    "[{finished}/{total}] point {} {} ({:.1} s)",
                    record.index, record.status, record.seconds
                ),
            };
            progress.point(&line, failed);
            if let Some(dir) = self.dir {
                dir.append(&record)?;
            }
            records.insert(record.index, record);
            Ok(())
        });
        progress.finish();
        ran
    }
}
