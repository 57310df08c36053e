//! The designs of an exploration, what is measured or predicted of each, the objectives and
//! constraints they are judged by, and the Pareto front.

use serde::Serialize;
use serde_json::Value;

use super::fit::{Accuracy, Fit, Levels};
use crate::error::CliError;

/// What the recommendation minimises.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Objective {
    /// Time over the workloads: cycles times the clock period, summed.
    Time,
    /// LUTs plus flip-flops, then block RAMs.
    Area,
    /// Energy over the workloads (see [`Point::energy`]).
    Energy,
}

impl Objective {
    /// Its name, as `--objective` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Time => "time",
            Self::Area => "area",
            Self::Energy => "energy",
        }
    }

    /// The objective `--objective` names.
    pub fn parse(text: &str) -> Result<Self, CliError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "time" => Ok(Self::Time),
            "area" => Ok(Self::Area),
            "energy" => Ok(Self::Energy),
            _ => Err(CliError::Input(format!(
                "invalid value {} for --objective: allowed time, area or energy",
                grfgen_support::text::quoted(text)
            ))),
        }
    }
}

/// The limits a recommended design must meet.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Constraints {
    /// Lowest Fmax, MHz.
    pub min_fmax_mhz: Option<f64>,
    /// Most LUTs.
    pub max_luts: Option<f64>,
    /// Most block RAMs.
    pub max_brams: Option<f64>,
}

/// A design's resources, from synthesis or from place and route.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Cost {
    /// LUTs.
    pub luts: f64,
    /// Flip-flops.
    pub ffs: f64,
    /// Block RAMs.
    pub brams: f64,
    /// Multipliers (DSP blocks).
    pub dsps: f64,
}

impl Cost {
    /// LUTs plus flip-flops: the logic cost the front weighs against time.
    pub fn logic(&self) -> f64 {
        self.luts + self.ffs
    }
}

/// One design of the space and what is known of it.
#[derive(Clone, Debug)]
pub struct Point {
    /// Its index among the designs (its records are `design * workloads + w`).
    pub design: usize,
    /// Its parameters as the records hold them.
    pub params: Value,
    /// The swept parameters' values.
    pub levels: Levels,
    /// The flags that set its non-default parameters.
    pub flags: Vec<String>,
    /// Cycles of each workload's work.
    pub cycles: Vec<f64>,
    /// The model's energy over the workloads, where the block reports one, pJ.
    pub energy_pj: Option<f64>,
    /// Resources, once synthesized or placed.
    pub cost: Option<Cost>,
    /// Placed and routed: its Fmax, MHz (`None` when it did not fit).
    pub placed: Option<Option<f64>>,
    /// Whether it fits the device (false once synthesis or placement said it does not, or
    /// failed).
    pub fits: bool,
    /// Why its synthesis or place and route failed, if it did.
    pub failure: Option<String>,
}

/// What the models predict where nothing is measured: each figure, with how far it may be
/// off (a relative margin).
pub struct Models {
    /// LUTs plus flip-flops.
    logic: Option<Fit>,
    /// Block RAMs plus one.
    brams: Option<Fit>,
    /// Fmax.
    fmax: Option<Fit>,
    /// Margins of the cost and Fmax predictions: unknown (any figure is possible) until
    /// three designs are measured.
    pub margins: (Option<f64>, Option<f64>),
    /// Leave-one-out accuracy of the Fmax prediction on the placed points.
    pub fmax_accuracy: Accuracy,
    /// Leave-one-out accuracy of the LUT-plus-FF prediction on the synthesized points.
    pub logic_accuracy: Accuracy,
}

/// The Fmax assumed of every design before any is placed: any one value ranks them alike.
const PRIOR_FMAX_MHZ: f64 = 100.0;

