//! Mutation coverage of a block's co-simulation, by the method of MCY (Mutation Cover with
//! Yosys): Yosys's `mutate` pass draws changes of the emitted netlist, each mutant runs in lock
//! step against the golden model with the stimulus `regress` uses, and the score is the share
//! of mutants a mismatch caught.
//!
//! The design is flattened before drawing (`proc; flatten`), so that every instance of a
//! module is a separate place to mutate (a module written once and instantiated per bank is
//! mutated per bank) and a mutant is one module with the emitted top's ports. Vendor
//! primitives (`DP16KD`) stay black boxes: their simulation models are not mutated.
//!
//! A mutant no run catches is checked for equivalence, as MCY's `eq_bmc` does: a miter of the
//! design and the mutant (Yosys's `miter -equiv`, the design's undefined bits free) is proved
//! by Yosys's SAT solver for `depth` cycles from every register at zero, whatever the inputs.
//! No difference within `depth` cycles: `equivalent` (not counted in the score); one: the
//! mutant `survived`, with the cycle the difference shows; the solver out of time: `unknown`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use grfgen_hdl::design::{emit_design, Design};
use grfgen_sim::block::{Block, ParamsOf, Report, Rtl, RunRecord, Setup, SimError};
use grfgen_sim::verilator::{Foreign, Select};
use serde::{Deserialize, Serialize};

use grfgen_support::interrupt::Partial;

use crate::tools::{failure, output_within};
use crate::FlowError;

/// What a mutation run is asked for.
#[derive(Clone, Debug)]
pub struct MutateSpec {
    /// Mutations to draw (Yosys's `mutate -list N`).
    pub mutants: usize,
    /// Seed of the draw (`mutate -seed`); the same seed draws the same list.
    pub seed: u64,
    /// Cycles of each run, where the block's runs have cycles.
    pub cycles: u64,
    /// Stimulus seeds per run, 1 to `seeds`.
    pub seeds: u64,
    /// Cycles of the bounded equivalence check of a mutant no run caught (0: no check).
    pub depth: u64,
    /// Seconds the solver may take for that check before the mutant is `unknown`.
    pub solver_seconds: u64,
    /// Mutants run at once, each on a thread of its own.
    pub jobs: usize,
    /// Mutants written into one netlist and built as one model, each switched on by a
    /// control input (MCY's `mutate -ctrl`); 1 builds each alone.
    pub batch: usize,
    /// Draw no mutation of a memory's power-up contents (Yosys's `$meminit` cells).
    pub skip_meminit: bool,
}

/// The Yosys selection a draw takes its mutations from: everything, or everything but the
/// memories' power-up contents.
fn drawn_from(spec: &MutateSpec) -> &'static str {
    match spec.skip_meminit {
        true => " * t:$meminit* %d",
        false => "",
    }
}

/// How a mutant fared.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// A run mismatched the golden model.
    Caught,
    /// Every run matched the golden model, and an output can differ (the bounded check
    /// found a difference, or did not run).
    Survived,
    /// Every run matched, and no output can differ within the check's cycles: not counted.
    Equivalent,
    /// Every run matched, and the bounded check ran out of time (or could not model the
    /// mutant): not counted.
    Unknown,
    /// The mutant did not build (Yosys could not write it as Verilog, or Verilator refused
    /// it); not counted in the score.
    Error,
}

/// One mutant and what became of it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Mutant {
    /// Its Yosys command, as `mutate -list` wrote it.
    pub command: String,
    /// Yosys's mode: `inv`, `const0`, `const1`, `cnot0`, `cnot1`.
    pub mode: String,
    /// The mutated line of the emitted Verilog (`<top>.v:LINE`) and its text.
    pub source: String,
    /// The emitted Verilog module holding that line (rust-hdl names each after the Rust
    /// block that wrote it).
    pub module: String,
    /// Caught, survived or error.
    pub outcome: Outcome,
    /// Where it was caught: the cycle, the port and the stimulus seed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cycle: Option<u64>,
    /// The port that showed the mismatch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub port: Option<String>,
    /// The stimulus seed of the run that caught it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stimulus_seed: Option<u64>,
    /// Why it did not build, for an error; why the check gave no answer, for an unknown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// For a survivor the bounded check found: the cycle (from 1) at which an output of the
    /// mutant first differs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counterexample: Option<u64>,
}

