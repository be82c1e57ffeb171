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
    /// Image samples, gathers and loads: `software` (the model's rules, on every backend) or
    /// `native` (a Vulkan driver's own texture unit; docs/backends.md, "Native images").
    #[arg(long, value_name = "PATH", default_value = "software", value_parser = super::args::images)]
    pub images: rdnaprobe_recompiler::ImagePath,
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
    if sweep.spec.image.is_some() {
        return run_image(&args, &sweep);
    }
    if args.images == rdnaprobe_recompiler::ImagePath::Native {
        anyhow::bail!(
            "--images native: {} has no [image] table (native images apply to image sweeps)",
            args.spec.display()
        );
    }
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

/// An image sweep (`sweep::image`): its wave rows are written to `OUT.inputs.csv` (with a
/// manifest naming the spec), then replayed on the backend into OUT as `replay` does; OUT's
/// manifest records the spec too.
fn run_image(args: &Args, sweep: &Sweep) -> anyhow::Result<ExitCode> {
    let total = crate::sweep::image::total_rows(sweep);
    if args.dry_run {
        note!(
            "{}: {total} rows ({} lanes x the image variants): {}",
            sweep.spec.name,
            sweep.total_rows(),
            sweep.describe()
        );
        return Ok(ExitCode::SUCCESS);
    }
    if args.shard.is_some() || args.resume {
        anyhow::bail!(
            "{}: an image sweep runs whole (--shard and --resume are for lane sweeps); it is \
             small enough to run again",
            args.spec.display()
        );
    }
    super::check_output_file(&args.output)?;
    let ds = crate::sweep::image::dataset(sweep, &|asm: &str| {
        rdnaprobe_isa::assemble(asm).map_err(|e| anyhow::anyhow!("{e}"))
    })
    .with_context(|| format!("{}", args.spec.display()))?;
    let inputs = args.output.with_extension("inputs.csv");
    rdnaprobe_dataset::write_dataset(&inputs, &ds)?;
    let json = exec::sweep_json(sweep, None, 0..total);
    let generator = format!("rdnaprobe image sweep {}", sweep.spec.name);
    let mut m = rdnaprobe_dataset::Manifest::new_v1(
        &inputs,
        rdnaprobe_dataset::ManifestProducer {
            backend: "none: inputs only".into(),
            rdnaprobe_version: env!("CARGO_PKG_VERSION").into(),
            git_commit: rdnaprobe_dataset::git_commit(),
            ..Default::default()
        },
        ds.rows.len() as u64,
        rdnaprobe_dataset::sha256_file(&inputs)?,
    );
    m.generator.clone_from(&generator);
    m.sweep = Some(json.clone());
    m.write(&rdnaprobe_dataset::manifest_path(&inputs))?;
    let mut backend = crate::backend::open_images(&args.backend, args.images)?;
    super::allow_hazards(backend.as_mut(), args.allow_hazards);
    let label = super::args::backend_label(&args.backend, args.images);
    let tally = super::replay::replay_to_file(
        std::slice::from_ref(&inputs),
        &args.output,
        backend.as_mut(),
        &label,
        args.chunk.max(1) as usize,
    )?;
    let path = rdnaprobe_dataset::manifest_path(&args.output);
    let mut m = rdnaprobe_dataset::Manifest::read(&path)?;
    m.generator = format!("{generator}, replayed on {label}");
    m.sweep = Some(json);
    m.write(&path)?;
    note!("{}: {}", args.output.display(), tally.summary(None));
    Ok(ExitCode::SUCCESS)
}