/// A point's figures as the front and the recommendation see them.
#[derive(Clone, Copy, Debug)]
pub struct Estimate {
    /// LUTs plus flip-flops.
    pub logic: f64,
    /// Block RAMs.
    pub brams: f64,
    /// Fmax, MHz.
    pub fmax: f64,
    /// Time over the workloads, ns.
    pub time_ns: f64,
    /// Energy (see [`Point::energy`]).
    pub energy: f64,
}

impl Models {
    /// The models fitted on `points`' measurements.
    pub fn fit(points: &[Point]) -> Self {
        let costed: Vec<(&Levels, Cost)> = (points.iter())
            .filter(|p| p.fits)
            .filter_map(|p| p.cost.map(|c| (&p.levels, c)))
            .collect();
        let logic: Vec<(&Levels, f64)> = costed.iter().map(|(l, c)| (*l, c.logic())).collect();
        let brams: Vec<(&Levels, f64)> = costed.iter().map(|(l, c)| (*l, c.brams + 1.0)).collect();
        let fmax: Vec<(&Levels, f64)> = (points.iter())
            .filter_map(|p| Some((&p.levels, p.placed.flatten()?)))
            .collect();
        let (logic_accuracy, fmax_accuracy) = (Accuracy::of(&logic), Accuracy::of(&fmax));
        let margin = |a: &Accuracy| (a.points > 0).then(|| a.margin(0.1));
        Self {
            logic: Fit::new(&logic),
            brams: Fit::new(&brams),
            fmax: Fit::new(&fmax),
            margins: (margin(&logic_accuracy), margin(&fmax_accuracy)),
            fmax_accuracy,
            logic_accuracy,
        }
    }

    /// `point`'s figures: measured where they are, else predicted, with each prediction
    /// moved by its margin `towards` the point's advantage (+1), against it (-1) or not (0).
    /// A prediction whose margin is unknown moves to the end of its range: no cost and an
    /// unbounded Fmax in the point's favour, the reverse against it.
    pub fn estimate(&self, point: &Point, towards: f64) -> Estimate {
        let (cost_margin, fmax_margin) = self.margins;
        // `up` is +1 where a larger figure is better (Fmax), -1 where a smaller one is.
        let moved = |value: f64, margin: Option<f64>, up: f64, best: f64, worst: f64| match margin {
            _ if towards == 0.0 => value,
            Some(m) => value * (1.0 + towards * up * m),
            None if towards > 0.0 => best,
            None => worst,
        };
        let (logic, brams) = match point.cost {
            Some(c) => (c.logic(), c.brams),
            None => {
                let logic = self
                    .logic
                    .as_ref()
                    .map_or(0.0, |f| f.predict(&point.levels));
                let brams = self
                    .brams
                    .as_ref()
                    .map_or(1.0, |f| f.predict(&point.levels))
                    - 1.0;
                let shrink = |v: f64| moved(v, cost_margin, -1.0, 0.0, f64::INFINITY).max(0.0);
                (shrink(logic), shrink(brams.max(0.0)))
            }
        };
        let fmax = match point.placed {
            Some(fmax) => fmax.unwrap_or(0.0),
            None => {
                let fmax = self
                    .fmax
                    .as_ref()
                    .map_or(PRIOR_FMAX_MHZ, |f| f.predict(&point.levels));
                moved(fmax, fmax_margin, 1.0, f64::INFINITY, 0.0)
            }
        };
        let cycles: f64 = point.cycles.iter().sum();
        Estimate {
            logic,
            brams,
            fmax,
            time_ns: match (fmax > 0.0, fmax.is_finite()) {
                (false, _) => f64::INFINITY,
                (true, true) => cycles * 1000.0 / fmax,
                (true, false) => 0.0,
            },
            energy: point.energy(logic),
        }
    }
}

impl Point {
    /// Energy over the workloads: the model's energy in pJ where the block reports one (the
    /// GRF, the cluster); else LUT-plus-FF cells times cycles, a measure of switched logic
    /// that counts neither clock frequency nor activity.
    pub fn energy(&self, logic: f64) -> f64 {
        self.energy_pj
            .unwrap_or_else(|| logic * self.cycles.iter().sum::<f64>())
    }

