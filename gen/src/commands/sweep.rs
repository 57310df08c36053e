//! `grfgen sweep <block>`: every combination of the listed parameter and option values, run
//! (and synthesized with `--synth`) several at a time, each point recorded as it finishes so
//! that an interrupted sweep resumes, shardable across machines; and `sweep merge`, `sweep
//! status` on what sweeps left on disk.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use clap::{Arg, ArgAction, ArgMatches, Command};
use grfgen_flow::steps::PnrRequest;
use grfgen_hdl::design::Design;
use grfgen_hdl::params::{ParamError, Params};
use grfgen_sim::block::{Block, ParamsOf, Rtl, SimError};
use grfgen_support::text::plural;
use serde::Serialize;

use super::flow::pnr_request;
use super::{json_arg, path, render, rtl, rtl_args, seed, seed_arg};
use crate::params::{args, config_arg, configured, lists, number, Values};
use grfgen_engines::error::CliError;
use grfgen_engines::sweep::grid::{grid, in_shard, List};
use grfgen_engines::sweep::recording::Recording;
use grfgen_engines::sweep::runner::{Implementation, Job};
use grfgen_engines::sweep::store::{Record, Spec, Status, SweepDir};
use grfgen_engines::sweep::{plot, runner, slurm, table};

/// The subcommand of block `B` that takes lists of values (`sweep`, `explore`): its
/// parameters and run options, `--config`, `--set` and `--seed`.
pub(crate) fn lists_command<B: Block>() -> Command {
    Command::new(B::Design::NAME)
        .about(B::Design::TITLE)
        .args(args::<ParamsOf<B>>(Values::List))
        .arg(config_arg())
        .args(args::<B::Options>(Values::List))
        .arg(set_arg())
        .arg(seed_arg())
}

/// The subcommand of `sweep` for block `B`.
pub fn command<B: Block>() -> Command {
    lists_command::<B>()
        .args(rtl_args())
        .arg(
            Arg::new("synth")
                .long("synth")
                .action(ArgAction::SetTrue)
                .help("Also synthesize each point with yosys synth_ice40 and report its cells"),
        )
        .args(super::flow::pnr_args())
        .arg(Arg::new("out").long("out").value_name("DIR").help(
            "Record the sweep in DIR: sweep.json (the spec) and results.jsonl (a line per finished point)",
        ))
        .arg(
            Arg::new("resume")
                .long("resume")
                .action(ArgAction::SetTrue)
                .requires("out")
                .help("Go on with the sweep in --out DIR: skip the points recorded as ok"),
        )
        .arg(jobs_arg())
        .arg(Arg::new("shard").long("shard").value_name("I/N").allow_hyphen_values(true).help(
            "Run only the points whose index is I modulo N; `slurm` reads SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT",
        ))
        .arg(json_arg())
}

/// `--set NAME=V1,V2`.
pub(crate) fn set_arg() -> Arg {
    Arg::new("set")
        .long("set")
        .value_name("NAME=V1,V2")
        .action(ArgAction::Append)
        .help("Sweep a parameter or option over the listed values (its flag without the dashes); repeatable")
}

/// `--jobs N`.
pub(crate) fn jobs_arg() -> Arg {
    Arg::new("jobs")
        .long("jobs")
        .value_name("N")
        .help("Points run at once, 1..=256 [default: the number of cores]")
}

