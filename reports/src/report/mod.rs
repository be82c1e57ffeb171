//! The conformance report: per instruction x mode x backend the rows, exact share, max ULP
//! and class histogram; the instruction x backend matrix; the worst rows with a repro line;
//! ULP histograms; the mode defaults used for unstated cells. Written as `index.html`
//! (static, self-contained), `summary.md`, `summary.csv` and `summary.json`, plus
//! `plots/*.svg`, into a temporary directory that is renamed onto the target at the end.
//!
//! Inputs are datasets (hardware) and replay outputs. Each input file has a label: the backend
//! of its first row (replay outputs), or its manifest's producer backend, or `hardware`. The
//! reference is the label given by `--reference`, or else the one label of the files that
//! carry no `backend` column. Every other label is a candidate backend; its files are joined
//! to the reference files row by row (streaming, as in `diff`). Rows on one side only are
//! counted, not fatal: a backend may have replayed a subset.

pub mod aggregate;
mod pass;
pub(crate) mod plot;
mod render;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use rdnaprobe_dataset::ModeCells;
use serde::Serialize;

use crate::classify::Class;
use crate::diff::{Options, RowDiff};
use crate::error::{Error, Result};
use crate::format;
use crate::input::Input;
use crate::output::type_name;
use crate::pipeline::{diff_parallel, diff_parallel_seen};
use aggregate::{Aggregator, GroupRow, Histogram, MatrixCell};

/// How many worst rows the report keeps per instruction x mode x backend.
pub const WORST_PER_GROUP: usize = 3;

/// Settings of a report.
#[derive(Clone, Debug, Default)]
pub struct ReportOptions {
    /// Label of the reference inputs; `None`: the files without a `backend` column.
    pub reference: Option<String>,
    pub diff: Options,
    /// Title line of the report.
    pub title: Option<String>,
}

/// One input file as the report saw it.
#[derive(Clone, Debug, Serialize)]
pub struct InputInfo {
    pub path: String,
    pub label: String,
    pub role: &'static str,
    /// Producer and defaults from the manifest, when there is one.
    pub manifest: Option<ManifestInfo>,
}

#[derive(Clone, Debug, Serialize)]
pub struct ManifestInfo {
    pub backend: String,
    pub device: String,
    pub gfx: Option<String>,
    pub driver: String,
    /// Mode defaults the producer used for empty mode cells.
    pub defaults: BTreeMap<String, serde_json::Value>,
}

/// Rows found on one side only, per candidate backend.
#[derive(Clone, Debug, Serialize)]
pub struct Unmatched {
    pub backend: String,
    pub reference_only: u64,
    pub candidate_only: u64,
    pub first: String,
}

/// A row among the worst of its group, with what it takes to run it again.
#[derive(Clone, Debug, Serialize)]
pub struct WorstRow {
    pub group: u32,
    pub instruction: String,
    pub backend: String,
    pub mode: String,
    pub class: String,
    pub max_ulp: Option<u64>,
    pub expected: bool,
    /// The worst output: `out0 f32 ref 0x... got 0x...`, or the status message.
    pub detail: String,
    /// A `rdnaprobe replay` command that runs the experiment on the row's backend.
    pub repro: String,
    #[serde(skip)]
    pub(crate) rank: (Class, u64),
}

/// Everything the report holds.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub title: String,
    pub reference: String,
    pub ulp_k: u64,
    pub known_file: Option<String>,
    pub inputs: Vec<InputInfo>,
    pub backends: Vec<String>,
    pub reference_rows: u64,
    pub compared_rows: u64,
    pub unexpected_rows: u64,
    /// Reference rows with an empty cell, per mode field (`wave` and the seven mode cells).
    pub unstated: BTreeMap<String, u64>,
    pub matrix: Vec<MatrixCell>,
    pub groups: Vec<GroupRow>,
    pub worst: Vec<WorstRow>,
    pub unmatched: Vec<Unmatched>,
    pub histograms: Vec<Histogram>,
}

