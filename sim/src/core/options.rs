//! The options of a core run: the policy, and the program (a built-in workload or a file).

use grfgen_hdl::param;
use grfgen_hdl::params::{Allowed, CoreParams, Kind, Param, ParamValue, Params, Waves};
use serde::{Deserialize, Serialize};

use super::external::UnitLatencies;
use super::figures::Isa;
use super::model::Policy;
use super::program::Instruction;
use super::program_file::read;
use super::workload::{builtin_sized, Workload, NAMES, RANDOM_INSTRUCTIONS};
use crate::block::{missing_workload, SimError};

impl ParamValue for Policy {
    const KIND: Kind = Kind::Text;
    fn parse(text: &str) -> Option<Self> {
        Policy::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(text))
    }
    fn show(&self) -> String {
        self.name().to_string()
    }
}

/// What `--isa` sets, wherever a core program is read.
const ISA_DOC: &str =
    "the program file's instruction set (default: ir3 for .ir3 and .asm files, else core)";

/// `--wave-base K` of a run's options held at `get`/`get_mut`: wave `w`'s registers start
/// `(w * K) mod banks` registers later (`docs/core.md`, "Waves"); checked against the bank
/// count when the run starts.
pub fn wave_base_param<P: 'static>(
    get: fn(&P) -> &usize,
    get_mut: fn(&mut P) -> &mut usize,
) -> Param<P> {
    Param::new(
        "wave_base",
        "stagger of the waves over the banks: wave w's registers start (w * K) mod banks later",
        "K",
        get,
        get_mut,
        |_| Allowed::range(0, Waves::MAX - 1).because("below the bank count"),
    )
}

/// What `--keep-nops` sets, wherever a core program is read.
const KEEP_NOPS_DOC: &str = "issue ir3's nops as idle cycles instead of dropping them";

/// The values `--isa` allows: any instruction set when a program file is given (`program`),
/// else none (a built-in workload has no instruction set to choose).
fn isa_allowed(program: bool) -> Allowed<Option<Isa>> {
    Allowed::matching(
        "core or ir3, with --program FILE",
        move |isa: &Option<Isa>| isa.is_none() || program,
    )
}

/// Program files a command runs one after another (`bench core`, `compare gpr`), and how they
/// are read.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProgramFiles {
    /// The files, in the order given.
    #[serde(default)]
    pub program: Vec<String>,
    /// Their instruction set; none: each file's by its name.
    #[serde(default)]
    pub isa: Option<Isa>,
    /// Keep ir3's nops as instructions that issue as idle cycles.
    #[serde(default)]
    pub keep_nops: bool,
}

impl Params for ProgramFiles {
    fn table() -> Vec<Param<Self>> {
        vec![
            param!(
                program,
                "program files, each run in turn (the core's format, or ir3)",
                "FILE",
                |_| Allowed::any("file paths")
            ),
            param!(isa, ISA_DOC, "ISA", |o| isa_allowed(!o.program.is_empty())),
            param!(keep_nops, KEEP_NOPS_DOC, "BOOL", |_| Allowed::any(
                "true or false"
            )),
        ]
    }
}

impl ProgramFiles {
    /// The options of one run per file, with `latencies`.
    pub fn runs(&self, latencies: &UnitLatencies) -> Vec<CoreOptions> {
        (self.program.iter())
            .map(|path| CoreOptions {
                program: Some(path.clone()),
                isa: self.isa,
                keep_nops: self.keep_nops,
                latencies: latencies.clone(),
                ..CoreOptions::default()
            })
            .collect()
    }
}

