//! What an exploration writes and prints: the front (`front.json`, `front.svg`,
//! `front.png`, `front.txt`), the recommendation as the `grfgen emit` command that produces it, and the
//! whole result (`explore.json`, and `--json`).

use std::collections::BTreeMap;

use grfgen_hdl::design::Design;
use grfgen_sim::block::Block;
use serde::Serialize;
use serde_json::Value;

use super::chart::{svg, Dot};
use super::fit::Accuracy;
use super::points::{front, key, order, Constraints, Estimate, Models, Objective, Point};
use super::search::Left;
use super::space::{Settings, Space};
use crate::error::CliError;
use crate::output::write_file;
use crate::sweep::store::{Spec, SweepDir};
use grfgen_support::text::plural;

/// One workload's figures at a design.
#[derive(Clone, Debug, Serialize)]
pub struct WorkloadFigures {
    /// Cycles of its work.
    pub cycles: f64,
    /// Cycles times the clock period, ns.
    pub time_ns: f64,
}

/// A design as the front and the recommendation show it.
#[derive(Clone, Debug, Serialize)]
pub struct Figures {
    /// Its parameters, keyed as `manifest.json` keys them.
    pub params: Value,
    /// The command that emits it.
    pub command: String,
    /// LUTs (placed, or synthesized).
    pub luts: u64,
    /// Flip-flops.
    pub ffs: u64,
    /// Block RAMs.
    pub brams: u64,
    /// Multipliers.
    pub dsps: u64,
    /// Fmax, MHz.
    pub fmax_mhz: f64,
    /// `placed` (measured by place and route) or `predicted`.
    pub fmax_source: &'static str,
    /// Per workload: cycles and time.
    pub workloads: BTreeMap<String, WorkloadFigures>,
    /// Time over every workload, ns.
    pub time_ns: f64,
    /// Energy over every workload, in `energy_unit`.
    pub energy: f64,
    /// `pJ` (the block's energy model) or `LUT+FF x cycles`.
    pub energy_unit: &'static str,
}

/// How far the predictions were from the measurements.
#[derive(Serialize)]
struct Prediction {
    /// How Fmax is predicted before place and route.
    method: &'static str,
    /// Fmax, each placed design predicted from the others.
    fmax: Accuracy,
    /// LUTs plus flip-flops, each costed design predicted from the others.
    luts_ffs: Accuracy,
}

/// The whole result.
#[derive(Serialize)]
struct Output<'a> {
    block: &'a str,
    device: &'a str,
    seed: u64,
    objective: Objective,
    constraints: Constraints,
    designs: usize,
    workloads: Vec<String>,
    modelled: usize,
    synthesized: usize,
    placed: usize,
    budget_pnr: usize,
    budget_synth: usize,
    /// Designs that could still have been on the front when the budgets ran out.
    left: Left,
    prediction: Prediction,
    front: Vec<Figures>,
    recommendation: Option<Figures>,
    unmet: Option<String>,
    closest: Option<Figures>,
    /// Designs whose synthesis or place and route failed: their commands and why.
    failed: Vec<(String, String)>,
    files: BTreeMap<&'static str, String>,
}

/// The figures of `point`, estimated as `e`.
fn figures<B: Block>(space: &Space<B>, point: &Point, e: &Estimate) -> Figures {
    let cost = point.cost.expect("only costed designs are shown");
    let names = workload_names(space);
    let period_ns = 1000.0 / e.fmax.max(1e-9);
    Figures {
        params: point.params.clone(),
        command: emit_command(space, point, e.fmax),
        luts: cost.luts as u64,
        ffs: cost.ffs as u64,
        brams: cost.brams as u64,
        dsps: cost.dsps as u64,
        fmax_mhz: (e.fmax * 1000.0).round() / 1000.0,
        fmax_source: match point.placed_fmax() {
            Some(_) => "placed",
            None => "predicted",
        },
        workloads: (names.into_iter().zip(&point.cycles))
            .map(|(name, &cycles)| {
                let time_ns = cycles * period_ns;
                (name, WorkloadFigures { cycles, time_ns })
            })
            .collect(),
        time_ns: e.time_ns,
        energy: e.energy,
        energy_unit: match point.energy_pj {
            Some(_) => "pJ",
            None => "LUT+FF x cycles",
        },
    }
}