/// `merge`, `status`, `plot` and `export`, beside the blocks under `sweep`.
pub fn tools() -> [Command; 4] {
    [
        Command::new("export")
            .about("Write a sweep's points as CSV (one row per point, a column per parameter, option and figure) or JSON lines")
            .arg(Arg::new("dir").value_name("DIR").required(true))
            .arg(
                Arg::new("format")
                    .long("format")
                    .value_name("FORMAT")
                    .default_value("csv")
                    .help("csv or jsonl"),
            )
            .arg(Arg::new("out").long("out").value_name("FILE").help("Where to write [default: standard output]")),
        Command::new("plot")
            .about("Draw a sweep's figures as an SVG or PNG chart: --y against --x, a series per value of --series")
            .arg(Arg::new("dir").value_name("DIR").required(true))
            .arg(Arg::new("x").long("x").value_name("NAME").required_unless_present("pareto").help(
                "The x axis: a swept parameter or option, a metric, a report field, ice40_lut4 or ice40_ram40",
            ))
            .arg(Arg::new("y").long("y").value_name("METRIC").required(true).help("The y axis, named as --x"))
            .arg(Arg::new("series").long("series").value_name("NAME").help("One series per value of this swept name"))
            .arg(Arg::new("pareto").long("pareto").value_name("METRIC2").conflicts_with("x").help(
                "Plot --y against METRIC2 and join each series' Pareto front (both minimised)",
            ))
            .arg(
                Arg::new("out")
                    .short('o')
                    .long("out")
                    .visible_alias("output")
                    .value_name("FILE")
                    .required(true)
                    .help("The chart to write: FILE.svg (SVG) or FILE.png (PNG)"),
            ),
        Command::new("merge")
            .about("Combine sweep directories (the shards of one sweep) into one; refuse different sweeps")
            .arg(Arg::new("dirs").value_name("DIR").num_args(1..).required(true))
            .arg(Arg::new("out").long("out").value_name("DIR").required(true).help("Where the merged sweep goes"))
            .arg(json_arg()),
        Command::new("status")
            .about("Count the done, failed and missing points of a sweep directory")
            .arg(Arg::new("dir").value_name("DIR").required(true))
            .arg(json_arg()),
    ]
}

/// `--shard I/N` or `--shard slurm`: `(I, N)`, or every point as `(0, 1)`.
pub fn shard(m: &ArgMatches) -> Result<(usize, usize), CliError> {
    let Some(text) = m.get_one::<String>("shard") else {
        return Ok((0, 1));
    };
    let bad = |why: String| CliError::Input(format!("invalid value {text} for --shard: {why}"));
    let (i, n) = match text.as_str() {
        "slurm" => {
            let var =
                |name: &str| std::env::var(name).map_err(|_| bad(format!("{name} is not set")));
            (var("SLURM_ARRAY_TASK_ID")?, var("SLURM_ARRAY_TASK_COUNT")?)
        }
        _ => {
            let (i, n) = text
                .split_once('/')
                .ok_or_else(|| bad("allowed I/N or slurm".into()))?;
            (i.to_string(), n.to_string())
        }
    };
    match (i.trim().parse::<usize>(), n.trim().parse::<usize>()) {
        (Ok(i), Ok(n)) if n >= 1 && i < n => Ok((i, n)),
        _ => Err(bad(format!("allowed I/N with 0 <= I < N (here {i}/{n})"))),
    }
}

/// `--jobs N`, default the cores.
pub fn jobs(m: &ArgMatches) -> Result<usize, CliError> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    match number::<usize>(m, "jobs", "1..=256")? {
        None => Ok(cores),
        Some(n) if (1..=256).contains(&n) => Ok(n),
        Some(n) => Err(CliError::Input(format!(
            "invalid value {n} for --jobs: allowed 1..=256"
        ))),
    }
}

/// What a sweep prints with `--json`.
#[derive(Serialize)]
struct SweepOutput<'a> {
    block: &'a str,
    seed: u64,
    swept: Vec<&'a str>,
    spec: &'a Spec,
    status: Status,
    points: Vec<&'a Record>,
}

/// The grid of a sweep of block `B` from its command line, every value validated: the spec,
/// the designs and the run options.
pub(crate) type Plan<B> = (Spec, Vec<ParamsOf<B>>, Vec<<B as Block>::Options>);

