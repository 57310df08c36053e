//! What `grfgen sim core` reports: the run, every policy's figures beside it, and what
//! allocation did; and the run of the options a user gave.

use std::collections::BTreeMap;

use grfgen_hdl::params::CoreParams;
use serde::Serialize;

use super::allocated::{allocated, AllocationFigures};
use super::figures::Isa;
use super::model::Policy;
use super::options::CoreOptions;
use super::run::{run, CoreRun};
use super::verilated::{CoreDevice, CoreRtl};
use super::waves::settle;
use crate::block::{Report, Setup, SimError};
use crate::check::LockStep;

/// One policy's figures beside the run's.
#[derive(Clone, Debug, Serialize)]
pub struct PolicyFigures {
    /// Cycles.
    pub cycles: u64,
    /// The lower bound.
    pub lower_bound: u64,
    /// Stall cycles.
    pub stall_cycles: u64,
}

/// What `grfgen sim core` reports: the run under the chosen policy, and every policy's
/// cycles on the same program (golden model).
#[derive(Clone, Debug, Serialize)]
pub struct CoreReport {
    /// The run.
    #[serde(flatten)]
    pub run: CoreRun,
    /// Every policy on the same program, by name.
    pub comparison: BTreeMap<&'static str, PolicyFigures>,
    /// With `--allocate`: the program as written against the allocated one that ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allocation: Option<AllocationFigures>,
    /// The order the comparison is listed in.
    #[serde(skip)]
    pub others: Vec<CoreRun>,
}

impl Report for CoreReport {
    /// The program's cycles, from the first issue to the last write-back.
    fn work_cycles(&self) -> Option<f64> {
        Some(self.run.cycles as f64)
    }

    fn lock_step(&self) -> Option<&LockStep> {
        Some(&self.run.lock_step)
    }

    fn text(&self) -> String {
        let (r, s) = (&self.run, &self.run.stats);
        let waves = match r.waves {
            1 => String::new(),
            n => format!(", {n} waves (footprint {}), IPC {:.3}", r.footprint, r.ipc),
        };
        let mut text = format!(
            "core {} on {}{waves}: {} cycles, lower bound {} ({:.2}x)\n\
             {} instructions, {} with a source conflict; {} GPR reads: {} preloads into the CQ, \
             {} prefetches into the PQ; {} stall cycles\n",
            r.policy.name(),
            r.workload,
            r.cycles,
            r.lower_bound,
            r.ratio(),
            s.instructions,
            s.sc_instructions,
            s.gpr_reads,
            s.cq_preloads,
            s.pq_prefetches,
            s.stall_cycles,
        );
        if r.program.isa == Isa::Ir3 {
            text += &r.program.text(s.instructions);
        }
        if s.external_writes + s.external_retries > 0 {
            text += &format!(
                "external writes {} ({} retried cycles)\n",
                s.external_writes, s.external_retries
            );
        }
        text += &format!(
            "mismatches {}\npolicy   cycles  x bound  stalls\n",
            r.lock_step.mismatches
        );
        for o in &self.others {
            text += &format!(
                "{:7} {:7}  {:7.2}  {:6}\n",
                o.policy.name(),
                o.cycles,
                o.ratio(),
                o.stats.stall_cycles
            );
        }
        if let Some(allocation) = &self.allocation {
            text += &(allocation.text() + "\n");
        }
        if let Some(cycles) = &r.schedule {
            text += "GPR reads by cycle (register, bank, port, destination):\n";
            for (t, reads) in cycles.iter().enumerate() {
                let list: Vec<String> = reads
                    .iter()
                    .map(|r| {
                        format!("R{} b{} p{} {:?}", r.reg, r.bank, r.port, r.to).to_lowercase()
                    })
                    .collect();
                let line = format!("  cycle {t:3}: {}", list.join(", "));
                text += line.trim_end();
                text.push('\n');
            }
        }
        text.trim_end().to_string()
    }

    fn metrics(&self) -> Vec<(&'static str, f64)> {
        let s = &self.run.stats;
        vec![
            ("cycles", self.run.cycles as f64),
            ("lower_bound", self.run.lower_bound as f64),
            ("cycles_over_bound", self.run.ratio()),
            ("stall_cycles", s.stall_cycles as f64),
            ("cq_preloads", s.cq_preloads as f64),
            ("pq_prefetches", s.pq_prefetches as f64),
            ("mismatches", self.run.lock_step.mismatches as f64),
        ]
    }
}

/// One core run from the options and the seed, beside every policy on the same program.
pub(super) fn run_options(
    params: &CoreParams,
    options: &CoreOptions,
    setup: &Setup,
) -> Result<CoreReport, SimError> {
    let policy = options.policy;
    let written = options.program(params, setup.seed)?;
    let written_params = settle(params, &written.program, written.wave_base)?;
    let with_rtl = match policy {
        Policy::Ideal => setup.with_rtl(
            false,
            "the ideal file (--policy ideal) is a golden model only",
        )?,
        _ => setup.with_rtl(true, "")?,
    };
    let (workload, allocation) = match options.allocate {
        false => (written, None),
        true => {
            let (workload, figures) = allocated(&written_params, policy, &written, setup.seed)?;
            (workload, Some(figures))
        }
    };
    // `--waves auto` takes the most waves the program run holds: after allocation, its
    // allocated registers.
    let params = &settle(params, &workload.program, workload.wave_base)?;
    let mut device = match with_rtl {
        true => Some(CoreRtl::build(&policy.hardware(params), setup)?),
        false => None,
    };
    let device = device.as_mut().map(|d| d as &mut dyn CoreDevice);
    // The other policies' golden models run on a second thread beside the lock step.
    let (seed, shared) = (setup.seed, &workload);
    let (run, mut others) = std::thread::scope(|scope| {
        let others = scope.spawn(move || {
            Policy::ALL
                .iter()
                .filter(|&&p| p != policy)
                .map(|&p| self::run(params, p, shared, seed, None, false))
                .collect::<Vec<CoreRun>>()
        });
        let run = run(
            params,
            policy,
            &workload,
            setup.seed,
            device,
            options.schedule,
        );
        match others.join() {
            Ok(others) => (run, others),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    });
    // The chosen policy's own figures are the lock step's, unless the RTL stopped it early.
    let own = match run.lock_step.mismatches {
        0 => CoreRun {
            schedule: None,
            ..run.clone()
        },
        _ => self::run(params, policy, &workload, setup.seed, None, false),
    };
    let at = Policy::ALL.iter().position(|&p| p == policy).unwrap_or(0);
    others.insert(at, own);
    let comparison = others
        .iter()
        .map(|r| {
            let figures = PolicyFigures {
                cycles: r.cycles,
                lower_bound: r.lower_bound,
                stall_cycles: r.stats.stall_cycles,
            };
            (r.policy.name(), figures)
        })
        .collect();
    let allocation = allocation.map(|mut figures: AllocationFigures| {
        figures.cycles_after = run.cycles;
        figures.lower_bound_after = run.lower_bound;
        figures
    });
    Ok(CoreReport {
        run,
        comparison,
        others,
        allocation,
    })
}
