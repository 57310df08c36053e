//! The document's 2-D window example (Figs. 3a-3b): a 3x3 convolution of an 8-row x 16-column
//! tile held by a 32-lane group in four registers, built only from shift-and-fill operations
//! and per-lane arithmetic.
//!
//! Register `r1`..`r4` holds columns `4(r-1)..4(r-1)+3` of the tile, lane = row * 4 + column
//! within the register (row pitch 4). For each output register and each of the nine
//! neighbours `(dy, dx)`:
//! - a horizontal neighbour comes from `shff.left.mod4 h, r, r_next, #1` (dx = +1) or
//!   `shff.right.mod4 h, r, r_prev, #1` (dx = -1): within each row of 4 lanes, the missing
//!   column comes from the next (previous) register, as in Fig. 3a;
//! - a vertical neighbour comes from a plain shift by the row pitch, `shff.left v, h, 0, #4`
//!   (dy = +1) or `shff.right v, h, 0, #4` (dy = -1), as in Fig. 3b;
//! - `acc += weight * v` per lane.
//!
//! Outside the tile the shifts fill zero; only the interior (rows 1..=6, columns 1..=14) has all
//! nine neighbours and is compared with a direct computation.

use grfgen_hdl::params::{ParamError, Params, RouteParams};
use serde::Serialize;

use super::lane_router::{GoldenRouter, LaneRouter};
use super::model::{Direction, Fill, LaneOp};
use super::verilated::RouterRtl;
use crate::bits::element_mask;
use crate::block::{Report, Setup, SimError};
use crate::rng::Rng;

/// Tile rows.
pub const ROWS: usize = 8;
/// Tile columns.
pub const COLUMNS: usize = 16;
/// Lanes of the SIMD group.
pub const LANES: usize = 32;
/// Columns per register (the row pitch in lanes).
pub const PITCH: usize = 4;

/// The tile's four registers (`r1`..`r4`), 32 lanes each.
pub fn registers(tile: &[Vec<u64>]) -> Vec<Vec<u64>> {
    (0..COLUMNS / PITCH)
        .map(|r| {
            (0..LANES)
                .map(|lane| tile[lane / PITCH][r * PITCH + lane % PITCH])
                .collect()
        })
        .collect()
}

/// A filtered tile: `Some` on the interior, `None` on the border.
pub type Filtered = Vec<Vec<Option<u64>>>;

/// The result of [`convolve`]: the filtered tile and the operations, in order.
pub struct WindowRun {
    /// The filtered tile.
    pub output: Filtered,
    /// Every operation, in the document's syntax (`shff...`) or as per-lane arithmetic.
    pub steps: Vec<String>,
    /// Router passes used.
    pub passes: usize,
}

fn shift(direction: Direction, m: usize, amount: usize, fill: Fill) -> LaneOp {
    LaneOp::Shff {
        direction,
        m,
        amount,
        fill,
    }
}

/// Convolves `tile` (8 x 16) with `weights` (row-major 3x3, `weights[(dy+1)*3 + dx+1]`) using
/// `router` for every data movement. Arithmetic wraps at `element_bits`.
pub fn convolve(
    tile: &[Vec<u64>],
    weights: &[i64; 9],
    router: &mut dyn LaneRouter,
    element_bits: usize,
) -> WindowRun {
    let mask = element_mask(element_bits);
    let regs = registers(tile);
    let zero = vec![0; LANES];
    let mut steps = Vec::new();
    let mut passes = 0;
    let mut output = vec![vec![None; COLUMNS]; ROWS];
    for (k, reg) in regs.iter().enumerate() {
        let mut acc = vec![0u64; LANES];
        for dx in -1i64..=1 {
            let horizontal = match dx {
                0 => reg.clone(),
                _ => {
                    let (direction, neighbour) = if dx > 0 {
                        (Direction::Left, k + 1)
                    } else {
                        (Direction::Right, k.wrapping_sub(1))
                    };
                    let (fill, rf, fill_name) = match regs.get(neighbour) {
                        Some(r) => (Fill::Register, r, format!("r{}", neighbour + 1)),
                        None => (Fill::Zero, &zero, "#0".to_string()),
                    };
                    steps.push(format!(
                        "shff.{}.mod4 h, r{}, {fill_name}, #1",
                        name(direction),
                        k + 1
                    ));
                    passes += 1;
                    router.route(&shift(direction, PITCH, 1, fill), reg, rf)
                }
            };
            for dy in -1i64..=1 {
                let vertical = match dy {
                    0 => horizontal.clone(),
                    _ => {
                        let direction = if dy > 0 {
                            Direction::Left
                        } else {
                            Direction::Right
                        };
                        steps.push(format!("shff.{} v, h, #0, #{PITCH}", name(direction)));
                        passes += 1;
                        router.route(
                            &shift(direction, LANES, PITCH, Fill::Zero),
                            &horizontal,
                            &zero,
                        )
                    }
                };
                let weight = weights[((dy + 1) * 3 + dx + 1) as usize] as u64;
                let source = if dy == 0 { "h" } else { "v" };
                steps.push(format!(
                    "mad acc, {source}, #{}, acc   (dy {dy:+}, dx {dx:+})",
                    weight as i64
                ));
                for (a, v) in acc.iter_mut().zip(&vertical) {
                    *a = a.wrapping_add(v.wrapping_mul(weight)) & mask;
                }
            }
        }
        for (lane, &value) in acc.iter().enumerate() {
            let (row, column) = (lane / PITCH, k * PITCH + lane % PITCH);
            if interior(row, column) {
                output[row][column] = Some(value);
            }
        }
    }
    WindowRun {
        output,
        steps,
        passes,
    }
}

