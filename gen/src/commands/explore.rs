//! `grfgen explore <block>`: the Pareto front of cost, Fmax and time over workloads, and the
//! configuration to emit for a device, found in stages, cheapest first. The golden model
//! runs every design on every workload; synthesis costs the designs that could still be on
//! the front; place and route measures the Fmax of the front, within a budget. Every result
//! is a record of one sweep directory (`sweep status`, `export` and `plot` read it), and a
//! killed exploration goes on with `--resume`.

use clap::{Arg, ArgAction, ArgMatches, Command};
use grfgen_flow::pnr::{Device, DEFAULT_TIMING_WEIGHT};
use grfgen_flow::steps::PnrRequest;
use grfgen_hdl::design::Design;
use grfgen_hdl::params::Params;
use grfgen_sim::block::{Block, ParamsOf, Report, Rtl, RunRecord, Setup};

use super::flow::device_request;
use super::sweep::{jobs, jobs_arg, lists_command, plan};
use super::{json_arg, path, seed};
use crate::params::number;
use grfgen_engines::error::CliError;
use grfgen_engines::explore::points::{Constraints, Objective};
use grfgen_engines::explore::space::{Settings, Space};
use grfgen_engines::explore::{report, search};
use grfgen_engines::sweep::recording::{Recording, Tally};
use grfgen_engines::sweep::runner::{Implementation, Job};
use grfgen_engines::sweep::slurm as batch;
use grfgen_engines::sweep::store::{Record, Spec, SweepDir};

/// The subcommand of `explore` for block `B`.
pub fn command<B: Block>() -> Command {
    let devices: Vec<&str> = Device::ALL.iter().map(|d| d.name()).collect();
    let value = |id: &'static str, name: &'static str, help: &str| {
        Arg::new(id)
            .long(id.replace('_', "-"))
            .value_name(name)
            .help(help.to_string())
    };
    lists_command::<B>()
        .arg(value("device", "DEVICE", &format!("Device to cost and place on: {} [default: ecp5-85k]", devices.join(", "))))
        .arg(value("pnr_seed", "N", "nextpnr's placement seed, 1..=2147483647 [default: 1]"))
        .arg(value("pnr_seeds", "N", &format!("Place and route each design with N seeds from --pnr-seed on; its Fmax is the worst seed's, 1..={} [default: 1]", grfgen_flow::pnr::MAX_SEEDS)))
        .arg(value("pnr_timing_weight", "N", &format!("nextpnr's placer timing weight (--placer-heap-timingweight), 1..={} [default: {}, nextpnr's own]", grfgen_flow::pnr::MAX_TIMING_WEIGHT, DEFAULT_TIMING_WEIGHT)))
        .arg(value("min_fmax", "MHZ", "Lowest Fmax a recommended design may have, MHz (0 < f <= 2000)"))
        .arg(value("max_luts", "N", "Most LUTs a recommended design may use, 1..=10000000"))
        .arg(value("max_brams", "N", "Most block RAMs a recommended design may use, 0..=100000"))
        .arg(value("objective", "OBJECTIVE", "What the recommendation minimises: time (over the workloads), area (LUT+FF) or energy").default_value("time"))
        .arg(value("budget_pnr", "N", "Places and routes at most, 1..=10000").default_value("8"))
        .arg(value("budget_synth", "N", "Syntheses at most (a design is synthesized before it is placed), 1..=100000").default_value("32"))
        .arg(jobs_arg())
        .arg(
            value("out", "DIR", "Where the exploration is recorded: the sweep's records, front.json, front.svg, front.txt and explore.json")
                .required(true),
        )
        .arg(
            Arg::new("resume")
                .long("resume")
                .action(ArgAction::SetTrue)
                .help("Go on with the exploration in --out DIR: nothing recorded there runs again"),
        )
        .arg(json_arg())
}