    /// Its Fmax, when it has been placed and routed and fits.
    pub fn placed_fmax(&self) -> Option<f64> {
        self.placed.flatten()
    }

    /// Whether place and route ran on it (whatever came of it): what the budget counts.
    pub fn tried_placing(&self) -> bool {
        self.placed.is_some()
            || (self.failure.as_deref()).is_some_and(|f| f.starts_with("place and route"))
    }
}

/// The key `objective` orders estimates by, smallest best.
pub fn key(objective: Objective, e: &Estimate) -> (f64, f64, f64) {
    match objective {
        Objective::Time => (e.time_ns, e.logic, e.brams),
        Objective::Area => (e.logic, e.brams, e.time_ns),
        Objective::Energy => (e.energy, e.time_ns, e.logic),
    }
}

/// The order of two objective keys, smallest first, total even over NaN.
pub fn order(a: (f64, f64, f64), b: (f64, f64, f64)) -> std::cmp::Ordering {
    (a.0.total_cmp(&b.0))
        .then(a.1.total_cmp(&b.1))
        .then(a.2.total_cmp(&b.2))
}

/// Whether `a` dominates `b`: no worse in LUTs plus flip-flops, block RAMs and time, and
/// better in one.
pub fn dominates(a: &Estimate, b: &Estimate) -> bool {
    let (x, y) = ([a.logic, a.brams, a.time_ns], [b.logic, b.brams, b.time_ns]);
    x.iter().zip(&y).all(|(p, q)| p <= q) && x.iter().zip(&y).any(|(p, q)| p < q)
}

/// The indices of `estimates` that no other dominates.
pub fn front(estimates: &[Estimate]) -> Vec<usize> {
    (0..estimates.len())
        .filter(|&i| !estimates.iter().any(|e| dominates(e, &estimates[i])))
        .collect()
}

impl Constraints {
    /// The first constraint that `e` (of a point with `luts`) fails, in words, if any.
    pub fn failure(&self, e: &Estimate, luts: f64) -> Option<String> {
        if let Some(min) = self.min_fmax_mhz.filter(|&min| e.fmax < min) {
            return Some(format!("--min-fmax {min}: it reaches {:.1} MHz", e.fmax));
        }
        if let Some(max) = self.max_luts.filter(|&max| luts > max) {
            return Some(format!("--max-luts {max}: it needs {luts} LUTs"));
        }
        if let Some(max) = self.max_brams.filter(|&max| e.brams > max) {
            return Some(format!(
                "--max-brams {max}: it needs {} block RAMs",
                e.brams
            ));
        }
        None
    }

    /// How far `e` (of a point with `luts`) is from meeting every constraint: the largest
    /// ratio by which it misses one (0 when it meets them all).
    pub fn distance(&self, e: &Estimate, luts: f64) -> f64 {
        let over = |have: f64, limit: Option<f64>| {
            limit.map_or(0.0, |l| (have / l.max(1e-9) - 1.0).max(0.0))
        };
        let under = |have: f64, limit: Option<f64>| {
            limit.map_or(0.0, |l| (l / have.max(1e-9) - 1.0).max(0.0))
        };
        under(e.fmax, self.min_fmax_mhz)
            .max(over(luts, self.max_luts))
            .max(over(e.brams, self.max_brams))
    }

