//! Timing closure over several placement seeds, as FPGA engineers run it: one netlist placed
//! and routed with each seed, every seed's figures kept, the best seed's files left in place.

use std::path::Path;

use grfgen_hdl::emit::Emitted;
use serde::{Deserialize, Serialize};

use super::{place_and_route, CriticalPath, Device, Placement, PnrReport};
use crate::FlowError;

/// The most seeds one request places with.
pub const MAX_SEEDS: u64 = 64;

/// One placement seed's figures.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SeedFigures {
    /// nextpnr's placement seed.
    pub seed: u64,
    /// The highest clock the routed design meets with this seed, in MHz; `None` when it did
    /// not place and route.
    pub fmax_mhz: Option<f64>,
    /// Whether `fmax_mhz` reaches the clock asked for.
    pub timing_met: bool,
    /// Source-to-sink connections routed.
    pub routed_arcs: Option<u64>,
    /// Routing wires used.
    pub wirelength: Option<u64>,
    /// The register-to-register critical path.
    pub critical_path: Option<CriticalPath>,
    /// Seconds in nextpnr.
    pub pnr_seconds: f64,
    /// Whether these figures come from the results cache.
    pub cached: bool,
}

impl SeedFigures {
    /// The seed's part of a whole report.
    fn of(report: &PnrReport) -> Self {
        Self {
            seed: report.seed,
            fmax_mhz: report.fmax_mhz,
            timing_met: report.timing_met,
            routed_arcs: report.routed_arcs,
            wirelength: report.wirelength,
            critical_path: report.critical_path.clone(),
            pnr_seconds: report.pnr_seconds,
            cached: report.cached,
        }
    }
}

/// Places and routes `emitted` (files in `dir`) on `device` at `clock_mhz` with `count` seeds
/// from `first`'s on, each at `first`'s timing weight: the report of the best seed (highest Fmax; the lowest seed among
/// equals), whose files stay in `dir/pnr`, with every seed's figures in `seeds` and the worst,
/// median and best Fmax. A design that does not fit is placed once: no seed changes that.
pub fn place_and_route_seeds(
    dir: &Path,
    emitted: &Emitted,
    device: Device,
    clock_mhz: f64,
    first: Placement,
    count: u64,
) -> Result<PnrReport, FlowError> {
    let mut seeds = Vec::new();
    let mut last = None;
    let at = |seed| Placement { seed, ..first };
    for seed in first.seed..first.seed + count.max(1) {
        let report = place_and_route(dir, emitted, device, clock_mhz, at(seed))?;
        if device.overflow(&report).is_some() {
            // Too large for the device: the same for every seed.
            return Ok(report);
        }
        seeds.push(SeedFigures::of(&report));
        last = Some(report);
    }
    let best = best_seed(&seeds);
    let mut report = match last {
        Some(report) if report.seed == best => report,
        // The best seed's files back in `dir/pnr`: from the results cache, which kept them.
        _ => place_and_route(dir, emitted, device, clock_mhz, at(best))?,
    };
    let fmax: Vec<f64> = seeds.iter().filter_map(|s| s.fmax_mhz).collect();
    report.fmax_mhz_worst = fmax.iter().copied().reduce(f64::min);
    report.fmax_mhz_best = fmax.iter().copied().reduce(f64::max);
    report.fmax_mhz_median = median(&fmax);
    report.cached = seeds.iter().all(|s| s.cached);
    report.seeds = seeds;
    Ok(report)
}

/// The seed with the highest Fmax; the lowest seed among equals, and the first seed when none
/// placed.
fn best_seed(seeds: &[SeedFigures]) -> u64 {
    let fmax = |s: &SeedFigures| s.fmax_mhz.unwrap_or(f64::NEG_INFINITY);
    seeds
        .iter()
        .fold(None::<&SeedFigures>, |best, s| match best {
            Some(b) if fmax(b) >= fmax(s) => Some(b),
            _ => Some(s),
        })
        .map_or(0, |s| s.seed)
}

/// The median of `values`: the middle one, or the mean of the two middle ones (rounded to
/// 0.001) for an even count; `None` for none.
fn median(values: &[f64]) -> Option<f64> {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2]),
        _ => Some(super::round3((sorted[n / 2 - 1] + sorted[n / 2]) / 2.0)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed(seed: u64, fmax: Option<f64>) -> SeedFigures {
        SeedFigures {
            seed,
            fmax_mhz: fmax,
            timing_met: false,
            routed_arcs: None,
            wirelength: None,
            critical_path: None,
            pnr_seconds: 0.0,
            cached: false,
        }
    }

    #[test]
    fn the_best_seed_is_the_fastest_and_the_lowest_among_equals() {
        let seeds = [
            seed(1, Some(90.0)),
            seed(2, Some(95.5)),
            seed(3, None),
            seed(4, Some(95.5)),
        ];
        assert_eq!(best_seed(&seeds), 2);
        assert_eq!(best_seed(&[seed(7, None), seed(8, None)]), 7);
    }

    #[test]
    fn the_median_of_an_even_count_is_the_mean_of_the_middle_two() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[154.4, 137.9, 150.0, 140.0]), Some(145.0));
    }
}