/// The mutation coverage of one block's verification.
#[derive(Clone, Debug, Serialize)]
pub struct MutateReport {
    /// The block.
    pub block: &'static str,
    /// The emitted top.
    pub top: String,
    /// The draw's seed (replay with `--seed`).
    pub seed: u64,
    /// Cycles of each run.
    pub cycles: u64,
    /// Stimulus seeds per run.
    pub seeds: u64,
    /// Cycles of the bounded equivalence check (0: none ran).
    pub depth: u64,
    /// No mutation of a memory's power-up contents was drawn (`--skip-meminit`).
    pub skip_meminit: bool,
    /// Every mutant, in the order drawn.
    pub mutants: Vec<Mutant>,
    /// Mutants caught.
    pub caught: usize,
    /// Mutants no run caught and the check did not clear.
    pub survived: usize,
    /// Mutants the check proved equivalent within `depth` cycles.
    pub equivalent: usize,
    /// Mutants the check gave no answer for.
    pub unknown: usize,
    /// Mutants that did not build.
    pub errors: usize,
    /// Mutants whose outcome was taken from an earlier run's record (`--resume`).
    pub resumed: usize,
    /// caught / (caught + survived); `None` when neither.
    pub score: Option<f64>,
    /// Seconds the whole run took.
    pub seconds: f64,
}

impl MutateReport {
    /// A line per mutant, then the totals.
    pub fn text(&self) -> String {
        let mut text = format!(
            "mutate {} {}: {} mutants (seed {}; replay with --seed {}), {} seeds x {} cycles each\n",
            self.block,
            self.top,
            self.mutants.len(),
            self.seed,
            self.seed,
            self.seeds,
            self.cycles
        );
        for (n, m) in self.mutants.iter().enumerate() {
            let at = match (&m.outcome, m.cycle, &m.port) {
                (Outcome::Caught, Some(cycle), Some(port)) => {
                    format!("caught at cycle {cycle} on {port}")
                }
                (Outcome::Error, _, _) => {
                    format!("error: {}", m.error.as_deref().unwrap_or(""))
                }
                (Outcome::Equivalent, _, _) => format!("equivalent for {} cycles", self.depth),
                (Outcome::Unknown, _, _) => {
                    format!("unknown: {}", m.error.as_deref().unwrap_or(""))
                }
                _ => match m.counterexample {
                    Some(cycle) => format!("survived (an output differs at cycle {cycle})"),
                    None => "survived".to_string(),
                },
            };
            text += &format!(
                "  {n:>4} {:<6} {:<40} {:<24} {at}\n",
                m.mode,
                m.source.split(' ').next().unwrap_or(""),
                m.module
            );
        }
        if self.resumed > 0 {
            text += &format!(
                "{} of them taken from the records of an earlier run\n",
                self.resumed
            );
        }
        let score = self.score.map_or("-".to_string(), |s| format!("{s:.3}"));
        text += &format!(
            "caught {}, survived {}, equivalent {}, unknown {}, errors {}: score {score} ({:.1} s)\n",
            self.caught, self.survived, self.equivalent, self.unknown, self.errors, self.seconds
        );
        text
    }
}

/// Runs Yosys's `script` in `dir` (Debian's `yosys`, which the iCE40 synthesis uses too). A
/// failure's log goes to `log` where given, else to a file of its own that the error names.
fn yosys(
    dir: &Path,
    script: &str,
    limit: Option<Duration>,
    log: Option<&Path>,
) -> Result<(), FlowError> {
    let out = output_within(
        Command::new("yosys")
            .current_dir(dir)
            .args(["-q", "-p", script]),
        "sudo apt-get install -y yosys",
        limit,
    )?;
    match out.status.success() {
        true => Ok(()),
        false => Err(failure("yosys", &out, log)),
    }
}

/// The Yosys commands that read the emitted design in `dir` and flatten it, its vendor
/// primitives' models read as black boxes.
fn read_script(top: &str, models: &[(&str, &str)]) -> String {
    let libraries: String = models
        .iter()
        .map(|(file, _)| format!("read_verilog -lib {file}; "))
        .collect();
    format!("{libraries}read_verilog {top}.v; hierarchy -top {top}; proc; flatten; opt_clean")
}

/// Where a mutant's outcome is recorded in the work directory: `mutants/<n>.json`.
pub fn record_path(work: &Path, n: usize) -> PathBuf {
    work.join("mutants").join(format!("{n}.json"))
}

/// The outcome recorded for mutant `n` in `work` by an earlier run, if any.
fn recorded(work: &Path, n: usize, command: &str) -> Option<Mutant> {
    let text = std::fs::read_to_string(record_path(work, n)).ok()?;
    let mutant: Mutant = serde_json::from_str(&text).ok()?;
    (mutant.command == command).then_some(mutant)
}

