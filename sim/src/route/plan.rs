//! The shuffle planner: any lane mapping as passes of the two-stage router.
//!
//! Lane `t` takes lane `src = map[t]`, which is input `src mod q` of crossbar `src div q`, and
//! receives it through output `t mod q` of that crossbar. In one pass, crossbar `c` gives its
//! output `k` one input position, so the lanes that read crossbar `c` through output `k` form a
//! group that is served one distinct position per pass. The plan serves every group's distinct
//! positions in order of first need, one per pass: it takes exactly the largest number of
//! distinct positions any group needs, which no plan can beat (each pass serves one position
//! per group), is one pass whenever the mapping allows it, and never more than q (a group has
//! at most q distinct positions): the document's bound, whose own schedule (pass k broadcasts
//! input k of every crossbar) always takes as many passes as distinct positions overall.

use std::fmt;

use grfgen_hdl::params::RouteParams;
use serde::Serialize;

use super::model::ShufflePass;

/// A mapping the router cannot take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanError(String);

impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PlanError {}

/// A planned shuffle: its passes, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ShufflePlan {
    /// One entry per router pass.
    pub passes: Vec<ShufflePass>,
}

/// Checks that `map` has one source lane per lane, each in range.
pub fn check_map(params: &RouteParams, map: &[usize]) -> Result<(), PlanError> {
    let n = params.lanes;
    if map.len() != n {
        return Err(PlanError(format!(
            "invalid value {} lanes for --map: allowed exactly {n} source lanes (one per lane)",
            map.len()
        )));
    }
    if let Some((t, &src)) = map.iter().enumerate().find(|(_, &s)| s >= n) {
        return Err(PlanError(format!(
            "invalid value {src} for --map (lane {t}): allowed a lane 0..={}",
            n - 1
        )));
    }
    Ok(())
}

/// Plans `map` (lane `t` takes lane `map[t]`) for the router of `params`.
pub fn plan(params: &RouteParams, map: &[usize]) -> Result<ShufflePlan, PlanError> {
    check_map(params, map)?;
    let (n, q) = (params.lanes, params.crossbar);
    // positions[c * q + k]: distinct input positions needed from crossbar c at output k.
    let mut positions: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut order = vec![0; n];
    for (t, &src) in map.iter().enumerate() {
        let group = &mut positions[(src / q) * q + t % q];
        let position = src % q;
        order[t] = match group.iter().position(|&p| p == position) {
            Some(index) => index,
            None => {
                group.push(position);
                group.len() - 1
            }
        };
    }
    let count = positions.iter().map(Vec::len).max().unwrap_or(1).max(1);
    let passes = (0..count)
        .map(|pass| ShufflePass {
            xbar_pos: positions
                .iter()
                .map(|group| group.get(pass).copied().unwrap_or(0))
                .collect(),
            lane_xbar: map.iter().map(|&src| src / q).collect(),
            capture: order.iter().map(|&o| o == pass).collect(),
        })
        .collect();
    Ok(ShufflePlan { passes })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::route::model::{Pass, RouterModel};

    fn run_plan(params: &RouteParams, plan: &ShufflePlan, rs: &[u64]) -> Vec<u64> {
        let mut model = RouterModel::new(params);
        for pass in &plan.passes {
            model.step(true, &Pass::Shuffle(pass.clone()), rs, rs);
        }
        // The last pass reaches the result register `pipeline` cycles after it is given.
        if let Some(last) = plan.passes.last() {
            for _ in 0..params.pipeline {
                model.step(false, &Pass::Shuffle(last.clone()), rs, rs);
            }
        }
        model.result().to_vec()
    }

    #[test]
    fn thousands_of_random_mappings_are_exact_within_q_passes() {
        let mut rng = Rng::new(2024);
        for &(n, q) in &[
            (8, 4),
            (16, 4),
            (32, 4),
            (64, 4),
            (64, 8),
            (32, 2),
            (16, 16),
            (8, 1),
        ] {
            let params = RouteParams {
                lanes: n,
                crossbar: q,
                ..RouteParams::default()
            };
            let rs: Vec<u64> = (0..n as u64).map(|v| v * 10 + 1).collect();
            for round in 0..1500 {
                let map: Vec<usize> = if round % 2 == 0 {
                    (0..n).map(|_| rng.below(n)).collect()
                } else {
                    let mut perm: Vec<usize> = (0..n).collect();
                    for i in (1..n).rev() {
                        perm.swap(i, rng.below(i + 1));
                    }
                    perm
                };
                let plan = plan(&params, &map).unwrap();
                assert!(plan.passes.len() <= q.max(1), "{map:?}");
                let expected: Vec<u64> = map.iter().map(|&s| rs[s]).collect();
                assert_eq!(run_plan(&params, &plan, &rs), expected, "{map:?}");
                // Every lane is captured exactly once.
                for t in 0..n {
                    let captures = plan.passes.iter().filter(|p| p.capture[t]).count();
                    assert_eq!(captures, 1);
                }
            }
        }
    }

    #[test]
    fn one_pass_when_the_mapping_allows_it() {
        let params = RouteParams::default();
        let n = params.lanes;
        for map in [
            (0..n).map(|t| (t + 5) % n).collect::<Vec<_>>(), // rotation
            (0..n).map(|t| t ^ 9).collect(),                 // butterfly
            vec![7; n],                                      // broadcast
            (0..n).collect(),                                // identity
        ] {
            assert_eq!(plan(&params, &map).unwrap().passes.len(), 1, "{map:?}");
        }
        // Reversal within quads needs one pass; full reversal of 32 lanes too (positions
        // depend on the output position only).
        let reverse: Vec<usize> = (0..n).map(|t| n - 1 - t).collect();
        assert_eq!(plan(&params, &reverse).unwrap().passes.len(), 1);
    }

    #[test]
    fn bad_mappings_are_clear_errors() {
        let params = RouteParams {
            lanes: 8,
            ..RouteParams::default()
        };
        let short = plan(&params, &[0, 1, 2]).unwrap_err().to_string();
        assert!(short.contains("exactly 8"), "{short}");
        let out = plan(&params, &[0, 1, 2, 3, 4, 5, 6, 9])
            .unwrap_err()
            .to_string();
        assert!(
            out.contains("invalid value 9") && out.contains("0..=7"),
            "{out}"
        );
    }
}