fn name(direction: Direction) -> &'static str {
    match direction {
        Direction::Left => "left",
        Direction::Right => "right",
    }
}

fn interior(row: usize, column: usize) -> bool {
    (1..ROWS - 1).contains(&row) && (1..COLUMNS - 1).contains(&column)
}

/// The same convolution computed directly on the image.
pub fn convolve_direct(tile: &[Vec<u64>], weights: &[i64; 9], element_bits: usize) -> Filtered {
    let mask = element_mask(element_bits);
    (0..ROWS)
        .map(|row| {
            (0..COLUMNS)
                .map(|column| {
                    interior(row, column).then(|| {
                        let mut sum = 0u64;
                        for dy in 0..3 {
                            for dx in 0..3 {
                                let pixel = tile[row + dy - 1][column + dx - 1];
                                sum = sum
                                    .wrapping_add(pixel.wrapping_mul(weights[dy * 3 + dx] as u64));
                            }
                        }
                        sum & mask
                    })
                })
                .collect()
        })
        .collect()
}

/// Everything `grfgen route window` reports.
#[derive(Clone, Debug, Serialize)]
pub struct WindowReport {
    /// Seed of the random tile.
    pub seed: u64,
    /// The nine weights, row by row.
    pub weights: [i64; 9],
    /// Router passes used.
    pub passes: usize,
    /// Interior pixels compared with the direct computation.
    pub interior_pixels: usize,
    /// Whether the golden model's result equals the direct computation.
    pub golden_matches_direct: bool,
    /// Whether the Verilated router ran too.
    pub rtl_checked: bool,
    /// Whether its result equals the direct computation (when it ran).
    pub rtl_matches_direct: Option<bool>,
    /// Every operation, in order.
    pub steps: Vec<String>,
    /// The random tile.
    pub tile: Vec<Vec<u64>>,
    /// The filtered tile.
    pub output: Filtered,
}

impl WindowReport {
    /// Who disagreed with the direct computation: `golden model`, `RTL router`.
    pub fn failed(&self) -> Vec<&'static str> {
        let mut failed = Vec::new();
        if !self.golden_matches_direct {
            failed.push("golden model");
        }
        if self.rtl_matches_direct == Some(false) {
            failed.push("RTL router");
        }
        failed
    }
}

impl Report for WindowReport {
    fn rtl(&self) -> bool {
        self.rtl_checked
    }

    fn text(&self) -> String {
        let equal = |ok: bool| if ok { "equal" } else { "DIFFERENT" };
        let mut text = format!(
            "3x3 convolution of an 8 x 16 tile (seed {}), weights {:?}\n\
             {} router passes, {} operations in all; {} interior pixels compared with a direct \
             computation\n\
             golden model: {}\n",
            self.seed,
            self.weights,
            self.passes,
            self.steps.len(),
            self.interior_pixels,
            equal(self.golden_matches_direct)
        );
        if let Some(ok) = self.rtl_matches_direct {
            text += &format!("RTL router: {}\n", equal(ok));
        }
        text += "operations for output register r1 (r2..r4 alike):\n";
        for step in self.steps.iter().take(self.steps.len() / 4) {
            text += &format!("  {step}\n");
        }
        text.trim_end().to_string()
    }

    fn metrics(&self) -> Vec<(&'static str, f64)> {
        vec![("passes", self.passes as f64)]
    }
}

