//! `rdnaprobe regress OLD NEW`: which rows got better or worse against the hardware between two
//! runs (two revisions, two drivers, or two backends of one run). OLD and NEW are replay
//! output files, directories of them, or run ids of `--store`. Exit 1 when a row regressed.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use rdnaprobe_reports::regress::{regress, write_markdown, write_table, Side};
use rdnaprobe_reports::store::{reference_of, Store};
use rdnaprobe_reports::{Input, Known, Options};

use super::TableOrJson;

/// How `regress` prints its result.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum Format {
    /// Aligned plain-text table.
    Table,
    Json,
    /// Markdown table, to paste into a pull request.
    Md,
}

#[derive(clap::Args)]
pub struct Args {
    /// The old outputs: a replay output, a directory of them, or a run id of --store.
    pub old: String,
    /// The new outputs (same forms).
    pub new: String,
    /// The results store holding runs named by id.
    #[arg(long, value_name = "DIR")]
    pub store: Option<PathBuf>,
    /// Only the rows of this backend on the OLD side (two backends of one run).
    #[arg(long)]
    pub old_backend: Option<String>,
    /// Only the rows of this backend on the NEW side.
    #[arg(long)]
    pub new_backend: Option<String>,
    /// The hardware datasets (default: the ones the outputs' manifests name).
    #[arg(long = "reference", value_name = "DATASET", num_args = 1..)]
    pub references: Vec<PathBuf>,
    /// Known-discrepancy file (TOML).
    #[arg(long)]
    pub known: Option<PathBuf>,
    #[command(flatten)]
    pub ulp: super::args::Ulp,
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// The files of one side, and the hardware datasets their store run names (`None`: not a
/// store run).
type Files = (Vec<PathBuf>, Option<Vec<PathBuf>>);

fn files_of(spec: &str, store: Option<&Store>) -> anyhow::Result<Files> {
    let path = Path::new(spec);
    if path.is_file() {
        return Ok((vec![path.to_path_buf()], None));
    }
    if path.is_dir() {
        let mut files: Vec<PathBuf> = std::fs::read_dir(path)
            .with_context(|| format!("{spec}: read directory"))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "csv"))
            .collect();
        files.sort();
        if files.is_empty() {
            anyhow::bail!("{spec}: directory holds no .csv file");
        }
        return Ok((files, None));
    }
    let Some(store) = store else {
        anyhow::bail!("{spec}: no such file or directory (a run id needs --store DIR)");
    };
    let run = store.find(spec)?;
    if run.kind == "exhaustive" {
        anyhow::bail!(
            "{spec}: run {} is of kind {}; regress compares replay and sweep runs (their rows against \
             the hardware)",
            run.id,
            run.kind
        );
    }
    let outputs = run
        .outputs
        .iter()
        .map(|o| store.path_of(&o.output))
        .collect();
    let refs = run
        .outputs
        .iter()
        .filter_map(|o| o.reference.as_ref().map(|r| store.path_of(r)))
        .collect();
    Ok((outputs, Some(refs)))
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let store = match &args.store {
        Some(dir) => Some(Store::open(dir)?),
        None => None,
    };
    let (old_files, old_refs) = files_of(&args.old, store.as_ref())?;
    let (new_files, new_refs) = files_of(&args.new, store.as_ref())?;
    let reference = if !args.references.is_empty() {
        args.references.clone()
    } else {
        let mut refs = Vec::new();
        let mut unresolved = Vec::new();
        for (files, stored) in [(&new_files, new_refs), (&old_files, old_refs)] {
            match stored {
                Some(r) => refs.extend(r),
                None => unresolved.extend(files.iter()),
            }
        }
        for f in unresolved {
            let input = Input::open(f)?;
            match reference_of(f, input.manifest.as_ref(), &[])? {
                Some(r) => refs.push(r),
                None => anyhow::bail!(
                    "{}: its manifest names no hardware dataset; pass --reference",
                    f.display()
                ),
            }
        }
        let mut unique: Vec<PathBuf> = Vec::new();
        for r in refs {
            let canon = r.canonicalize().unwrap_or(r);
            if !unique.contains(&canon) {
                unique.push(canon);
            }
        }
        unique
    };
    let known = match &args.known {
        Some(path) => Known::load(path)?,
        None => Known::default(),
    };
    let options = Options {
        ulp_k: args.ulp.ulp_k,
        known,
    };
    let side = |label: &str, files, backend| Side {
        label: label.to_string(),
        files,
        backend,
    };
    let result = regress(
        &reference,
        &side(&args.old, old_files, args.old_backend),
        &side(&args.new, new_files, args.new_backend),
        &options,
    )?;
    match args.format {
        Format::Table => super::print_report(TableOrJson::Table, &result, write_table)?,
        Format::Json => super::print_report(TableOrJson::Json, &result, write_table)?,
        Format::Md => super::print_report(TableOrJson::Table, &result, write_markdown)?,
    };
    Ok(if result.regressed() > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
