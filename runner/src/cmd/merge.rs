//! `rdnaprobe merge SHARD.csv... -o OUT.csv`: joins sweep shards into the dataset the
//! unsharded sweep would have written. Shards are ordered by their `sweep_row` cells and must
//! tile the sweep's rows exactly (no gap, no overlap, same spec hash); files without a
//! `sweep_row` column are concatenated in the order given.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context};
use rdnaprobe_dataset::{manifest_path, sha256_file, AtomicFile, Manifest, Reader, Writer};

use crate::sweep::exec::tally_file;
use crate::sweep::spec::SWEEP_ROW_COLUMN;

#[derive(clap::Args)]
pub struct Args {
    /// Shard datasets (schema v1, with manifests when they come from `rdnaprobe sweep`).
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// The merged dataset; its manifest is written beside it.
    #[arg(long, short)]
    pub output: PathBuf,
}

struct Part {
    path: PathBuf,
    first: Option<u64>,
    manifest: Option<Manifest>,
}

fn first_sweep_row(path: &std::path::Path) -> anyhow::Result<(Vec<String>, Option<u64>)> {
    let mut r = Reader::open(path)?;
    let cols = r.extra_columns().to_vec();
    let col = cols.iter().position(|c| c == SWEEP_ROW_COLUMN);
    let first = match (col, r.read_row()?) {
        (Some(i), Some(row)) => Some(row.extra[i].parse::<u64>().with_context(|| {
            format!(
                "{}: bad {SWEEP_ROW_COLUMN} `{}`",
                path.display(),
                row.extra[i]
            )
        })?),
        _ => None,
    };
    Ok((cols, first))
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut parts = Vec::new();
    let mut columns: Option<Vec<String>> = None;
    for path in &args.inputs {
        let (cols, first) = first_sweep_row(path)?;
        match &columns {
            None => columns = Some(cols),
            Some(c) if *c != cols => bail!(
                "{}: extra columns {cols:?} differ from the first input's {c:?}",
                path.display()
            ),
            Some(_) => {}
        }
        let mpath = manifest_path(path);
        let manifest = if mpath.exists() {
            Some(Manifest::read(&mpath)?)
        } else {
            None
        };
        parts.push(Part {
            path: path.clone(),
            first,
            manifest,
        });
    }
    let columns = columns.unwrap_or_default();
    let sweep_col = columns.iter().position(|c| c == SWEEP_ROW_COLUMN);
    if sweep_col.is_some() {
        // Empty shards have no first row; they hold nothing to order.
        parts.sort_by_key(|p| p.first.unwrap_or(u64::MAX));
    }
    let hashes: Vec<Option<String>> = parts
        .iter()
        .map(|p| {
            p.manifest
                .as_ref()
                .and_then(|m| m.sweep.as_ref())
                .and_then(|s| s.get("spec_hash"))
                .and_then(|h| h.as_str().map(str::to_string))
        })
        .collect();
    if hashes.windows(2).any(|w| w[0] != w[1]) {
        bail!("the inputs come from different sweep specs (spec_hash differs between manifests)");
    }

    let label = args.output.display().to_string();
    super::check_output_file(&args.output)?;
    let file = AtomicFile::create(&args.output)?;
    let mut w = Writer::new(file, label.clone(), &[], &columns)?;
    let mut next: u64 = 0;
    let progress = crate::progress::Rows::new("merge", None);
    for part in &parts {
        let mut r = Reader::open(&part.path)?;
        while let Some(row) = r.read_row()? {
            if let Some(i) = sweep_col {
                let n: u64 = row.extra[i].parse().with_context(|| {
                    format!(
                        "{}: bad {SWEEP_ROW_COLUMN} `{}`",
                        part.path.display(),
                        row.extra[i]
                    )
                })?;
                if n != next {
                    bail!(
                        "{}: {SWEEP_ROW_COLUMN} {n} where {next} was expected: the shards overlap or leave a gap",
                        part.path.display()
                    );
                }
            }
            next += 1;
            w.write_row(&row, &[])?;
            if next % 4096 == 0 {
                progress.set(next);
            }
        }
    }
    progress.finish();
    let first_manifest = parts.iter().find_map(|p| p.manifest.clone());
    if let (Some(_), Some(total)) = (
        sweep_col,
        first_manifest
            .as_ref()
            .and_then(|m| m.sweep.as_ref())
            .and_then(|s| s.get("total_rows"))
            .and_then(|t| t.as_u64()),
    ) {
        if next != total {
            bail!("the shards hold {next} of the sweep's {total} rows: a shard is missing");
        }
    }
    w.finish()?.commit()?;

    let tally = tally_file(&args.output)?;
    let sha = sha256_file(&args.output)?;
    let mut manifest = match first_manifest {
        Some(m) => {
            let mut m2 = Manifest::new_v1(&args.output, m.producer.clone(), tally.rows, sha);
            m2.generator = m.generator.clone();
            m2.sweep = m.sweep.clone().map(|mut s| {
                if let Some(obj) = s.as_object_mut() {
                    obj.insert("shard".into(), serde_json::Value::Null);
                    obj.insert("rows".into(), serde_json::json!([0, next]));
                }
                s
            });
            m2.provenance = m.provenance.clone();
            m2
        }
        None => Manifest::new_v1(&args.output, Default::default(), tally.rows, sha),
    };
    manifest.defaults = tally.defaults_json();
    manifest.provenance.insert(
        "merged_from".into(),
        serde_json::json!(parts
            .iter()
            .map(|p| p.path.file_name().map(|n| n.to_string_lossy().into_owned()))
            .collect::<Vec<_>>()),
    );
    manifest.write(&manifest_path(&args.output))?;
    note!(
        "{label}: {} rows merged from {} files",
        tally.rows,
        parts.len()
    );
    Ok(ExitCode::SUCCESS)
}
