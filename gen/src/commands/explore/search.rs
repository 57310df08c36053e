//! The search: which designs to synthesize and which to place and route, a batch at a time,
//! until no design that could still be on the front is left unmeasured or the budgets are
//! spent.
//!
//! Before anything is synthesized, one design is changed one parameter at a time (from the
//! design with the fewest cycles), so that every swept value is costed once. From then on,
//! a design is a candidate while, with its unmeasured figures moved by the models' margins
//! in its favour, it meets the constraints and no other design (its unmeasured figures moved
//! against it, and meeting the constraints as far as is known) dominates it. Candidates
//! without a cost are synthesized, best first by the objective; when every candidate is
//! costed, the best unplaced ones are placed and routed.

use std::collections::BTreeMap;

use grfgen_hdl::design::Design;
use grfgen_sim::block::Block;

use super::points::{dominates, key, Models, Point};
use super::{Settings, Space};
use crate::commands::sweep::runner::{Implementation, Job};
use crate::commands::sweep::store::Record;
use crate::commands::sweep::Recording;
use crate::error::CliError;

/// Synthesizes (with `place` false) or places and routes the designs `chosen` (indices of
/// `space.points`), then takes up their records.
fn implement<B: Block>(
    space: &mut Space<B>,
    chosen: &[usize],
    place: bool,
    settings: &Settings,
    recording: &Recording,
    records: &mut BTreeMap<usize, Record>,
) -> Result<(), CliError> {
    let jobs: Vec<Job<B>> = (chosen.iter())
        .map(|&i| {
            let d = space.points[i].design;
            Job {
                index: space.record_of(d),
                params: space.designs[d].clone(),
                options: space.runs[0].clone(),
                seed: space.seed,
            }
        })
        .collect();
    let mut implementation = Implementation::new(false, Some(settings.request));
    implementation.synthesis_only = !place;
    let step = if place {
        "place and route"
    } else {
        "synthesis"
    };
    let block = B::Design::NAME;
    recording.run(
        &format!("explore {block}: {step}"),
        &jobs,
        &implementation,
        records,
    )?;
    for &i in chosen {
        let index = space.record_of(space.points[i].design);
        let record = records.get(&index).expect("just recorded");
        if !record.ok() {
            return Err(CliError::Failed(format!(
                "{step} of point {index}: {}; --resume tries it again",
                record.error.as_deref().unwrap_or(&record.status)
            )));
        }
        space.points[i].learn(record);
    }
    Ok(())
}

/// The first designs to synthesize: the one with the fewest cycles, and that design with one
/// swept parameter changed to each of its other values.
fn covering<B: Block>(space: &Space<B>) -> Vec<usize> {
    let points = &space.points;
    let total = |p: &Point| p.cycles.iter().sum::<f64>();
    let Some(base) =
        (0..points.len()).min_by(|&a, &b| total(&points[a]).total_cmp(&total(&points[b])))
    else {
        return Vec::new();
    };
    let mut chosen = vec![base];
    for (k, (name, _)) in points[base].levels.iter().enumerate() {
        let mut values: Vec<&String> = points.iter().map(|p| &p.levels[k].1).collect();
        values.sort();
        values.dedup();
        for value in values {
            let changed = (0..points.len()).find(|&i| {
                (points[i].levels.iter().zip(&points[base].levels))
                    .all(|(a, b)| a.0 != *name && a == b || a.0 == *name && a.1 == *value)
            });
            // A combination the grid refused: any design with the value stands in.
            let stand_in = || (0..points.len()).find(|&i| points[i].levels[k].1 == *value);
            if let Some(i) = changed.or_else(stand_in) {
                if !chosen.contains(&i) {
                    chosen.push(i);
                }
            }
        }
    }
    chosen
}

