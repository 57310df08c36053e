//! The router's benchmark: how many passes the planner needs, over random permutations and
//! common mappings, for groups of 8 to 64 lanes.

use grfgen_hdl::param;
use grfgen_hdl::params::{Allowed, Param, Params, RouteParams};
use serde::{Deserialize, Serialize};

use super::plan::plan;
use crate::block::Report;
use crate::rng::Rng;

/// The options of the router's benchmark.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RouteBenchOptions {
    /// Random permutations per group size.
    pub mappings: usize,
}

impl Default for RouteBenchOptions {
    fn default() -> Self {
        Self { mappings: 10_000 }
    }
}

impl Params for RouteBenchOptions {
    fn table() -> Vec<Param<Self>> {
        vec![param!(
            mappings,
            "random permutations per group size",
            "N",
            |_| Allowed::range(1, 1_000_000)
        )]
    }
}

/// Planner passes for one group size.
#[derive(Clone, Debug, Serialize)]
pub struct PlannerRow {
    /// Lanes N.
    pub lanes: usize,
    /// Crossbar size q.
    pub crossbar: usize,
    /// The document's bound on passes: q.
    pub bound: usize,
    /// Random permutations planned.
    pub random_permutations: usize,
    /// How many permutations took 0, 1, ..., q passes.
    pub pass_histogram: Vec<usize>,
    /// Mean passes over the permutations.
    pub mean_passes: f64,
    /// Passes of named mappings: reversal, interleave, ...
    pub patterns: Vec<(String, usize)>,
}

/// The planner's passes for every group size.
#[derive(Clone, Debug, Serialize)]
pub struct RouteBench {
    /// One row per group size (8, 16, 32, 64 lanes; q = 4).
    pub planner: Vec<PlannerRow>,
}

impl Report for RouteBench {
    fn text(&self) -> String {
        let mut text = String::from("planner passes over random permutations (bound: q passes)\n");
        for row in &self.planner {
            let patterns: Vec<String> = row
                .patterns
                .iter()
                .map(|(name, passes)| format!("{name} {passes}"))
                .collect();
            text += &format!(
                "  N={:2} q={}: mean {:.2}, histogram by passes {:?}, {}\n",
                row.lanes,
                row.crossbar,
                row.mean_passes,
                row.pass_histogram,
                patterns.join(", ")
            );
        }
        text.trim_end().to_string()
    }

    fn metrics(&self) -> Vec<(&'static str, f64)> {
        Vec::new()
    }
}

/// Named mappings of `n` lanes.
fn patterns(n: usize) -> Vec<(&'static str, Vec<usize>)> {
    let mut list = vec![
        ("reversal", (0..n).map(|t| n - 1 - t).collect()),
        (
            "interleave halves",
            (0..n).map(|t| (t % 2) * (n / 2) + t / 2).collect(),
        ),
        (
            "deinterleave",
            (0..n)
                .map(|t| {
                    if t < n / 2 {
                        2 * t
                    } else {
                        2 * (t - n / 2) + 1
                    }
                })
                .collect(),
        ),
    ];
    if n == 32 {
        // A 4-column x 8-row tile (lane = row * 4 + column) transposed into 8 columns x 4 rows.
        list.push((
            "transpose 4x8 tile",
            (0..32).map(|t| (t % 8) * 4 + t / 8).collect::<Vec<_>>(),
        ));
    }
    list
}

/// Plans random permutations (seed 1) and the named mappings for 8, 16, 32 and 64 lanes.
pub fn bench(options: &RouteBenchOptions) -> RouteBench {
    let mut rng = Rng::new(1);
    let mappings = options.mappings;
    let planner = [8usize, 16, 32, 64]
        .into_iter()
        .map(|n| {
            let params = RouteParams {
                lanes: n,
                ..RouteParams::default()
            };
            let q = params.crossbar;
            let passes = |map: &[usize]| plan(&params, map).expect("valid mapping").passes.len();
            let mut histogram = vec![0usize; q + 1];
            for _ in 0..mappings {
                let mut perm: Vec<usize> = (0..n).collect();
                for i in (1..n).rev() {
                    perm.swap(i, rng.below(i + 1));
                }
                histogram[passes(&perm)] += 1;
            }
            let total: usize = histogram.iter().enumerate().map(|(p, c)| p * c).sum();
            PlannerRow {
                lanes: n,
                crossbar: q,
                bound: q,
                random_permutations: mappings,
                pass_histogram: histogram,
                mean_passes: total as f64 / mappings as f64,
                patterns: patterns(n)
                    .into_iter()
                    .map(|(name, map)| (name.to_string(), passes(&map)))
                    .collect(),
            }
        })
        .collect();
    RouteBench { planner }
}