/// Validates the grid of a sweep of block `B`: nothing runs or is written before. With
/// `recorded` (the spec of a sweep being resumed) and no value listed on the command line, the
/// recorded lists, configuration and implementation steps are taken up. `steps` are the
/// implementation steps of each design: iCE40 synthesis, and the device and seed of place and
/// route.
pub(crate) fn plan<B: Block>(
    m: &ArgMatches,
    seed: u64,
    rtl: Rtl,
    recorded: Option<&Spec>,
    steps: (bool, Option<PnrRequest>),
) -> Result<Plan<B>, CliError> {
    let (mut param_lists, mut option_lists) = lists_of::<ParamsOf<B>, B::Options>(m)?;
    let (mut base, keys) = configured::<ParamsOf<B>>(m)?;
    let reuse = recorded.filter(|_| param_lists.is_empty() && option_lists.is_empty());
    if let Some(spec) = reuse {
        param_lists = spec.parameters.clone();
        option_lists = spec.options.clone();
        if let Some(config) = &spec.config {
            base = serde_json::from_value(config.clone())
                .map_err(|e| CliError::Input(format!("invalid sweep.json: {e}")))?;
        }
    }
    absolute_files::<B::Options>(&mut option_lists);
    let designs: Vec<ParamsOf<B>> = grid(&base, &param_lists).map_err(|e| from_set(m, &keys, e))?;
    for design in &designs {
        B::Design::check(design).map_err(|e| from_set(m, &keys, e))?;
    }
    let runs: Vec<B::Options> =
        grid(&B::Options::default(), &option_lists).map_err(|e| from_set(m, &[], e))?;
    check_inputs::<B>(&designs, &runs, seed)?;
    let spec = Spec {
        block: B::Design::NAME.into(),
        seed,
        parameters: param_lists,
        options: option_lists,
        synth: steps.0,
        pnr: steps.1.map(|r| (r.device.name().to_string(), r.seed)),
        pnr_seeds: steps.1.map_or(1, |r| r.seeds),
        pnr_timing_weight: steps
            .1
            .map_or(grfgen_flow::pnr::DEFAULT_TIMING_WEIGHT, |r| r.timing_weight),
        rtl: rtl_name(rtl).into(),
        points: designs.len() * runs.len(),
        config: m
            .get_one::<String>("config")
            .map(|_| serde_json::to_value(&base).expect("parameters serialise")),
        explore: false,
    };
    match reuse {
        Some(recorded) => Ok((
            Spec {
                points: spec.points,
                ..recorded.clone()
            },
            designs,
            runs,
        )),
        None => Ok((spec, designs, runs)),
    }
}

/// `--rtl`, `--no-rtl` or neither, as a sweep's spec records it.
fn rtl_name(rtl: Rtl) -> &'static str {
    match rtl {
        Rtl::On => "on",
        Rtl::Off => "off",
        Rtl::Auto => "auto",
    }
}

/// The refusal of a listed value: when the list came from `--set NAME=...` rather than the
/// parameter's own flag, the message says so; when the value came from the config file (one of
/// its `keys`), it names the file, line, column and key.
fn from_set(m: &ArgMatches, keys: &[(String, String)], e: ParamError) -> CliError {
    let name = e.param;
    let set = m.get_many::<String>("set").into_iter().flatten().find(|s| {
        s.split_once('=')
            .is_some_and(|(n, _)| n.trim().trim_start_matches("--").replace('-', "_") == name)
    });
    match set {
        Some(set) => CliError::Input(format!("{e} (from --set {set})")),
        None => crate::params::located(m, keys, e),
    }
}

/// The file names among `lists` (the options whose value is a `FILE`) made absolute, so that
/// the sweep's record names the same files from any directory it is resumed in.
fn absolute_files<O: Params>(lists: &mut [List]) {
    for (name, values) in lists.iter_mut() {
        if O::param(name).is_some_and(|p| p.value_name == "FILE") {
            for value in values.iter_mut() {
                if let Ok(path) = std::path::absolute(&*value) {
                    *value = path.to_string_lossy().into_owned();
                }
            }
        }
    }
}