/// A number flag within `range` (a whole number with `whole`), or an error naming the flag,
/// the value and the range.
fn bounded(
    m: &ArgMatches,
    id: &'static str,
    range: std::ops::RangeInclusive<f64>,
    whole: bool,
    allowed: &str,
) -> Result<Option<f64>, CliError> {
    match number::<f64>(m, id, allowed)? {
        Some(v)
            if !range.contains(&v)
                || (whole && v.fract() != 0.0)
                || (id == "min_fmax" && v <= 0.0) =>
        {
            Err(CliError::Input(format!(
                "invalid value {v} for --{}: allowed {allowed}",
                id.replace('_', "-")
            )))
        }
        other => Ok(other),
    }
}

/// The settings of `m` for design `name`, every value checked; the device and nextpnr seed
/// are `recorded`'s (a resumed exploration's) unless given.
fn settings(m: &ArgMatches, name: &str, recorded: Option<&Spec>) -> Result<Settings, CliError> {
    let budget = |id: &'static str, default: f64, range, allowed| -> Result<usize, CliError> {
        Ok(bounded(m, id, range, true, allowed)?.unwrap_or(default) as usize)
    };
    let given = |id| crate::params::given(m, id);
    let request = match recorded.and_then(|s| s.pnr.as_ref()) {
        Some((device, seed))
            if !["device", "pnr_seed", "pnr_seeds", "pnr_timing_weight"]
                .into_iter()
                .any(given) =>
        {
            PnrRequest {
                device: device.parse().map_err(CliError::Input)?,
                seed: *seed,
                seeds: recorded.map_or(1, |s| s.pnr_seeds),
                timing_weight: recorded.map_or(DEFAULT_TIMING_WEIGHT, |s| s.pnr_timing_weight),
                bitstream: false,
            }
        }
        _ => device_request(m, name)?,
    };
    Ok(Settings {
        request,
        objective: Objective::parse(m.get_one::<String>("objective").expect("has a default"))?,
        constraints: Constraints {
            min_fmax_mhz: bounded(m, "min_fmax", 0.0..=2000.0, false, "0 < f <= 2000")?,
            max_luts: bounded(m, "max_luts", 1.0..=1e7, true, "1..=10000000")?,
            max_brams: bounded(m, "max_brams", 0.0..=1e5, true, "0..=100000")?,
        },
        budget_pnr: budget("budget_pnr", 8.0, 1.0..=10000.0, "1..=10000")?,
        budget_synth: budget("budget_synth", 32.0, 1.0..=100000.0, "1..=100000")?,
    })
}

/// Refuses to resume from `recorded` unless it is an exploration of block `B` (a sweep
/// without the model-only runs and a device is not) on the device and seeds asked for.
fn check_recorded<B: Block>(
    recorded: &Spec,
    request: &PnrRequest,
    seed: u64,
    out: &std::path::Path,
) -> Result<(), CliError> {
    let refuse = |why: String| {
        CliError::Input(format!(
            "invalid value {} for --out: {why}",
            grfgen_support::input::shown(&out.to_string_lossy())
        ))
    };
    let Some((device, pnr_seed)) = recorded.pnr.as_ref().filter(|_| recorded.explore) else {
        return Err(refuse(grfgen_engines::sweep::store::other_kind(recorded)));
    };
    if recorded.block != B::Design::NAME {
        return Err(refuse(format!(
            "it holds an exploration of {}; run explore {}",
            recorded.block, recorded.block
        )));
    }
    let (recorded_seeds, weight) = (recorded.pnr_seeds, recorded.pnr_timing_weight);
    if (device.as_str(), *pnr_seed, recorded_seeds, weight)
        != (
            request.device.name(),
            request.seed,
            request.seeds,
            request.timing_weight,
        )
    {
        return Err(refuse(format!(
            "it was explored on {device} with --pnr-seed {pnr_seed} --pnr-seeds {recorded_seeds} --pnr-timing-weight {weight}; give those or leave them out"
        )));
    }
    if recorded.seed != seed {
        return Err(refuse(format!(
            "its seed is {}; give --seed {} or leave --seed out",
            recorded.seed, recorded.seed
        )));
    }
    Ok(())
}

