//! A sweep on disk: `DIR/sweep.json` holds the spec, `DIR/results.jsonl` one line per finished
//! point, each written whole and flushed, so that a sweep killed at any moment loses at most
//! the point it was running. A torn last line is found, cut off and its point run again.

use std::collections::BTreeMap;
use std::fs::{self, OpenOptions};
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use grfgen_flow::pnr::DEFAULT_TIMING_WEIGHT;

use super::grid::List;
use crate::error::CliError;
use crate::output::write_file;

/// What a sweep is: enough to know two runs are the same sweep.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spec {
    /// The block.
    pub block: String,
    /// The sweep's seed; each point's seed derives from it and the point's index.
    pub seed: u64,
    /// The listed parameter values, outermost first.
    pub parameters: Vec<List>,
    /// The listed option values, after the parameters.
    pub options: Vec<List>,
    /// Whether each point is synthesized too.
    pub synth: bool,
    /// The device each design is placed and routed on, and nextpnr's seed, with `--pnr`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pnr: Option<(String, u64)>,
    /// How many placement seeds, from the seed in `pnr` on (`--pnr-seeds`).
    #[serde(default = "one_seed", skip_serializing_if = "is_one_seed")]
    pub pnr_seeds: u64,
    /// The placer's timing weight (`--pnr-timing-weight`), recorded when not nextpnr's own.
    #[serde(
        default = "default_timing_weight",
        skip_serializing_if = "is_default_timing_weight"
    )]
    pub pnr_timing_weight: u32,
    /// `auto`, `on` or `off`: whether the RTL runs.
    pub rtl: String,
    /// Points in all.
    pub points: usize,
    /// With `--config`: the parameters the file set, which every point starts from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config: Option<Value>,
    /// Whether `grfgen explore` recorded it (else `grfgen sweep`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub explore: bool,
}

impl Spec {
    /// The first way `here` differs from this recorded spec, in words: the field, its value
    /// in `sweep.json` and here, and the flag that makes them agree.
    pub fn difference(&self, here: &Spec) -> String {
        let lists = |l: &[List]| -> Vec<String> {
            l.iter()
                .map(|(n, v)| format!("{n}={}", v.join(",")))
                .collect()
        };
        // `subject` carries its verb: "the seed is", "the lists are".
        let field = |subject: &str, there: String, now: String, fix: String| {
            format!("{subject} {there} there and {now} here ({fix})")
        };
        if self.block != here.block {
            return field(
                "the block is",
                self.block.clone(),
                here.block.clone(),
                format!("run sweep {}", self.block),
            );
        }
        if self.seed != here.seed {
            let fix = format!("give --seed {} or leave --seed out", self.seed);
            return field(
                "the seed is",
                self.seed.to_string(),
                here.seed.to_string(),
                fix,
            );
        }
        for (there, now) in [
            (&self.parameters, &here.parameters),
            (&self.options, &here.options),
        ] {
            if there != now {
                let fix = format!(
                    "list {} as they were, or list nothing",
                    lists(there).join(" ")
                );
                return field(
                    "the lists are",
                    lists(there).join(" "),
                    lists(now).join(" "),
                    fix,
                );
            }
        }
        let flag = |on: bool, flag: &str| match on {
            true => flag.to_string(),
            false => format!("no {flag}"),
        };
        if self.synth != here.synth {
            let fix = format!("give {}", flag(self.synth, "--synth"));
            return field(
                "--synth is",
                flag(self.synth, "--synth"),
                flag(here.synth, "--synth"),
                fix,
            );
        }
        let placing = |s: &Spec| (s.pnr.clone(), s.pnr_seeds, s.pnr_timing_weight);
        if placing(self) != placing(here) {
            // A weight is named when the two differ: the default differs by block and device.
            let weights_differ = self.pnr_timing_weight != here.pnr_timing_weight;
            let shown = |s: &Spec| match &s.pnr {
                Some((device, seed)) => format!(
                    "--pnr --device {device} --pnr-seed {seed}{}{}",
                    match s.pnr_seeds {
                        1 => String::new(),
                        n => format!(" --pnr-seeds {n}"),
                    },
                    match s.pnr_timing_weight {
                        DEFAULT_TIMING_WEIGHT if !weights_differ => String::new(),
                        w => format!(" --pnr-timing-weight {w}"),
                    }
                ),
                None => "no --pnr".to_string(),
            };
            let fix = format!("give {}", shown(self));
            return field("place and route is", shown(self), shown(here), fix);
        }
        if self.rtl != here.rtl {
            return field(
                "--rtl is",
                self.rtl.clone(),
                here.rtl.clone(),
                "give the same --rtl or --no-rtl".into(),
            );
        }
        let fix = "give the same --config".to_string();
        field(
            "the configuration is",
            format!("{:?}", self.config),
            format!("{:?}", here.config),
            fix,
        )
    }
}