/// Records `mutant` as mutant `n`'s outcome: written beside and renamed into place, so that an
/// interruption leaves a whole record or none.
fn record(work: &Path, n: usize, mutant: &Mutant) -> Result<(), FlowError> {
    let path = record_path(work, n);
    let part = path.with_extension("json.part");
    let _partial = Partial::new(&part);
    let text = serde_json::to_string_pretty(mutant).map_err(|e| FlowError::Input(e.to_string()))?;
    std::fs::write(&part, text)?;
    std::fs::rename(&part, &path)?;
    Ok(())
}

/// What every mutant of one run shares: the block's parameters, the spec, the work directory,
/// the emitted design's lines and primitives' models, and the Yosys commands that read it.
struct Drawn<'a, B: Block> {
    params: &'a ParamsOf<B>,
    spec: &'a MutateSpec,
    work: &'a Path,
    top: String,
    lines: Vec<&'a str>,
    models: Vec<&'a str>,
    read: String,
}

/// The control input of a netlist of many mutants, and its width: value `k` switches on the
/// batch's `k`th mutant, 0 none.
const SELECT: (&str, usize) = ("grfgen_mutant", 16);

/// The longest batch of mutants in one netlist (`--batch`).
pub const MAX_BATCH: usize = 256;

/// A netlist holding a batch of mutants, and the mutants' numbers in the order of their
/// control values (the first is switched on by 1).
struct Batch {
    netlist: Foreign,
    numbers: Vec<usize>,
}

impl<B: Block> Drawn<'_, B> {
    /// Mutant `n` (its Yosys `command`) run, from `batch`'s netlist where given, else from a
    /// netlist of its own; when no run caught it, checked; its files removed once its outcome
    /// is known, or the run fails.
    fn run(&self, n: usize, command: &str, batch: Option<&Batch>) -> Result<Mutant, FlowError> {
        let names = [
            format!("mutant_{n}.v"),
            format!("mutation_{n}.ys"),
            format!("check_{n}.log"),
        ];
        let files = names.clone().map(|f| self.work.join(f));
        let _partial: Vec<Partial> = files.iter().map(|f| Partial::new(f)).collect();
        let outcome = self.attempt(command, &names, batch.map(|b| b.selecting(n)));
        for file in &files {
            let _ = std::fs::remove_file(file);
        }
        outcome
    }

    /// Mutant `command` run from `selected` (a batch's netlist with the mutant switched on)
    /// or, without, from its own netlist, written to `names[0]` (by the script `names[1]`);
    /// checked (its log `names[2]`) when no run caught it. A mutant Yosys cannot write as
    /// Verilog is an `error`.
    fn attempt(
        &self,
        command: &str,
        names: &[String; 3],
        selected: Option<Foreign>,
    ) -> Result<Mutant, FlowError> {
        let [name, script, check] = names;
        let mut mutant = described(command, &self.top, &self.lines);
        if let Some(foreign) = &selected {
            run_mutant::<B>(self.params, self.spec, foreign, &mut mutant)?;
            if !matches!(mutant.outcome, Outcome::Survived) || self.spec.depth == 0 {
                return Ok(mutant);
            }
        }
        std::fs::write(self.work.join(script), command)?;
        let write = format!(
            "{}; script {script}; opt_clean; write_verilog -noattr {name}",
            self.read
        );
        if let Err(e) = yosys(self.work, &write, None, None) {
            mutant.outcome = Outcome::Error;
            mutant.error = Some(e.to_string().lines().next().unwrap_or("").into());
            return Ok(mutant);
        }
        if selected.is_none() {
            let foreign = self.netlist(name)?;
            run_mutant::<B>(self.params, self.spec, &foreign, &mut mutant)?;
        }
        if matches!(mutant.outcome, Outcome::Survived) && self.spec.depth > 0 {
            classify(
                self.work,
                &self.top,
                &self.models,
                name,
                check,
                self.spec,
                &mut mutant,
            );
        }
        Ok(mutant)
    }

    /// The netlist Yosys wrote to `name`, to run as the emitted top.
    fn netlist(&self, name: &str) -> Result<Foreign, FlowError> {
        Ok(Foreign {
            file: name.to_string(),
            text: std::fs::read_to_string(self.work.join(name))?,
            top: Some(self.top.clone()),
            select: None,
        })
    }

    /// The mutants `numbers` (of `commands`) written into one netlist, each switched on by
    /// the control input [`SELECT`] at its place plus one, as MCY's `mutate -ctrl` does;
    /// `None` when Yosys cannot write them together (each then runs from its own).
    fn batch(&self, numbers: &[usize], commands: &[&str]) -> Result<Option<Batch>, FlowError> {
        let first = numbers[0];
        let [name, script, log] = ["v", "ys", "log"].map(|e| format!("batch_{first}.{e}"));
        let _partial = [&name, &script, &log].map(|f| Partial::new(&self.work.join(f)));
        let (select, width) = SELECT;
        let text: String = (numbers.iter().enumerate())
            .map(|(k, &n)| {
                let rest = commands[n].strip_prefix("mutate").unwrap_or(commands[n]);
                format!("mutate -ctrl {select} {width} {}{rest}\n", k + 1)
            })
            .collect();
        std::fs::write(self.work.join(&script), text)?;
        let write = format!(
            "{}; script {script}; opt_clean; write_verilog -noattr {name}",
            self.read
        );
        // A batch Yosys cannot write is split, not reported: its log goes with its files.
        let written = yosys(self.work, &write, None, Some(&self.work.join(&log)));
        for file in [&script, &log] {
            let _ = std::fs::remove_file(self.work.join(file));
        }
        let batch = match written {
            Ok(()) => Some(Batch {
                netlist: self.netlist(&name)?,
                numbers: numbers.to_vec(),
            }),
            Err(_) => None,
        };
        let _ = std::fs::remove_file(self.work.join(&name));
        Ok(batch)
    }

    /// `numbers` in groups that Yosys writes as one netlist each: all of them or, when it
    /// cannot (a mutated memory initialisation is not written), each half grouped again; a
    /// mutant alone has no batch (it runs from its own netlist).
    fn groups(&self, numbers: &[usize], commands: &[&str]) -> Result<Vec<Group>, FlowError> {
        if numbers.len() < 2 {
            return Ok(vec![(numbers.to_vec(), None)]);
        }
        if let Some(batch) = self.batch(numbers, commands)? {
            return Ok(vec![(numbers.to_vec(), Some(batch))]);
        }
        let (low, high) = numbers.split_at(numbers.len() / 2);
        let mut groups = self.groups(low, commands)?;
        groups.extend(self.groups(high, commands)?);
        Ok(groups)
    }
}

