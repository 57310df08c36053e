//! The predictions `explore` makes before it measures: an additive model of a figure's
//! logarithm over the swept parameters' values (a multiplicative model of the figure: each
//! value scales it by a factor), fitted by ridge regression on the points measured so far.

use std::collections::BTreeMap;

/// A design's place in the space: the value of each swept parameter, by name.
pub type Levels = Vec<(String, String)>;

/// Weight that pulls each value's factor towards 1 (no effect): a value seen once moves the
/// prediction by a little more than half of what its one measurement says.
const RIDGE: f64 = 0.8;

/// Rounds of the fit (coordinate descent; it settles in far fewer).
const ROUNDS: usize = 200;

/// A fitted model: the mean of the logarithms and each value's effect on it.
#[derive(Clone, Debug)]
pub struct Fit {
    /// Mean of the measured figures' logarithms.
    mean: f64,
    /// The effect of each (parameter, value) on the logarithm.
    effects: BTreeMap<(String, String), f64>,
}

impl Fit {
    /// The model of `samples` (a point's levels and its measured figure, positive), or
    /// `None` without samples.
    pub fn new(samples: &[(&Levels, f64)]) -> Option<Self> {
        if samples.is_empty() {
            return None;
        }
        let logs: Vec<f64> = samples.iter().map(|(_, y)| y.max(1e-9).ln()).collect();
        let mut fit = Fit {
            mean: logs.iter().sum::<f64>() / logs.len() as f64,
            effects: BTreeMap::new(),
        };
        for (levels, _) in samples {
            for level in levels.iter() {
                fit.effects.insert(level.clone(), 0.0);
            }
        }
        let keys: Vec<(String, String)> = fit.effects.keys().cloned().collect();
        for _ in 0..ROUNDS {
            let mut moved: f64 = 0.0;
            for key in &keys {
                let (mut sum, mut n) = (0.0, 0.0);
                for ((levels, _), y) in samples.iter().zip(&logs) {
                    if levels.contains(key) {
                        sum += y - fit.log(levels) + fit.effects[key];
                        n += 1.0;
                    }
                }
                let effect = sum / (n + RIDGE);
                moved = moved.max((effect - fit.effects[key]).abs());
                fit.effects.insert(key.clone(), effect);
            }
            if moved < 1e-9 {
                break;
            }
        }
        Some(fit)
    }

    /// The predicted logarithm at `levels`; a value never measured has no effect.
    fn log(&self, levels: &Levels) -> f64 {
        self.mean
            + (levels.iter())
                .filter_map(|level| self.effects.get(level))
                .sum::<f64>()
    }

    /// The predicted figure at `levels`.
    pub fn predict(&self, levels: &Levels) -> f64 {
        self.log(levels).exp()
    }
}

/// How far the model's predictions were from the truth, each point predicted from the others
/// (leave one out): the mean and largest error as a percentage of the truth, over the points
/// that had at least two others to learn from.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Accuracy {
    /// Points predicted.
    pub points: usize,
    /// Mean absolute error, percent.
    pub mean_error_pct: f64,
    /// Largest absolute error, percent.
    pub max_error_pct: f64,
}

impl Accuracy {
    /// The leave-one-out accuracy of the model on `samples`.
    pub fn of(samples: &[(&Levels, f64)]) -> Self {
        if samples.len() < 3 {
            return Self::default();
        }
        let errors: Vec<f64> = (0..samples.len())
            .filter_map(|i| {
                let others: Vec<(&Levels, f64)> = (samples.iter().enumerate())
                    .filter(|(j, _)| *j != i)
                    .map(|(_, s)| *s)
                    .collect();
                let (levels, truth) = samples[i];
                let predicted = Fit::new(&others)?.predict(levels);
                Some(100.0 * (predicted - truth).abs() / truth.max(1e-9))
            })
            .collect();
        Self {
            points: errors.len(),
            mean_error_pct: errors.iter().sum::<f64>() / errors.len() as f64,
            max_error_pct: errors.iter().cloned().fold(0.0, f64::max),
        }
    }

    /// The relative margin to allow a prediction: its largest error seen, at least `floor`.
    pub fn margin(&self, floor: f64) -> f64 {
        (self.max_error_pct / 100.0).max(floor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn levels(a: &str, b: &str) -> Levels {
        vec![("a".into(), a.into()), ("b".into(), b.into())]
    }

    #[test]
    fn a_multiplicative_figure_is_learned_from_one_change_at_a_time() {
        // y = 100 * (2 if a=x) * (3 if b=y): the base, one change of each, then the corner.
        let points = [levels("0", "0"), levels("x", "0"), levels("0", "y")];
        let truth = |l: &Levels| {
            100.0 * if l[0].1 == "x" { 2.0 } else { 1.0 } * if l[1].1 == "y" { 3.0 } else { 1.0 }
        };
        let samples: Vec<(&Levels, f64)> = points.iter().map(|l| (l, truth(l))).collect();
        let fit = Fit::new(&samples).expect("samples");
        let corner = levels("x", "y");
        let predicted = fit.predict(&corner);
        // The ridge shrinks each factor, so the corner comes out below its 600, but at more
        // than twice the base's 100 and above every measured point.
        assert!(predicted > 200.0 && predicted < 600.0, "{predicted}");
        assert!(predicted > fit.predict(&points[2]), "{predicted}");
        assert!(fit.predict(&points[0]) < fit.predict(&points[1]));
        assert!(fit.predict(&points[1]) < fit.predict(&points[2]));
    }

    #[test]
    fn the_error_is_measured_on_points_left_out() {
        let points = [
            levels("0", "0"),
            levels("x", "0"),
            levels("0", "y"),
            levels("x", "y"),
        ];
        let samples: Vec<(&Levels, f64)> = points.iter().map(|l| (l, 50.0)).collect();
        let flat = Accuracy::of(&samples);
        assert_eq!(flat.points, 4);
        assert!(flat.max_error_pct < 1e-6, "{flat:?}");
        let noisy: Vec<(&Levels, f64)> = (points.iter().zip([50.0, 80.0, 20.0, 50.0])).collect();
        let error = Accuracy::of(&noisy);
        assert!(error.mean_error_pct > 10.0, "{error:?}");
        // The margin is the worst left-out error, or the floor when that is smaller.
        assert_eq!(flat.margin(0.1), 0.1);
        assert_eq!(error.margin(0.0), error.max_error_pct / 100.0);
        assert!(error.max_error_pct >= error.mean_error_pct, "{error:?}");
        assert_eq!(error.margin(10.0), 10.0);
    }
}