/// The points that could still be on the front under the constraints, best first by the
/// objective (their figures as the models predict them).
fn candidates(points: &[Point], models: &Models, settings: &Settings) -> Vec<usize> {
    let limits = &settings.constraints;
    let nominal: Vec<_> = points.iter().map(|p| models.estimate(p, 0.0)).collect();
    let hopeful: Vec<_> = points.iter().map(|p| models.estimate(p, 1.0)).collect();
    let sure: Vec<_> = points.iter().map(|p| models.estimate(p, -1.0)).collect();
    // LUTs measured, less a little for packing after place and route; none known, none.
    let luts = |p: &Point, slack: f64| p.cost.map_or(0.0, |c| c.luts * slack);
    let safe: Vec<usize> = (0..points.len())
        .filter(|&q| points[q].fits && limits.possible(&sure[q], luts(&points[q], 1.0)))
        .collect();
    let mut open: Vec<usize> = (0..points.len())
        .filter(|&p| points[p].fits && limits.possible(&hopeful[p], luts(&points[p], 0.95)))
        .filter(|&p| {
            !safe
                .iter()
                .any(|&q| q != p && dominates(&sure[q], &hopeful[p]))
        })
        .collect();
    open.sort_by(|&a, &b| {
        let (ka, kb) = (
            key(settings.objective, &nominal[a]),
            key(settings.objective, &nominal[b]),
        );
        ka.partial_cmp(&kb).unwrap_or(std::cmp::Ordering::Equal)
    });
    open
}

/// The designs that could still have been on the front when the budgets ran out.
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct Left {
    /// Never synthesized.
    pub uncosted: usize,
    /// Synthesized, never placed and routed.
    pub unplaced: usize,
}

/// Runs the search on `space` within the settings' budgets: what it left unmeasured.
pub fn search<B: Block>(
    space: &mut Space<B>,
    settings: &Settings,
    recording: &Recording,
    records: &mut BTreeMap<usize, Record>,
) -> Result<Left, CliError> {
    let batch = recording.threads.max(1);
    if space.points.is_empty() {
        return Ok(Left::default());
    }
    loop {
        let costed = space.points.iter().filter(|p| p.cost.is_some()).count();
        let placed = space.points.iter().filter(|p| p.placed.is_some()).count();
        let synth_left = settings.budget_synth.saturating_sub(costed);
        let pnr_left = settings.budget_pnr.saturating_sub(placed);
        if costed == 0 && synth_left > 0 {
            let first: Vec<usize> = covering(space).into_iter().take(synth_left).collect();
            implement(space, &first, false, settings, recording, records)?;
            continue;
        }
        let models = Models::fit(&space.points);
        let open = candidates(&space.points, &models, settings);
        let to_cost: Vec<usize> = (open.iter().copied())
            .filter(|&i| space.points[i].cost.is_none())
            .take(batch.min(synth_left))
            .collect();
        if !to_cost.is_empty() {
            implement(space, &to_cost, false, settings, recording, records)?;
            continue;
        }
        let to_place: Vec<usize> = (open.iter().copied())
            .filter(|&i| space.points[i].cost.is_some() && space.points[i].placed.is_none())
            .take(batch.min(pnr_left))
            .collect();
        if to_place.is_empty() {
            if let Some(i) = closest(&space.points, &models, settings).filter(|_| pnr_left > 0) {
                implement(space, &[i], true, settings, recording, records)?;
            }
            let open = candidates(&space.points, &Models::fit(&space.points), settings);
            let costed = |&&i: &&usize| space.points[i].cost.is_some();
            return Ok(Left {
                uncosted: open.iter().filter(|i| !costed(i)).count(),
                unplaced: (open.iter().filter(costed))
                    .filter(|&&i| space.points[i].placed.is_none())
                    .count(),
            });
        }
        implement(space, &to_place, true, settings, recording, records)?;
    }
}

/// When no placed design meets the constraints: the unplaced costed design nearest to
/// meeting them, so that the exploration can show the closest design placed.
fn closest(points: &[Point], models: &Models, settings: &Settings) -> Option<usize> {
    let limits = &settings.constraints;
    let luts = |p: &Point| p.cost.map_or(0.0, |c| c.luts);
    let met = |p: &Point| limits.failure(&models.estimate(p, 0.0), luts(p)).is_none();
    if points
        .iter()
        .any(|p| p.placed_fmax().is_some() && p.fits && met(p))
    {
        return None;
    }
    (0..points.len())
        .filter(|&i| points[i].fits && points[i].cost.is_some() && points[i].placed.is_none())
        .min_by(|&a, &b| {
            let distance = |p: &Point| limits.distance(&models.estimate(p, 0.0), luts(p));
            distance(&points[a]).total_cmp(&distance(&points[b]))
        })
}
