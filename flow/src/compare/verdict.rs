//! The verdict of `grfgen compare gpr`: the document's claim (four 1W1R banks against one
//! 2W4R file: about 18% less routing, 5-10% more performance) and the ambition set for the
//! best banked configuration, each against the strongest multi-ported file compared.

use super::rows::{DesignRow, WorkloadFigures};

/// The prefix of the rows the document describes: four 1W1R banks (the default bank map),
/// with its queues, at any pipeline option.
const DOCUMENT_ROWS: &str = "banked-1r1w-p";

/// The fastest of `rows` that fit: least total time over `workloads` when every one of them
/// has a time, else fewest total cycles (the first of equals).
fn fastest<'a>(
    rows: impl Iterator<Item = &'a DesignRow> + Clone,
    workloads: &[String],
) -> Option<&'a DesignRow> {
    let rows = rows.filter(|d| d.hardware.fits && !d.workloads.is_empty());
    let total = |d: &DesignRow, figure: &Measure| -> Option<f64> {
        (workloads.iter())
            .map(|w| figure(d.workloads.get(w)?))
            .sum::<Option<f64>>()
    };
    let time: &Measure = &|w: &WorkloadFigures| w.time_ns;
    let cycles: &Measure = &|w: &WorkloadFigures| Some(w.cycles as f64);
    let measure = match rows.clone().all(|d| total(d, time).is_some()) {
        true => time,
        false => cycles,
    };
    rows.filter_map(|d| total(d, measure).map(|t| (d, t)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(d, _)| d)
}

/// The document's row, four 1W1R banks under `cq-pq` at its fastest pipeline option, and the
/// reference, the fastest multi-ported file.
fn contenders<'a>(
    designs: &'a [DesignRow],
    workloads: &[String],
) -> Option<(&'a DesignRow, &'a DesignRow)> {
    let document = designs.iter().filter(|d| {
        let pipeline =
            (d.name.strip_prefix(DOCUMENT_ROWS)).and_then(|rest| rest.strip_suffix(" cq-pq"));
        pipeline.is_some_and(|p| p.chars().all(|c| c.is_ascii_digit()))
    });
    let files = designs.iter().filter(|d| d.kind == "multiport");
    fastest(document, workloads).zip(fastest(files, workloads))
}

/// The verdict, line by line, from the rows of a comparison over `workloads`.
pub(super) fn verdict(designs: &[DesignRow], workloads: &[String], routed: bool) -> Vec<String> {
    let Some((document, reference)) = contenders(designs, workloads) else {
        return vec![
            "no verdict: the comparison needs a banked-1r1w row under cq-pq and a multi-ported \
             file with workload figures"
                .into(),
        ];
    };
    let mut lines = vec![format!(
        "the document's design: {}; the strongest 2W4R file: {} (the fastest that fits)",
        document.name, reference.name
    )];
    if routed {
        lines.push(routing(document, reference));
    } else {
        lines.push("routing and Fmax: not measured (run with --pnr)".into());
    }
    lines.push(performance(document, reference, workloads));
    lines.extend(ambition(designs, reference, workloads));
    lines
}

/// "18% less routing": wirelength and routed arcs, the document's row against the reference.
fn routing(document: &DesignRow, reference: &DesignRow) -> String {
    let (doc, re) = (&document.name, &reference.name);
    let (d, r) = (&document.hardware, &reference.hardware);
    match (d.wirelength, r.wirelength, d.routed_arcs, r.routed_arcs) {
        (Some(dw), Some(rw), Some(da), Some(ra)) => {
            let wire = 1.0 - dw as f64 / rw as f64;
            let arcs = 1.0 - da as f64 / ra as f64;
            let holds = match wire >= 0.18 {
                true => "holds",
                false => "does not hold",
            };
            format!(
                "routing (wirelength: routing wires used, summed over nets): {doc} uses \
                 {} than {re} ({dw} against {rw}; routed arcs {}); the claim of 18% \
                 less routing {holds}",
                less_or_more(wire, "less wirelength", "more wirelength"),
                less_or_more(arcs, "fewer", "more"),
            )
        }
        _ => format!("routing: not measured ({re} or {doc} was not routed)"),
    }
}

