//! What the site shows, aggregated from the store with polars lazy scans, in bounded memory:
//! each run's `results.parquet` is read in slices of [`SLICE_ROWS`] rows (projection and slice
//! pushed into the Parquet reader); every slice is grouped by instruction x mode x class x ULP
//! bucket at once and the partial counts are merged here. Only the latest run of each backend
//! is scanned a second time, for its worst rows and the rules' evidence rows, filtered in the
//! scan. No page ever holds individual rows beyond those.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use polars::prelude::*;

use crate::classify::Class;
use crate::error::Result;
use crate::report::aggregate::pe;
use crate::store::results::scan_run;
use crate::store::{RunManifest, Store};

/// Rows per slice of a run's results.
pub const SLICE_ROWS: usize = 1 << 18;

/// Worst rows kept per instruction x backend.
pub const WORST: usize = 5;

/// Counts of one instruction x mode in one run.
#[derive(Clone, Debug, Default)]
pub struct Cell {
    pub rows: u64,
    pub exact: u64,
    pub unexpected: u64,
    pub max_ulp: Option<u64>,
    /// Rows per class code.
    pub classes: [u64; 10],
    /// Rows per ULP bucket ([`crate::report::aggregate::ulp_bucket`]), non-exact rows only.
    pub buckets: BTreeMap<u32, u64>,
}

impl Cell {
    pub fn merge(&mut self, o: &Cell) {
        self.rows += o.rows;
        self.exact += o.exact;
        self.unexpected += o.unexpected;
        self.max_ulp = max_opt(self.max_ulp, o.max_ulp);
        for (a, b) in self.classes.iter_mut().zip(o.classes) {
            *a += b;
        }
        for (k, v) in &o.buckets {
            *self.buckets.entry(*k).or_default() += v;
        }
    }

    pub fn share(&self) -> f64 {
        if self.rows == 0 {
            0.0
        } else {
            self.exact as f64 / self.rows as f64
        }
    }
}

fn max_opt(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    }
}

/// A run and its cells.
#[derive(Clone, Debug)]
pub struct RunData {
    pub run: RunManifest,
    /// (instruction, mode) -> counts.
    pub cells: BTreeMap<(String, String), Cell>,
    /// instruction -> dataset family.
    pub families: BTreeMap<String, String>,
}

impl RunData {
    /// Counts of one instruction over every mode.
    pub fn instruction(&self, name: &str) -> Option<Cell> {
        let mut total: Option<Cell> = None;
        for ((i, _), c) in &self.cells {
            if i == name {
                total.get_or_insert_with(Cell::default).merge(c);
            }
        }
        total
    }
}

/// A row among the worst of an instruction on a backend.
#[derive(Clone, Debug)]
pub struct Worst {
    pub instruction: String,
    pub backend: String,
    pub mode: String,
    pub class: String,
    pub rank: (u32, u64),
    pub max_ulp: Option<u64>,
    pub detail: String,
    pub repro: String,
}

/// A rule's evidence row as one backend's latest run classified it.
#[derive(Clone, Debug)]
pub struct EvidenceVerdict {
    pub backend: String,
    pub class: String,
    pub max_ulp: Option<u64>,
}

/// Everything aggregated.
#[derive(Clone, Debug, Default)]
pub struct SiteData {
    /// Runs oldest first.
    pub runs: Vec<RunData>,
    /// Index into `runs` of the latest run per backend, by backend name. Exhaustive runs form
    /// their own column, `<backend> exhaustive` ([`series`]).
    pub latest: BTreeMap<String, usize>,
    /// The exhaustive columns: each instruction's latest exhaustive run, merged (an exhaustive
    /// run measures one instruction, so one run per column would hide the others).
    pub merged: BTreeMap<String, RunData>,
    /// (instruction, backend) -> worst rows, worst first.
    pub worst: BTreeMap<(String, String), Vec<Worst>>,
    /// row_id -> verdict per backend (latest runs).
    pub evidence: BTreeMap<String, Vec<EvidenceVerdict>>,
    pub rows: u64,
}

impl SiteData {
    /// Every instruction seen in any run.
    pub fn instructions(&self) -> BTreeSet<String> {
        self.runs
            .iter()
            .flat_map(|r| r.families.keys().cloned())
            .collect()
    }

    /// The dataset family of an instruction (first run that has it).
    pub fn family(&self, name: &str) -> Option<&str> {
        self.runs
            .iter()
            .find_map(|r| r.families.get(name).map(String::as_str))
    }

    pub fn latest_runs(&self) -> impl Iterator<Item = (&String, &RunData)> {
        self.latest
            .iter()
            .map(|(b, i)| (b, self.merged.get(b).unwrap_or(&self.runs[*i])))
    }
}