/// The designs on `device`: each takes the device's block RAM unless `memory` is `chosen`
/// (swept or configured), and a block RAM the device has not is refused.
fn on_device<P: Params>(designs: &mut [P], listed: bool, device: Device) -> Result<(), CliError> {
    let Some(param) = P::param("memory") else {
        return Ok(());
    };
    if !listed {
        for design in designs.iter_mut() {
            param.set(design, device.memory().name())?;
            design.validate()?;
        }
    }
    super::flow::check_on_device(designs, device)
}

/// Refuses a block whose runs time no workload (the router, the allocator), from one run of
/// the golden model, before anything is written.
fn times_work<B: Block>(design: &ParamsOf<B>, run: &B::Options, seed: u64) -> Result<(), CliError> {
    let setup = Setup::new(seed, Rtl::Off);
    let record = RunRecord::<B>::run(design, run, &setup)?;
    match record.report.work_cycles() {
        Some(_) => Ok(()),
        None => Err(CliError::Input(format!(
            "invalid block {} for explore: its runs time no workload (explore takes gpr, lvt, flops, core, grf and cluster)",
            B::Design::NAME
        ))),
    }
}

/// An exploration's command line, every value checked and nothing written yet.
struct Prepared<B: Block> {
    /// `--out`.
    out: std::path::PathBuf,
    /// Whether `--resume` was given.
    resume: bool,
    /// The seed (the recorded one when resuming without `--seed`).
    seed: u64,
    /// Judging and budgets.
    settings: Settings,
    /// The sweep that holds the records.
    spec: Spec,
    /// Every design, on the device.
    designs: Vec<ParamsOf<B>>,
    /// The workloads.
    runs: Vec<B::Options>,
    /// The swept parameters' names.
    swept: Vec<String>,
}

/// Checks the command line of an exploration of block `B` (and the exploration in `--out`
/// with `--resume`), writing nothing.
fn prepare<B: Block>(m: &ArgMatches) -> Result<Prepared<B>, CliError> {
    let out =
        grfgen_engines::output::check_dir("--out", &path(m, "out").expect("--out is required"))?;
    let resume = m.get_flag("resume");
    let recorded = match resume {
        true => SweepDir::new(&out).spec()?,
        false => None,
    };
    let seed = match (crate::params::given(m, "seed"), &recorded) {
        (false, Some(spec)) => spec.seed,
        _ => seed(m)?,
    };
    let settings = settings(m, B::Design::NAME, recorded.as_ref())?;
    if let Some(spec) = &recorded {
        check_recorded::<B>(spec, &settings.request, seed, &out)?;
    }
    let steps = (false, Some(settings.request));
    let (mut spec, mut designs, runs) = plan::<B>(m, seed, Rtl::Off, recorded.as_ref(), steps)?;
    spec.explore = true;
    SweepDir::new(&out).check(&spec, resume)?;
    let swept: Vec<String> = spec.parameters.iter().map(|(n, _)| n.clone()).collect();
    let configured = (spec.config.as_ref()).is_some_and(|c| c.get("memory").is_some());
    let chosen = configured || swept.iter().any(|n| n == "memory");
    if B::Design::MEMORIES.is_some() {
        on_device(&mut designs, chosen, settings.request.device)?;
    }
    times_work::<B>(&designs[0], &runs[0], seed)?;
    Ok(Prepared {
        out,
        resume,
        seed,
        settings,
        spec,
        designs,
        runs,
        swept,
    })
}

