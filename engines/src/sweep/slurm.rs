//! Sweeps and regressions as Slurm jobs: a job array, one shard per task, each into its own
//! directory, and a merge job that runs once the whole array succeeded; an exploration as
//! one job on one node.

use std::path::{Path, PathBuf};
use std::process::Command;

use clap::{Arg, ArgMatches};

use crate::error::CliError;
use crate::output::write_file;

/// The two jobs of a sharded sweep or regression.
pub struct SlurmPlan {
    /// The job names' stem (`sweep-gpr`, `regress`).
    pub name: String,
    /// The command an array task runs; `$SLURM_ARRAY_TASK_ID` names its shard.
    pub task: String,
    /// The commands of the merge job, in order.
    pub merge: Vec<String>,
    /// The directory: shards go to `DIR/shards/<task>`, the merged results to `DIR`.
    pub dir: PathBuf,
    /// Array tasks.
    pub shards: usize,
    /// The partition and account, where named (`--partition`, `--account`).
    pub placement: Placement,
}

/// Where the jobs run on the cluster: `#SBATCH --partition` and `--account`.
#[derive(Clone, Debug, Default)]
pub struct Placement {
    /// The partition, if one is named.
    pub partition: Option<String>,
    /// The account charged, if one is named.
    pub account: Option<String>,
}

/// `--partition P` and `--account A`; each `requires` the flag that turns Slurm on, if any.
pub fn placement_args(requires: Option<&'static str>) -> [Arg; 2] {
    let arg = |id: &'static str, name: &'static str, help: &'static str| {
        let arg = Arg::new(id).long(id).value_name(name).help(help);
        match requires {
            Some(flag) => arg.requires(flag),
            None => arg,
        }
    };
    [
        arg(
            "partition",
            "P",
            "The Slurm partition: letters, digits and _ . , -",
        ),
        arg(
            "account",
            "A",
            "The Slurm account charged: letters, digits and _ . , -",
        ),
    ]
}

/// `--dry-run`, which prints `what` and writes and submits nothing.
pub fn dry_run_arg(what: &str) -> Arg {
    Arg::new("dry_run")
        .long("dry-run")
        .action(clap::ArgAction::SetTrue)
        .help(format!("Print {what}; write and submit nothing"))
}

/// The `--partition` and `--account` given, each checked: a value that reaches a job script
/// must be a plain Slurm name, so that it cannot add a line or a directive to the script.
pub fn placement(m: &ArgMatches) -> Result<Placement, CliError> {
    let checked = |id: &str| -> Result<Option<String>, CliError> {
        let Some(value) = m.get_one::<String>(id) else {
            return Ok(None);
        };
        let plain = !value.is_empty()
            && value
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"_.,-".contains(&b));
        match plain {
            true => Ok(Some(value.clone())),
            false => Err(CliError::Input(format!(
                "invalid value {} for --{id}: allowed letters, digits and _ . , - (a Slurm name)",
                grfgen_support::input::shown(value)
            ))),
        }
    };
    Ok(Placement {
        partition: checked("partition")?,
        account: checked("account")?,
    })
}

/// Checks that the directory `dir` (given as `--out`) can be named in a job script: no
/// control character, which would end the script's line.
pub fn check_script_dir(dir: &Path) -> Result<(), CliError> {
    let text = dir.to_string_lossy();
    match text.chars().any(char::is_control) {
        false => Ok(()),
        true => Err(CliError::Input(format!(
            "invalid value {} for --out: allowed a path without control characters (it goes \
             into the Slurm job scripts)",
            grfgen_support::input::shown(&text)
        ))),
    }
}

/// `text` quoted for a POSIX shell.
pub fn quote(text: &str) -> String {
    let plain = text
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"-_./=,:@%+".contains(&b));
    match plain && !text.is_empty() {
        true => text.to_string(),
        false => format!("'{}'", text.replace('\'', r"'\''")),
    }
}

/// The arguments of this process after the word `after`, without the flags in `dropped`
/// (those taking a value drop it too: `with_value`), and with `--seed seed` at the end.
pub fn forwarded(after: &str, dropped: &[&str], with_value: &[&str], seed: u64) -> Vec<String> {
    let argv: Vec<String> = std::env::args().collect();
    let start = argv
        .iter()
        .position(|a| a == after)
        .map_or(argv.len(), |k| k + 1);
    let mut out = Vec::new();
    let mut rest = argv[start..].iter();
    while let Some(arg) = rest.next() {
        let name = arg.split('=').next().unwrap_or(arg);
        if with_value.contains(&name) || name == "--seed" {
            if !arg.contains('=') {
                rest.next();
            }
        } else if !dropped.contains(&name) {
            out.push(quote(arg));
        }
    }
    out.extend(["--seed".to_string(), seed.to_string()]);
    out
}

/// The `#SBATCH` lines of job `kind` of `name`; its log goes to `dir/slurm-<log>.out`.
fn header(name: &str, kind: &str, log: &str, dir: &Path, placement: &Placement) -> String {
    let mut text = format!(
        "#!/bin/sh\n#SBATCH --job-name=grfgen-{name}-{kind}\n#SBATCH --output={}/slurm-{log}.out\n",
        quote(&dir.display().to_string())
    );
    if let Some(p) = &placement.partition {
        text += &format!("#SBATCH --partition={p}\n");
    }
    if let Some(a) = &placement.account {
        text += &format!("#SBATCH --account={a}\n");
    }
    text
}

