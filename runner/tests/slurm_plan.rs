//! `rdnaprobe plan --slurm` on a real single-node Slurm cluster (scripts/slurm/local-cluster:
//! munged, slurmctld and slurmd started in a temporary directory). A sharded cpu sweep runs as
//! an array job; one task is cancelled in the middle of its shard, the merge that waited for
//! the array is dropped by Slurm, and submitting the plan again resumes that shard from its
//! journal (it computes only the rows it had not committed) and merges. The merged dataset is
//! byte for byte the unsharded sweep's.
//!
//! Where the daemons cannot start (not installed, not root) the test says so and passes;
//! with CI=true it fails instead.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use common::add_f32_spec;

/// 864 rows in 4 shards of 216, each 3 chunks of 72.
const SHARDS: u64 = 4;
const SHARD_ROWS: u64 = 216;
const CHUNK: u64 = 72;

struct Cluster {
    dir: PathBuf,
    conf: String,
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new(script()).arg("stop").arg(&self.dir).output();
    }
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/slurm/local-cluster")
}

fn start_cluster(dir: &Path) -> Option<Cluster> {
    let _ = Command::new(script()).arg("stop").arg(dir).output();
    let _ = std::fs::remove_dir_all(dir);
    let out = Command::new(script()).arg("start").arg(dir).output();
    let failure = match &out {
        Ok(o) if o.status.success() => None,
        Ok(o) => Some(format!(
            "exit {:?}: {}",
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).trim()
        )),
        Err(e) => Some(e.to_string()),
    };
    if let Some(why) = failure {
        if std::env::var("CI").as_deref() == Ok("true") {
            panic!("CI=true and the local Slurm cluster did not start: {why}");
        }
        eprintln!("SKIPPED: a local Slurm cluster cannot start here ({why})");
        return None;
    }
    let conf = String::from_utf8_lossy(&out.expect("ran").stdout)
        .lines()
        .find_map(|l| l.strip_prefix("SLURM_CONF=").map(str::to_string))
        .expect("SLURM_CONF line");
    Some(Cluster {
        dir: dir.to_path_buf(),
        conf,
    })
}

fn ok(o: &Output) -> String {
    assert!(
        o.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn slurm(c: &Cluster, tool: &str, args: &[&str]) -> Output {
    Command::new(tool)
        .args(args)
        .env("SLURM_CONF", &c.conf)
        .output()
        .expect("slurm client")
}

/// Runs submit.sh; returns (array job, merge job).
fn submit(c: &Cluster, plan: &Path, delay_ms: Option<u64>) -> (String, String) {
    let mut cmd = Command::new("sh");
    cmd.arg(plan.join("submit.sh")).env("SLURM_CONF", &c.conf);
    match delay_ms {
        Some(ms) => cmd.env("RDNAPROBE_SWEEP_CHUNK_DELAY_MS", ms.to_string()),
        None => cmd.env_remove("RDNAPROBE_SWEEP_CHUNK_DELAY_MS"),
    };
    let out = ok(&cmd.output().expect("submit.sh"));
    let words: Vec<&str> = out.split_whitespace().collect();
    assert_eq!(words.len(), 4, "{out}");
    (words[1].to_string(), words[3].to_string())
}

/// Waits until Slurm lists no job of this cluster.
fn wait_idle(c: &Cluster, limit: Duration) {
    let start = Instant::now();
    loop {
        let q = ok(&slurm(c, "squeue", &["-h", "-o", "%i %T %r"]));
        if q.trim().is_empty() {
            return;
        }
        assert!(start.elapsed() < limit, "jobs still queued: {q}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

fn rows_done(journal: &Path) -> Option<u64> {
    let text = std::fs::read_to_string(journal).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    v["rows_done"].as_u64()
}

#[test]
fn a_sharded_sweep_runs_as_an_array_and_a_cancelled_shard_resumes() {
    let started = Instant::now();
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("slurm-plan");
    let Some(cluster) = start_cluster(&d.join("cluster")) else {
        return;
    };
    // A previous run's finished shards would make every task return at once.
    let work = d.join("work");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).expect("work dir");
    std::fs::write(work.join("spec.toml"), add_f32_spec("slurm_test", true)).expect("spec");
    let plan = work.join("plan");
    let out = ok(&common::command(["plan"])
        .arg(work.join("spec.toml"))
        .args(["--shards", &SHARDS.to_string(), "--backend", "cpu"])
        .args(["--chunk", &CHUNK.to_string(), "--slurm", "-o"])
        .arg(&plan)
        .output()
        .expect("plan"));
    assert!(out.contains("864 rows in 4 shard(s)"), "{out}");
    let sbatch = std::fs::read_to_string(plan.join("sweep.sbatch")).expect("sweep.sbatch");
    assert!(sbatch.contains("#SBATCH --array=1-4"), "{sbatch}");
    assert!(sbatch.contains("--resume"), "{sbatch}");

    // First submission, slow chunks: cancel task 2 once it has committed a chunk.
    let (array, merge) = submit(&cluster, &plan, Some(1500));
    let journal = plan.join("shards/shard-00002.csv.journal");
    let wait = Instant::now();
    let done_at_cancel = loop {
        if let Some(n) = rows_done(&journal).filter(|n| *n >= CHUNK) {
            ok(&slurm(&cluster, "scancel", &[&format!("{array}_2")]));
            break n;
        }
        assert!(
            wait.elapsed() < Duration::from_secs(120),
            "shard 2 committed no chunk"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(
        done_at_cancel < SHARD_ROWS,
        "shard 2 finished before the cancel"
    );
    wait_idle(&cluster, Duration::from_secs(120));
    // The cancelled shard left its journal; the merge never ran.
    let left = rows_done(&journal).expect("journal of the cancelled shard");
    assert!((CHUNK..SHARD_ROWS).contains(&left), "rows done {left}");
    assert!(!plan.join("shards/shard-00002.csv").exists());
    assert!(plan.join("shards/shard-00001.csv").exists());
    assert!(
        !plan.join("merged.csv").exists(),
        "merge job {merge} ran after a cancelled task"
    );

    // Second submission: shard 2 resumes, the others are complete, the merge runs.
    submit(&cluster, &plan, None);
    wait_idle(&cluster, Duration::from_secs(180));
    let merged = std::fs::read(plan.join("merged.csv")).unwrap_or_else(|e| {
        panic!(
            "merged.csv: {e}; merge log: {}",
            std::fs::read_to_string(plan.join("logs/merge.log")).unwrap_or_default()
        )
    });
    let log = std::fs::read_to_string(plan.join("logs/shard-2.log")).expect("shard 2 log");
    let runs: Vec<&str> = log.lines().filter(|l| l.contains("this run:")).collect();
    assert_eq!(runs.len(), 1, "{log}");
    assert!(
        runs[0].contains(&format!("this run: {} rows", SHARD_ROWS - left)),
        "shard 2 did not resume from row {left}: {log}"
    );
    let unsharded = work.join("full.csv");
    ok(&common::command(["sweep"])
        .arg(work.join("spec.toml"))
        .args(["--backend", "cpu", "--chunk", &CHUNK.to_string(), "-o"])
        .arg(&unsharded)
        .output()
        .expect("sweep"));
    let full = std::fs::read(&unsharded).expect("full.csv");
    assert_eq!(full.iter().filter(|b| **b == b'\n').count(), 865);
    assert!(
        merged == full,
        "merged.csv differs from the unsharded sweep"
    );
    drop(cluster);
    eprintln!(
        "slurm plan test: {:.1} s wall",
        started.elapsed().as_secs_f64()
    );
}
