//! What an exploration works on: its settings, and the space of designs with what is known of
//! each.

use std::collections::BTreeMap;

use grfgen_flow::steps::PnrRequest;
use grfgen_hdl::params::Params;
use grfgen_sim::block::{Block, ParamsOf};

use super::points::{Constraints, Cost, Objective, Point};
use crate::error::CliError;
use crate::sweep::store::Record;

/// How the exploration judges and how much it may spend.
pub struct Settings {
    /// Device and nextpnr seed.
    pub request: PnrRequest,
    /// What the recommendation minimises.
    pub objective: Objective,
    /// What a recommendation must meet.
    pub constraints: Constraints,
    /// Places and routes at most.
    pub budget_pnr: usize,
    /// Syntheses at most.
    pub budget_synth: usize,
}

/// The space explored: its designs, workloads and what is known of each design.
pub struct Space<B: Block> {
    /// Every design, in the sweep's order.
    pub designs: Vec<ParamsOf<B>>,
    /// The workloads (the grid of run options).
    pub runs: Vec<B::Options>,
    /// The swept parameters' names.
    pub swept: Vec<String>,
    /// The exploration's seed.
    pub seed: u64,
    /// The designs every workload applies to, with what is known of them.
    pub points: Vec<Point>,
}

impl<B: Block> Space<B> {
    /// The index of the record that holds design `d`'s implementation: its first workload's.
    pub fn record_of(&self, d: usize) -> usize {
        d * self.runs.len()
    }

    /// The points of `records`: one per design that every workload applies to. A model run
    /// that failed is an error.
    pub fn collect(&self, records: &BTreeMap<usize, Record>) -> Result<Vec<Point>, CliError> {
        let mut points = Vec::new();
        for (d, design) in self.designs.iter().enumerate() {
            let mine: Vec<&Record> = (0..self.runs.len())
                .filter_map(|w| records.get(&(self.record_of(d) + w)))
                .collect();
            if let Some(bad) = mine.iter().find(|r| !r.settled()) {
                return Err(CliError::Failed(format!(
                    "point {} {}: {}; replay with: {}",
                    bad.index,
                    bad.status,
                    bad.error.as_deref().unwrap_or("no reason recorded"),
                    bad.replay
                )));
            }
            if mine.len() < self.runs.len() || mine.iter().any(|r| r.skipped()) {
                continue;
            }
            let Some(cycles) = mine
                .iter()
                .map(|r| r.work_cycles)
                .collect::<Option<Vec<f64>>>()
            else {
                return Err(CliError::Failed(format!(
                    "point {} has no work_cycles: recorded by an older grfgen; explore into a new directory",
                    self.record_of(d)
                )));
            };
            let energy: Option<Vec<f64>> = (mine.iter())
                .map(|r| {
                    r.report
                        .get("energy_pj")
                        .and_then(serde_json::Value::as_f64)
                })
                .collect();
            let mut point = Point {
                design: d,
                params: mine[0].parameters.clone(),
                levels: (self.swept.iter())
                    .map(|n| {
                        let p = ParamsOf::<B>::param(n).expect("swept from the table");
                        (n.clone(), p.value(design))
                    })
                    .collect(),
                flags: crate::sweep::runner::flags(design),
                cycles,
                energy_pj: energy.map(|e| e.iter().sum()),
                cost: None,
                placed: None,
                fits: true,
                failure: None,
            };
            point.learn(mine[0]);
            points.push(point);
        }
        Ok(points)
    }
}

impl Point {
    /// Takes up what `record` (the design's first workload's) holds of synthesis or place
    /// and route.
    pub fn learn(&mut self, record: &Record) {
        let Some(report) = &record.pnr else { return };
        let figure = |name: &str| report.get(name).and_then(serde_json::Value::as_f64);
        self.cost = Some(Cost {
            luts: figure("luts").unwrap_or(0.0),
            ffs: figure("ffs").unwrap_or(0.0),
            brams: figure("brams").unwrap_or(0.0),
            dsps: figure("dsps").unwrap_or(0.0),
        });
        self.fits = report.get("fits").and_then(serde_json::Value::as_bool) != Some(false);
        if let Some(fmax) = figure("fmax_mhz") {
            self.placed = Some(Some(fmax));
        } else if !self.fits && figure("pnr_seconds").is_some_and(|s| s > 0.0) {
            self.placed = Some(None);
        }
    }
}
