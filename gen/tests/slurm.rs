//! `grfgen sweep slurm` on a real one-node Slurm cluster (`scripts/local-slurm.sh`): a 4-shard
//! array and its merge job give, point for point, what an unsharded local sweep gives; a
//! regression's array writes its JUnit; `explore slurm`'s one job gives the local front. Needs
//! root (CI runs as root, and there it must run); elsewhere it says so and is skipped.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;

/// The cluster `start` brought up, stopped when dropped.
struct Cluster {
    state: PathBuf,
    conf: String,
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/local-slurm.sh")
}

impl Cluster {
    fn start(state: &Path) -> Self {
        let out = Command::new(script())
            .arg("start")
            .env("GRFGEN_SLURM_DIR", state)
            .output()
            .expect("the script runs");
        assert!(
            out.status.success(),
            "scripts/local-slurm.sh start: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let conf = String::from_utf8_lossy(&out.stdout).trim().to_string();
        Self {
            state: state.to_path_buf(),
            conf,
        }
    }

    /// Runs `grfgen` with `args` against this cluster (it submits jobs and returns); panics
    /// with its error unless it succeeds.
    fn submit(&self, args: &[String]) {
        let submitted = Command::new(env!("CARGO_BIN_EXE_grfgen"))
            .args(args)
            .env("SLURM_CONF", &self.conf)
            .output()
            .unwrap();
        assert!(
            submitted.status.success(),
            "{}",
            String::from_utf8_lossy(&submitted.stderr)
        );
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new(script())
            .arg("stop")
            .env("GRFGEN_SLURM_DIR", &self.state)
            .status();
    }
}

fn root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// Per point: its figures.
fn figures(dir: &Path) -> Vec<(u64, Value)> {
    let text = std::fs::read_to_string(dir.join("results.jsonl")).unwrap_or_default();
    let mut out: Vec<(u64, Value)> = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .map(|r| (r["index"].as_u64().unwrap(), r["metrics"].clone()))
        .collect();
    out.sort_by_key(|p| p.0);
    out
}

#[test]
fn a_sweep_sharded_over_a_slurm_array_merges_into_the_local_sweep() {
    if !root() {
        eprintln!("SKIPPED: a local Slurm cluster needs root (scripts/local-slurm.sh); CI runs it");
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let cluster = Cluster::start(&work.path().join("slurm"));
    sharded_sweep_gives_the_local_sweep(&cluster, work.path());
    regression_array_writes_its_junit(&cluster, work.path());
    exploration_job_gives_the_local_front(&cluster, work.path());
}

/// Waits for `done` up to `limit`, failing with `what` after it.
fn wait_for(done: impl Fn() -> bool, limit: Duration, what: &str) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < limit, "{what}");
        std::thread::sleep(Duration::from_millis(250));
    }
}