/// Mutants run together, and the netlist holding them all if there is one.
type Group = (Vec<usize>, Option<Batch>);

impl Batch {
    /// The batch's netlist with mutant `n` switched on.
    fn selecting(&self, n: usize) -> Foreign {
        let at = self.numbers.iter().position(|&m| m == n).unwrap_or(0);
        let (name, width) = SELECT;
        Foreign {
            select: Some(Select {
                name: name.to_string(),
                width,
                value: at as u64 + 1,
            }),
            ..self.netlist.clone()
        }
    }
}

/// Draws `spec.mutants` mutations of block `B`'s design at `params` and runs each against
/// the golden model, `spec.jobs` at once; `work` holds the emitted design, the list, each
/// mutant's netlist while it runs and each outcome (`mutants/<n>.json`). A mutant whose
/// outcome an earlier run recorded there is not run again. `progress` hears of each mutant as
/// its outcome is known: its number, how many are known, and the mutant.
pub fn mutate<B: Block>(
    params: &ParamsOf<B>,
    spec: &MutateSpec,
    work: &Path,
    progress: &(dyn Fn(usize, usize, &Mutant) + Sync),
) -> Result<MutateReport, FlowError> {
    let started = Instant::now();
    let top = B::Design::top(params);
    let emitted = emit_design::<B::Design>(params, &top)?;
    std::fs::write(work.join(format!("{top}.v")), &emitted.verilog)?;
    for (file, text) in &emitted.models {
        std::fs::write(work.join(file), text)?;
    }
    std::fs::create_dir_all(work.join("mutants"))?;
    let read = read_script(&top, &emitted.models);
    yosys(
        work,
        &format!(
            "{read}; mutate -list {} -seed {} -o mutations.ys{}",
            spec.mutants,
            spec.seed,
            drawn_from(spec)
        ),
        None,
        None,
    )?;
    let list = std::fs::read_to_string(work.join("mutations.ys"))?;
    let commands: Vec<&str> = list.lines().filter(|l| l.starts_with("mutate ")).collect();
    let drawn = Drawn::<B> {
        params,
        spec,
        work,
        top,
        lines: emitted.verilog.lines().collect(),
        models: emitted.models.iter().map(|(file, _)| *file).collect(),
        read,
    };
    // A recorded outcome keeps its outcome; where it lies is described again, as this run
    // would describe it.
    let slots: Vec<Option<Mutant>> = (commands.iter().enumerate())
        .map(|(n, command)| {
            let fresh = described(command, &drawn.top, &drawn.lines);
            recorded(work, n, command).map(|old| Mutant {
                source: fresh.source,
                module: fresh.module,
                ..old
            })
        })
        .collect();
    let resumed = slots.iter().flatten().count();
    let mutants = run_all(&drawn, &commands, slots, progress)?;
    Ok(report(
        B::Design::NAME,
        drawn.top,
        spec,
        mutants,
        resumed,
        started,
    ))
}