/// Reads and checks the inputs of every point (`Block::inputs`): a missing or malformed file,
/// or one that does not fit a point's design, is bad input before any point runs. The message
/// names the point when the input fits some designs and not others.
fn check_inputs<B: Block>(
    designs: &[ParamsOf<B>],
    runs: &[B::Options],
    seed: u64,
) -> Result<(), CliError> {
    for run in runs {
        let mut refusals = (designs.iter().enumerate())
            .filter_map(|(i, design)| B::inputs(design, run, seed).err().map(|e| (i, e)));
        let Some((at, first)) = refusals.next() else {
            continue;
        };
        let every = refusals.count() + 1 == designs.len();
        return Err(match first {
            SimError::Input(why) if !every => CliError::Input(format!(
                "{why} (at the point {})",
                runner::flags(&designs[at]).join(" ")
            )),
            e => e.into(),
        });
    }
    Ok(())
}

/// Runs the sweep of block `B`: validates the whole grid first, then runs the points of this
/// shard not yet done, recording each; fails (exit 1) if any point did not finish `ok`.
pub fn sweep<B: Block>(m: &ArgMatches) -> Result<String, CliError> {
    let out = match path(m, "out") {
        Some(out) => Some(grfgen_engines::output::check_dir("--out", &out)?),
        None => None,
    };
    let dir = out.map(|d| SweepDir::new(&d));
    // A resumed sweep goes on with its recorded seed (and, with no values listed, its spec).
    let recorded = match (&dir, m.get_flag("resume")) {
        (Some(dir), true) => dir.spec()?,
        _ => None,
    };
    let seed = match (crate::params::given(m, "seed"), &recorded) {
        (false, Some(spec)) => spec.seed,
        _ => seed(m)?,
    };
    let (rtl, shard, threads) = (rtl(m), shard(m)?, jobs(m)?);
    let steps = (m.get_flag("synth"), pnr_request(m, B::Design::NAME)?);
    let (spec, designs, runs) = plan::<B>(m, seed, rtl, recorded.as_ref(), steps)?;
    // iCE40 synthesis and place and route take only the block RAM their device has.
    if spec.synth {
        super::flow::check_on_device_with(
            &designs,
            grfgen_flow::pnr::Device::Ice40Hx8k,
            "--synth, an iCE40 synthesis",
        )?;
    }
    if let Some(request) = steps.1 {
        super::flow::check_on_device(&designs, request.device)?;
    }
    let rtl = match spec.rtl.as_str() {
        "on" => Rtl::On,
        "off" => Rtl::Off,
        _ => Rtl::Auto,
    };
    let mut records = BTreeMap::new();
    if let Some(dir) = &dir {
        dir.open(&spec, m.get_flag("resume"))?;
        records = dir.records()?;
    }
    let jobs: Vec<Job<B>> = (0..spec.points)
        .filter(|&i| in_shard(i, shard) && !records.get(&i).is_some_and(Record::settled))
        .map(|index| Job {
            index,
            params: designs[index / runs.len()].clone(),
            options: runs[index % runs.len()].clone(),
            // Every point runs on the sweep's seed: the same stimulus (common random numbers),
            // so that points differ by their parameters only; a `random` workload is one
            // program across the sweep.
            seed,
        })
        .collect();
    super::announce_seed(m, &format!("sweep {}", spec.block), seed);
    let quiet = m.get_flag("json");
    if !quiet {
        grfgen_engines::progress::line(&format!(
            "sweep {} seed {seed}: {} to run of {}",
            spec.block,
            plural(jobs.len() as u64, "point"),
            spec.points
        ));
    }
    let pnr = match &spec.pnr {
        Some((device, seed)) => Some(grfgen_flow::steps::PnrRequest {
            device: device.parse().map_err(CliError::Input)?,
            seed: *seed,
            seeds: spec.pnr_seeds,
            timing_weight: spec.pnr_timing_weight,
            bitstream: false,
        }),
        None => None,
    };
    let implementation = Implementation::new(spec.synth, pnr);
    let label = format!("sweep {}", spec.block);
    let run = Recording {
        threads,
        rtl,
        dir: dir.as_ref(),
        quiet,
        tally: None,
    };
    run.run(&label, &jobs, &implementation, &mut records)?;
    finish(m, &spec, &records, shard)
}

