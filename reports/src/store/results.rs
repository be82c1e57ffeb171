//! Adding a run: the outputs and their hardware datasets go into `objects/`, every output row
//! is joined to its hardware row and classified (the diff engine, streaming), and the verdicts
//! are written as `runs/<id>/results.parquet` in batches of [`BATCH_ROWS`], so memory does not
//! grow with the run.
//!
//! Columns of `results.parquet` (one row per output row that found its hardware row):
//! `run`, `backend`, `family` (the dataset's stem), `instruction` (under test,
//! [`crate::subject`]), `mode` (label, `ieee=0 clamp=1 ...`), `wave`, `class`, `class_code`
//! ([`Class::code`]), `max_ulp`, `ulp_bucket` (log2 buckets of the report), `unexpected`,
//! `row_id` (the dataset's `row_id` cell, when it has that column), `file`, `row` (1-based data
//! row in the hardware dataset), and for rows that are not `exact`: `detail` (the worst output,
//! reference and candidate bits) and `repro` (a schema v1 line `rdnaprobe replay` runs).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use polars::prelude::*;
use rdnaprobe_dataset::{rfc3339_utc, sha256_file};

use super::{host_name, reference_of, run_id, write_run, Put, RunManifest, RunOutput, Store};
use crate::classify::Class;
use crate::diff::{diff_inputs, Options, RowDiff};
use crate::error::{Error, Result};
use crate::format;
use crate::input::{family_of, Input};
use crate::output::type_name;
use crate::report::aggregate::{pe, ulp_bucket};

/// Rows per written batch (a Parquet row group).
pub const BATCH_ROWS: usize = 1 << 16;

/// Settings of `store add`.
#[derive(Clone, Debug, Default)]
pub struct AddOptions {
    /// Hardware datasets to look the outputs' references up in (by hash).
    pub references: Vec<PathBuf>,
    pub diff: Options,
    /// Overrides the run's time (else the outputs' manifests' `created`).
    pub time: Option<String>,
    /// Overrides the host name.
    pub host: Option<String>,
}

/// What `store add` did.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Added {
    pub run: RunManifest,
    /// `false`: a run with the same outputs was already stored; nothing changed.
    pub new_run: bool,
    /// Files copied into `objects/` by this call (outputs and references).
    pub stored_files: u64,
    /// Files whose bytes were already stored.
    pub reused_files: u64,
}

/// One result row that did not come out of the diff engine (an exhaustive run's mismatch).
pub(super) struct PlainRow<'a> {
    pub backend: &'a str,
    pub family: &'a str,
    pub instruction: &'a str,
    pub row: &'a rdnaprobe_dataset::Row,
    pub class: Class,
    pub max_ulp: Option<u64>,
    pub file: &'a str,
    pub index: u64,
    pub detail: String,
}

#[derive(Default)]
struct Batch {
    backend: Vec<String>,
    family: Vec<String>,
    instruction: Vec<String>,
    mode: Vec<String>,
    wave: Vec<Option<u32>>,
    class: Vec<&'static str>,
    class_code: Vec<u32>,
    max_ulp: Vec<Option<u64>>,
    bucket: Vec<u32>,
    unexpected: Vec<bool>,
    row_id: Vec<Option<String>>,
    file: Vec<String>,
    row: Vec<u64>,
    detail: Vec<Option<String>>,
    repro: Vec<Option<String>>,
}

impl Batch {
    fn push(&mut self, d: &RowDiff, family: &str, file: &str, row_id_col: Option<usize>) {
        let row = &d.reference.row;
        self.backend.push(d.backend.clone());
        self.family.push(family.to_string());
        self.instruction.push(d.mnemonic().to_string());
        self.mode.push(format::mode(&row.mode, row.wave));
        self.wave.push(row.wave);
        self.class.push(d.class.name());
        self.class_code.push(d.class.code());
        self.max_ulp.push(d.max_ulp);
        self.bucket.push(ulp_bucket(d.max_ulp));
        self.unexpected.push(d.is_unexpected());
        self.row_id
            .push(row_id_col.and_then(|c| row.extra.get(c)).cloned());
        self.file.push(file.to_string());
        self.row.push(d.reference.index);
        let exact = matches!(d.class, Class::Exact | Class::NoOutputs);
        self.detail.push((!exact).then(|| detail(d)));
        self.repro
            .push((!exact).then(|| format::repro_csv_line(row)));
    }