fn label_of(path: &Path) -> Result<(String, bool, Option<ManifestInfo>)> {
    if crate::input::is_parquet(path) {
        let (label, names_backend, manifest) = crate::pipeline::parquet_label(path)?;
        return Ok((label, names_backend, manifest.as_ref().map(manifest_info)));
    }
    let mut input = Input::open(path)?;
    let manifest = input.manifest.as_ref().map(manifest_info);
    let has_backend = input.has_backend_column();
    let label = if has_backend {
        match input.next_item()? {
            Some(item) => item.backend,
            None => input.default_backend().to_string(),
        }
    } else {
        input.default_backend().to_string()
    };
    Ok((label, has_backend, manifest))
}

fn manifest_info(m: &rdnaprobe_dataset::Manifest) -> ManifestInfo {
    ManifestInfo {
        backend: m.producer.backend.clone(),
        device: m.producer.device.clone(),
        gfx: m.producer.gfx.clone(),
        driver: m.producer.driver.clone(),
        defaults: m.defaults.clone(),
    }
}

fn count_unstated(unstated: &mut BTreeMap<String, u64>, mode: &ModeCells, wave: Option<u32>) {
    let fields = rdnaprobe_dataset::ModeField::ALL
        .into_iter()
        .map(|f| (f.name(), mode.get(f).is_none()));
    for (name, empty) in [("wave", wave.is_none())].into_iter().chain(fields) {
        if empty {
            *unstated.entry(name.to_string()).or_default() += 1;
        }
    }
}

pub(crate) fn worst_row(group: u32, d: &RowDiff) -> WorstRow {
    let row = &d.reference.row;
    let detail = match d.worst() {
        Some(w) => format!(
            "{} {} ref {} got {}",
            crate::uniform::name(w),
            type_name(w.ty),
            hex_value(w.ty, w.reference),
            hex_value(w.ty, w.candidate)
        ),
        None => d.status_detail.clone().unwrap_or_default(),
    };
    WorstRow {
        group,
        instruction: row.instruction.clone(),
        backend: d.backend.clone(),
        mode: format::mode(&row.mode, row.wave),
        class: d.class.name().to_string(),
        max_ulp: d.max_ulp,
        expected: d.known.is_some(),
        detail,
        repro: format::repro_command(row, &d.backend),
        rank: (d.class, d.max_ulp.unwrap_or(u64::MAX)),
    }
}

fn hex_value(ty: crate::dtype::DwordType, v: u64) -> String {
    if ty == crate::dtype::DwordType::F64Lo {
        format!("0x{v:016x}")
    } else {
        format!("0x{v:08x}")
    }
}

/// Builds the report of `inputs` (without writing anything).
pub fn build(inputs: &[PathBuf], options: &ReportOptions) -> Result<Report> {
    build_with_progress(inputs, options, &mut |_| {})
}