/// One finished point.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Record {
    /// The point's index in the sweep.
    pub index: usize,
    /// Its seed.
    pub seed: u64,
    /// The design's parameters.
    pub parameters: Value,
    /// The run's options.
    pub options: Value,
    /// `ok`, `mismatch`, `failed`, or `skipped` (the run does not apply to the point: its
    /// options refused the parameters).
    pub status: String,
    /// Why it failed, or the mismatch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The command that replays it.
    pub replay: String,
    /// The figures a table shows, in order.
    pub metrics: Vec<(String, f64)>,
    /// The block's whole report (`grfgen sim --json`'s fields).
    pub report: Value,
    /// The cycles the run's work takes (`Report::work_cycles`), where the block times one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub work_cycles: Option<f64>,
    /// iCE40 synthesis figures, with `--synth`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ice40: Option<Value>,
    /// Place-and-route figures, with `--pnr`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pnr: Option<Value>,
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl Record {
    /// Whether the point finished without fault.
    pub fn ok(&self) -> bool {
        self.status == "ok"
    }

    /// Whether the point was found not to apply: nothing to run again.
    pub fn skipped(&self) -> bool {
        self.status == "skipped"
    }

    /// Whether the point needs no more running: done, or not applicable.
    pub fn settled(&self) -> bool {
        self.ok() || self.skipped()
    }

    /// Marks the point failed, for `why`.
    pub fn fail(&mut self, why: String) {
        self.status = "failed".into();
        self.error = Some(why);
    }

    /// Adds place-and-route `report`: Fmax and placed LUTs as metrics, and the time of the
    /// run's work at that Fmax (`time_ns`), where the run times its work (else its `cycles`).
    /// A report of synthesis alone (no Fmax) adds no metric.
    pub fn add_pnr(&mut self, report: Value) {
        // With several placement seeds, the Fmax every seed meets: the worst.
        let figure = |key: &str| report.get(key).and_then(Value::as_f64);
        let fmax = figure("fmax_mhz_worst").or(figure("fmax_mhz"));
        if let Some(f) = fmax {
            self.metrics.push(("fmax_mhz".into(), f));
        }
        let seeds = report
            .get("seeds")
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        for key in ["fmax_mhz_median", "fmax_mhz_best"] {
            if let Some(f) = figure(key).filter(|_| seeds > 1) {
                self.metrics.push((key.into(), f));
            }
        }
        if let Some(luts) = report
            .get("luts")
            .and_then(Value::as_f64)
            .filter(|_| fmax.is_some())
        {
            self.metrics.push(("pnr_luts".into(), luts));
        }
        let cycles =
            (self.work_cycles).or_else(|| self.report.get("cycles").and_then(Value::as_f64));
        if let (Some(f), Some(cycles)) = (fmax.filter(|&f| f > 0.0), cycles) {
            self.metrics.push(("time_ns".into(), cycles * 1000.0 / f));
        }
        self.pnr = Some(report);
    }
}

/// Why a directory holding `found` cannot take a run of the other kind (a sweep where an
/// exploration runs, or the reverse), with the command that goes on with what it holds.
pub fn other_kind(found: &Spec) -> String {
    match found.explore {
        true => format!(
            "it holds an exploration of {0}, not a sweep; go on with it with grfgen explore {0} --out DIR --resume, or give another --out",
            found.block
        ),
        false => format!(
            "it holds a sweep of {}, not an exploration; give another --out",
            found.block
        ),
    }
}

/// The files of a sweep directory.
pub struct SweepDir {
    /// The directory.
    pub dir: PathBuf,
}

/// An I/O failure on `path`, in the directory given as `--out`.
fn io(path: &Path, e: std::io::Error) -> CliError {
    CliError::Failed(format!("{} (--out): {e}", path.display()))
}