    fn push_plain(&mut self, p: &PlainRow) {
        let exact = matches!(p.class, Class::Exact | Class::NoOutputs);
        self.backend.push(p.backend.to_string());
        self.family.push(p.family.to_string());
        self.instruction.push(p.instruction.to_string());
        self.mode.push(format::mode(&p.row.mode, p.row.wave));
        self.wave.push(p.row.wave);
        self.class.push(p.class.name());
        self.class_code.push(p.class.code());
        self.max_ulp.push(p.max_ulp);
        self.bucket.push(ulp_bucket(p.max_ulp));
        self.unexpected.push(!exact);
        self.row_id.push(None);
        self.file.push(p.file.to_string());
        self.row.push(p.index);
        self.detail.push((!exact).then(|| p.detail.clone()));
        self.repro
            .push((!exact).then(|| format::repro_csv_line(p.row)));
    }

    fn len(&self) -> usize {
        self.row.len()
    }

    fn frame(&mut self, run: &str) -> PolarsResult<DataFrame> {
        let b = std::mem::take(self);
        let n = b.row.len();
        DataFrame::new_infer_height(vec![
            Column::new("run".into(), vec![run.to_string(); n]),
            Column::new("backend".into(), b.backend),
            Column::new("family".into(), b.family),
            Column::new("instruction".into(), b.instruction),
            Column::new("mode".into(), b.mode),
            Column::new("wave".into(), b.wave),
            Column::new("class".into(), b.class),
            Column::new("class_code".into(), b.class_code),
            Column::new("max_ulp".into(), b.max_ulp),
            Column::new("ulp_bucket".into(), b.bucket),
            Column::new("unexpected".into(), b.unexpected),
            Column::new("row_id".into(), b.row_id),
            Column::new("file".into(), b.file),
            Column::new("row".into(), b.row),
            Column::new("detail".into(), b.detail),
            Column::new("repro".into(), b.repro),
        ])
    }
}

/// `out0 f32 ref 0x... got 0x...`, or the status message of an unsupported/error row.
fn detail(d: &RowDiff) -> String {
    match d.worst() {
        Some(w) => {
            let wide = w.ty == crate::dtype::DwordType::F64Lo;
            let h = |v: u64| {
                if wide {
                    format!("0x{v:016x}")
                } else {
                    format!("0x{v:08x}")
                }
            };
            format!(
                "{} {} ref {} got {}",
                crate::uniform::name(w),
                type_name(w.ty),
                h(w.reference),
                h(w.candidate)
            )
        }
        None => d.status_detail.clone().unwrap_or_default(),
    }
}

/// `runs/<id>/results.parquet` written in batches of [`BATCH_ROWS`] rows.
pub(super) struct ResultsWriter {
    id: String,
    path: PathBuf,
    file: fs::File,
    writer: Option<polars::io::parquet::write::BatchedWriter<fs::File>>,
    batch: Batch,
    rows: u64,
}

impl ResultsWriter {
    pub(super) fn create(path: &Path, id: &str) -> Result<ResultsWriter> {
        let file = fs::File::create(path).map_err(|e| Error::io(path, e))?;
        Ok(ResultsWriter {
            id: id.to_string(),
            path: path.to_path_buf(),
            file,
            writer: None,
            batch: Batch::default(),
            rows: 0,
        })
    }

    fn push(
        &mut self,
        d: &RowDiff,
        family: &str,
        file: &str,
        row_id_col: Option<usize>,
    ) -> Result<()> {
        self.batch.push(d, family, file, row_id_col);
        self.after_push()
    }

    pub(super) fn push_plain(&mut self, row: &PlainRow) -> Result<()> {
        self.batch.push_plain(row);
        self.after_push()
    }