/// The outcomes of a run as they become known, shared by its threads.
struct Pool<'a> {
    slots: Mutex<Vec<Option<Mutant>>>,
    known: AtomicUsize,
    failed: Mutex<Option<FlowError>>,
    progress: &'a (dyn Fn(usize, usize, &Mutant) + Sync),
}

impl Pool<'_> {
    /// Whether a mutant's run failed (and the others stop).
    fn failed(&self) -> bool {
        self.failed.lock().map_or(true, |f| f.is_some())
    }

    /// Runs mutant `n` (from `batch` where given) and records its outcome. A mutant the batch
    /// could not run (an `error`: Verilator refused the batch, or the run) runs again from
    /// its own netlist; the answer is whether the batch ran it.
    fn run<B: Block>(
        &self,
        drawn: &Drawn<'_, B>,
        n: usize,
        command: &str,
        batch: Option<&Batch>,
    ) -> bool {
        let mut ran = drawn.run(n, command, batch);
        let refused =
            batch.is_some() && matches!(&ran, Ok(m) if matches!(m.outcome, Outcome::Error));
        if refused {
            ran = drawn.run(n, command, None);
        }
        match ran.and_then(|mutant| record(drawn.work, n, &mutant).map(|()| mutant)) {
            Ok(mutant) => {
                (self.progress)(n, self.known.fetch_add(1, Ordering::SeqCst) + 1, &mutant);
                self.slots.lock().unwrap_or_else(|e| e.into_inner())[n] = Some(mutant);
            }
            Err(e) => {
                (self.failed.lock().unwrap_or_else(|e| e.into_inner())).get_or_insert(e);
            }
        }
        !refused
    }

    /// Runs the mutants `group` of `commands`, from `batch` where given, `spec.jobs` at once.
    /// The first runs alone, building the batch's model for the others.
    fn run_group<B: Block>(
        &self,
        drawn: &Drawn<'_, B>,
        group: &[usize],
        commands: &[&str],
        mut batch: Option<Batch>,
    ) {
        if !self.run(drawn, group[0], commands[group[0]], batch.as_ref()) {
            batch = None;
        }
        let next = AtomicUsize::new(1);
        std::thread::scope(|scope| {
            for _ in 0..drawn.spec.jobs.clamp(1, group.len()) {
                scope.spawn(|| {
                    while let Some(&n) = group.get(next.fetch_add(1, Ordering::SeqCst)) {
                        if self.failed() {
                            break;
                        }
                        self.run(drawn, n, commands[n], batch.as_ref());
                    }
                });
            }
        });
    }
}

/// Runs every mutant of `commands` whose slot is empty, `spec.batch` to a netlist and
/// `spec.jobs` at once, recording each outcome as it is known; the first error stops the
/// others.
fn run_all<B: Block>(
    drawn: &Drawn<'_, B>,
    commands: &[&str],
    slots: Vec<Option<Mutant>>,
    progress: &(dyn Fn(usize, usize, &Mutant) + Sync),
) -> Result<Vec<Mutant>, FlowError> {
    let pending: Vec<usize> = (0..slots.len()).filter(|&n| slots[n].is_none()).collect();
    let pool = Pool {
        known: AtomicUsize::new(slots.len() - pending.len()),
        slots: Mutex::new(slots),
        failed: Mutex::new(None),
        progress,
    };
    for chunk in pending.chunks(drawn.spec.batch.max(1)) {
        for (group, batch) in drawn.groups(chunk, commands)? {
            if pool.failed() {
                break;
            }
            pool.run_group(drawn, &group, commands, batch);
        }
    }
    if let Some(e) = pool.failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    let slots = pool.slots.into_inner().unwrap_or_else(|e| e.into_inner());
    Ok(slots.into_iter().flatten().collect())
}