/// The options of a core run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CoreOptions {
    /// The operand-conflict policy.
    pub policy: Policy,
    /// A built-in workload (or `program`).
    pub workload: Option<String>,
    /// A program file (or `workload`), in the core's format or ir3.
    pub program: Option<String>,
    /// The program file's instruction set; none: ir3 for `.ir3` and `.asm` files, else the
    /// core's format.
    #[serde(default)]
    pub isa: Option<Isa>,
    /// Keep ir3's nops as instructions that issue as idle cycles (else the core's interlocks
    /// schedule and the nops are dropped).
    #[serde(default)]
    pub keep_nops: bool,
    /// Whether the report lists every cycle's GPR reads.
    pub schedule: bool,
    /// Instructions of the random workloads (`random`, `random-long`, `texture-return`).
    #[serde(default = "random_instructions")]
    pub instructions: usize,
    /// Run the program after bank-aware register allocation (`grfgen allocate`), beside the
    /// program as written.
    #[serde(default)]
    pub allocate: bool,
    /// `--wave-base`: wave `w`'s registers start `(w * K) mod banks` registers later.
    #[serde(default)]
    pub wave_base: usize,
    /// The external unit's latencies, per long-latency unit.
    #[serde(flatten)]
    pub latencies: UnitLatencies,
}

fn random_instructions() -> usize {
    RANDOM_INSTRUCTIONS
}

/// The longest random program, in instructions (a run of about as many cycles).
pub const MAX_INSTRUCTIONS: usize = 2_000_000;

impl Default for CoreOptions {
    fn default() -> Self {
        Self {
            policy: Policy::CqPq,
            workload: None,
            program: None,
            isa: None,
            keep_nops: false,
            schedule: false,
            instructions: RANDOM_INSTRUCTIONS,
            allocate: false,
            wave_base: 0,
            latencies: UnitLatencies::default(),
        }
    }
}

impl Params for CoreOptions {
    fn table() -> Vec<Param<Self>> {
        let mut table = vec![
            param!(policy, "operand-conflict policy", "POLICY", |_| {
                Allowed::any("naive, cq, cq-pq or ideal")
            }),
            param!(
                workload,
                "a built-in workload (or --program)",
                "NAME",
                |o| Allowed::name_or_file(&NAMES, "--workload", "--program", o.program.is_some())
            ),
            param!(
                program,
                "a program file: the core's format, or ir3 (docs/core.md)",
                "FILE",
                |_| Allowed::any("a file path")
            ),
            param!(isa, ISA_DOC, "ISA", |o| isa_allowed(o.program.is_some())),
            param!(keep_nops, KEEP_NOPS_DOC, "BOOL", |_| Allowed::any(
                "true or false"
            )),
            param!(
                instructions,
                "instructions of the random workloads (random, random-long, texture-return)",
                "N",
                |_| Allowed::range(1, MAX_INSTRUCTIONS)
            ),
            param!(
                schedule,
                "add every cycle's GPR reads to the report",
                "BOOL",
                |_| Allowed::any("true or false")
            ),
            param!(
                allocate,
                "run the program after bank-aware register allocation, beside the program as written",
                "BOOL",
                |_| Allowed::any("true or false")
            ),
            wave_base_param(|o: &Self| &o.wave_base, |o| &mut o.wave_base),
        ];
        table.extend(UnitLatencies::nested(
            |o: &Self| &o.latencies,
            |o| &mut o.latencies,
        ));
        table
    }
}

impl CoreOptions {
    /// The options running built-in workload `name` under `policy`.
    pub fn workload(name: &str, policy: Policy) -> Self {
        Self {
            policy,
            workload: Some(name.to_string()),
            ..Self::default()
        }
    }