/// Each workload's name: the flags of its run options.
fn workload_names<B: Block>(space: &Space<B>) -> Vec<String> {
    (space.runs.iter())
        .map(|r| crate::sweep::runner::flags(r).join(" "))
        .map(|n| if n.is_empty() { "defaults".into() } else { n })
        .collect()
}

/// The front as a table.
fn table(front: &[Figures]) -> String {
    let mut text = format!(
        "{:>8} {:>8} {:>5} {:>10} {:>14}  design\n",
        "LUT", "FF", "BRAM", "Fmax MHz", "time ns"
    );
    for f in front {
        let mark = if f.fmax_source == "placed" { " " } else { "*" };
        text += &format!(
            "{:>8} {:>8} {:>5} {:>9.1}{mark} {:>14.1}  {}\n",
            f.luts,
            f.ffs,
            f.brams,
            f.fmax_mhz,
            f.time_ns,
            f.command
                .split_whitespace()
                .skip(3)
                .take_while(|w| *w != "--clock-mhz" && *w != "--out")
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
    match front.iter().any(|f| f.fmax_source != "placed") {
        true => text + "(* Fmax predicted, not placed)\n",
        false => text,
    }
}

/// The recommendation: the placed design that meets the constraints and is best by the
/// objective; else the reason none does and the closest placed design.
fn recommend(
    points: &[Point],
    estimates: &[Estimate],
    settings: &Settings,
) -> (Option<usize>, Option<String>, Option<usize>) {
    let limits = &settings.constraints;
    let luts = |i: usize| points[i].cost.map_or(0.0, |c| c.luts);
    let placed: Vec<usize> = (0..points.len())
        .filter(|&i| points[i].placed_fmax().is_some() && points[i].fits)
        .collect();
    let best = (placed.iter().copied())
        .filter(|&i| limits.failure(&estimates[i], luts(i)).is_none())
        .min_by(|&a, &b| {
            let (ka, kb) = (
                key(settings.objective, &estimates[a]),
                key(settings.objective, &estimates[b]),
            );
            order(ka, kb)
        });
    if best.is_some() {
        return (best, None, None);
    }
    let closest = (placed.iter().copied()).min_by(|&a, &b| {
        let (da, db) = (
            limits.distance(&estimates[a], luts(a)),
            limits.distance(&estimates[b], luts(b)),
        );
        da.total_cmp(&db)
    });
    let why = match closest {
        Some(i) => format!(
            "no placed design meets the constraints; the closest misses {}",
            limits.failure(&estimates[i], luts(i)).unwrap_or_default()
        ),
        None => "no design was placed and routed that fits the device".to_string(),
    };
    (None, Some(why), closest)
}

/// Writes the exploration's files into `dir` and returns its output (JSON with `json`, else
/// text); exit status 1 when no design meets the constraints.
pub fn finish<B: Block>(
    json: bool,
    space: &Space<B>,
    settings: &Settings,
    spec: &Spec,
    dir: &SweepDir,
    left: Left,
) -> Result<String, CliError> {
    let points = &space.points;
    let models = Models::fit(points);
    let estimates: Vec<Estimate> = points.iter().map(|p| models.estimate(p, 0.0)).collect();
    let limits = &settings.constraints;
    let shown: Vec<usize> = (0..points.len())
        .filter(|&i| points[i].cost.is_some() && points[i].fits)
        .collect();
    let feasible = |i: usize| {
        let luts = points[i].cost.map_or(0.0, |c| c.luts);
        limits.failure(&estimates[i], luts).is_none()
    };
    let eligible: Vec<usize> = shown.iter().copied().filter(|&i| feasible(i)).collect();
    let on_front: Vec<usize> = (front(&eligible.iter().map(|&i| estimates[i]).collect::<Vec<_>>()))
        .into_iter()
        .map(|k| eligible[k])
        .collect();
    let mut ordered = on_front.clone();
    ordered.sort_by(|&a, &b| estimates[a].logic.total_cmp(&estimates[b].logic));
    let (best, unmet, closest) = recommend(points, &estimates, settings);
    let shown_figures = |i: usize| figures(space, &points[i], &estimates[i]);
    let front_figures: Vec<Figures> = ordered.iter().map(|&i| shown_figures(i)).collect();
    let files = write_files(
        space,
        settings,
        dir,
        &front_figures,
        &shown,
        &on_front,
        &estimates,
        best,
    )?;
    let output = Output {
        block: &spec.block,
        device: settings.request.device.name(),
        seed: space.seed,
        objective: settings.objective,
        constraints: settings.constraints,
        designs: space.designs.len(),
        workloads: workload_names(space),
        modelled: points.len(),
        synthesized: points.iter().filter(|p| p.cost.is_some()).count(),
        placed: points.iter().filter(|p| p.placed.is_some()).count(),
        budget_pnr: settings.budget_pnr,
        budget_synth: settings.budget_synth,
        left,
        prediction: Prediction {
            method: "an additive model of log Fmax over the swept parameters' values, fitted by ridge regression on the placed designs (so a multiplicative model); before any design is placed, every design is assumed alike",
            fmax: models.fmax_accuracy.clone(),
            luts_ffs: models.logic_accuracy.clone(),
        },
        front: front_figures,
        recommendation: best.map(shown_figures),
        unmet,
        closest: closest.map(shown_figures),
        failed: (points.iter())
            .filter_map(|p| Some((emit_command(space, p, 0.0), p.failure.clone()?)))
            .collect(),
        files,
    };
    let kept = serde_json::to_string_pretty(&output).expect("results serialise");
    write_file(
        "--out",
        &dir.dir.join("explore.json"),
        (kept.clone() + "\n").as_bytes(),
    )?;
    let text = match json {
        true => kept,
        false => text(&output),
    };
    let failed = match output.failed.as_slice() {
        [] => None,
        [(command, why), ..] => Some(format!(
            "{} failed ({command}: {why}); --resume tries again",
            plural(output.failed.len() as u64, "design")
        )),
    };
    match (output.unmet.clone().or(failed), &output.recommendation) {
        (Some(why), _) if output.recommendation.is_none() || !output.failed.is_empty() => {
            Err(CliError::Found {
                report: text,
                message: why,
            })
        }
        _ => Ok(text),
    }
}

/// The files an exploration writes at its end, removed at its start so that those in `dir`
/// are always the last finished exploration's.
const OUTPUTS: [&str; 5] = [
    "front.json",
    "front.svg",
    "front.png",
    "front.txt",
    "explore.json",
];

/// Removes the outputs of an earlier run from `dir`.
pub fn clear(dir: &SweepDir) -> Result<(), CliError> {
    for name in OUTPUTS {
        match std::fs::remove_file(dir.dir.join(name)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(CliError::Failed(format!(
                    "{} (--out): {e}",
                    dir.dir.join(name).display()
                )))
            }
            _ => {}
        }
    }
    Ok(())
}

/// The `grfgen emit` command of `point`, as it runs: into a directory named for its top
/// module, with constraint files at `fmax_mhz` rounded down (none given when it is unknown).
fn emit_command<B: Block>(space: &Space<B>, point: &Point, fmax_mhz: f64) -> String {
    let top = B::Design::top(&space.designs[point.design]);
    let mut words = vec![format!("grfgen emit {}", B::Design::NAME)];
    words.extend(point.flags.iter().cloned());
    if fmax_mhz.is_finite() && fmax_mhz >= 1.0 {
        words.push(format!("--clock-mhz {}", fmax_mhz.floor().min(2000.0)));
    }
    words.push(format!("--out {top}"));
    words.join(" ")
}

/// `front.json`, `front.svg`, `front.png` and `front.txt` in `dir`: their paths by kind.
#[allow(clippy::too_many_arguments)]
fn write_files<B: Block>(
    space: &Space<B>,
    settings: &Settings,
    dir: &SweepDir,
    front_figures: &[Figures],
    shown: &[usize],
    on_front: &[usize],
    estimates: &[Estimate],
    best: Option<usize>,
) -> Result<BTreeMap<&'static str, String>, CliError> {
    let limits: &Constraints = &settings.constraints;
    let points = &space.points;
    let dots: Vec<Dot> = (shown.iter())
        .map(|&i| Dot {
            estimate: estimates[i],
            front: on_front.contains(&i),
            feasible: limits
                .failure(&estimates[i], points[i].cost.map_or(0.0, |c| c.luts))
                .is_none(),
            recommended: best == Some(i),
        })
        .collect();
    let title = format!(
        "explore {} on {}, objective {}, seed {}",
        B::Design::NAME,
        settings.request.device.name(),
        settings.objective.name(),
        space.seed
    );
    let chart = svg(&title, &dots, limits)?;
    let json = serde_json::to_string_pretty(front_figures).expect("figures serialise") + "\n";
    let png = crate::sweep::plot::rasterize(&chart, &dir.dir.join("front.png"))?;
    let mut files = BTreeMap::new();
    for (kind, name, bytes) in [
        ("front", "front.json", json.into_bytes()),
        ("chart", "front.svg", chart.into_bytes()),
        ("image", "front.png", png),
        (
            "table",
            "front.txt",
            front_text(&title, front_figures).into_bytes(),
        ),
    ] {
        let path = dir.dir.join(name);
        write_file("--out", &path, &bytes)?;
        files.insert(kind, path.display().to_string());
    }
    files.insert(
        "records",
        dir.dir.join("results.jsonl").display().to_string(),
    );
    Ok(files)
}