/// One job that runs `command` on one node with `cpus` cores (an exploration, whose stages
/// depend on each other).
pub struct SlurmJob {
    /// The job name's stem (`explore-core`).
    pub name: String,
    /// The command it runs.
    pub command: String,
    /// Where its script and log go.
    pub dir: PathBuf,
    /// Cores it asks for.
    pub cpus: usize,
    /// The partition and account, where named.
    pub placement: Placement,
}

impl SlurmJob {
    /// The job's script.
    pub fn script(&self) -> String {
        format!(
            "{}#SBATCH --cpus-per-task={}\nset -e\nexec {}\n",
            header(&self.name, "job", "%x-%j", &self.dir, &self.placement),
            self.cpus,
            self.command
        )
    }

    /// Writes the script into the directory (made if missing) and submits it: the job id.
    /// If the submission fails, the script and the directories made for it are removed.
    pub fn submit(&self) -> Result<String, CliError> {
        let made = Made::create(&self.dir)?;
        let script = self.dir.join("slurm-job.sh");
        let undo = |why: CliError| made.undo(why, &[&script], &self.dir);
        write_file("--out", &script, self.script().as_bytes()).map_err(undo)?;
        sbatch(&[&script.display().to_string()]).map_err(undo)
    }
}

impl SlurmPlan {
    /// The `#SBATCH` lines of job `kind`; its log goes to `DIR/slurm-<log>.out`.
    fn header(&self, kind: &str, log: &str) -> String {
        header(&self.name, kind, log, &self.dir, &self.placement)
    }

    /// The array job.
    pub fn array_script(&self) -> String {
        format!(
            "{}#SBATCH --array=0-{}\nset -e\nexec {}\n",
            self.header("array", "%x-%A_%a"),
            self.shards - 1,
            self.task
        )
    }

    /// The merge job.
    pub fn merge_script(&self) -> String {
        format!(
            "{}set -e\n{}\n",
            self.header("merge", "%x-%j"),
            self.merge.join("\n")
        )
    }

    /// The two scripts, for `--dry-run`.
    pub fn scripts(&self) -> String {
        format!(
            "# {}/slurm-array.sh\n{}\n# {}/slurm-merge.sh\n{}",
            self.dir.display(),
            self.array_script(),
            self.dir.display(),
            self.merge_script()
        )
    }

    /// Writes both scripts into `DIR` and submits them with `sbatch`, the merge depending on
    /// the array (`afterok`). Returns the two job ids. If either submission fails, nothing is
    /// left running or written: the array is cancelled, and the scripts and the directories
    /// made for them are removed.
    pub fn submit(&self) -> Result<(String, String), CliError> {
        let made = Made::create(&self.dir.join("shards"))?;
        let array = self.dir.join("slurm-array.sh");
        let merge = self.dir.join("slurm-merge.sh");
        let undo = |why: CliError| made.undo(why, &[&array, &merge], &self.dir);
        write_file("--out", &array, self.array_script().as_bytes()).map_err(undo)?;
        write_file("--out", &merge, self.merge_script().as_bytes()).map_err(undo)?;
        let array_id = sbatch(&[&array.display().to_string()]).map_err(undo)?;
        let dependency = format!("--dependency=afterok:{array_id}");
        match sbatch(&[&dependency, &merge.display().to_string()]) {
            Ok(merge_id) => Ok((array_id, merge_id)),
            Err(e) => {
                let _ = Command::new("scancel").arg(&array_id).output();
                Err(undo(e))
            }
        }
    }
}

/// The directories created to make a path exist, so that a failed submission can remove
/// them again (deepest first).
struct Made(Vec<PathBuf>);

impl Made {
    /// Creates `path` and its missing ancestors.
    fn create(path: &Path) -> Result<Self, CliError> {
        let mut missing: Vec<PathBuf> = path
            .ancestors()
            .take_while(|p| !p.as_os_str().is_empty() && !p.exists())
            .map(Path::to_path_buf)
            .collect();
        missing.reverse();
        std::fs::create_dir_all(path)
            .map_err(|e| CliError::Failed(format!("{} (--out): {e}", path.display())))?;
        Ok(Self(missing))
    }

    /// After a failed submission (`why`): removes `files` and the directories it created
    /// (only if empty), and says so in the error.
    fn undo(&self, why: CliError, files: &[&Path], dir: &Path) -> CliError {
        for file in files {
            let _ = std::fs::remove_file(file);
        }
        for made in self.0.iter().rev() {
            let _ = std::fs::remove_dir(made);
        }
        match why {
            CliError::Failed(m) => CliError::Failed(format!(
                "{m}; nothing was submitted or left in {}",
                dir.display()
            )),
            other => other,
        }
    }
}

/// `path` for a shell, absolute.
pub fn shell_path(path: &Path) -> String {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    quote(&absolute.display().to_string())
}

/// Runs `sbatch --parsable ARGS`: the job id, or one line saying why Slurm refused.
fn sbatch(args: &[&str]) -> Result<String, CliError> {
    let out = Command::new("sbatch")
        .arg("--parsable")
        .args(args)
        .output()
        .map_err(|e| {
            CliError::Failed(format!(
                "cannot run sbatch: {e} (is Slurm installed? scripts/local-slurm.sh start runs one here)"
            ))
        })?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let lines: Vec<&str> = stderr
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        // sbatch's last error line is the reason ("Unable to contact slurm controller").
        let why = (lines.iter().rev())
            .find(|l| l.contains("error"))
            .or(lines.last())
            .map_or_else(|| format!("no message, {}", out.status), |l| l.to_string());
        return Err(CliError::Failed(format!("Slurm refused the job: {why}")));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    Ok(text.trim().split(';').next().unwrap_or("").to_string())
}