/// The document's window filter on a random tile from `setup.seed`: through the golden model,
/// and through the Verilated router (crossbar size `crossbar`, `element_bits` wide) when
/// `setup` asks for the RTL; both compared with the direct computation.
pub fn run_window(
    crossbar: usize,
    element_bits: usize,
    weights: &[i64],
    setup: &Setup,
) -> Result<WindowReport, SimError> {
    let params = RouteParams {
        lanes: LANES,
        crossbar,
        element_bits,
        registered: true,
        pipeline: 0,
    };
    params.validate()?;
    let weights: [i64; 9] = weights.try_into().map_err(|_| {
        ParamError::new(
            "weights",
            format!("{} values", weights.len()),
            "exactly 9 values, row by row",
        )
    })?;
    let mut rng = Rng::new(setup.seed);
    let pixel_max = element_mask(element_bits).min(255) as usize + 1;
    let tile: Vec<Vec<u64>> = (0..ROWS)
        .map(|_| (0..COLUMNS).map(|_| rng.below(pixel_max) as u64).collect())
        .collect();
    let direct = convolve_direct(&tile, &weights, element_bits);
    let golden = convolve(
        &tile,
        &weights,
        &mut GoldenRouter { element_bits },
        element_bits,
    );
    let rtl_matches_direct = match setup.with_rtl(true, "")? {
        true => {
            let mut rtl = RouterRtl::build(&params, setup)?;
            Some(convolve(&tile, &weights, &mut rtl, element_bits).output == direct)
        }
        false => None,
    };
    Ok(WindowReport {
        seed: setup.seed,
        weights,
        passes: golden.passes,
        interior_pixels: direct.iter().flatten().filter(|p| p.is_some()).count(),
        golden_matches_direct: golden.output == direct,
        rtl_checked: rtl_matches_direct.is_some(),
        rtl_matches_direct,
        steps: golden.steps,
        tile,
        output: direct,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn shift_and_fill_convolution_equals_the_direct_one() {
        let mut rng = Rng::new(5);
        for weights in [
            [1; 9],
            [1, 2, 1, 2, 4, 2, 1, 2, 1],
            [0, -1, 0, -1, 4, -1, 0, -1, 0],
            // No symmetry: a neighbour from the wrong side changes the result.
            [-3, 1, 4, 2, -7, 5, 11, 6, -13],
        ] {
            let tile: Vec<Vec<u64>> = (0..ROWS)
                .map(|_| (0..COLUMNS).map(|_| rng.below(256) as u64).collect())
                .collect();
            let run = convolve(&tile, &weights, &mut GoldenRouter { element_bits: 32 }, 32);
            assert_eq!(run.output, convolve_direct(&tile, &weights, 32));
            assert_eq!(run.passes, 32);
        }
    }

    #[test]
    fn the_report_says_who_agreed_with_the_direct_computation() {
        let weights = [-3, 1, 4, 2, -7, 5, 11, 6, -13];
        let setup = Setup::new(3, crate::block::Rtl::Off);
        let report = run_window(4, 16, &weights, &setup).unwrap();
        assert!(!report.rtl() && report.rtl_matches_direct.is_none());
        assert!(report.golden_matches_direct && report.failed().is_empty());
        assert_eq!(report.interior_pixels, (ROWS - 2) * (COLUMNS - 2));
        assert_eq!(report.metrics(), vec![("passes", 32.0)]);
        let text = report.text();
        assert!(text.starts_with("3x3 convolution of an 8 x 16 tile (seed 3), weights [-3,"));
        assert!(text.contains("32 router passes, 68 operations in all; 84 interior pixels"));
        assert!(text.contains("golden model: equal") && !text.contains("RTL router"));
        // One register's operations of four: 17 lines after the heading.
        let listed = text
            .split("(r2..r4 alike):\n")
            .nth(1)
            .unwrap()
            .lines()
            .count();
        assert_eq!(listed, 17);
        // Pixels of 8 bits.
        assert!(report.tile.iter().flatten().all(|&p| p <= 255));
        assert!(report.tile.iter().flatten().any(|&p| p > 200));
        let broken = WindowReport {
            golden_matches_direct: false,
            rtl_matches_direct: Some(false),
            rtl_checked: true,
            ..report
        };
        assert_eq!(broken.failed(), ["golden model", "RTL router"]);
        assert!(broken
            .text()
            .contains("golden model: DIFFERENT\nRTL router: DIFFERENT"));
        let refused = run_window(4, 16, &weights[..8], &setup)
            .unwrap_err()
            .to_string();
        assert!(
            refused.contains("weights") && refused.contains("exactly 9 values"),
            "{refused}"
        );
    }
}