/// [`build`], calling `progress` with the number of rows compared after every batch.
pub fn build_with_progress(
    inputs: &[PathBuf],
    options: &ReportOptions,
    progress: &mut dyn FnMut(u64),
) -> Result<Report> {
    if inputs.is_empty() {
        return Err(Error::Usage("report: no input files".into()));
    }
    let mut infos = Vec::new();
    let mut no_backend_labels: Vec<String> = Vec::new();
    for path in inputs {
        let (label, has_backend, manifest) = label_of(path)?;
        if !has_backend && !no_backend_labels.contains(&label) {
            no_backend_labels.push(label.clone());
        }
        infos.push(InputInfo {
            path: path.display().to_string(),
            label,
            role: "candidate",
            manifest,
        });
    }
    let reference = match &options.reference {
        Some(r) => r.clone(),
        None if no_backend_labels.len() == 1 => no_backend_labels[0].clone(),
        None => {
            let labels: Vec<&str> = infos.iter().map(|i| i.label.as_str()).collect();
            return Err(Error::Usage(format!(
                "report: cannot tell the reference (inputs without a backend column: {}); \
                 pass --reference with one of: {}",
                if no_backend_labels.is_empty() {
                    "none".to_string()
                } else {
                    no_backend_labels.join(", ")
                },
                labels.join(", ")
            )));
        }
    };
    let mut reference_paths = Vec::new();
    let mut candidates: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for (info, path) in infos.iter_mut().zip(inputs) {
        if info.label == reference {
            info.role = "reference";
            reference_paths.push(path.clone());
        } else {
            candidates
                .entry(info.label.clone())
                .or_default()
                .push(path.clone());
        }
    }
    if reference_paths.is_empty() {
        let labels: Vec<&str> = infos.iter().map(|i| i.label.as_str()).collect();
        return Err(Error::Usage(format!(
            "report: no input is labelled {reference:?} (labels: {})",
            labels.join(", ")
        )));
    }
    if candidates.is_empty() {
        return Err(Error::Usage(format!(
            "report: every input is the reference {reference:?}; give replay outputs to compare"
        )));
    }

    let mut agg = Aggregator::default();
    let mut worst: HashMap<u32, Vec<WorstRow>> = HashMap::new();
    let mut unmatched = Vec::new();
    let mut reference_rows = 0u64;
    let mut unstated = BTreeMap::new();
    let (mut compared, mut unexpected) = (0u64, 0u64);
    let mut first_pass = true;
    for (backend, paths) in &candidates {
        let mut on_batch = |b: pass::Batch| {
            progress(b.rows());
            pass::absorb(b, &mut agg, &mut worst)
        };
        let (summary, leftover) = if first_pass {
            let mut seen = |mode: &ModeCells, wave: Option<u32>| {
                reference_rows += 1;
                count_unstated(&mut unstated, mode, wave);
            };
            diff_parallel_seen(
                &reference_paths,
                paths,
                &options.diff,
                &pass::Batch::default,
                &pass::fold,
                &mut on_batch,
                &mut seen,
            )?
        } else {
            diff_parallel(
                &reference_paths,
                paths,
                &options.diff,
                &pass::Batch::default,
                &pass::fold,
                &mut on_batch,
            )?
        };
        first_pass = false;
        compared += summary.rows;
        unexpected += summary.unexpected;
        if !leftover.is_empty() {
            unmatched.push(Unmatched {
                backend: backend.clone(),
                reference_only: leftover.reference_only,
                candidate_only: leftover.candidate_only,
                first: leftover.describe_first(),
            });
        }
    }
    let (keys, fine) = agg.finish()?;
    let tables = aggregate::tables(&keys, fine)?;
    let mut worst_rows: Vec<WorstRow> = Vec::new();
    for g in &tables.groups {
        if let Some(list) = worst.remove(&g.group) {
            worst_rows.extend(list);
        }
    }
    worst_rows.sort_by_key(|w| std::cmp::Reverse(w.rank));
    Ok(Report {
        title: options
            .title
            .clone()
            .unwrap_or_else(|| "rdnaprobe conformance report".into()),
        reference,
        ulp_k: options.diff.ulp_k,
        known_file: options
            .diff
            .known
            .path
            .as_ref()
            .map(|p| p.display().to_string()),
        inputs: infos,
        backends: candidates.keys().cloned().collect(),
        reference_rows,
        compared_rows: compared,
        unexpected_rows: unexpected,
        unstated,
        matrix: tables.matrix,
        groups: tables.groups,
        worst: worst_rows,
        unmatched,
        histograms: tables.histograms,
    })
}

/// Builds the report of `inputs` and writes it into `dir` (replacing what is there).
pub fn write_report(inputs: &[PathBuf], dir: &Path, options: &ReportOptions) -> Result<Report> {
    write_report_with_progress(inputs, dir, options, &mut |_| {})
}

/// [`write_report`], calling `progress` with the rows compared after every batch.
pub fn write_report_with_progress(
    inputs: &[PathBuf],
    dir: &Path,
    options: &ReportOptions,
    progress: &mut dyn FnMut(u64),
) -> Result<Report> {
    let report = build_with_progress(inputs, options, progress)?;
    render::write_dir(&report, dir)?;
    Ok(report)
}
