//! The Slurm form of a plan, written into the plan's directory:
//! - `sweep.sbatch`: an array job, task i runs `rdnaprobe sweep SPEC --shard i/N --resume`
//!   into `shards/shard-i.csv`. `--resume` makes every start of a task safe: a first start
//!   begins the shard, a start after preemption, cancellation or a node failure continues from
//!   the shard's journal, a start of a finished shard returns at once. `--requeue` lets Slurm
//!   restart preempted tasks by itself.
//! - `merge.sbatch`: `rdnaprobe merge` of the shards into `merged.csv` (the dataset the
//!   unsharded sweep writes).
//! - `submit.sh`: submits the array and the merge with `--dependency=afterok:ARRAY`. Run it
//!   again after a task was cancelled or failed: only the unfinished shards do any work.
//! - `plan.json`: the plan's parameters and shards.

use std::path::{Path, PathBuf};

use anyhow::Context;

use super::{Args, ShardPlan};
use crate::sweep::spec::Sweep;

pub const SWEEP: &str = "sweep.sbatch";
pub const MERGE: &str = "merge.sbatch";
pub const SUBMIT: &str = "submit.sh";
pub const PLAN: &str = "plan.json";

/// Quotes `s` for a POSIX shell.
fn sh(s: &str) -> String {
    if !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-+=:,@%".contains(&b))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

fn path_sh(p: &Path) -> String {
    sh(&p.display().to_string())
}

/// The shard file of task `i`: numbered so that a glob lists them in order.
pub fn shard_file(dir: &Path, index: u64) -> PathBuf {
    dir.join("shards").join(format!("shard-{index:05}.csv"))
}

fn absolute(p: &Path) -> anyhow::Result<PathBuf> {
    std::path::absolute(p)
        .with_context(|| format!("{}: cannot make the path absolute", p.display()))
}

/// Writes the job scripts; returns the files written.
pub fn write(
    args: &Args,
    sweep: &Sweep,
    shards: &[ShardPlan],
    dir: &Path,
) -> anyhow::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir.join("shards"))
        .with_context(|| format!("creating {}", dir.display()))?;
    std::fs::create_dir_all(dir.join("logs"))?;
    let dir = absolute(dir)?;
    let spec = absolute(&args.spec)?;
    let binary = match &args.binary {
        Some(b) => b.clone(),
        None => std::env::current_exe().context("locating the rdnaprobe binary")?,
    };
    let n = args.shards;
    let name: String = sweep
        .spec
        .name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let mut common = String::new();
    for (key, value) in [
        ("partition", &args.partition),
        ("account", &args.account),
        ("time", &args.time),
    ] {
        if let Some(v) = value {
            common.push_str(&format!("#SBATCH --{key}={}\n", sh(v)));
        }
    }
    let mut task = common.clone();
    if let Some(g) = &args.gres {
        task.push_str(&format!("#SBATCH --gres={}\n", sh(g)));
    }
    if let Some(c) = args.cpus_per_task {
        task.push_str(&format!("#SBATCH --cpus-per-task={c}\n"));
    }
    let sweep_script = format!(
        "#!/bin/bash\n\
         # One task per shard of {spec_name}: rdnaprobe plan --slurm wrote this file.\n\
         #SBATCH --job-name=rdnaprobe-{name}\n\
         #SBATCH --array=1-{n}\n\
         #SBATCH --ntasks=1\n\
         #SBATCH --requeue\n\
         #SBATCH --open-mode=append\n\
         #SBATCH --output={logs}/shard-%a.log\n\
         {task}\
         set -euo pipefail\n\
         i=${{SLURM_ARRAY_TASK_ID:?run this script with sbatch}}\n\
         out=$(printf '{shards}/shard-%05d.csv' \"$i\")\n\
         echo \"shard $i/{n} on $(hostname) at $(date -u +%FT%TZ), job ${{SLURM_JOB_ID:-?}}\"\n\
         exec {bin} sweep {spec} --backend {backend} --chunk {chunk} --shard \"$i/{n}\" --resume -o \"$out\"\n",
        spec_name = sweep.spec.name,
        logs = path_sh(&dir.join("logs")),
        shards = dir.join("shards").display(),
        bin = path_sh(&binary),
        spec = path_sh(&spec),
        backend = sh(&args.backend),
        chunk = args.chunk,
    );
    let inputs: Vec<String> = (1..=n).map(|i| path_sh(&shard_file(&dir, i))).collect();
    let merged = dir.join("merged.csv");
    let merge_script = format!(
        "#!/bin/bash\n\
         # Merges the {n} shards of {spec_name} once every task of the array has finished.\n\
         #SBATCH --job-name=rdnaprobe-{name}-merge\n\
         #SBATCH --ntasks=1\n\
         #SBATCH --output={log}\n\
         {common}\
         set -euo pipefail\n\
         rm -f {merged}\n\
         exec {bin} merge {inputs} -o {merged}\n",
        spec_name = sweep.spec.name,
        log = path_sh(&dir.join("logs").join("merge.log")),
        merged = path_sh(&merged),
        bin = path_sh(&binary),
        inputs = inputs.join(" "),
    );
    let submit = format!(
        "#!/bin/sh\n\
         # Submits the shard array and the merge that waits for it (afterok). Run it again after\n\
         # a task was cancelled, preempted or failed: finished shards return at once, the others\n\
         # continue from their journals, and a new merge waits for the new array.\n\
         set -eu\n\
         cd {dir}\n\
         array=$(sbatch --parsable {sweep} \"$@\")\n\
         array=${{array%%;*}}\n\
         merge=$(sbatch --parsable --dependency=afterok:$array --kill-on-invalid-dep=yes {merge})\n\
         merge=${{merge%%;*}}\n\
         echo \"array $array merge $merge\"\n",
        dir = path_sh(&dir),
        sweep = SWEEP,
        merge = MERGE,
    );
    let plan = serde_json::json!({
        "spec": spec,
        "name": sweep.spec.name,
        "rows": sweep.total_rows(),
        "backend": args.backend,
        "chunk": args.chunk,
        "binary": binary,
        "gres": args.gres,
        "partition": args.partition,
        "account": args.account,
        "time": args.time,
        "cpus_per_task": args.cpus_per_task,
        "shards": shards,
        "shard_files": (1..=n).map(|i| shard_file(&dir, i)).collect::<Vec<_>>(),
        "merged": merged,
    });
    let mut written = Vec::new();
    for (file, text, exec) in [
        (SWEEP, sweep_script, true),
        (MERGE, merge_script, true),
        (SUBMIT, submit, true),
        (PLAN, serde_json::to_string_pretty(&plan)? + "\n", false),
    ] {
        let path = dir.join(file);
        std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
        if exec {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))?;
        }
        written.push(path);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::sh;

    #[test]
    fn shell_quoting() {
        assert_eq!(sh("gpu:1"), "gpu:1");
        assert_eq!(sh("/a b/c"), "'/a b/c'");
        assert_eq!(sh("it's"), "'it'\\''s'");
        assert_eq!(sh(""), "''");
    }
}
