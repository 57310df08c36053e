//! `grfgen regress`: every block over its configuration corners and N seeds, co-simulated in
//! lock step, on the sweep's machinery (results that survive, resume, shards, jobs), with a
//! pass or fail line per run, the command that replays each failure, and JUnit XML.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

use clap::{Arg, ArgAction, ArgMatches, Command};
use grfgen_hdl::design::Design;
use grfgen_hdl::params::Params;
use grfgen_sim::block::{Block, ParamsOf, Rtl, SimError};
use serde::Serialize;

use super::sweep::{jobs, shard, slurm_shards};
use super::{json_arg, path, render, seed, seed_arg};
use crate::params::number;
use crate::registry::{blocks, BlockCommand};
use grfgen_engines::error::CliError;
use grfgen_engines::output::{check_dir, check_file, write_file};
use grfgen_engines::progress::Progress;
use grfgen_engines::sweep::grid::in_shard;
use grfgen_engines::sweep::runner::{run_all, skipped, Implementation, Job};
use grfgen_engines::sweep::slurm::{
    check_script_dir, forwarded, placement, placement_args, shell_path, SlurmPlan,
};
use grfgen_engines::sweep::store::{Record, Spec, Status, SweepDir};

/// Cycles of each run by default: with 4 seeds and each block's corners, at least 10 million
/// co-simulated cycles per block (`docs/sweep.md`, "Regressions").
pub const DEFAULT_CYCLES: u64 = 1_000_000;

/// `grfgen regress`.
pub fn command() -> Command {
    let names: Vec<&str> = blocks().iter().map(|b| b.name()).collect();
    Command::new("regress")
        .about("Co-simulate every block over its configuration corners and N seeds; a line per run, the replay of each failure, JUnit XML")
        .arg(Arg::new("blocks").long("blocks").value_name("LIST").value_delimiter(',').help(format!(
            "The blocks, comma-separated: {} [default: all]",
            names.join(", ")
        )))
        .arg(Arg::new("seeds").long("seeds").value_name("N").help("Seeds per configuration and run, 1..=1000 [default 4]"))
        .arg(Arg::new("cycles").long("cycles").value_name("N").help(format!(
            "Cycles per run, where the run has cycles, 1..=10000000000 [default {DEFAULT_CYCLES}]"
        )))
        .arg(seed_arg())
        .arg(Arg::new("jobs").long("jobs").value_name("N").help("Runs at once, 1..=256 [default: the number of cores]"))
        .arg(Arg::new("shard").long("shard").value_name("I/N").allow_hyphen_values(true).help("Only the runs whose index is I modulo N (per block); `slurm` reads the array task"))
        .arg(Arg::new("out").long("out").value_name("DIR").required(true).help("Record each block's runs in DIR/<block>"))
        .arg(Arg::new("resume").long("resume").action(ArgAction::SetTrue).help("Go on with the regression in DIR"))
        .arg(Arg::new("junit").long("junit").value_name("FILE").help("Also write the results as JUnit XML"))
        .arg(grfgen_engines::csv::arg())
        .arg(
            Arg::new("slurm")
                .long("slurm")
                .value_name("N")
                .conflicts_with_all(["shard", "resume"])
                .help("Submit as a Slurm job array of N shards and a merge job (which writes the results and --junit), 1..=1000"),
        )
        .args(placement_args(Some("slurm")))
        .arg(
            Arg::new("dry_run")
                .long("dry-run")
                .action(ArgAction::SetTrue)
                .requires("slurm")
                .help("With --slurm: print the two job scripts; write and submit nothing"),
        )
        .arg(json_arg())
}

/// What every block's regression shares.
pub struct Settings {
    /// Seeds per configuration and run.
    pub seeds: u64,
    /// The first seed; the others follow it.
    pub seed: u64,
    /// Cycles per run.
    pub cycles: u64,
    /// Runs at once.
    pub jobs: usize,
    /// This shard.
    pub shard: (usize, usize),
    /// The regression's directory.
    pub dir: PathBuf,
    /// Go on with what is there.
    pub resume: bool,
    /// Print nothing but the result.
    pub quiet: bool,
}

/// The parameters of corner `overrides` of block `B`.
fn corner<B: Block>(overrides: &[(&str, &str)]) -> Result<ParamsOf<B>, CliError> {
    let mut params = ParamsOf::<B>::default();
    for (name, value) in overrides {
        let param = ParamsOf::<B>::param(name)
            .ok_or_else(|| CliError::Failed(format!("{}: no parameter {name}", B::Design::NAME)))?;
        param.set(&mut params, value)?;
    }
    params.settle(&|name| overrides.iter().any(|(given, _)| *given == name));
    grfgen_hdl::design::validate::<B::Design>(&params)?;
    Ok(params)
}