impl SweepDir {
    /// The sweep in `dir`.
    pub fn new(dir: &Path) -> Self {
        Self {
            dir: dir.to_path_buf(),
        }
    }

    fn spec_path(&self) -> PathBuf {
        self.dir.join("sweep.json")
    }

    fn results_path(&self) -> PathBuf {
        self.dir.join("results.jsonl")
    }

    /// The spec recorded here, if any.
    pub fn spec(&self) -> Result<Option<Spec>, CliError> {
        let path = self.spec_path();
        match fs::read_to_string(&path) {
            Ok(text) => serde_json::from_str(&text)
                .map(Some)
                .map_err(|e| CliError::Input(format!("invalid sweep {}: {e}", path.display()))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(io(&path, e)),
        }
    }

    /// Checks that the sweep `spec` can start here, or with `resume` take up the one already
    /// here: a different sweep here is an error; so is any sweep without `resume`, and a run
    /// of the other kind (sweep or exploration). Whether one is here.
    pub fn check(&self, spec: &Spec, resume: bool) -> Result<bool, CliError> {
        let refuse = |why: String| {
            CliError::Input(format!(
                "invalid value {} for --out: {why}",
                grfgen_support::input::shown(&self.dir.to_string_lossy())
            ))
        };
        let kind = |s: &Spec| match s.explore {
            true => "exploration",
            false => "sweep",
        };
        match (self.spec()?, resume) {
            (Some(found), _) if found.explore != spec.explore => Err(refuse(other_kind(&found))),
            (Some(found), true) if found == *spec => Ok(true),
            (Some(found), true) => Err(refuse(format!(
                "it holds a different {}: {}",
                kind(spec),
                found.difference(spec)
            ))),
            (Some(found), false) => Err(refuse(format!(
                "it holds {} {} already; add --resume to go on with it",
                if found.explore { "an" } else { "a" },
                kind(&found)
            ))),
            (None, _) => Ok(false),
        }
    }

    /// Starts the sweep `spec` here, or with `resume` takes up the one already here, as
    /// [`SweepDir::check`] allows.
    pub fn open(&self, spec: &Spec, resume: bool) -> Result<(), CliError> {
        if self.check(spec, resume)? {
            return Ok(());
        }
        fs::create_dir_all(&self.dir).map_err(|e| io(&self.dir, e))?;
        let text = serde_json::to_string_pretty(spec).expect("specs serialise") + "\n";
        write_file("--out", &self.spec_path(), text.as_bytes())
    }

    /// The finished points, the last record of each index; a torn last line is cut off the
    /// file, and unreadable lines are skipped (their points run again).
    pub fn records(&self) -> Result<BTreeMap<usize, Record>, CliError> {
        let path = self.results_path();
        let text = match fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(BTreeMap::new()),
            Err(e) => return Err(io(&path, e)),
        };
        let whole = text.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
        if whole < text.len() {
            let file = OpenOptions::new()
                .write(true)
                .open(&path)
                .map_err(|e| io(&path, e))?;
            file.set_len(whole as u64).map_err(|e| io(&path, e))?;
        }
        let mut records = BTreeMap::new();
        for line in String::from_utf8_lossy(&text[..whole]).lines() {
            if let Ok(record) = serde_json::from_str::<Record>(line) {
                records.insert(record.index, record);
            }
        }
        Ok(records)
    }

    /// Appends `record` as one line, flushed to the disk before it returns.
    pub fn append(&self, record: &Record) -> Result<(), CliError> {
        let path = self.results_path();
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|e| io(&path, e))?;
        let line = serde_json::to_string(record).expect("records serialise") + "\n";
        file.seek(SeekFrom::End(0)).map_err(|e| io(&path, e))?;
        file.write_all(line.as_bytes()).map_err(|e| io(&path, e))?;
        file.sync_data().map_err(|e| io(&path, e))
    }

    /// Writes `records` as the whole results file, in index order, atomically.
    pub fn replace(&self, records: &BTreeMap<usize, Record>) -> Result<(), CliError> {
        let text: String = records
            .values()
            .map(|r| serde_json::to_string(r).expect("records serialise") + "\n")
            .collect();
        write_file("--out", &self.results_path(), text.as_bytes())
    }
}