/// The report of `block`'s `mutants` (in the order drawn), `resumed` of them from records.
fn report(
    block: &'static str,
    top: String,
    spec: &MutateSpec,
    mutants: Vec<Mutant>,
    resumed: usize,
    started: Instant,
) -> MutateReport {
    let count = |o: fn(&Outcome) -> bool| mutants.iter().filter(|m| o(&m.outcome)).count();
    let caught = count(|o| matches!(o, Outcome::Caught));
    let survived = count(|o| matches!(o, Outcome::Survived));
    MutateReport {
        block,
        top,
        seed: spec.seed,
        cycles: spec.cycles,
        seeds: spec.seeds,
        depth: spec.depth,
        skip_meminit: spec.skip_meminit,
        errors: count(|o| matches!(o, Outcome::Error)),
        equivalent: count(|o| matches!(o, Outcome::Equivalent)),
        unknown: count(|o| matches!(o, Outcome::Unknown)),
        resumed,
        score: (caught + survived > 0).then(|| caught as f64 / (caught + survived) as f64),
        caught,
        survived,
        mutants,
        seconds: started.elapsed().as_secs_f64(),
    }
}

/// The Yosys commands that read `file` (the design, or a mutant of it) with the primitives'
/// models, flatten it with its memories as registers, and keep it as module `name`.
fn prepared(file: &str, top: &str, models: &[&str], name: &str) -> String {
    let models: String = models
        .iter()
        .map(|m| format!("read_verilog {m}; "))
        .collect();
    format!(
        "{models}read_verilog {file}; hierarchy -top {top}; proc; flatten; memory_map; \
         opt_clean; rename {top} {name}; design -stash {name}; "
    )
}

/// How many times the solver's limit the whole check (building the miter, then the proof)
/// may take before the mutant is `unknown`.
pub const CHECK_LIMIT: u64 = 4;

/// The bounded equivalence check of `mutant` (its netlist `file` in `work`) against the
/// emitted design: `spec.depth` cycles of a miter from every register at zero, by Yosys's SAT
/// solver; records `equivalent`, `survived` with the cycle of the first difference, or
/// `unknown`.
fn classify(
    work: &Path,
    top: &str,
    models: &[&str],
    file: &str,
    check: &str,
    spec: &MutateSpec,
    mutant: &mut Mutant,
) {
    let script = format!(
        "{}{}design -copy-from gold -as gold gold; design -copy-from gate -as gate gate; \
         miter -equiv -flatten -make_outputs -ignore_gold_x gold gate miter; \
         hierarchy -top miter; opt_clean; tee -q -o {check} sat -seq {} -prove trigger 0 \
         -set-init-zero -timeout {} -show trigger miter",
        prepared(&format!("{top}.v"), top, models, "gold"),
        prepared(file, top, models, "gate"),
        spec.depth,
        spec.solver_seconds,
    );
    let _ = std::fs::remove_file(work.join(check));
    // The solver's limit bounds the proof, not building the miter, which grows with the
    // design's memories: the whole check stops after CHECK_LIMIT times the solver's.
    let limit = Duration::from_secs(CHECK_LIMIT * spec.solver_seconds);
    let ran = yosys(work, &script, Some(limit), None);
    let log = std::fs::read_to_string(work.join(check)).unwrap_or_default();
    let (outcome, why) = verdict(&log, ran.err().map(|e| e.to_string()));
    mutant.outcome = outcome;
    mutant.counterexample = first_difference(&log);
    mutant.error = why;
}

/// What the check's log says: proved (equivalent), a model found (survived), else unknown with
/// the reason (the solver's time out, or Yosys's error `failed`).
fn verdict(log: &str, failed: Option<String>) -> (Outcome, Option<String>) {
    if log.contains("no model found: SUCCESS") {
        (Outcome::Equivalent, None)
    } else if log.contains("model found: FAIL") {
        (Outcome::Survived, None)
    } else if log.contains("TIMEOUT") {
        (Outcome::Unknown, Some("the solver ran out of time".into()))
    } else {
        let why = failed.unwrap_or_else(|| "the check gave no answer".into());
        (
            Outcome::Unknown,
            Some(why.lines().next().unwrap_or("").to_string()),
        )
    }
}

/// The first cycle at which the miter's `trigger` is 1 in the check's model (`-show trigger`
/// prints a row per cycle: `<cycle> \trigger <dec> <hex> <bin>`).
fn first_difference(log: &str) -> Option<u64> {
    log.lines().find_map(|line| {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            [cycle, "\\trigger", "1", ..] => cycle.parse().ok(),
            _ => None,
        }
    })
}

