//! `rdnaprobe sweep SPEC.toml --backend B -o OUT.csv [--shard i/n] [--resume]`: generates the
//! rows of a sweep spec, runs them on a backend and writes a dataset with its manifest,
//! crash-safely (see `sweep::exec`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

use crate::sweep::exec::{self, Options, Shard};
use crate::sweep::spec::Sweep;

#[derive(clap::Args)]
pub struct Args {
    /// The sweep spec (TOML, docs/sweeps.md).
    pub spec: PathBuf,
    /// Backend: cpu, vulkan[:lavapipe|nvidia|radv|N], hip[:gfx10xx].
    #[arg(long, short)]
    pub backend: String,
    /// Output dataset (CSV); its manifest is written beside it.
    #[arg(long, short)]
    pub output: PathBuf,
    /// Run only the i-th of n contiguous slices of the rows (1-based), e.g. 2/4.
    #[arg(long)]
    pub shard: Option<Shard>,
    /// Continue an interrupted run into the same output.
    #[arg(long)]
    pub resume: bool,
    /// Rows per chunk: one backend call and one fsync each.
    #[arg(long, default_value_t = 4096)]
    pub chunk: u64,
    /// Print the row count and the generators, run nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// hip: run waves the hazard list refuses (instruction and format pairs known to hang the
    /// GPU; docs/oracle.md, Hazards). The watchdog still makes a hung kernel a row error.
    #[arg(long)]
    pub allow_hazards: bool,
}

/// Parses a spec file, assembling `asm` bodies with the project's assembler.
pub fn load(path: &std::path::Path) -> anyhow::Result<Sweep> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    Sweep::parse(&text, &|asm: &str| {
        rdnaprobe_isa::assemble(asm).map_err(|e| anyhow::anyhow!("{e}"))
    })
    .with_context(|| format!("{}", path.display()))
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let sweep = load(&args.spec)?;
    if args.dry_run {
        note!("{}: {}", sweep.spec.name, sweep.describe());
        return Ok(ExitCode::SUCCESS);
    }
    super::check_output_file(&args.output)?;
    let mut backend = crate::backend::open(&args.backend)?;
    super::allow_hazards(backend.as_mut(), args.allow_hazards);
    let opts = Options {
        backend: args.backend.clone(),
        shard: args.shard,
        resume: args.resume,
        chunk: args.chunk,
    };
    let tally = exec::run(&sweep, backend.as_mut(), &args.output, &opts)?;
    note!("{}: {}", args.output.display(), tally.summary(None));
    Ok(ExitCode::SUCCESS)
}