/// "5-10% more performance": time per workload (cycles, and cycles / Fmax when routed).
fn performance(document: &DesignRow, reference: &DesignRow, workloads: &[String]) -> String {
    let (doc, re) = (&document.name, &reference.name);
    let cycles = mean_ratio(document, reference, workloads, |w| Some(w.cycles as f64));
    let time = mean_ratio(document, reference, workloads, |w| w.time_ns);
    match (time, cycles) {
        (Some(time), Some(cycles)) => {
            let faster = 1.0 / time - 1.0;
            let holds = match faster >= 0.05 {
                true => "holds",
                false => "does not hold",
            };
            format!(
                "performance (time per workload, cycles / Fmax, mean of the per-workload ratios): \
                 {doc} is {} than {re} (it takes {:.2}x the cycles at \
                 {:.2}x the Fmax); the claim of 5-10% more performance {holds}",
                less_or_more(faster, "faster", "slower"),
                cycles,
                cycles / time,
            )
        }
        (None, Some(cycles)) => format!(
            "performance: {doc} takes {cycles:.2}x the cycles of {re} \
             (mean of the per-workload ratios); no time: {}",
            match (&document.hardware.reason, &reference.hardware.reason) {
                (Some(why), _) => format!("{doc} {why}"),
                (_, Some(why)) => format!("{re} {why}"),
                _ => "Fmax needs --pnr".into(),
            }
        ),
        _ => "performance: no workload figures".into(),
    }
}

/// A figure of one workload's run, where it has one.
type Measure = dyn Fn(&WorkloadFigures) -> Option<f64>;

/// The ambition: the best banked row against the reference, by mean time when the reference
/// and every banked row with workload figures have one, else by mean cycles.
fn ambition(designs: &[DesignRow], reference: &DesignRow, workloads: &[String]) -> Vec<String> {
    let banked: Vec<&DesignRow> = designs
        .iter()
        .filter(|d| d.kind == "banked" && !d.workloads.is_empty())
        .collect();
    let time = |w: &WorkloadFigures| w.time_ns;
    let cycles = |w: &WorkloadFigures| Some(w.cycles as f64);
    let timed = banked
        .iter()
        .all(|d| mean_ratio(d, reference, workloads, time).is_some());
    let (measure, label): (&Measure, &str) = match timed {
        true => (&time, "time (kernel mean)"),
        false => (&cycles, "cycles (kernel mean; no time for every row)"),
    };
    let best = banked
        .iter()
        .filter_map(|d| mean_ratio(d, reference, workloads, measure).map(|m| (*d, m)))
        .min_by(|a, b| a.1.total_cmp(&b.1));
    let Some((best, mean)) = best else {
        return vec!["ambition: no banked row with workload figures".into()];
    };
    let (b, r, re) = (&best.hardware, &reference.hardware, &reference.name);
    let mut lines = vec![format!("ambition, best banked row {}:", best.name)];
    let mut check = |what: &str, ratio: Option<f64>, goal: &str, met: fn(f64) -> bool| {
        lines.push(match ratio {
            Some(x) => format!(
                "  {what}: {x:.2}x {re} (goal {goal}): {}",
                if met(x) { "met" } else { "short" }
            ),
            None => format!("  {what}: not measured (goal {goal})"),
        });
    };
    let fmax = b.fmax_mhz.zip(r.fmax_mhz).map(|(b, r)| b / r);
    check("Fmax", fmax, ">= 1.2x", |x| x >= 1.2);
    let cells = (b.luts + b.ffs) as f64 / (r.luts + r.ffs).max(1) as f64;
    check("LUT+FF", Some(cells), "<= 0.75x", |x| x <= 0.75);
    let brams = b.brams as f64 / r.brams.max(1) as f64;
    check("BRAM", Some(brams), "<= 0.5x", |x| x <= 0.5);
    check(label, Some(mean), "<= 0.95x", |x| x <= 0.95);
    lines
}

/// The mean over `workloads` of `figure(row) / figure(reference)`, if every figure is there.
fn mean_ratio(
    row: &DesignRow,
    reference: &DesignRow,
    workloads: &[String],
    figure: impl Fn(&WorkloadFigures) -> Option<f64>,
) -> Option<f64> {
    let ratios: Option<Vec<f64>> = workloads
        .iter()
        .map(|w| {
            let a = figure(row.workloads.get(w)?)?;
            let b = figure(reference.workloads.get(w)?)?;
            Some(a / b)
        })
        .collect();
    let ratios = ratios.filter(|r| !r.is_empty())?;
    Some(ratios.iter().sum::<f64>() / ratios.len() as f64)
}

/// `x` (a fraction) as "N% less" or "N% more" with the given words.
fn less_or_more(x: f64, less: &str, more: &str) -> String {
    match x >= 0.0 {
        true => format!("{:.1}% {less}", 100.0 * x),
        false => format!("{:.1}% {more}", -100.0 * x),
    }
}