/// Runs `foreign` (one mutant) with every regression run of `params` and every stimulus seed
/// until one mismatches; records the outcome in `mutant`.
fn run_mutant<B: Block>(
    params: &ParamsOf<B>,
    spec: &MutateSpec,
    foreign: &Foreign,
    mutant: &mut Mutant,
) -> Result<(), FlowError> {
    for options in B::regression_runs(params, spec.cycles) {
        for seed in 1..=spec.seeds {
            let setup = Setup {
                foreign: Some(foreign),
                ..Setup::new(seed, Rtl::On)
            };
            let record = match RunRecord::<B>::run(params, &options, &setup) {
                Ok(record) => record,
                Err(SimError::Verilator(e)) => {
                    mutant.outcome = Outcome::Error;
                    mutant.error = Some(e.to_string().lines().next().unwrap_or("").into());
                    return Ok(());
                }
                Err(e) => return Err(FlowError::Sim(e)),
            };
            if let Some(found) = record.report.mismatch() {
                mutant.outcome = Outcome::Caught;
                mutant.cycle = Some(found.cycle);
                mutant.port = Some(found.port.clone());
                mutant.stimulus_seed = Some(seed);
                return Ok(());
            }
        }
    }
    Ok(())
}

/// A mutant of `command` before it runs: its mode, and the emitted line (of `lines`, the
/// emitted `<top>.v`) and module of the cell it changes. The cell's name gives its instance
/// path in the flattened design (`$flatten\body.\slots.$eq$...`), and so the module that holds
/// it; of the `-src` lines Yosys lists (the cell's own and every enclosing instance's), the
/// narrowest in that module is the cell's. Where the path does not resolve, the last `-src`.
fn described(command: &str, top: &str, lines: &[&str]) -> Mutant {
    let words: Vec<&str> = command.split_whitespace().collect();
    let after = |flag: &str| {
        let at = words.iter().position(|w| *w == flag)?;
        words.get(at + 1).copied()
    };
    let sources: Vec<(usize, usize)> = (words.windows(2))
        .filter(|w| w[0] == "-src")
        .filter_map(|w| source_span(w[1]))
        .filter(|&(first, _)| first >= 1 && first <= lines.len())
        .collect();
    let holder = after("-cell").and_then(|cell| module_of_cell(lines, top, cell));
    let own = holder.as_ref().and_then(|module| {
        (sources.iter())
            .filter(|&&(first, _)| enclosing_module(lines, first - 1) == *module)
            .min_by_key(|&&(first, last)| last.saturating_sub(first))
    });
    let (source, module) = match own.or(sources.last()) {
        Some(&(n, _)) => (
            format!("{top}.v:{n} {}", lines[n - 1].trim()),
            enclosing_module(lines, n - 1),
        ),
        None => ("-".to_string(), "-".to_string()),
    };
    Mutant {
        command: command.to_string(),
        mode: after("-mode").unwrap_or("-").to_string(),
        source,
        module,
        outcome: Outcome::Survived,
        cycle: None,
        port: None,
        stimulus_seed: None,
        error: None,
        counterexample: None,
    }
}

/// The first and last lines of a `-src` span (`<file>:12.5-14.8`, or `<file>:12.5`).
fn source_span(src: &str) -> Option<(usize, usize)> {
    let (_, at) = src.rsplit_once(':')?;
    let line = |part: &str| part.split('.').next()?.parse::<usize>().ok();
    let mut ends = at.split('-');
    let first = line(ends.next()?)?;
    Some((first, ends.next().and_then(line).unwrap_or(first)))
}

/// The module that holds flattened `cell` of design `top`: its instance path
/// (`$flatten\body.\slots.\valid.$procdff$7` is `body`, `slots`, `valid`) followed from the
/// top through the instance declarations of `lines`.
fn module_of_cell(lines: &[&str], top: &str, cell: &str) -> Option<String> {
    let mut segments = cell.split('.');
    let mut path: Vec<&str> = Vec::new();
    if let Some(first) = segments.next().and_then(|s| s.strip_prefix("$flatten\\")) {
        path.push(first);
        path.extend(segments.map_while(|s| s.strip_prefix('\\')));
    }
    path.iter().try_fold(top.to_string(), |module, instance| {
        instance_type(lines, &module, instance)
    })
}