/// `front.txt`: the exploration named in a first line (with its seed), then the front.
fn front_text(title: &str, front: &[Figures]) -> String {
    format!("# {title}\n{}", table(front))
}

/// The output in words.
fn text(o: &Output) -> String {
    let mut text = format!(
        "explore {} on {}: {} x {} modelled, {} costed, {} placed (budget {})\n",
        o.block,
        o.device,
        plural(o.designs as u64, "design"),
        plural(o.workloads.len() as u64, "workload"),
        o.synthesized,
        o.placed,
        o.budget_pnr
    );
    if o.left.uncosted + o.left.unplaced > 0 {
        text += &format!(
            "the budgets ran out with {} never synthesized and {} never placed that could still be on the front (--budget-synth, --budget-pnr)\n",
            plural(o.left.uncosted as u64, "design"),
            o.left.unplaced
        );
    }
    if o.prediction.fmax.points > 0 {
        text += &format!(
            "Fmax prediction, each placed design from the others: mean error {:.1}%, largest {:.1}%\n",
            o.prediction.fmax.mean_error_pct, o.prediction.fmax.max_error_pct
        );
    }
    let designs = plural(o.front.len() as u64, "design");
    text += &format!("front ({designs}):\n{}", table(&o.front));
    let line = |f: &Figures| {
        format!(
            "{}\n  {} LUT, {} FF, {} BRAM, {:.1} MHz placed, {:.1} ns over the workloads",
            f.command, f.luts, f.ffs, f.brams, f.fmax_mhz, f.time_ns
        )
    };
    match (&o.recommendation, &o.closest) {
        (Some(f), _) => {
            text += &format!(
                "recommended (objective {}):\n{}\n",
                o.objective.name(),
                line(f)
            )
        }
        (None, Some(f)) => text += &format!("closest:\n{}\n", line(f)),
        (None, None) => {}
    }
    text.trim_end().to_string()
}