/// Runs `grfgen explore <block>`.
pub fn explore<B: Block>(m: &ArgMatches) -> Result<String, CliError> {
    let p = prepare::<B>(m)?;
    let threads = jobs(m)?;
    if !p.resume {
        super::announce_seed(m, &format!("explore {}", B::Design::NAME), p.seed);
    }
    let dir = SweepDir::new(&p.out);
    dir.open(&p.spec, p.resume)?;
    report::clear(&dir)?;
    let mut records = dir.records()?;
    // Stage 1: the golden model, every design on every workload.
    let (designs, runs) = (&p.designs, &p.runs);
    let jobs: Vec<Job<B>> = (0..p.spec.points)
        .filter(|i| !records.get(i).is_some_and(Record::settled))
        .map(|index| Job {
            index,
            params: designs[index / runs.len()].clone(),
            options: runs[index % runs.len()].clone(),
            seed: p.seed,
        })
        .collect();
    // One count over every stage: the model runs, then at most the budgets' syntheses and
    // places and routes (and the closest design's).
    let tally = Tally {
        done: Default::default(),
        most: jobs.len() + p.settings.budget_synth + p.settings.budget_pnr,
    };
    let recording = Recording {
        threads,
        rtl: Rtl::Off,
        dir: Some(&dir),
        quiet: m.get_flag("json"),
        tally: Some(&tally),
    };
    let label = format!("explore {}: model", p.spec.block);
    recording.run(&label, &jobs, &Implementation::default(), &mut records)?;
    let mut space = Space::<B> {
        designs: p.designs,
        runs: p.runs,
        swept: p.swept,
        seed: p.seed,
        points: Vec::new(),
    };
    space.points = space.collect(&records)?;
    let left = search::search(&mut space, &p.settings, &recording, &mut records)?;
    report::finish(m.get_flag("json"), &space, &p.settings, &p.spec, &dir, left)
}

/// The subcommand of `explore slurm` for block `B`: the exploration's flags, and the job's.
pub fn slurm_command<B: Block>() -> Command {
    command::<B>()
        .arg(
            Arg::new("cpus")
                .long("cpus")
                .value_name("N")
                .help("Cores the job asks for, 1..=256; the exploration runs that many designs at once [default: 2]"),
        )
        .args(batch::placement_args(None))
        .arg(batch::dry_run_arg("the job script"))
}

/// `grfgen explore slurm <block> ... --out DIR [--cpus N] [--partition P] [--account A]
/// [--dry-run]`: the exploration checked here, then run as one Slurm job on one node, with
/// `--resume` (so that the job, resubmitted, goes on).
pub fn slurm<B: Block>(m: &ArgMatches) -> Result<String, CliError> {
    let p = prepare::<B>(m)?;
    batch::check_script_dir(&p.out)?;
    super::announce_seed(m, &format!("explore slurm {}", B::Design::NAME), p.seed);
    let cpus = match number::<usize>(m, "cpus", "1..=256")? {
        None => 2,
        Some(n) if (1..=256).contains(&n) => n,
        Some(n) => {
            return Err(CliError::Input(format!(
                "invalid value {n} for --cpus: allowed 1..=256"
            )))
        }
    };
    let dir = std::path::absolute(&p.out).unwrap_or(p.out.clone());
    let grfgen = batch::shell_path(&std::env::current_exe()?);
    let args = batch::forwarded(
        B::Design::NAME,
        &["--dry-run", "--resume", "--json"],
        &["--out", "--cpus", "--partition", "--account", "--jobs"],
        p.seed,
    );
    let job = batch::SlurmJob {
        name: format!("explore-{}", B::Design::NAME),
        command: format!(
            "{grfgen} explore {} {} --out {} --resume --jobs {cpus}",
            B::Design::NAME,
            args.join(" "),
            batch::shell_path(&dir)
        ),
        dir,
        cpus,
        placement: batch::placement(m)?,
    };
    if m.get_flag("dry_run") {
        return Ok(format!(
            "# {}/slurm-job.sh\n{}",
            job.dir.display(),
            job.script()
        ));
    }
    let id = job.submit()?;
    Ok(format!(
        "submitted explore {} ({} designs, seed {}) as job {id} into {}; its log is slurm-grfgen-explore-{}-job-{id}.out there",
        B::Design::NAME,
        p.designs.len(),
        p.seed,
        job.dir.display(),
        B::Design::NAME
    ))
}
