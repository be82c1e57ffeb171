//! `rdnaprobe plan SPEC --shards N [--slurm -o DIR] [--estimate]`: how a sweep spec runs as N
//! shards. Prints the shards' row ranges; `--estimate` adds the rows, the device hours at a
//! rows-per-second rate (measured on a short local sample, or given) and the output size;
//! `--slurm -o DIR` writes the Slurm job scripts ([`slurm`]): an array job with one task per
//! shard, each task resumable from its journal, and the merge as a job that waits for it.

mod estimate;
mod slurm;

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use serde::Serialize;

use crate::plan::order::Shard;

#[derive(clap::Args)]
pub struct Args {
    /// The sweep spec (TOML, docs/sweeps.md).
    pub spec: PathBuf,
    /// Number of shards (contiguous row slices, as `sweep --shard i/N`).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub shards: u64,
    /// Backend every shard runs on.
    #[arg(long, short, default_value = "cpu")]
    pub backend: String,
    /// Rows per chunk of each shard's sweep (one backend call and one journal commit each).
    #[arg(long, default_value_t = 4096)]
    pub chunk: u64,
    /// Write Slurm job scripts into `-o DIR` (see docs/cluster.md).
    #[arg(long, requires = "output")]
    pub slurm: bool,
    /// The plan's directory: job scripts, shard outputs, logs and the merged dataset.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Generic resources each shard task asks for (`#SBATCH --gres`), e.g. `gpu:1`.
    #[arg(long)]
    pub gres: Option<String>,
    /// Slurm partition.
    #[arg(long)]
    pub partition: Option<String>,
    /// Slurm account.
    #[arg(long)]
    pub account: Option<String>,
    /// Time limit per shard task (`#SBATCH --time`), e.g. `04:00:00`.
    #[arg(long)]
    pub time: Option<String>,
    /// CPUs per shard task.
    #[arg(long)]
    pub cpus_per_task: Option<u32>,
    /// The rdnaprobe binary the jobs run (default: this one). On a cluster: its path there.
    #[arg(long)]
    pub binary: Option<PathBuf>,
    /// Print rows, expected device hours and output size.
    #[arg(long)]
    pub estimate: bool,
    /// Rows per second of the backend for `--estimate` (default: measured on a local sample).
    #[arg(long)]
    pub rows_per_s: Option<f64>,
}

/// One shard of the plan.
#[derive(Clone, Debug, Serialize)]
pub struct ShardPlan {
    pub shard: String,
    pub first_row: u64,
    pub rows: u64,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let sweep = super::sweep::load(&args.spec)?;
    let total = sweep.total_rows();
    let shards: Vec<ShardPlan> = (1..=args.shards)
        .map(|index| {
            let s = Shard {
                index,
                count: args.shards,
            };
            let r = s.range(total);
            ShardPlan {
                shard: s.to_string(),
                first_row: r.start,
                rows: r.end - r.start,
            }
        })
        .collect();
    let mut out = String::new();
    out.push_str(&format!(
        "{}: {} rows in {} shard(s) on {}\n",
        sweep.spec.name, total, args.shards, args.backend
    ));
    for s in &shards {
        out.push_str(&format!(
            "  shard {:>9}  rows {}..{} ({})\n",
            s.shard,
            s.first_row,
            s.first_row + s.rows,
            s.rows
        ));
    }
    if args.estimate {
        let e = estimate::estimate(&sweep, &args)?;
        out.push_str(&e.render(args.shards));
    }
    if args.slurm {
        let dir = args.output.as_ref().context("--slurm needs -o DIR")?;
        let files = slurm::write(&args, &sweep, &shards, dir)?;
        out.push_str(&format!(
            "wrote {}; submit with: sh {}\n",
            files
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
            dir.join(slurm::SUBMIT).display()
        ));
    }
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(out.as_bytes())?;
    stdout.flush()?;
    Ok(ExitCode::SUCCESS)
}