#[cfg(test)]
mod tests {
    use grfgen_flow::pnr::Device;
    use grfgen_flow::steps::PnrRequest;
    use grfgen_hdl::params::AllocParams;
    use grfgen_sim::alloc::{Alloc, AllocOptions};

    use super::*;
    use crate::explore::points::Cost;

    /// A design measured as given: `placed` its Fmax (`None`: not placed).
    fn point(design: usize, placed: Option<f64>, fits: bool) -> Point {
        Point {
            design,
            params: Value::Null,
            levels: Vec::new(),
            flags: vec![format!("--waves {}", design + 1)],
            cycles: vec![100.0, 250.0],
            energy_pj: None,
            cost: Some(Cost {
                luts: 1000.0,
                ffs: 500.0,
                brams: 2.0,
                dsps: 0.0,
            }),
            placed: placed.map(Some),
            fits,
            failure: None,
        }
    }

    fn estimate(fmax: f64, time_ns: f64) -> Estimate {
        Estimate {
            logic: 1500.0,
            brams: 2.0,
            fmax,
            time_ns,
            energy: 0.0,
        }
    }

    fn settings(min_fmax_mhz: Option<f64>) -> Settings {
        Settings {
            request: PnrRequest {
                device: Device::Ecp5_85k,
                seed: 1,
                seeds: 1,
                timing_weight: grfgen_flow::pnr::DEFAULT_TIMING_WEIGHT,
                bitstream: false,
            },
            objective: Objective::Time,
            constraints: Constraints {
                min_fmax_mhz,
                max_luts: None,
                max_brams: None,
            },
            budget_pnr: 4,
            budget_synth: 4,
        }
    }

