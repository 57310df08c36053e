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
use super::space::{Settings, Space};
use crate::error::CliError;
use crate::sweep::recording::Recording;
use crate::sweep::runner::{Implementation, Job};
use crate::sweep::store::Record;

/// Synthesizes (with `place` false) or places and routes the designs `chosen` (indices of
/// `space.points`), then takes up their records. A design whose synthesis or place and
/// route failed is left out of the search, with the reason.
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
        match record.ok() {
            true => space.points[i].learn(record),
            false => {
                let why = record.error.as_deref().unwrap_or(&record.status);
                crate::progress::line(&format!(
                    "{step} of point {index} failed, the design is left out: {why}"
                ));
                space.points[i].failure = Some(format!("{step}: {why}"));
                space.points[i].fits = false;
            }
        }
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
    // LUTs measured, less the cost margin (synthesis and placement count them apart); none
    // known, none.
    let margin = models.margins.0.unwrap_or(1.0);
    let luts = |p: &Point, slack: f64| p.cost.map_or(0.0, |c| c.luts * slack);
    let safe: Vec<usize> = (0..points.len())
        .filter(|&q| points[q].fits && limits.possible(&sure[q], luts(&points[q], 1.0)))
        .collect();
    let mut open: Vec<usize> = (0..points.len())
        .filter(|&p| points[p].fits && limits.possible(&hopeful[p], luts(&points[p], 1.0 - margin)))
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
        super::points::order(ka, kb)
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

/// Designs placed before the Fmax prediction is trusted to prune: the fewest whose
/// leave-one-out error can be measured.
const FIRST_PLACED: usize = 3;

/// The next designs to measure, and whether to place them (else synthesize them): the first
/// batch's designs not yet costed; then, until the Fmax prediction can be checked, the best
/// costed candidates placed; then the candidates without a cost; then the best unplaced.
fn next<B: Block>(
    space: &Space<B>,
    settings: &Settings,
    batch: usize,
) -> Option<(Vec<usize>, bool)> {
    let points = &space.points;
    let costed = points
        .iter()
        .filter(|p| p.cost.is_some() || p.failure.is_some())
        .count();
    let placed = points.iter().filter(|p| p.tried_placing()).count();
    let synth_left = settings.budget_synth.saturating_sub(costed);
    let pnr_left = settings.budget_pnr.saturating_sub(placed);
    let uncosted = |&i: &usize| points[i].cost.is_none() && points[i].failure.is_none();
    let unplaced =
        |&i: &usize| points[i].cost.is_some() && points[i].placed.is_none() && points[i].fits;
    let first: Vec<usize> = covering(space)
        .into_iter()
        .filter(uncosted)
        .take(synth_left)
        .collect();
    if !first.is_empty() {
        return Some((first, false));
    }
    let open = candidates(points, &Models::fit(points), settings);
    let take = |filter: &dyn Fn(&usize) -> bool, left: usize| -> Vec<usize> {
        open.iter()
            .copied()
            .filter(|i| filter(i))
            .take(batch.min(left))
            .collect()
    };
    let learning = take(&unplaced, pnr_left.min(FIRST_PLACED.saturating_sub(placed)));
    if !learning.is_empty() {
        return Some((learning, true));
    }
    let to_cost = take(&uncosted, synth_left);
    if !to_cost.is_empty() {
        return Some((to_cost, false));
    }
    let to_place = take(&unplaced, pnr_left);
    (!to_place.is_empty()).then_some((to_place, true))
}

/// Runs the search on `space` within the settings' budgets: what it left unmeasured.
pub fn search<B: Block>(
    space: &mut Space<B>,
    settings: &Settings,
    recording: &Recording,
    records: &mut BTreeMap<usize, Record>,
) -> Result<Left, CliError> {
    let batch = recording.threads.max(1);
    while let Some((chosen, place)) = next(space, settings, batch) {
        implement(space, &chosen, place, settings, recording, records)?;
    }
    let placed = space.points.iter().filter(|p| p.tried_placing()).count();
    let models = Models::fit(&space.points);
    if let Some(i) = closest(&space.points, &models, settings) {
        if placed < settings.budget_pnr {
            implement(space, &[i], true, settings, recording, records)?;
        }
    }
    let open = candidates(&space.points, &Models::fit(&space.points), settings);
    let points = &space.points;
    Ok(Left {
        uncosted: open.iter().filter(|&&i| points[i].cost.is_none()).count(),
        unplaced: (open.iter())
            .filter(|&&i| points[i].cost.is_some() && points[i].placed.is_none())
            .count(),
    })
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