/// Block `B`'s regression: its records, in index order.
pub fn block<B: Block>(settings: &Settings) -> Result<Vec<Record>, CliError> {
    let corners = B::corners();
    let mut jobs = Vec::new();
    for overrides in &corners {
        let params = corner::<B>(overrides)?;
        for run in B::regression_runs(&params, settings.cycles) {
            for k in 0..settings.seeds {
                jobs.push(Job::<B> {
                    index: jobs.len(),
                    params: params.clone(),
                    options: run.clone(),
                    seed: settings.seed.wrapping_add(k),
                });
            }
        }
    }
    let describe = |o: &Vec<(&str, &str)>| -> String {
        let parts: Vec<String> = o.iter().map(|(n, v)| format!("{n}={v}")).collect();
        match parts.is_empty() {
            true => "defaults".into(),
            false => parts.join(" "),
        }
    };
    let spec = Spec {
        block: B::Design::NAME.into(),
        seed: settings.seed,
        parameters: vec![("corners".into(), corners.iter().map(describe).collect())],
        options: vec![
            ("seeds".into(), vec![settings.seeds.to_string()]),
            ("cycles".into(), vec![settings.cycles.to_string()]),
        ],
        synth: false,
        pnr: None,
        pnr_seeds: 1,
        pnr_timing_weight: grfgen_flow::pnr::DEFAULT_TIMING_WEIGHT,
        rtl: "on".into(),
        points: jobs.len(),
        config: None,
        explore: false,
    };
    let dir = SweepDir::new(&settings.dir.join(B::Design::NAME));
    dir.open(&spec, settings.resume)?;
    let mut records = dir.records()?;
    jobs.retain(|j| {
        in_shard(j.index, settings.shard) && !records.get(&j.index).is_some_and(Record::settled)
    });
    // A run that a corner cannot take (the document's shader in the smallest pool) is
    // recorded as skipped, never run.
    let mut runnable = Vec::with_capacity(jobs.len());
    for job in jobs {
        match B::inputs(&job.params, &job.options, job.seed) {
            Err(SimError::Input(why)) => {
                let record = skipped(&job, Rtl::On, why);
                dir.append(&record)?;
                records.insert(record.index, record);
            }
            _ => runnable.push(job),
        }
    }
    let jobs = runnable;
    let progress = Progress::points(
        format!("regress {}", spec.block),
        jobs.len() as u64,
        settings.quiet,
    );
    let mut failed = 0;
    let ran = run_all(
        &jobs,
        settings.jobs,
        Rtl::On,
        &Implementation::default(),
        |record| {
            failed += usize::from(!record.settled());
            progress.point(&line(&spec.block, &record), failed);
            dir.append(&record)?;
            records.insert(record.index, record);
            Ok(())
        },
    );
    progress.finish();
    ran?;
    Ok(records
        .into_values()
        .filter(|r| in_shard(r.index, settings.shard))
        .collect())
}

/// A run's line: PASS, FAIL or SKIP, what ran, and for a failure the replay.
fn line(block: &str, r: &Record) -> String {
    let cycles = r.report.get("cycles").and_then(|c| c.as_u64()).unwrap_or(0);
    match r.status.as_str() {
        "ok" => format!(
            "PASS {block} #{}: {cycles} cycles ({:.1} s): {}",
            r.index, r.seconds, r.replay
        ),
        "skipped" => format!(
            "SKIP {block} #{}: {}",
            r.index,
            r.error.as_deref().unwrap_or("")
        ),
        _ => format!(
            "FAIL {block} #{}: {}\n     replay: {}",
            r.index,
            r.error.as_deref().unwrap_or(&r.status),
            r.replay
        ),
    }
}

/// The runs as CSV: block, index, status, seed, cycles, seconds, error and replay command.
fn csv(results: &BTreeMap<&str, Vec<Record>>) -> String {
    let rows: Vec<serde_json::Value> = (results.iter())
        .flat_map(|(block, records)| records.iter().map(move |r| (block, r)))
        .map(|(block, r)| {
            serde_json::json!({
                "block": block,
                "index": r.index,
                "status": r.status,
                "seed": r.seed,
                "cycles": r.report.get("cycles"),
                "seconds": r.seconds,
                "error": r.error,
                "replay": r.replay,
            })
        })
        .collect();
    grfgen_engines::csv::objects(&rows)
}