    fn after_push(&mut self) -> Result<()> {
        self.rows += 1;
        if self.batch.len() >= BATCH_ROWS {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<()> {
        let df = self.batch.frame(&self.id).map_err(pe("results batch"))?;
        if self.writer.is_none() {
            let file = self
                .file
                .try_clone()
                .map_err(|e| Error::io(&self.path, e))?;
            let w = ParquetWriter::new(file)
                .batched(df.schema())
                .map_err(pe("results writer"))?;
            self.writer = Some(w);
        }
        if df.height() > 0 {
            self.writer
                .as_mut()
                .unwrap()
                .write_batch(&df)
                .map_err(pe("results write"))?;
        }
        Ok(())
    }

    /// Writes the last batch and the Parquet footer; the rows written.
    pub(super) fn finish(mut self) -> Result<u64> {
        if self.batch.len() > 0 || self.writer.is_none() {
            self.flush()?;
        }
        if let Some(w) = self.writer.take() {
            w.finish().map_err(pe("results finish"))?;
        }
        self.file.sync_all().map_err(|e| Error::io(&self.path, e))?;
        Ok(self.rows)
    }
}

/// Adds run outputs to `store` as one run: the replay outputs of one backend, or one
/// exhaustive result directory ([`super::exhaustive`]). Every input is checked before anything
/// is written; when the call fails, a store directory it created is removed again, and a run
/// appears only whole (written under `runs/.tmp-<id>`, then renamed).
pub fn add(store: &Store, outputs: &[PathBuf], options: &AddOptions) -> Result<Added> {
    let existed = store.dir.exists();
    let result = add_checked(store, outputs, options);
    if result.is_err() && !existed {
        let _ = fs::remove_dir_all(&store.dir);
    }
    result
}

fn add_checked(store: &Store, outputs: &[PathBuf], options: &AddOptions) -> Result<Added> {
    if outputs.is_empty() {
        return Err(Error::Usage("store add: no run outputs given".into()));
    }
    let exhaustive: Vec<Option<PathBuf>> = outputs
        .iter()
        .map(|p| super::exhaustive::result_manifest(p))
        .collect();
    if exhaustive.iter().any(Option::is_some) {
        return match exhaustive.as_slice() {
            [Some(m)] => super::exhaustive::add(store, m, options),
            _ => Err(Error::Usage(format!(
                "store add: {} is an exhaustive result; a run holds one exhaustive result \
                 directory, or replay outputs",
                outputs[exhaustive.iter().position(Option::is_some).unwrap()].display()
            ))),
        };
    }
    for p in outputs {
        if !p.is_file() {
            return Err(Error::Usage(format!(
                "{}: no such file (a run output is a replay output CSV or an exhaustive result \
                 directory)",
                p.display()
            )));
        }
    }
    let mut hashes = Vec::new();
    for p in outputs {
        hashes.push(sha256_file(p)?);
    }
    let id = run_id(&hashes);
    let run_json = store.run_dir(&id).join("run.json");
    if run_json.is_file() {
        return Ok(Added {
            run: super::read_run(&run_json)?,
            new_run: false,
            stored_files: 0,
            reused_files: outputs.len() as u64,
        });
    }
    let mut candidates = Vec::new();
    for p in &options.references {
        candidates.push((p.clone(), sha256_file(p)?));
    }
    // Check every output before anything is written.
    let mut plan: Vec<(PathBuf, PathBuf, Input)> = Vec::new();
    for p in outputs {
        let input = Input::open(p)?;
        if !input.has_backend_column() {
            return Err(Error::Usage(format!(
                "{}: not a replay output (no `backend` column); a run holds the outputs of \
                 `rdnaprobe replay`, or an `rdnaprobe exhaustive` result directory",
                p.display()
            )));
        }
        let reference = match reference_of(p, input.manifest.as_ref(), &candidates)? {
            Some(r) => r,
            // A sweep output was generated, not replayed: its hardware dataset is the
            // `--reference` of the same file name (or the only one given).
            None => match same_name(p, &options.references) {
                Some(r) => r,
                None => {
                    return Err(Error::Usage(format!(
                        "{}: its manifest names no hardware dataset (provenance.inputs); for a \
                         sweep output pass the hardware dataset of the same file name with \
                         --reference",
                        p.display()
                    )))
                }
            },
        };
        Input::open(&reference)?;
        plan.push((p.clone(), reference, input));
    }
    let producer = |i: &Input| i.manifest.as_ref().map(|m| m.producer.clone());
    let first = producer(&plan[0].2).unwrap_or_default();
    for (p, _, input) in &plan[1..] {
        let b = producer(input).unwrap_or_default().backend;
        if b != first.backend {
            return Err(Error::Usage(format!(
                "{}: backend {b:?} differs from {:?} of {}; a run holds one backend's outputs",
                p.display(),
                first.backend,
                plan[0].0.display()
            )));
        }
    }
    let is_sweep = plan
        .iter()
        .any(|(_, _, i)| i.manifest.as_ref().is_some_and(|m| m.sweep.is_some()));
    let time = match &options.time {
        Some(t) => t.clone(),
        None => plan
            .iter()
            .filter_map(|(_, _, i)| i.manifest.as_ref().map(|m| m.created.clone()))
            .min()
            .unwrap_or_else(|| rfc3339_utc(std::time::SystemTime::now())),
    };

    let store = Store::create(&store.dir)?;
    let tmp = begin_run(&store, &id)?;
    // A failure leaves no half-written run behind (after the rename there is nothing to remove).
    let _cleanup = RemoveOnDrop(tmp.clone());
    let (mut stored, mut reused) = (0u64, 0u64);
    let mut count = |put: Put| match put {
        Put::Stored => stored += 1,
        Put::AlreadyStored => reused += 1,
    };
    let mut results = ResultsWriter::create(&tmp.join("results.parquet"), &id)?;
    let mut run_outputs = Vec::new();
    let (mut rows, mut compared, mut exact, mut unexpected) = (0u64, 0u64, 0u64, 0u64);
    let mut classes: BTreeMap<String, u64> = BTreeMap::new();
    for (out_path, ref_path, mut cand) in plan {
        let mut reference = Input::open(&ref_path)?;
        let row_id_col = reference.extra_columns().iter().position(|c| c == "row_id");
        let family = family_of(&ref_path);
        let name = ref_path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let (summary, leftover) =
            diff_inputs(&mut reference, &mut cand, &options.diff, |d: &RowDiff| {
                results.push(d, &family, &name, row_id_col)
            })?;
        if summary.rows == 0 && leftover.candidate_only > 0 {
            return Err(Error::Usage(format!(
                "{}: none of its {} rows has a row in {} (not the same experiments)",
                out_path.display(),
                leftover.candidate_only,
                ref_path.display()
            )));
        }
        // The join saw every row of both files: no second pass to count them.
        let (out_file, put) = store.put(&out_path, Some(summary.rows + leftover.candidate_only))?;
        count(put);
        let (ref_file, put) = store.put(&ref_path, Some(summary.rows + leftover.reference_only))?;
        count(put);
        rows += out_file.rows;
        compared += summary.rows;
        exact += summary.count(Class::Exact);
        unexpected += summary.unexpected;
        for c in Class::ALL {
            if summary.count(c) > 0 {
                *classes.entry(c.name().to_string()).or_default() += summary.count(c);
            }
        }
        run_outputs.push(RunOutput {
            output: out_file,
            reference: Some(ref_file),
        });
    }
    results.finish()?;
    let run = RunManifest {
        id: id.clone(),
        kind: if is_sweep { "sweep" } else { "replay" }.into(),
        backend: first.backend.clone(),
        device: first.device.clone(),
        driver: first.driver.clone(),
        driver_version: first.runtime.clone(),
        recompiler_version: first.rdnaprobe_version.clone(),
        git_commit: first.git_commit.clone().unwrap_or_default(),
        time,
        added: rfc3339_utc(std::time::SystemTime::now()),
        host: options.host.clone().unwrap_or_else(host_name),
        outputs: run_outputs,
        rows,
        compared,
        exact,
        unexpected,
        classes,
        result_rows: None,
        modes: Vec::new(),
    };
    commit_run(&store, &tmp, &run)?;
    Ok(Added {
        run,
        new_run: true,
        stored_files: stored,
        reused_files: reused,
    })
}

/// The dataset among `references` with the file name of `output`, or the only one given.
fn same_name(output: &Path, references: &[PathBuf]) -> Option<PathBuf> {
    let name = output.file_name()?;
    references
        .iter()
        .find(|r| r.file_name() == Some(name))
        .or(match references {
            [one] => Some(one),
            _ => None,
        })
        .cloned()
}

/// A fresh `runs/.tmp-<id>` (what an interrupted add left there is removed first).
pub(super) fn begin_run(store: &Store, id: &str) -> Result<PathBuf> {
    let tmp = store.dir.join("runs").join(format!(".tmp-{id}"));
    let _ = fs::remove_dir_all(&tmp);
    fs::create_dir_all(&tmp).map_err(|e| Error::io(&tmp, e))?;
    Ok(tmp)
}

/// Writes `run.json` into the finished `tmp` and renames it to `runs/<id>`: the run appears
/// whole or not at all.
pub(super) fn commit_run(store: &Store, tmp: &Path, run: &RunManifest) -> Result<()> {
    let json = tmp.join("run.json");
    write_run(&json, run)?;
    fs::File::open(&json)
        .and_then(|f| f.sync_all())
        .map_err(|e| Error::io(&json, e))?;
    let dir = store.run_dir(&run.id);
    fs::rename(tmp, &dir).map_err(|e| Error::io(&dir, e))
}

/// Removes a directory when dropped.
pub(super) struct RemoveOnDrop(pub(super) PathBuf);

impl Drop for RemoveOnDrop {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Lazy scans of every run's `results.parquet` (one frame per run, concatenated), for
/// queries: `scan_results(&store)?.group_by([col("backend")]).agg([len()])`.
pub fn scan_results(store: &Store) -> Result<LazyFrame> {
    let runs = store.runs()?;
    if runs.is_empty() {
        return Err(Error::Usage(format!(
            "{}: the store holds no runs",
            store.dir.display()
        )));
    }
    let frames = runs
        .iter()
        .map(|r| scan_run(store, &r.id))
        .collect::<Result<Vec<_>>>()?;
    concat(frames, UnionArgs::default()).map_err(pe("scan results"))
}

/// The lazy scan of one run's results.
pub fn scan_run(store: &Store, id: &str) -> Result<LazyFrame> {
    let path = results_path(store, id);
    LazyFrame::scan_parquet(
        PlRefPath::new(path.to_string_lossy().as_ref()),
        ScanArgsParquet::default(),
    )
    .map_err(pe("scan results"))
}

/// `runs/<id>/results.parquet`.
pub fn results_path(store: &Store, id: &str) -> PathBuf {
    store.run_dir(id).join("results.parquet")
}