    /// The program to run: the built-in workload (the random ones drawn from `seed`) or the
    /// file, with the options' latencies.
    pub fn program(&self, params: &CoreParams, seed: u64) -> Result<Workload, SimError> {
        if let Some(name) = &self.workload {
            return builtin_sized(name, params, seed, self.instructions)
                .map(|w| Workload {
                    latencies: self.latencies.clone(),
                    wave_base: self.wave_base,
                    ..w
                })
                .map_err(SimError::Input);
        }
        let Some(path) = self.program.as_deref() else {
            return Err(missing_workload(&NAMES, "--program"));
        };
        let text = grfgen_support::input::read_text(path, "--program").map_err(SimError::Input)?;
        let bad = |why: String| {
            SimError::Input(format!(
                "invalid value {} for --program: {why}",
                grfgen_support::input::shown(path)
            ))
        };
        let isa = self.isa.unwrap_or_else(|| Isa::of_path(path));
        let file = read(&text, isa, params.program_registers(), self.keep_nops).map_err(|e| {
            match isa {
                // ir3 errors point into the file as compilers do: FILE:LINE:COLUMN.
                Isa::Ir3 => SimError::Input(format!(
                    "invalid value for --program: {}:{}:{}: {}",
                    grfgen_support::input::shown(path),
                    e.line,
                    e.column,
                    e.message
                )),
                Isa::Core => bad(e.to_string()),
            }
        })?;
        fits(params, &file.instructions)?;
        Ok(Workload {
            latencies: self.latencies.clone(),
            wave_base: self.wave_base,
            figures: file.figures,
            ir3: file.ir3.map(std::sync::Arc::new),
            ..Workload::new(path, file.instructions)
        })
    }
}

/// Whether every long-latency instruction of `program` can take its entries in the pending
/// table of `params` (else it could never issue): the error names `--long-results`, its value
/// and the values the program allows.
fn fits(params: &CoreParams, program: &[Instruction]) -> Result<(), SimError> {
    let long = || program.iter().filter(|i| i.long_latency());
    let most = long().map(|i| i.writes).max().unwrap_or(0);
    match long().find(|i| i.writes == most && most > params.long_results) {
        Some(widest) => Err(SimError::Input(format!(
            "invalid value {} for --long-results: allowed {most}..={} for this program \
             (`{widest}` writes {most} registers)",
            params.long_results,
            CoreParams::MAX_LONG_RESULTS,
        ))),
        None => Ok(()),
    }
}

/// The options of the core's benchmark.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CoreBenchOptions {
    /// Seed of the initial values and the random workloads.
    pub seed: u64,
    /// Run every workload after bank-aware register allocation, beside the program as written.
    #[serde(default)]
    pub allocate: bool,
    /// Program files to run instead of the built-in workloads, one row each.
    #[serde(flatten)]
    pub programs: ProgramFiles,
    /// `--wave-base`: wave `w`'s registers start `(w * K) mod banks` registers later.
    #[serde(default)]
    pub wave_base: usize,
    /// The external unit's latencies, per long-latency unit.
    #[serde(flatten)]
    pub latencies: UnitLatencies,
}

impl Default for CoreBenchOptions {
    fn default() -> Self {
        Self {
            seed: 1,
            allocate: false,
            programs: ProgramFiles::default(),
            wave_base: 0,
            latencies: UnitLatencies::default(),
        }
    }
}

impl Params for CoreBenchOptions {
    fn table() -> Vec<Param<Self>> {
        let mut table = vec![
            param!(
                seed,
                "seed of the initial values and the random workloads",
                "S",
                |_| Allowed::any("any number")
            ),
            param!(
                allocate,
                "run every workload after bank-aware register allocation, beside the program as written",
                "BOOL",
                |_| Allowed::any("true or false")
            ),
        ];
        table.extend(ProgramFiles::nested(
            |o: &Self| &o.programs,
            |o| &mut o.programs,
        ));
        table.push(wave_base_param(
            |o: &Self| &o.wave_base,
            |o| &mut o.wave_base,
        ));
        table.extend(UnitLatencies::nested(
            |o: &Self| &o.latencies,
            |o| &mut o.latencies,
        ));
        table
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--policy` takes each policy by the name its reports print, in any case, and no other.
    #[test]
    fn every_policy_reads_back_from_its_name() {
        let names: Vec<&str> = Policy::ALL.iter().map(|p| p.name()).collect();
        assert_eq!(names, ["naive", "cq", "cq-pq", "ideal"]);
        for p in Policy::ALL {
            assert_eq!(Policy::parse(p.name()), Some(p));
            assert_eq!(Policy::parse(&p.name().to_uppercase()), Some(p));
            assert_eq!(p.show(), p.name());
        }
        assert_eq!(Policy::parse("xyzzy"), None);
    }
}