fn strs(df: &DataFrame, name: &str) -> Result<Vec<String>> {
    let c = df.column(name).map_err(pe(name))?;
    let c = c.cast(&DataType::String).map_err(pe(name))?;
    let ca = c.str().map_err(pe(name))?;
    Ok((0..ca.len())
        .map(|i| ca.get(i).unwrap_or_default().to_string())
        .collect())
}

fn u64s(df: &DataFrame, name: &str) -> Result<Vec<Option<u64>>> {
    let c = df.column(name).map_err(pe(name))?;
    let c = c.cast(&DataType::UInt64).map_err(pe(name))?;
    let ca = c.u64().map_err(pe(name))?;
    Ok((0..ca.len()).map(|i| ca.get(i)).collect())
}

/// Aggregates one run, slice by slice.
fn aggregate_run(store: &Store, run: &RunManifest) -> Result<RunData> {
    let mut cells: BTreeMap<(String, String), Cell> = BTreeMap::new();
    let mut families = BTreeMap::new();
    let mut offset = 0u64;
    while offset < run.results_rows().max(1) {
        let df = scan_run(store, &run.id)?
            .slice(offset as i64, SLICE_ROWS as IdxSize)
            .group_by([
                col("instruction"),
                col("family"),
                col("mode"),
                col("class_code"),
                col("ulp_bucket"),
            ])
            .agg([
                len().alias("rows"),
                col("max_ulp").max().alias("max_ulp"),
                col("unexpected")
                    .cast(DataType::UInt64)
                    .sum()
                    .alias("unexpected"),
            ])
            .collect()
            .map_err(pe("aggregate results"))?;
        let (ins, fam, mode) = (
            strs(&df, "instruction")?,
            strs(&df, "family")?,
            strs(&df, "mode")?,
        );
        let (class, bucket, rows, ulp, unexp) = (
            u64s(&df, "class_code")?,
            u64s(&df, "ulp_bucket")?,
            u64s(&df, "rows")?,
            u64s(&df, "max_ulp")?,
            u64s(&df, "unexpected")?,
        );
        for i in 0..df.height() {
            let code = class[i].unwrap_or(0) as usize;
            let n = rows[i].unwrap_or(0);
            families
                .entry(ins[i].clone())
                .or_insert_with(|| fam[i].clone());
            let c = cells.entry((ins[i].clone(), mode[i].clone())).or_default();
            c.rows += n;
            c.unexpected += unexp[i].unwrap_or(0);
            c.classes[code.min(9)] += n;
            if code == Class::Exact.code() as usize {
                c.exact += n;
            } else if code != Class::NoOutputs.code() as usize {
                *c.buckets.entry(bucket[i].unwrap_or(0) as u32).or_default() += n;
            }
            c.max_ulp = max_opt(c.max_ulp, ulp[i]);
        }
        offset += SLICE_ROWS as u64;
    }
    // An exhaustive run's results hold only its written mismatches: the counts are the
    // manifest's (the histogram buckets stay those of the written rows).
    for m in &run.modes {
        families
            .entry(m.instruction.clone())
            .or_insert_with(|| crate::store::exhaustive::FAMILY.to_string());
        let c = cells
            .entry((m.instruction.clone(), m.mode.clone()))
            .or_default();
        c.rows = m.rows;
        c.classes = [0; 10];
        for class in Class::ALL {
            c.classes[class.code() as usize] = m.classes.get(class.name()).copied().unwrap_or(0);
        }
        c.exact = c.classes[Class::Exact.code() as usize];
        c.unexpected = m
            .rows
            .saturating_sub(c.exact + c.classes[Class::NoOutputs.code() as usize]);
        c.max_ulp = max_opt(c.max_ulp, m.max_ulp);
    }
    Ok(RunData {
        run: run.clone(),
        cells,
        families,
    })
}