    /// The allocator's space: two designs, the default workload and one of 8 waves.
    fn space() -> Space<Alloc> {
        let eight = AllocOptions {
            waves: 8,
            ..AllocOptions::default()
        };
        Space {
            designs: vec![AllocParams::default(); 2],
            runs: vec![AllocOptions::default(), eight],
            swept: Vec::new(),
            seed: 1,
            points: vec![point(0, Some(123.4567), true), point(1, None, true)],
        }
    }

    #[test]
    fn figures_give_each_workload_its_cycles_times_the_period() {
        let space = space();
        assert_eq!(workload_names(&space), ["defaults", "--waves 8"]);
        let f = figures(&space, &space.points[0], &estimate(125.0, 2800.0));
        assert_eq!(f.fmax_mhz, 125.0);
        assert_eq!(f.fmax_source, "placed");
        let w = &f.workloads;
        assert_eq!(
            (w["defaults"].cycles, w["defaults"].time_ns),
            (100.0, 800.0)
        );
        assert_eq!(
            (w["--waves 8"].cycles, w["--waves 8"].time_ns),
            (250.0, 2000.0)
        );
        assert_eq!((f.luts, f.ffs, f.brams, f.time_ns), (1000, 500, 2, 2800.0));
        assert!(
            f.command.contains("--waves 1 --clock-mhz 125 --out "),
            "{}",
            f.command
        );
        // No clock in the command where Fmax is unknown (0, or unbounded).
        for unknown in [0.0, f64::INFINITY] {
            let command = emit_command(&space, &space.points[0], unknown);
            assert!(!command.contains("--clock-mhz"), "{command}");
        }
        let predicted = figures(&space, &space.points[1], &estimate(123.4567, 1.0));
        assert_eq!(predicted.fmax_mhz, 123.457);
        assert_eq!(predicted.fmax_source, "predicted");
    }