/// The sweep's output, and exit status 1 when a point of this shard failed.
fn finish(
    m: &ArgMatches,
    spec: &Spec,
    records: &BTreeMap<usize, Record>,
    shard: (usize, usize),
) -> Result<String, CliError> {
    let mine: BTreeMap<usize, Record> = (records.iter())
        .filter(|(&i, _)| in_shard(i, shard))
        .map(|(&i, r)| (i, r.clone()))
        .collect();
    let status = Status::of(spec.points, records);
    let output = SweepOutput {
        block: &spec.block,
        seed: spec.seed,
        swept: (spec.parameters.iter().chain(&spec.options))
            .map(|(n, _)| n.as_str())
            .collect(),
        spec,
        status: status.clone(),
        points: mine.values().collect(),
    };
    let text = render(m, &output, || {
        table::table(spec, &mine) + "\n" + &status.text()
    });
    match mine.values().find(|r| !r.settled()) {
        None => Ok(text),
        Some(bad) => Err(CliError::Found {
            report: text,
            message: format!(
                "{} failed; point {}: {}; replay with: {}",
                plural(
                    mine.values().filter(|r| !r.settled()).count() as u64,
                    "point"
                ),
                bad.index,
                bad.error.as_deref().unwrap_or(&bad.status),
                bad.replay
            ),
        }),
    }
}

/// The lists of the parameters `P` and the options `O`: their own flags (`--banks 1,2`), then
/// each `--set NAME=V1,V2` in order. A name both ways, or one neither table has, is an error.
fn lists_of<P: Params, O: Params>(m: &ArgMatches) -> Result<(Vec<List>, Vec<List>), CliError> {
    let own = |v: Vec<(&'static str, Vec<String>)>| -> Vec<List> {
        v.into_iter().map(|(n, l)| (n.to_string(), l)).collect()
    };
    let (mut params, mut options) = (own(lists::<P>(m)), own(lists::<O>(m)));
    for set in m.get_many::<String>("set").into_iter().flatten() {
        let bad = |why: &str| CliError::Input(format!("invalid value {set} for --set: {why}"));
        let (flag, values) = set
            .split_once('=')
            .ok_or_else(|| bad("allowed NAME=V1,V2,... with NAME a parameter or option"))?;
        let name = flag.trim().trim_start_matches("--").replace('-', "_");
        let values: Vec<String> = values.split(',').map(|v| v.trim().to_string()).collect();
        let target = match (P::param(&name).is_some(), O::param(&name).is_some()) {
            (true, _) => &mut params,
            (false, true) => &mut options,
            (false, false) => {
                let names: Vec<String> = P::table()
                    .iter()
                    .map(|p| p.flag())
                    .chain(O::table().iter().map(|p| p.flag()))
                    .map(|f| f.trim_start_matches("--").to_string())
                    .collect();
                return Err(bad(&format!("allowed names {}", names.join(", "))));
            }
        };
        if target.iter().any(|(n, _)| *n == name) {
            return Err(bad("the name is listed twice"));
        }
        target.push((name, values));
    }
    Ok((params, options))
}