/// The worst rows and the evidence rows of one run (its latest for the backend).
fn scan_details(
    store: &Store,
    run: &RunManifest,
    evidence_ids: &[String],
    data: &mut SiteData,
) -> Result<()> {
    let mut offset = 0u64;
    let evidence_filter = evidence_ids
        .iter()
        .map(|id| col("row_id").eq(lit(id.clone())))
        .reduce(|a, b| a.or(b));
    while offset < run.results_rows().max(1) {
        let slice = scan_run(store, &run.id)?.slice(offset as i64, SLICE_ROWS as IdxSize);
        let df = slice
            .clone()
            .filter(col("class_code").gt(lit(Class::NoOutputs.code())))
            .select([
                col("instruction"),
                col("mode"),
                col("class"),
                col("class_code"),
                col("max_ulp"),
                col("detail"),
                col("repro"),
            ])
            .collect()
            .map_err(pe("worst rows"))?;
        let (ins, mode, class, detail, repro) = (
            strs(&df, "instruction")?,
            strs(&df, "mode")?,
            strs(&df, "class")?,
            strs(&df, "detail")?,
            strs(&df, "repro")?,
        );
        let (code, ulp) = (u64s(&df, "class_code")?, u64s(&df, "max_ulp")?);
        for i in 0..df.height() {
            let rank = (code[i].unwrap_or(0) as u32, ulp[i].unwrap_or(u64::MAX));
            let list = data
                .worst
                .entry((ins[i].clone(), run.backend.clone()))
                .or_default();
            if list.len() >= WORST && list.last().is_some_and(|w| w.rank >= rank) {
                continue;
            }
            list.push(Worst {
                instruction: ins[i].clone(),
                backend: run.backend.clone(),
                mode: mode[i].clone(),
                class: class[i].clone(),
                rank,
                max_ulp: ulp[i],
                detail: detail[i].clone(),
                repro: repro[i].clone(),
            });
            list.sort_by_key(|w| std::cmp::Reverse(w.rank));
            list.truncate(WORST);
        }
        if let Some(filter) = &evidence_filter {
            let df = slice
                .filter(filter.clone())
                .select([col("row_id"), col("class"), col("max_ulp")])
                .collect()
                .map_err(pe("evidence rows"))?;
            let (ids, class, ulp) = (
                strs(&df, "row_id")?,
                strs(&df, "class")?,
                u64s(&df, "max_ulp")?,
            );
            for i in 0..df.height() {
                data.evidence
                    .entry(ids[i].clone())
                    .or_default()
                    .push(EvidenceVerdict {
                        backend: run.backend.clone(),
                        class: class[i].clone(),
                        max_ulp: ulp[i],
                    });
            }
        }
        offset += SLICE_ROWS as u64;
    }
    Ok(())
}

/// Aggregates the whole store.
pub fn gather(store: &Store, evidence_ids: &[String]) -> Result<SiteData> {
    let mut data = SiteData::default();
    // Per exhaustive column, instruction -> the run that measured it last.
    let mut exhaustive: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    for mut run in store.runs()? {
        data.rows += run.compared;
        run.backend = series(&run);
        let r = aggregate_run(store, &run)?;
        if !run.modes.is_empty() {
            let column = exhaustive.entry(run.backend.clone()).or_default();
            for name in r.families.keys() {
                column.insert(name.clone(), data.runs.len());
            }
        }
        data.latest.insert(run.backend.clone(), data.runs.len());
        data.runs.push(r);
    }
    let mut latest: Vec<RunManifest> = Vec::new();
    for (column, by_instruction) in &exhaustive {
        let mut merged: Option<RunData> = None;
        for (name, &i) in by_instruction {
            let r = &data.runs[i];
            let m = merged.get_or_insert_with(|| RunData {
                run: data.runs[data.latest[column]].run.clone(),
                cells: BTreeMap::new(),
                families: BTreeMap::new(),
            });
            m.families.insert(name.clone(), r.families[name].clone());
            for (k, c) in r.cells.iter().filter(|((n, _), _)| n == name) {
                m.cells.insert(k.clone(), c.clone());
            }
            if !latest.iter().any(|l| l.id == r.run.id) {
                latest.push(r.run.clone());
            }
        }
        if let Some(m) = merged {
            data.merged.insert(column.clone(), m);
        }
    }
    latest.extend(
        data.latest
            .iter()
            .filter(|(b, _)| !data.merged.contains_key(*b))
            .map(|(_, &i)| data.runs[i].run.clone()),
    );
    for run in &latest {
        scan_details(store, run, evidence_ids, &mut data)?;
    }
    Ok(data)
}

/// The site's column of a run: its backend, or `<backend> exhaustive` for an exhaustive run
/// (measured against the CPU model, not the hardware, so never one column with replays).
pub fn series(run: &RunManifest) -> String {
    if run.kind == "exhaustive" {
        format!("{} exhaustive", run.backend)
    } else {
        run.backend.clone()
    }
}

/// An instruction x mode that lost exact share against the previous run of its backend.
#[derive(Clone, Debug)]
pub struct Regression {
    /// Index into [`SiteData::runs`].
    pub run: usize,
    pub instruction: String,
    pub mode: String,
    pub before: f64,
    pub after: f64,
}

/// Every [`Regression`], in run order.
pub fn regressions(data: &SiteData) -> Vec<Regression> {
    let mut previous: HashMap<&str, usize> = HashMap::new();
    let mut out = Vec::new();
    for (i, r) in data.runs.iter().enumerate() {
        if let Some(&p) = previous.get(r.run.backend.as_str()) {
            for (key, cell) in &r.cells {
                if let Some(old) = data.runs[p].cells.get(key) {
                    if cell.share() + 1e-12 < old.share() {
                        out.push(Regression {
                            run: i,
                            instruction: key.0.clone(),
                            mode: key.1.clone(),
                            before: old.share(),
                            after: cell.share(),
                        });
                    }
                }
            }
        }
        previous.insert(&r.run.backend, i);
    }
    out
}