/// `text` escaped for XML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The results as JUnit XML: a test suite per block, a test case per run.
fn junit(results: &BTreeMap<&str, Vec<Record>>, seconds: f64, seed: u64) -> String {
    let count = |f: fn(&Record) -> bool| results.values().flatten().filter(|r| f(r)).count();
    let mut xml = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"grfgen regress\" tests=\"{}\" \
         failures=\"{}\" skipped=\"{}\" time=\"{seconds:.3}\">\n",
        count(|_| true),
        count(|r| !r.settled()),
        count(Record::skipped)
    );
    for (block, records) in results {
        let time: f64 = records.iter().map(|r| r.seconds).sum();
        xml += &format!(
            "  <testsuite name=\"{block}\" tests=\"{}\" failures=\"{}\" skipped=\"{}\" time=\"{time:.3}\">\n",
            records.len(),
            records.iter().filter(|r| !r.settled()).count(),
            records.iter().filter(|r| r.skipped()).count()
        );
        xml +=
            &format!("    <properties><property name=\"seed\" value=\"{seed}\"/></properties>\n");
        for r in records {
            let name = escape(&format!("#{} seed {}: {}", r.index, r.seed, r.replay));
            xml += &format!(
                "    <testcase classname=\"grfgen.{block}\" name=\"{name}\" time=\"{:.3}\"",
                r.seconds
            );
            let why = escape(r.error.as_deref().unwrap_or(&r.status));
            xml += &match (r.ok(), r.skipped()) {
                (true, _) => "/>\n".to_string(),
                (_, true) => format!("><skipped message=\"{why}\"/></testcase>\n"),
                _ => format!(
                    "><failure message=\"{why}\">replay: {}</failure></testcase>\n",
                    escape(&r.replay)
                ),
            };
        }
        xml += "  </testsuite>\n";
    }
    xml + "</testsuites>\n"
}

/// What `regress --json` prints.
#[derive(Serialize)]
struct Output {
    blocks: BTreeMap<String, BlockResult>,
    seconds: f64,
    /// The first seed; the others follow it.
    seed: u64,
}

/// One block's figures.
#[derive(Serialize)]
struct BlockResult {
    status: Status,
    cycles: u64,
    failures: Vec<String>,
}

/// `grfgen regress --slurm N`: the array of shards, and a merge job that joins each block's
/// shards and then reports the whole regression (and writes `--junit`) from what they ran.
fn submit(m: &ArgMatches, settings: &Settings, blocks: &[String]) -> Result<String, CliError> {
    let shards = slurm_shards(m, "slurm")?;
    check_script_dir(&settings.dir)?;
    let grfgen = shell_path(&std::env::current_exe()?);
    let dir = std::path::absolute(&settings.dir).unwrap_or_else(|_| settings.dir.clone());
    let out = shell_path(&dir);
    let args = forwarded(
        "regress",
        &["--dry-run", "--json", "--resume"],
        &[
            "--out",
            "--slurm",
            "--partition",
            "--account",
            "--shard",
            "--junit",
            "--csv",
        ],
        settings.seed,
    );
    // The merge job writes --junit and --csv, from every shard's runs.
    let junit: String = [("junit", "--junit"), ("csv", "--csv")]
        .iter()
        .filter_map(|(id, flag)| path(m, id).map(|f| format!(" {flag} {}", shell_path(&f))))
        .collect();
    let mut merge: Vec<String> = blocks
        .iter()
        .map(|b| format!("{grfgen} sweep merge {out}/shards/*/{b} --out {out}/{b}"))
        .collect();
    merge.push(format!(
        "{grfgen} regress {} --resume --out {out}{junit}",
        args.join(" ")
    ));
    let plan = SlurmPlan {
        name: "regress".into(),
        task: format!(
            "{grfgen} regress {} --shard slurm --resume --out {out}/shards/\"$SLURM_ARRAY_TASK_ID\"",
            args.join(" ")
        ),
        merge,
        dir,
        shards,
        placement: placement(m)?,
    };
    if m.get_flag("dry_run") {
        return Ok(plan.scripts());
    }
    let (array, merge) = plan.submit()?;
    Ok(format!(
        "submitted regress of {} (seed {}) as array job {array} ({shards} tasks) and merge job \
         {merge} into {}",
        blocks.join(", "),
        settings.seed,
        plan.dir.display()
    ))
}