/// `grfgen sweep merge DIR... --out DIR`.
pub fn merge(m: &ArgMatches) -> Result<String, CliError> {
    let dirs: Vec<PathBuf> = m
        .get_many::<String>("dirs")
        .into_iter()
        .flatten()
        .map(PathBuf::from)
        .collect();
    let out =
        grfgen_engines::output::check_dir("--out", &path(m, "out").expect("--out is required"))?;
    let mut spec: Option<Spec> = None;
    let mut records = BTreeMap::new();
    for dir in &dirs {
        let (here, found) = existing(dir)?;
        if spec.as_ref().is_some_and(|s| *s != found) {
            return Err(CliError::Input(format!(
                "invalid value {} for DIR: a different sweep from {} (sweep.json differs)",
                dir.display(),
                dirs[0].display()
            )));
        }
        for (i, r) in here.records()? {
            // An ok record wins over a failed one of the same point.
            if !records
                .get(&i)
                .is_some_and(|old: &Record| old.ok() && !r.ok())
            {
                records.insert(i, r);
            }
        }
        spec = Some(found);
    }
    let spec = spec.expect("at least one DIR");
    let out = SweepDir::new(&out);
    out.open(&spec, true)?;
    out.replace(&records)?;
    let status = Status::of(spec.points, &records);
    Ok(render(m, &status, || {
        format!(
            "merged {} into {}: {}",
            plural(dirs.len() as u64, "sweep"),
            out.dir.display(),
            status.text()
        )
    }))
}

/// The subcommand of `sweep slurm` for block `B`: the sweep's flags, and the array's.
pub fn slurm_command<B: Block>() -> Command {
    command::<B>()
        .mut_arg("out", |a| a.required(true))
        .arg(
            Arg::new("shards")
                .long("shards")
                .value_name("N")
                .required(true)
                .help("Array tasks, 1..=1000: task I runs --shard I/N"),
        )
        .args(slurm::placement_args(None))
        .arg(slurm::dry_run_arg("the two job scripts"))
}

/// `grfgen sweep slurm <block> ... --shards N [--partition P] [--account A] [--dry-run]`.
pub fn slurm<B: Block>(m: &ArgMatches) -> Result<String, CliError> {
    let (seed, rtl) = (seed(m)?, rtl(m));
    let steps = (m.get_flag("synth"), pnr_request(m, B::Design::NAME)?);
    let (spec, _, _) = plan::<B>(m, seed, rtl, None, steps)?;
    let dir =
        grfgen_engines::output::check_dir("--out", &path(m, "out").expect("--out is required"))?;
    slurm::check_script_dir(&dir)?;
    let dir = std::path::absolute(&dir).unwrap_or(dir);
    let grfgen = slurm::shell_path(&std::env::current_exe()?);
    let args = slurm::forwarded(
        &spec.block,
        &["--dry-run", "--resume", "--json"],
        &["--out", "--shards", "--partition", "--account", "--shard"],
        seed,
    );
    let out = slurm::shell_path(&dir);
    let plan = slurm::SlurmPlan {
        name: format!("sweep-{}", spec.block),
        task: format!(
            "{grfgen} sweep {} {} --shard slurm --resume --out {out}/shards/\"$SLURM_ARRAY_TASK_ID\"",
            spec.block,
            args.join(" ")
        ),
        merge: vec![format!("{grfgen} sweep merge {out}/shards/* --out {out}")],
        dir,
        shards: slurm_shards(m, "shards")?,
        placement: slurm::placement(m)?,
    };
    super::announce_seed(m, &format!("sweep slurm {}", spec.block), seed);
    if m.get_flag("dry_run") {
        return Ok(plan.scripts());
    }
    let (array, merge) = plan.submit()?;
    Ok(format!(
        "submitted sweep {} ({}, seed {seed}) as array job {array} ({}) and \
         merge job {merge} (after the array succeeds) into {}",
        spec.block,
        plural(spec.points as u64, "point"),
        plural(plan.shards as u64, "task"),
        plan.dir.display()
    ))
}

