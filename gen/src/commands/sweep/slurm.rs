//! `grfgen sweep slurm <block> ...`: the same sweep as a Slurm job array, one shard per task,
//! each into its own directory, and a merge job that runs once the whole array succeeded.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::store::write_atomically;
use crate::error::CliError;

/// What the two jobs need.
pub struct SlurmPlan {
    /// The block swept.
    pub block: String,
    /// The sweep's arguments after the block, without `--out`, `--shards`, `--partition`,
    /// `--dry-run` (and with the seed fixed).
    pub args: Vec<String>,
    /// The sweep directory: shards go to `DIR/shards/<task>`, the merge to `DIR`.
    pub dir: PathBuf,
    /// Array tasks.
    pub shards: usize,
    /// The partition, if one is named.
    pub partition: Option<String>,
}

/// `text` quoted for a POSIX shell.
fn quote(text: &str) -> String {
    let plain = text
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"-_./=,:@%+".contains(&b));
    match plain && !text.is_empty() {
        true => text.to_string(),
        false => format!("'{}'", text.replace('\'', r"'\''")),
    }
}

/// The `#SBATCH` lines both jobs share; the log of each task goes to `DIR/slurm-<log>.out`.
fn header(plan: &SlurmPlan, name: &str, log: &str) -> String {
    let mut text = format!(
        "#!/bin/sh\n#SBATCH --job-name=grfgen-{name}-{}\n#SBATCH --output={}/slurm-{log}.out\n",
        plan.block,
        quote(&plan.dir.display().to_string())
    );
    if let Some(p) = &plan.partition {
        text += &format!("#SBATCH --partition={}\n", quote(p));
    }
    text
}

impl SlurmPlan {
    /// The array job: task `i` of `N` runs shard `i/N` into `DIR/shards/i`, resuming if it
    /// was started before.
    pub fn array_script(&self, grfgen: &Path) -> String {
        let args: Vec<String> = self.args.iter().map(|a| quote(a)).collect();
        format!(
            "{}#SBATCH --array=0-{}\nset -e\nexec {} sweep {} {} --shard slurm --resume --out {}/shards/\"$SLURM_ARRAY_TASK_ID\"\n",
            header(self, "sweep", "%x-%A_%a"),
            self.shards - 1,
            quote(&grfgen.display().to_string()),
            self.block,
            args.join(" "),
            quote(&self.dir.display().to_string()),
        )
    }

    /// The merge job: every shard directory into `DIR`.
    pub fn merge_script(&self, grfgen: &Path) -> String {
        let dir = quote(&self.dir.display().to_string());
        format!(
            "{}set -e\nexec {} sweep merge {dir}/shards/* --out {dir}\n",
            header(self, "merge", "%x-%j"),
            quote(&grfgen.display().to_string()),
        )
    }

    /// Writes both scripts into `DIR` and submits them with `sbatch`, the merge depending on
    /// the array (`afterok`). Returns the two job ids.
    pub fn submit(&self, grfgen: &Path) -> Result<(String, String), CliError> {
        std::fs::create_dir_all(self.dir.join("shards"))
            .map_err(|e| CliError::Failed(format!("{} (--out): {e}", self.dir.display())))?;
        let array = self.dir.join("sweep-array.sh");
        let merge = self.dir.join("sweep-merge.sh");
        write_atomically(&array, &self.array_script(grfgen), "--out")?;
        write_atomically(&merge, &self.merge_script(grfgen), "--out")?;
        let array_id = sbatch(&[&array.display().to_string()])?;
        let merge_id = sbatch(&[
            &format!("--dependency=afterok:{array_id}"),
            &merge.display().to_string(),
        ])?;
        Ok((array_id, merge_id))
    }
}

/// Runs `sbatch --parsable ARGS`: the job id.
fn sbatch(args: &[&str]) -> Result<String, CliError> {
    let out = Command::new("sbatch")
        .arg("--parsable")
        .args(args)
        .output()
        .map_err(|e| CliError::Failed(format!("sbatch: {e} (is Slurm installed? scripts/local-slurm.sh start runs one here)")))?;
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
