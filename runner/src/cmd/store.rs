//! `rdnaprobe store add RUN_OUTPUTS... --store DIR` and `rdnaprobe store ls --store DIR`: the
//! results store (docs/store.md). `add` needs the `report` feature (polars: the results are
//! Parquet); `ls` reads the run manifests only.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use rdnaprobe_reports::store::{RunManifest, Store};

use super::TableOrJson;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub command: StoreCommand,
}

#[derive(clap::Subcommand)]
pub enum StoreCommand {
    /// Add replay outputs, or an exhaustive result directory, as one run (content-addressed:
    /// the same outputs are stored once).
    Add(AddArgs),
    /// List the runs, oldest first.
    Ls(LsArgs),
}

#[derive(clap::Args)]
pub struct AddArgs {
    /// Replay outputs of one backend (`rdnaprobe replay -o`), each with its manifest, or one
    /// `rdnaprobe exhaustive` result directory.
    #[arg(required = true)]
    pub outputs: Vec<PathBuf>,
    /// The store directory (created when missing).
    #[arg(long, value_name = "DIR")]
    pub store: PathBuf,
    /// Hardware datasets the outputs were replayed from, when their recorded paths moved.
    #[arg(long = "reference", value_name = "DATASET", num_args = 1..)]
    pub references: Vec<PathBuf>,
    /// Known-discrepancy file (TOML): the results' `unexpected` flag leaves its rows out.
    #[arg(long)]
    pub known: Option<PathBuf>,
    #[command(flatten)]
    pub ulp: super::args::Ulp,
    /// The run's time (RFC 3339; default: the outputs' manifests' `created`).
    #[arg(long)]
    pub time: Option<String>,
    /// The host that made the run (default: this machine's name).
    #[arg(long)]
    pub host: Option<String>,
    #[arg(long, value_enum, default_value_t = TableOrJson::Table)]
    pub format: TableOrJson,
}

#[derive(clap::Args)]
pub struct LsArgs {
    /// The store directory.
    #[arg(long, value_name = "DIR")]
    pub store: PathBuf,
    #[arg(long, value_enum, default_value_t = TableOrJson::Table)]
    pub format: TableOrJson,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        StoreCommand::Add(a) => add(a),
        StoreCommand::Ls(a) => ls(a),
    }
}

#[cfg(feature = "report")]
fn add(args: AddArgs) -> anyhow::Result<ExitCode> {
    use rdnaprobe_reports::store::results::{add, AddOptions};
    use rdnaprobe_reports::{Known, Options};

    let known = match &args.known {
        Some(path) => Known::load(path)?,
        None => Known::default(),
    };
    // `add` creates the store only once every input checked out.
    let store = Store::at(&args.store);
    let options = AddOptions {
        references: args.references,
        diff: Options {
            ulp_k: args.ulp.ulp_k,
            known,
        },
        time: args.time,
        host: args.host,
    };
    let added = add(&store, &args.outputs, &options)?;
    super::print_report(args.format, &added, |out, a| {
        let r = &a.run;
        if a.new_run {
            writeln!(
                out,
                "added run {} ({}, {} output files, {} rows, {} compared, {:.1}% exact, {} unexpected); \
                 {} files stored, {} already stored",
                r.id,
                r.backend,
                r.outputs.len(),
                r.rows,
                r.compared,
                100.0 * r.exact_share(),
                r.unexpected,
                a.stored_files,
                a.reused_files
            )
        } else {
            writeln!(
                out,
                "already stored: run {} ({}, {}) holds these outputs; nothing added",
                r.id, r.backend, r.time
            )
        }
    })
}

#[cfg(not(feature = "report"))]
fn add(_args: AddArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("this rdnaprobe was built without the `report` feature (polars); rebuild with default features")
}

fn ls(args: LsArgs) -> anyhow::Result<ExitCode> {
    let store = Store::open(&args.store)?;
    let runs = store.runs()?;
    super::print_report(args.format, &runs, |out, runs| table(out, runs))
}

fn table(out: &mut impl Write, runs: &[RunManifest]) -> std::io::Result<()> {
    writeln!(
        out,
        "{:<16}  {:<20}  {:<10}  {:<18}  {:<28}  {:<10}  {:>8}  {:>7}  {:>10}  host",
        "run", "time", "kind", "backend", "driver", "commit", "rows", "exact", "unexpected"
    )?;
    for r in runs {
        let driver = if r.driver_version.is_empty() {
            r.driver.clone()
        } else {
            format!("{} {}", r.driver, r.driver_version)
        };
        writeln!(
            out,
            "{:<16}  {:<20}  {:<10}  {:<18}  {:<28}  {:<10}  {:>8}  {:>6.1}%  {:>10}  {}",
            r.id,
            r.time,
            r.kind,
            r.backend,
            clip(&driver, 28),
            clip(&r.git_commit, 10),
            r.rows,
            100.0 * r.exact_share(),
            r.unexpected,
            r.host
        )?;
    }
    Ok(())
}

fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        s.chars().take(n).collect()
    }
}