/// A 4-shard sweep array and its merge job give, point for point, the local sweep's figures.
fn sharded_sweep_gives_the_local_sweep(cluster: &Cluster, work: &Path) {
    let (sharded, local) = (work.join("sharded"), work.join("local"));
    let sweep = |out: &Path| -> Vec<String> {
        [
            "gpr",
            "--set",
            "banks=1,2,4",
            "--set",
            "read-ports=2,4",
            "--set",
            "load=50,90",
            "--cycles",
            "20000",
            "--seed",
            "9",
            "--no-rtl",
            "--out",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([out.display().to_string()])
        .collect()
    };
    let args: Vec<String> = ["sweep", "slurm"]
        .iter()
        .map(|s| s.to_string())
        .chain(sweep(&sharded))
        .chain(["--shards".to_string(), "4".to_string()])
        .collect();
    cluster.submit(&args);
    // The merge job writes DIR/results.jsonl once all four tasks succeeded.
    let merged = || figures(&sharded).len() >= 12;
    wait_for(merged, Duration::from_secs(180), "the jobs did not finish");
    for task in 0..4 {
        assert!(
            sharded
                .join(format!("shards/{task}/results.jsonl"))
                .exists(),
            "task {task}"
        );
    }
    let ran = Command::new(env!("CARGO_BIN_EXE_grfgen"))
        .arg("sweep")
        .args(sweep(&local))
        .output()
        .unwrap();
    assert!(ran.status.success());
    assert_eq!(figures(&sharded), figures(&local));
}

/// A regression over two array tasks: the merge job writes the JUnit of all its runs.
fn regression_array_writes_its_junit(cluster: &Cluster, work: &Path) {
    let regress = work.join("regress");
    let junit = work.join("junit.xml");
    let args = [
        "regress", "--blocks", "alloc", "--seeds", "1", "--cycles", "2000", "--seed", "4",
        "--slurm", "2", "--out",
    ];
    let args: Vec<String> = args
        .iter()
        .map(|s| s.to_string())
        .chain([
            regress.display().to_string(),
            "--junit".into(),
            junit.display().to_string(),
        ])
        .collect();
    cluster.submit(&args);
    let written = || junit.exists();
    wait_for(
        written,
        Duration::from_secs(300),
        "the regression did not finish",
    );
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(
        xml.contains("<testsuite name=\"alloc\" tests=\"8\" failures=\"0\""),
        "{xml}"
    );
}

/// An exploration as one job: the same front and recommendation as run here.
fn exploration_job_gives_the_local_front(cluster: &Cluster, work: &Path) {
    let explore = |out: &Path| -> Vec<String> {
        [
            "gpr",
            "--banks",
            "2,4",
            "--lanes",
            "1",
            "--registers",
            "64",
            "--budget-pnr",
            "1",
            "--budget-synth",
            "2",
            "--seed",
            "5",
            "--out",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([out.display().to_string()])
        .collect()
    };
    let remote = work.join("explore-slurm");
    let args: Vec<String> = ["explore", "slurm"]
        .iter()
        .map(|s| s.to_string())
        .chain(explore(&remote))
        .chain(["--cpus".to_string(), "1".to_string()])
        .collect();
    cluster.submit(&args);
    let written = || remote.join("explore.json").exists();
    wait_for(
        written,
        Duration::from_secs(300),
        "the exploration did not finish",
    );
    let here = work.join("explore-here");
    let ran = Command::new(env!("CARGO_BIN_EXE_grfgen"))
        .arg("explore")
        .args(explore(&here))
        .args(["--jobs", "1"])
        .output()
        .unwrap();
    assert!(
        ran.status.success(),
        "{}",
        String::from_utf8_lossy(&ran.stderr)
    );
    let read = |dir: &Path| -> Value {
        serde_json::from_str(&std::fs::read_to_string(dir.join("explore.json")).unwrap()).unwrap()
    };
    let (there, local) = (read(&remote), read(&here));
    assert_eq!(there["front"], local["front"]);
    assert_eq!(there["recommendation"], local["recommendation"]);
}

/// Runs `grfgen sweep slurm` into `out` with `env` set; its status and standard error.
fn submit_without_a_cluster(out: &Path, env: &[(&str, &str)]) -> (Option<i32>, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_grfgen"));
    command.args([
        "sweep", "slurm", "gpr", "--banks", "1,2", "--cycles", "100", "--no-rtl",
    ]);
    command
        .args(["--seed", "3", "--shards", "2", "--out"])
        .arg(out);
    for (name, value) in env {
        command.env(name, value);
    }
    let ran = command.output().unwrap();
    (
        ran.status.code(),
        String::from_utf8_lossy(&ran.stderr).into_owned(),
    )
}

#[test]
fn without_a_reachable_controller_submission_is_one_line_and_leaves_nothing() {
    let work = tempfile::tempdir().unwrap();
    // No sbatch at all.
    let out = work.path().join("none");
    let (status, err) = submit_without_a_cluster(&out, &[("PATH", "/nonexistent")]);
    assert_eq!(status, Some(1), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.contains("cannot run sbatch") && err.contains("nothing was submitted"),
        "{err}"
    );
    assert!(!out.exists(), "{} was left behind", out.display());
    // sbatch installed, but its controller (a closed port on this machine) does not answer.
    if Command::new("sbatch").arg("--version").output().is_err() {
        eprintln!("SKIPPED: the unreachable-controller half needs sbatch (slurm-wlm)");
        return;
    }
    let conf = work.path().join("slurm.conf");
    std::fs::write(
        &conf,
        "ClusterName=nowhere\nSlurmctldHost=nowhere(127.0.0.1)\nSlurmctldPort=9\n\
         AuthType=auth/none\nMessageTimeout=2\nNodeName=n1 CPUs=1\n\
         PartitionName=p Nodes=ALL Default=YES\n",
    )
    .unwrap();
    std::fs::create_dir(work.path().join("kept")).unwrap();
    let out = work.path().join("kept/sweep");
    let (status, err) = submit_without_a_cluster(&out, &[("SLURM_CONF", conf.to_str().unwrap())]);
    assert_eq!(status, Some(1), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("Slurm refused the job"), "{err}");
    assert!(!out.exists(), "{} was left behind", out.display());
    assert!(
        work.path().join("kept").exists(),
        "a directory that was there was removed"
    );
}
