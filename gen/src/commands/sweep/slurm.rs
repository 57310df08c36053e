//! Sweeps and regressions as Slurm jobs: a job array, one shard per task, each into its own
//! directory, and a merge job that runs once the whole array succeeded.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::store::write_atomically;
use crate::error::CliError;

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
    /// The partition, if one is named.
    pub partition: Option<String>,
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

impl SlurmPlan {
    /// The `#SBATCH` lines of job `kind`; its log goes to `DIR/slurm-<log>.out`.
    fn header(&self, kind: &str, log: &str) -> String {
        let mut text = format!(
            "#!/bin/sh\n#SBATCH --job-name=grfgen-{}-{kind}\n#SBATCH --output={}/slurm-{log}.out\n",
            self.name,
            quote(&self.dir.display().to_string())
        );
        if let Some(p) = &self.partition {
            text += &format!("#SBATCH --partition={}\n", quote(p));
        }
        text
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
    /// the array (`afterok`). Returns the two job ids.
    pub fn submit(&self) -> Result<(String, String), CliError> {
        std::fs::create_dir_all(self.dir.join("shards"))
            .map_err(|e| CliError::Failed(format!("{} (--out): {e}", self.dir.display())))?;
        let array = self.dir.join("slurm-array.sh");
        let merge = self.dir.join("slurm-merge.sh");
        write_atomically(&array, &self.array_script(), "--out")?;
        write_atomically(&merge, &self.merge_script(), "--out")?;
        let array_id = sbatch(&[&array.display().to_string()])?;
        let merge_id = sbatch(&[
            &format!("--dependency=afterok:{array_id}"),
            &merge.display().to_string(),
        ])?;
        Ok((array_id, merge_id))
    }
}

/// `path` for a shell, absolute.
pub fn shell_path(path: &Path) -> String {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    quote(&absolute.display().to_string())
}

/// Runs `sbatch --parsable ARGS`: the job id.
fn sbatch(args: &[&str]) -> Result<String, CliError> {
    let out = Command::new("sbatch")
        .arg("--parsable")
        .args(args)
        .output()
        .map_err(|e| {
            CliError::Failed(format!(
                "sbatch: {e} (is Slurm installed? scripts/local-slurm.sh start runs one here)"
            ))
        })?;
    if !out.status.success() {
        return Err(CliError::Failed(format!(
            "sbatch {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    Ok(text.trim().split(';').next().unwrap_or("").to_string())
}