/// Done, failed and missing points of a sweep with `points` points.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Status {
    /// Points in all.
    pub points: usize,
    /// Points finished `ok`.
    pub done: usize,
    /// Points finished with a mismatch or a failure.
    pub failed: usize,
    /// Points whose run does not apply to their parameters.
    pub skipped: usize,
    /// Points with no record.
    pub missing: usize,
    /// The indices of the missing points (at most 100).
    pub missing_points: Vec<usize>,
}

impl Status {
    /// The status of `records` of a sweep of `points` points.
    pub fn of(points: usize, records: &BTreeMap<usize, Record>) -> Self {
        let missing: Vec<usize> = (0..points).filter(|i| !records.contains_key(i)).collect();
        Self {
            points,
            done: records.values().filter(|r| r.ok()).count(),
            failed: records.values().filter(|r| !r.settled()).count(),
            skipped: records.values().filter(|r| r.skipped()).count(),
            missing: missing.len(),
            missing_points: missing.into_iter().take(100).collect(),
        }
    }

    /// The status in one line.
    pub fn text(&self) -> String {
        format!(
            "{}: {} done, {} failed, {} skipped, {} missing",
            grfgen_support::text::plural(self.points as u64, "point"),
            self.done,
            self.failed,
            self.skipped,
            self.missing
        )
    }
}

/// The seed count of a store written before `--pnr-seeds`: one.
fn one_seed() -> u64 {
    1
}

/// Whether a store's seed count is the default one, left out of the file.
fn is_one_seed(n: &u64) -> bool {
    *n == 1
}

/// nextpnr's own timing weight, for a `sweep.json` written before the weight was recorded.
fn default_timing_weight() -> u32 {
    DEFAULT_TIMING_WEIGHT
}

/// Whether `w` is nextpnr's own timing weight (not recorded).
fn is_default_timing_weight(w: &u32) -> bool {
    *w == DEFAULT_TIMING_WEIGHT
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sweep placed and routed with `weight`.
    fn placed(weight: u32) -> Spec {
        Spec {
            block: "gpr".into(),
            seed: 1,
            parameters: vec![("banks".into(), vec!["2".into(), "4".into()])],
            options: Vec::new(),
            synth: false,
            pnr: Some(("ecp5-85k".into(), 1)),
            pnr_seeds: 2,
            pnr_timing_weight: weight,
            rtl: "auto".into(),
            points: 2,
            config: None,
            explore: false,
        }
    }

    #[test]
    fn a_resume_at_another_timing_weight_names_the_recorded_one() {
        let there = placed(30);
        let said = there.difference(&placed(DEFAULT_TIMING_WEIGHT));
        let expected = "place and route is --pnr --device ecp5-85k --pnr-seed 1 --pnr-seeds 2 \
                        --pnr-timing-weight 30 there and --pnr --device ecp5-85k --pnr-seed 1 \
                        --pnr-seeds 2 --pnr-timing-weight 10 here";
        assert!(said.starts_with(expected), "{said}");
        // Recorded at nextpnr's own weight, resumed where the default is another (the router
        // on ECP5): the fix names the recorded weight.
        let said = placed(DEFAULT_TIMING_WEIGHT).difference(&there);
        assert!(
            said.contains(
                "give --pnr --device ecp5-85k --pnr-seed 1 --pnr-seeds 2 --pnr-timing-weight 10"
            ),
            "{said}"
        );
        // Another difference alone leaves the default weight unsaid.
        let mut other = placed(DEFAULT_TIMING_WEIGHT);
        other.pnr_seeds = 3;
        let said = placed(DEFAULT_TIMING_WEIGHT).difference(&other);
        assert!(!said.contains("timing-weight"), "{said}");
    }

    #[test]
    fn the_default_weight_is_not_written_and_reads_back() {
        let text = serde_json::to_string(&placed(DEFAULT_TIMING_WEIGHT)).unwrap();
        assert!(!text.contains("timing_weight"), "{text}");
        let read: Spec = serde_json::from_str(&text).unwrap();
        assert_eq!(read.pnr_timing_weight, DEFAULT_TIMING_WEIGHT);
        let weighted = serde_json::to_string(&placed(30)).unwrap();
        let read: Spec = serde_json::from_str(&weighted).unwrap();
        assert_eq!(read.pnr_timing_weight, 30);
    }
}