    /// Whether a point with optimistic figures `e` (and optimistic `luts`) might still meet
    /// the constraints.
    pub fn possible(&self, e: &Estimate, luts: f64) -> bool {
        self.failure(e, luts).is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn estimate(logic: f64, brams: f64, time_ns: f64) -> Estimate {
        Estimate {
            logic,
            brams,
            fmax: 100.0,
            time_ns,
            energy: logic * time_ns,
        }
    }

    #[test]
    fn the_front_keeps_exactly_the_points_nothing_beats() {
        let points = [
            estimate(100.0, 1.0, 50.0),
            estimate(200.0, 1.0, 40.0),
            estimate(200.0, 1.0, 60.0), // dominated by the first
            estimate(100.0, 0.0, 70.0),
            estimate(100.0, 1.0, 50.0), // equal to the first: neither dominates
        ];
        assert_eq!(front(&points), vec![0, 1, 3, 4]);
        assert!(dominates(&points[0], &points[2]));
        assert!(!dominates(&points[2], &points[0]));
        // Equal points: neither dominates the other; a trade-off: neither either.
        assert!(!dominates(&points[0], &points[4]) && !dominates(&points[4], &points[0]));
        assert!(!dominates(&points[0], &points[1]) && !dominates(&points[1], &points[0]));
        assert!(!dominates(&points[0], &points[3]) && !dominates(&points[3], &points[0]));
    }

    #[test]
    fn constraints_name_the_first_limit_missed_and_how_far() {
        let limits = Constraints {
            min_fmax_mhz: Some(150.0),
            max_luts: Some(1000.0),
            max_brams: None,
        };
        let e = estimate(900.0, 4.0, 10.0);
        let why = limits.failure(&e, 800.0).expect("100 MHz misses 150");
        assert!(why.starts_with("--min-fmax 150"), "{why}");
        assert!((limits.distance(&e, 800.0) - 0.5).abs() < 1e-9);
        let fast = Estimate { fmax: 200.0, ..e };
        assert!(limits.failure(&fast, 800.0).is_none());
        assert!(limits
            .failure(&fast, 1200.0)
            .is_some_and(|w| w.starts_with("--max-luts")));
    }

    /// A design at `banks` banks, costed at 1,000 LUTs, 500 FFs and 2 block RAMs when
    /// `costed`, placed at `fmax` MHz when given; 300 cycles of work.
    fn design(banks: u32, costed: bool, fmax: Option<f64>) -> Point {
        Point {
            design: banks as usize,
            params: serde_json::Value::Null,
            levels: vec![("banks".into(), banks.to_string())],
            flags: Vec::new(),
            cycles: vec![100.0, 200.0],
            energy_pj: None,
            cost: costed.then_some(Cost {
                luts: 1000.0,
                ffs: 500.0,
                brams: 2.0,
                dsps: 0.0,
            }),
            placed: fmax.map(Some),
            fits: true,
            failure: None,
        }
    }

    #[test]
    fn objectives_are_named_and_parsed_back() {
        for objective in [Objective::Time, Objective::Area, Objective::Energy] {
            assert_eq!(Objective::parse(objective.name()).unwrap(), objective);
        }
        assert_eq!(
            [Objective::Time, Objective::Area, Objective::Energy].map(Objective::name),
            ["time", "area", "energy"]
        );
        assert_eq!(Objective::parse(" Energy ").unwrap(), Objective::Energy);
        let refused = Objective::parse("speed").unwrap_err().to_string();
        assert!(refused.contains("--objective") && refused.contains("time, area or energy"));
        assert_eq!(design(1, true, None).cost.unwrap().logic(), 1500.0);
    }

    #[test]
    fn predictions_move_to_their_range_ends_until_three_designs_are_measured() {
        let measured = [design(1, true, Some(150.0)), design(2, true, Some(150.0))];
        let unknown = design(4, false, None);
        let two = Models::fit(&measured);
        assert_eq!(two.margins, (None, None), "two designs: no margin yet");
        // No margin: as it is predicted, in the design's favour (free, infinitely fast), or
        // against it (infinitely costly, no clock).
        let as_is = two.estimate(&unknown, 0.0);
        assert!((as_is.logic - 1500.0).abs() < 75.0, "{as_is:?}");
        assert!((as_is.brams - 2.0).abs() < 0.1, "{as_is:?}");
        assert!((as_is.fmax - 150.0).abs() < 7.5, "{as_is:?}");
        let favoured = two.estimate(&unknown, 1.0);
        assert_eq!((favoured.logic, favoured.brams), (0.0, 0.0));
        assert_eq!((favoured.fmax, favoured.time_ns), (f64::INFINITY, 0.0));
        let against = two.estimate(&unknown, -1.0);
        assert_eq!(against.logic, f64::INFINITY);
        assert_eq!((against.fmax, against.time_ns), (0.0, f64::INFINITY));
        // Measured figures are taken as they are, whichever way: 300 cycles at 150 MHz.
        let placed = two.estimate(&measured[0], -1.0);
        assert_eq!(
            (placed.logic, placed.brams, placed.fmax),
            (1500.0, 2.0, 150.0)
        );
        assert!((placed.time_ns - 2000.0).abs() < 1e-9);
        // Three designs measured: margins known, and a prediction moves by its margin only.
        let three = Models::fit(&[
            measured[0].clone(),
            measured[1].clone(),
            design(3, true, Some(150.0)),
        ]);
        let (Some(cost), Some(fmax)) = three.margins else {
            panic!("three designs: margins known, {:?}", three.margins)
        };
        let favoured = three.estimate(&unknown, 1.0);
        assert!((favoured.fmax - three.estimate(&unknown, 0.0).fmax * (1.0 + fmax)).abs() < 1e-6);
        assert!(favoured.logic < 1500.0 && (favoured.logic - 1500.0 * (1.0 - cost)).abs() < 75.0);
    }

    #[test]
    fn a_limit_met_exactly_is_met_and_each_limit_is_checked() {
        let limits = Constraints {
            min_fmax_mhz: Some(100.0),
            max_luts: Some(1000.0),
            max_brams: Some(4.0),
        };
        // 100 MHz, 1,000 LUTs and 4 block RAMs meet limits of exactly those.
        let edge = estimate(1500.0, 4.0, 10.0);
        assert_eq!(limits.failure(&edge, 1000.0), None);
        let brams = Estimate { brams: 5.0, ..edge };
        let why = limits
            .failure(&brams, 1000.0)
            .expect("5 block RAMs exceed 4");
        assert_eq!(why, "--max-brams 4: it needs 5 block RAMs");
        assert_eq!(
            limits.failure(&edge, 1001.0).as_deref(),
            Some("--max-luts 1000: it needs 1001 LUTs")
        );
        assert!(limits.possible(&edge, 1000.0) && !limits.possible(&brams, 1000.0));
        let slow = Estimate { fmax: 99.5, ..edge };
        assert_eq!(
            limits.failure(&slow, 1000.0).as_deref(),
            Some("--min-fmax 100: it reaches 99.5 MHz")
        );
    }

    #[test]
    fn energy_is_the_models_or_logic_times_cycles_and_a_failed_placement_counts_as_tried() {
        let mut point = design(1, true, None);
        assert_eq!(point.energy(1500.0), 1500.0 * 300.0);
        point.energy_pj = Some(42.0);
        assert_eq!(point.energy(1500.0), 42.0);
        assert!(!point.tried_placing());
        point.failure = Some("synthesis: out of memory".into());
        assert!(!point.tried_placing(), "a failed synthesis is no placement");
        point.failure = Some("place and route: no legal placement".into());
        assert!(point.tried_placing());
        let placed = design(2, true, Some(120.0));
        assert!(placed.tried_placing() && placed.failure.is_none());
        let unfit = Point {
            placed: Some(None),
            ..design(3, true, None)
        };
        assert!(unfit.tried_placing());
        assert_eq!(unfit.placed_fmax(), None);
        // No clock: no time, however little work (none here).
        let idle = Point {
            cycles: vec![0.0],
            ..unfit
        };
        let models = Models::fit(&[]);
        assert_eq!(models.estimate(&idle, 0.0).time_ns, f64::INFINITY);
    }
}