/// The blocks `--blocks` names (lower case; every block by default), each checked against the
/// registry `all`.
fn chosen_blocks(m: &ArgMatches, all: &[Box<dyn BlockCommand>]) -> Result<Vec<String>, CliError> {
    let chosen: Vec<String> = match m.get_many::<String>("blocks") {
        Some(names) => names.map(|n| n.to_ascii_lowercase()).collect(),
        None => all.iter().map(|b| b.name().to_string()).collect(),
    };
    for name in &chosen {
        if !all.iter().any(|b| b.name() == name) {
            let names: Vec<&str> = all.iter().map(|b| b.name()).collect();
            return Err(CliError::Input(format!(
                "invalid value {name} for --blocks: allowed {}",
                names.join(", ")
            )));
        }
    }
    Ok(chosen)
}

/// The settings `m` gives, each checked against its range before any work.
fn settings(m: &ArgMatches) -> Result<Settings, CliError> {
    let bounded =
        |id: &'static str, allowed: &str, low: u64, high: u64, default: u64| match number::<u64>(
            m, id, allowed,
        )? {
            None => Ok(default),
            Some(n) if (low..=high).contains(&n) => Ok(n),
            Some(n) => Err(CliError::Input(format!(
                "invalid value {n} for --{id}: allowed {allowed}"
            ))),
        };
    Ok(Settings {
        seeds: bounded("seeds", "1..=1000", 1, 1000, 4)?,
        cycles: bounded(
            "cycles",
            "1..=10000000000",
            1,
            10_000_000_000,
            DEFAULT_CYCLES,
        )?,
        seed: seed(m)?,
        jobs: jobs(m)?,
        shard: shard(m)?,
        dir: check_dir("--out", &path(m, "out").expect("--out is required"))?,
        resume: m.get_flag("resume"),
        quiet: m.get_flag("json"),
    })
}

/// What a regression found, per block: its status, the cycles co-simulated and the replay of
/// each failure.
fn output(results: &BTreeMap<&str, Vec<Record>>, seconds: f64, seed: u64) -> Output {
    let blocks = results
        .iter()
        .map(|(block, records)| {
            let map: BTreeMap<usize, Record> =
                records.iter().map(|r| (r.index, r.clone())).collect();
            let cycles = records
                .iter()
                .filter_map(|r| r.report.get("cycles").and_then(|c| c.as_u64()))
                .sum();
            let failures = records
                .iter()
                .filter(|r| !r.settled())
                .map(|r| r.replay.clone())
                .collect();
            let status = Status::of(records.len(), &map);
            (
                block.to_string(),
                BlockResult {
                    status,
                    cycles,
                    failures,
                },
            )
        })
        .collect();
    Output {
        blocks,
        seconds,
        seed,
    }
}

/// Runs `grfgen regress`.
pub fn regress(m: &ArgMatches) -> Result<String, CliError> {
    let all = blocks();
    let chosen = chosen_blocks(m, &all)?;
    let settings = settings(m)?;
    let junit_path = path(m, "junit");
    let csv_path = path(m, "csv");
    for (flag, file) in [("--junit", &junit_path), ("--csv", &csv_path)] {
        if let Some(file) = file {
            check_file(flag, file)?;
        }
    }
    if m.get_one::<String>("slurm").is_some() {
        return submit(m, &settings, &chosen);
    }
    super::announce_seed(m, "regress", settings.seed);
    let start = Instant::now();
    let mut results: BTreeMap<&str, Vec<Record>> = BTreeMap::new();
    for entry in all.iter().filter(|b| chosen.iter().any(|c| c == b.name())) {
        results.insert(entry.name(), entry.regress(&settings)?);
    }
    let seconds = start.elapsed().as_secs_f64();
    if let Some(file) = &junit_path {
        write_file(
            "--junit",
            file,
            junit(&results, seconds, settings.seed).as_bytes(),
        )?;
    }
    if let Some(file) = &csv_path {
        write_file("--csv", file, csv(&results).as_bytes())?;
    }
    let output = output(&results, seconds, settings.seed);
    let text = || {
        let mut text = String::new();
        for (block, records) in &results {
            for r in records {
                text += &(line(block, r) + "\n");
            }
        }
        for (block, result) in &output.blocks {
            text += &format!(
                "{block}: {}, {} cycles co-simulated\n",
                result.status.text(),
                result.cycles
            );
        }
        text + &format!("seed {} ({:.1} s)", settings.seed, seconds)
    };
    let printed = render(m, &output, text);
    let failed: usize = output.blocks.values().map(|b| b.failures.len()).sum();
    match failed {
        0 => Ok(printed),
        n => Err(CliError::Found {
            report: printed,
            message: format!(
                "{} failed; the FAIL lines show how to replay each",
                grfgen_support::text::plural(n as u64, "run")
            ),
        }),
    }
}