/// `--<id> N`: array tasks, 1..=1000.
pub fn slurm_shards(m: &ArgMatches, id: &'static str) -> Result<usize, CliError> {
    match number::<usize>(m, id, "1..=1000")? {
        Some(n) if (1..=1000).contains(&n) => Ok(n),
        other => Err(CliError::Input(format!(
            "invalid value {} for --{}: allowed 1..=1000",
            other.unwrap_or(0),
            id.replace('_', "-")
        ))),
    }
}

/// `grfgen sweep plot DIR --x NAME --y METRIC [--series NAME] [--pareto METRIC2] --out FILE`.
pub fn plot(m: &ArgMatches) -> Result<String, CliError> {
    let given = PathBuf::from(m.get_one::<String>("out").expect("required"));
    let out = grfgen_engines::output::check_file("--out", &given)?;
    plot::format_of(&given)?;
    let (dir, spec) = existing(&PathBuf::from(
        m.get_one::<String>("dir").expect("required"),
    ))?;
    let name = |id: &str| m.get_one::<String>(id).map(|n| plot::canonical(n));
    let (pareto, x, y, series) = (name("pareto"), name("x"), name("y"), name("series"));
    let spec_plot = plot::PlotSpec {
        x: pareto.as_deref().or(x.as_deref()).expect("--x or --pareto"),
        y: y.as_deref().expect("required"),
        series: series.as_deref(),
        pareto: pareto.is_some(),
    };
    let series = plot::plot(&spec, &dir.records()?, &spec_plot, &out)?;
    Ok(format!(
        "wrote {}: {} series ({})",
        given.display(),
        series.len(),
        series.join(", ")
    ))
}

/// The sweep in `dir` (the `DIR` of `merge`, `status` and `plot`) and its spec; an error
/// naming `DIR` when it is not a directory holding a readable sweep.
fn existing(dir: &Path) -> Result<(SweepDir, Spec), CliError> {
    let bad = |why: String| {
        CliError::Input(format!(
            "invalid value {} for DIR: {why}",
            grfgen_support::input::shown(&dir.to_string_lossy())
        ))
    };
    if !dir.is_dir() {
        return Err(bad("not a directory holding a sweep".into()));
    }
    let here = SweepDir::new(dir);
    match here.spec() {
        Ok(Some(spec)) => Ok((here, spec)),
        Ok(None) => Err(bad("no sweep.json in it".into())),
        Err(e) => Err(bad(e.to_string())),
    }
}

/// `grfgen sweep export DIR [--format csv|jsonl] [--out FILE]`.
pub fn export(m: &ArgMatches) -> Result<String, CliError> {
    let format = m
        .get_one::<String>("format")
        .expect("has a default")
        .to_ascii_lowercase();
    if format != "csv" && format != "jsonl" {
        return Err(CliError::Input(format!(
            "invalid value {} for --format: allowed csv or jsonl",
            grfgen_support::text::quoted(&format)
        )));
    }
    let out = path(m, "out");
    if let Some(file) = &out {
        grfgen_engines::output::check_file("--out", file)?;
    }
    let (dir, _) = existing(&PathBuf::from(
        m.get_one::<String>("dir").expect("required"),
    ))?;
    let records = dir.records()?;
    let text = match format.as_str() {
        "jsonl" => (records.values())
            .map(|r| serde_json::to_string(r).expect("records serialise") + "\n")
            .collect(),
        _ => table::csv(&records),
    };
    match out {
        Some(file) => {
            grfgen_engines::output::write_file("--out", &file, text.as_bytes())?;
            Ok(format!(
                "wrote {} to {}",
                plural(records.len() as u64, "point"),
                file.display()
            ))
        }
        None => Ok(text.trim_end().to_string()),
    }
}

/// `grfgen sweep status DIR`.
pub fn status(m: &ArgMatches) -> Result<String, CliError> {
    let (dir, spec) = existing(&PathBuf::from(
        m.get_one::<String>("dir").expect("required"),
    ))?;
    let status = Status::of(spec.points, &dir.records()?);
    Ok(render(m, &status, || status.text()))
}