/// The module type of `instance`, declared in `module`'s text in `lines`
/// (`<type> <instance>(` on a line of its own).
fn instance_type(lines: &[&str], module: &str, instance: &str) -> Option<String> {
    let start = lines.iter().position(|l| {
        l.trim_start().strip_prefix("module ").is_some_and(|rest| {
            rest.split(|c: char| c == '(' || c == '#' || c.is_whitespace())
                .next()
                == Some(module)
        })
    })?;
    lines[start + 1..]
        .iter()
        .take_while(|l| l.trim() != "endmodule")
        .find_map(|l| {
            let mut words = l
                .split(|c: char| c == '(' || c.is_whitespace())
                .filter(|w| !w.is_empty());
            let (kind, name) = (words.next()?, words.next()?);
            (name == instance && l.trim_end().ends_with('(')).then(|| kind.to_string())
        })
}

/// The module whose text holds line `index` of `lines`.
fn enclosing_module(lines: &[&str], index: usize) -> String {
    lines[..=index]
        .iter()
        .rev()
        .find_map(|l| l.trim_start().strip_prefix("module "))
        .map(|rest| {
            rest.split(|c: char| c == '(' || c == '#' || c.is_whitespace())
                .next()
                .unwrap_or("")
                .to_string()
        })
        .unwrap_or_else(|| "-".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_check_reads_as_equivalent_survived_or_unknown() {
        let proved = "Solving problem ...\nSAT proof finished - no model found: SUCCESS!\n";
        assert!(matches!(verdict(proved, None).0, Outcome::Equivalent));
        let found = "SAT proof finished - model found: FAIL!\n\n  Time Signal Dec Hex Bin\n  \
                     ---- ------\n     1 \\trigger 0 0 0\n  ---- ------\n     2 \\trigger 0 0 0\n  \
                     ---- ------\n     3 \\trigger 1 1 1\n";
        assert!(matches!(verdict(found, None).0, Outcome::Survived));
        assert_eq!(first_difference(found), Some(3));
        assert_eq!(first_difference(proved), None);
        let (late, why) = verdict("Interrupted SAT solver: TIMEOUT!\n", None);
        assert!(matches!(late, Outcome::Unknown));
        assert_eq!(why.as_deref(), Some("the solver ran out of time"));
        let (broken, why) = verdict(
            "",
            Some("yosys failed: ERROR: Non-constant address\nmore".into()),
        );
        assert!(matches!(broken, Outcome::Unknown));
        assert_eq!(
            why.as_deref(),
            Some("yosys failed: ERROR: Non-constant address")
        );
    }

    #[test]
    fn a_mutation_is_described_by_its_line_and_module() {
        let lines = [
            "// header",
            "module top(a);",
            "  input a;",
            "endmodule",
            "module top_body(b);",
            "  assign b = c & d;",
            "endmodule",
        ];
        let nested = [
            "module top(a);",
            "  top_body body(",
            "    .a(a)",
            "  );",
            "endmodule",
            "module top_body(a);",
            "  top_slots slots(",
            "    .a(a)",
            "  );",
            "  assign e = f;",
            "endmodule",
            "module top_slots(a);",
            "  assign g = a == h;",
            "endmodule",
        ];
        let cases: [(&str, &[&str], &str, &str); 3] = [
            // A cell of the top itself: its line in the top.
            (
                "-cell $and$top.v:6$3 -port Y -src top.v:6.16-6.23 -src top.v:2.1-2.3",
                &lines,
                "top.v:2 module top(a);",
                "top",
            ),
            // An instance path the text does not declare: the last `-src`.
            (
                "-cell $flatten\\body.$and$top.v:6$3 -src top.v:2.1-2.3 -src top.v:6.16-6.23",
                &lines,
                "top.v:6 assign b = c & d;",
                "top_body",
            ),
            // Yosys lists the body's instance, the cell's own line, then the slots' instance:
            // the cell is in `slots` (its name says so), whose line is 13.
            (
                "-cell $flatten\\body.\\slots.$eq$top.v:13$2 -port B -src top.v:2.3-4.4 -src top.v:13.12-13.20 -src top.v:7.3-9.4",
                &nested,
                "top.v:13 assign g = a == h;",
                "top_slots",
            ),
        ];
        for (cell, text, source, module) in cases {
            let m = described(&format!("mutate -mode inv -module top {cell}"), "top", text);
            assert_eq!((m.mode.as_str(), m.source.as_str()), ("inv", source));
            assert_eq!(m.module, module);
        }
        let unplaced = described("mutate -mode const0 -module top -cell x", "top", &lines);
        assert_eq!(
            (unplaced.source.as_str(), unplaced.module.as_str()),
            ("-", "-")
        );
    }
}