    #[test]
    fn the_table_marks_predicted_fmax_and_shows_each_design_by_its_flags() {
        let space = space();
        let placed = figures(&space, &space.points[0], &estimate(125.0, 2800.0));
        let lines: Vec<String> = table(std::slice::from_ref(&placed))
            .lines()
            .map(String::from)
            .collect();
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[0].ends_with("  design") && lines[0].contains("Fmax MHz"));
        assert!(lines[1].contains("125.0  ") && lines[1].ends_with("  --waves 1"));
        let predicted = figures(&space, &space.points[1], &estimate(90.0, 3000.0));
        let text = table(&[placed, predicted]);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4, "{text}");
        assert!(lines[1].contains("125.0 ") && !lines[1].contains('*'));
        assert!(lines[2].contains("90.0*") && lines[2].ends_with("  --waves 2"));
        assert_eq!(lines[3], "(* Fmax predicted, not placed)");
    }

    /// An exploration's output of `front`, recommending `best`, else naming `closest`.
    fn output(
        front: Vec<Figures>,
        best: Option<Figures>,
        closest: Option<Figures>,
    ) -> Output<'static> {
        Output {
            block: "alloc",
            device: "ecp5-85k",
            seed: 1,
            objective: Objective::Time,
            constraints: settings(None).constraints,
            designs: 2,
            workloads: vec!["defaults".into(), "--waves 8".into()],
            modelled: 2,
            synthesized: 2,
            placed: 1,
            budget_pnr: 4,
            budget_synth: 4,
            left: Left {
                uncosted: 3,
                unplaced: 1,
            },
            prediction: Prediction {
                method: "",
                fmax: Accuracy {
                    points: 3,
                    mean_error_pct: 4.26,
                    max_error_pct: 9.5,
                },
                luts_ffs: Accuracy::default(),
            },
            front,
            recommendation: best,
            unmet: None,
            closest,
            failed: Vec::new(),
            files: BTreeMap::new(),
        }
    }

    #[test]
    fn the_text_names_the_counts_the_prediction_the_front_and_the_choice() {
        let space = space();
        let placed = figures(&space, &space.points[0], &estimate(125.0, 2800.0));
        let text = text(&output(vec![placed.clone()], Some(placed.clone()), None));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "explore alloc on ecp5-85k: 2 designs x 2 workloads modelled, 2 costed, 1 placed (budget 4)"
        );
        assert!(lines[1].starts_with(
            "the budgets ran out with 3 designs never synthesized and 1 never placed"
        ));
        assert_eq!(
            lines[2],
            "Fmax prediction, each placed design from the others: mean error 4.3%, largest 9.5%"
        );
        assert_eq!(lines[3], "front (1 design):");
        assert_eq!(lines[6], "recommended (objective time):");
        assert_eq!(lines[7], placed.command);
        assert_eq!(
            lines[8],
            "  1000 LUT, 500 FF, 2 BRAM, 125.0 MHz placed, 2800.0 ns over the workloads"
        );
        let closest = text_of_closest(&placed);
        assert!(closest.contains(&format!("closest:\n{}\n  1000 LUT", placed.command)));
        assert!(!closest.contains("recommended"));
        // Nothing left by the budgets and no prediction measured: neither line; one design
        // never placed: the line.
        let mut quiet = output(vec![placed.clone()], Some(placed.clone()), None);
        quiet.left = Left::default();
        quiet.prediction.fmax = Accuracy::default();
        let lines: Vec<String> = super::text(&quiet).lines().map(String::from).collect();
        assert_eq!(lines[1], "front (1 design):");
        quiet.left.unplaced = 1;
        assert!(super::text(&quiet)
            .contains("the budgets ran out with 0 designs never synthesized and 1 never placed"));
        let file = front_text("explore alloc", std::slice::from_ref(&placed));
        assert_eq!(file, format!("# explore alloc\n{}", table(&[placed])));
    }

    /// The text of an output with no recommendation and `closest` the closest design.
    fn text_of_closest(closest: &Figures) -> String {
        text(&output(Vec::new(), None, Some(closest.clone())))
    }

    #[test]
    fn the_recommendation_is_the_best_placed_design_that_meets_the_constraints() {
        // 0: placed, slow; 1: placed, fast; 2: faster, not placed; 3: fastest, does not fit.
        let points = [
            point(0, Some(120.0), true),
            point(1, Some(110.0), true),
            point(2, None, true),
            point(3, Some(200.0), false),
        ];
        let estimates = [
            estimate(120.0, 3000.0),
            estimate(110.0, 2000.0),
            estimate(150.0, 1000.0),
            estimate(200.0, 500.0),
        ];
        let unconstrained = recommend(&points, &estimates, &settings(None));
        assert_eq!(unconstrained, (Some(1), None, None));
        // 115 MHz at least: the slower one that meets it.
        let constrained = recommend(&points, &estimates, &settings(Some(115.0)));
        assert_eq!(constrained, (Some(0), None, None));
        // None meets 130 MHz: the closest placed design, and why.
        let (best, why, closest) = recommend(&points, &estimates, &settings(Some(130.0)));
        assert_eq!((best, closest), (None, Some(0)));
        let why = why.expect("a reason");
        assert!(why.starts_with("no placed design meets the constraints; the closest misses"));
        // Nothing placed that fits: no closest either.
        let unplaced = [point(0, None, true), point(1, Some(200.0), false)];
        let (best, why, closest) = recommend(&unplaced, &estimates[..2], &settings(None));
        assert_eq!((best, closest), (None, None));
        assert_eq!(
            why.as_deref(),
            Some("no design was placed and routed that fits the device")
        );
    }

    #[test]
    fn clear_removes_the_last_explorations_outputs_only() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = SweepDir::new(tmp.path());
        assert!(clear(&dir).is_ok(), "nothing to remove");
        for name in OUTPUTS.iter().chain(&["results.jsonl"]) {
            std::fs::write(tmp.path().join(name), "x").unwrap();
        }
        clear(&dir).unwrap();
        for name in OUTPUTS {
            assert!(!tmp.path().join(name).exists(), "{name} left");
        }
        assert!(
            tmp.path().join("results.jsonl").exists(),
            "the records are kept"
        );
        // A directory where an output goes cannot be removed as a file: one line, --out.
        std::fs::create_dir(tmp.path().join("front.svg")).unwrap();
        let failed = clear(&dir).unwrap_err().to_string();
        assert!(failed.contains("front.svg (--out)"), "{failed}");
    }
}
