//! Aggregation of classified rows with polars, in bounded memory.
//!
//! Rows arrive one by one from the diff. Each is reduced to a group id (instruction mnemonic x
//! mode cells x wave x backend, interned here), its class code, ULP bucket, ULP distance and
//! an unexpected flag. Chunks of [`CHUNK_ROWS`] rows become a DataFrame that is grouped by
//! (group, class, bucket) at once; the partial results are merged again whenever they grow,
//! so memory depends on the number of distinct groups, not on the number of rows.

use std::collections::HashMap;

use polars::prelude::*;
use rdnaprobe_dataset::ModeCells;

use crate::classify::Class;
use crate::diff::RowDiff;
use crate::error::{Error, Result};
use crate::format;

/// Rows per DataFrame chunk.
pub const CHUNK_ROWS: usize = 1 << 18;

/// Bucket of rows whose difference has no ULP distance (NaN against a number, bits).
pub const NO_DISTANCE: u32 = 255;

/// Log2 bucket of a ULP distance: 0 -> 0, 1 -> 1, 2..=3 -> 2, 4..=7 -> 3, ...
pub fn ulp_bucket(ulp: Option<u64>) -> u32 {
    match ulp {
        None => NO_DISTANCE,
        Some(0) => 0,
        Some(u) => 64 - u.leading_zeros(),
    }
}

/// The label of a bucket: `0`, `1`, `2-3`, `4-7`, ..., `none`.
pub fn bucket_label(bucket: u32) -> String {
    match bucket {
        NO_DISTANCE => "none".into(),
        0 => "0".into(),
        1 => "1".into(),
        b if b >= 64 => format!("2^{}+", b - 1),
        b => format!("{}-{}", 1u64 << (b - 1), (1u64 << b) - 1),
    }
}

/// Instruction x mode x backend: what a group id stands for.
#[derive(Clone, Debug)]
pub struct GroupKey {
    pub instruction: String,
    pub mode: ModeCells,
    pub wave: Option<u32>,
    pub backend: String,
}

impl GroupKey {
    pub fn mode_label(&self) -> String {
        format::mode(&self.mode, self.wave)
    }
}

#[derive(Default)]
struct Chunk {
    group: Vec<u32>,
    class: Vec<u32>,
    bucket: Vec<u32>,
    ulp: Vec<Option<u64>>,
    unexpected: Vec<u32>,
}

impl Chunk {
    fn len(&self) -> usize {
        self.group.len()
    }
}

pub(crate) fn pe(context: &str) -> impl FnOnce(PolarsError) -> Error + '_ {
    move |source| Error::Polars {
        context: context.to_string(),
        source,
    }
}

/// Streams rows in, gives the (group, class, bucket) table out.
#[derive(Default)]
pub struct Aggregator {
    pub groups: Vec<GroupKey>,
    index: HashMap<(String, ModeCells, Option<u32>, String), u32>,
    last: Option<u32>,
    chunk: Chunk,
    partials: Vec<DataFrame>,
    partial_rows: usize,
}

impl Aggregator {
    /// The group id of a row (interned; consecutive rows of one group cost no allocation).
    pub fn group_of(&mut self, d: &RowDiff) -> u32 {
        let row = &d.reference.row;
        self.group_of_parts(d.mnemonic(), &row.mode, row.wave, &d.backend)
    }

    /// The group id of (instruction under test, mode cells, wave, backend).
    pub fn group_of_parts(
        &mut self,
        mnemonic: &str,
        mode: &ModeCells,
        wave: Option<u32>,
        backend: &str,
    ) -> u32 {
        if let Some(id) = self.last {
            let g = &self.groups[id as usize];
            if g.instruction == mnemonic
                && g.mode == *mode
                && g.wave == wave
                && g.backend == backend
            {
                return id;
            }
        }
        let key = (mnemonic.to_string(), *mode, wave, backend.to_string());
        let next = self.groups.len() as u32;
        let id = *self.index.entry(key).or_insert(next);
        if id == next {
            self.groups.push(GroupKey {
                instruction: mnemonic.to_string(),
                mode: *mode,
                wave,
                backend: backend.to_string(),
            });
        }
        self.last = Some(id);
        id
    }

    /// Adds one classified row; returns its group id.
    pub fn add(&mut self, d: &RowDiff) -> Result<u32> {
        let group = self.group_of(d);
        self.add_to(group, d.class, d.max_ulp, d.is_unexpected())?;
        Ok(group)
    }

    /// Adds one classified row of a known group.
    pub fn add_to(
        &mut self,
        group: u32,
        class: Class,
        max_ulp: Option<u64>,
        unexpected: bool,
    ) -> Result<()> {
        self.chunk.group.push(group);
        self.chunk.class.push(class.code());
        self.chunk.bucket.push(if class == Class::Exact {
            0
        } else {
            ulp_bucket(max_ulp)
        });
        self.chunk.ulp.push(max_ulp);
        self.chunk.unexpected.push(u32::from(unexpected));
        if self.chunk.len() >= CHUNK_ROWS {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<()> {
        if self.chunk.len() == 0 {
            return Ok(());
        }
        let c = std::mem::take(&mut self.chunk);
        let df = df!(
            "group" => c.group,
            "class" => c.class,
            "bucket" => c.bucket,
            "ulp" => c.ulp,
            "unexpected" => c.unexpected,
        )
        .map_err(pe("building a chunk"))?;
        let part = reduce(df.lazy())
            .collect()
            .map_err(pe("grouping a chunk"))?;
        self.partial_rows += part.height();
        self.partials.push(part);
        // Merge the partial results once they outgrow a chunk, to keep memory flat.
        if self.partial_rows > CHUNK_ROWS {
            let merged = self.merge()?;
            self.partial_rows = merged.height();
            self.partials = vec![merged];
        }
        Ok(())
    }

    fn merge(&mut self) -> Result<DataFrame> {
        let frames: Vec<LazyFrame> = self.partials.drain(..).map(|p| p.lazy()).collect();
        if frames.is_empty() {
            return empty_fine();
        }
        let all = concat(frames, UnionArgs::default()).map_err(pe("concatenating partials"))?;
        all.group_by([col("group"), col("class"), col("bucket")])
            .agg([
                col("rows").sum().alias("rows"),
                col("max_ulp").max().alias("max_ulp"),
                col("unexpected").sum().alias("unexpected"),
            ])
            .collect()
            .map_err(pe("merging partials"))
    }

    /// The (group, class, bucket, rows, max_ulp, unexpected) table of everything added.
    pub fn finish(mut self) -> Result<(Vec<GroupKey>, DataFrame)> {
        self.flush()?;
        let fine = self.merge()?;
        Ok((self.groups, fine))
    }
}

/// Chunk rows -> (group, class, bucket): rows, max ULP, unexpected rows (all u64).
fn reduce(lf: LazyFrame) -> LazyFrame {
    lf.group_by([col("group"), col("class"), col("bucket")])
        .agg([
            len().cast(DataType::UInt64).alias("rows"),
            col("ulp").max().alias("max_ulp"),
            col("unexpected")
                .cast(DataType::UInt64)
                .sum()
                .alias("unexpected"),
        ])
}

fn empty_fine() -> Result<DataFrame> {
    let e32: Vec<u32> = Vec::new();
    let e64: Vec<u64> = Vec::new();
    let eo: Vec<Option<u64>> = Vec::new();
    df!(
        "group" => e32.clone(),
        "class" => e32.clone(),
        "bucket" => e32,
        "rows" => e64.clone(),
        "max_ulp" => eo,
        "unexpected" => e64,
    )
    .map_err(pe("empty table"))
}

/// One instruction x mode x backend line of the report.
#[derive(Clone, Debug, serde::Serialize)]
pub struct GroupRow {
    pub group: u32,
    pub instruction: String,
    pub mode: String,
    pub backend: String,
    pub rows: u64,
    pub exact: u64,
    pub exact_share: f64,
    pub max_ulp: Option<u64>,
    pub unexpected: u64,
    /// Rows per class, in [`Class::ALL`] order.
    pub classes: Vec<u64>,
}

/// One cell of the instruction x backend matrix.
#[derive(Clone, Debug, serde::Serialize)]
pub struct MatrixCell {
    pub instruction: String,
    pub backend: String,
    pub rows: u64,
    pub exact: u64,
    pub exact_share: f64,
    pub max_ulp: Option<u64>,
    pub unexpected: u64,
}

/// Non-exact rows of one instruction x backend by ULP bucket.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Histogram {
    pub instruction: String,
    pub backend: String,
    /// (bucket, rows), buckets ascending ([`NO_DISTANCE`] last).
    pub buckets: Vec<(u32, u64)>,
}

fn u64s(df: &DataFrame, name: &str) -> Result<Vec<Option<u64>>> {
    let c = df.column(name).map_err(pe(name))?;
    let c = c.cast(&DataType::UInt64).map_err(pe(name))?;
    let ca = c.u64().map_err(pe(name))?;
    Ok((0..ca.len()).map(|i| ca.get(i)).collect())
}

fn strs(df: &DataFrame, name: &str) -> Result<Vec<String>> {
    let c = df.column(name).map_err(pe(name))?;
    let ca = c.str().map_err(pe(name))?;
    Ok((0..ca.len())
        .map(|i| ca.get(i).unwrap_or_default().to_string())
        .collect())
}

/// Everything the report shows, computed from the fine table.
pub struct Tables {
    pub groups: Vec<GroupRow>,
    pub matrix: Vec<MatrixCell>,
    pub histograms: Vec<Histogram>,
}

fn share(exact: u64, rows: u64) -> f64 {
    if rows == 0 {
        0.0
    } else {
        exact as f64 / rows as f64
    }
}

/// Groups, matrix and histograms from the (group, class, bucket) table.
pub fn tables(keys: &[GroupKey], fine: DataFrame) -> Result<Tables> {
    let info = df!(
        "group" => (0..keys.len() as u32).collect::<Vec<u32>>(),
        "instruction" => keys.iter().map(|k| k.instruction.clone()).collect::<Vec<_>>(),
        "mode" => keys.iter().map(|k| k.mode_label()).collect::<Vec<_>>(),
        "backend" => keys.iter().map(|k| k.backend.clone()).collect::<Vec<_>>(),
    )
    .map_err(pe("group names"))?;
    let fine = fine
        .lazy()
        .inner_join(info.lazy(), col("group"), col("group"));
    let when_class = |c: Class| {
        when(col("class").eq(lit(c.code())))
            .then(col("rows"))
            .otherwise(lit(0u64))
            .sum()
            .alias(c.name())
    };

    let mut aggs = vec![
        col("rows").sum().alias("rows"),
        col("max_ulp").max().alias("max_ulp"),
        col("unexpected").sum().alias("unexpected"),
    ];
    aggs.extend(Class::ALL.iter().map(|c| when_class(*c)));
    let per_group = fine
        .clone()
        .group_by([
            col("group"),
            col("instruction"),
            col("mode"),
            col("backend"),
        ])
        .agg(aggs)
        .sort(
            ["instruction", "backend", "mode"],
            SortMultipleOptions::default(),
        )
        .collect()
        .map_err(pe("per-group table"))?;

    let group_ids = u64s(&per_group, "group")?;
    let rows = u64s(&per_group, "rows")?;
    let max_ulp = u64s(&per_group, "max_ulp")?;
    let unexpected = u64s(&per_group, "unexpected")?;
    let class_cols: Vec<Vec<Option<u64>>> = Class::ALL
        .iter()
        .map(|c| u64s(&per_group, c.name()))
        .collect::<Result<_>>()?;
    let (instr, mode, backend) = (
        strs(&per_group, "instruction")?,
        strs(&per_group, "mode")?,
        strs(&per_group, "backend")?,
    );
    let mut groups = Vec::with_capacity(per_group.height());
    for i in 0..per_group.height() {
        let classes: Vec<u64> = class_cols.iter().map(|c| c[i].unwrap_or(0)).collect();
        let rows = rows[i].unwrap_or(0);
        let exact = classes[Class::Exact.code() as usize];
        groups.push(GroupRow {
            group: group_ids[i].unwrap_or(0) as u32,
            instruction: instr[i].clone(),
            mode: mode[i].clone(),
            backend: backend[i].clone(),
            rows,
            exact,
            exact_share: share(exact, rows),
            max_ulp: max_ulp[i],
            unexpected: unexpected[i].unwrap_or(0),
            classes,
        });
    }

    let matrix_df = fine
        .clone()
        .group_by([col("instruction"), col("backend")])
        .agg([
            col("rows").sum().alias("rows"),
            when_class(Class::Exact),
            col("max_ulp").max().alias("max_ulp"),
            col("unexpected").sum().alias("unexpected"),
        ])
        .sort(["instruction", "backend"], SortMultipleOptions::default())
        .collect()
        .map_err(pe("instruction x backend matrix"))?;
    let (mi, mb) = (
        strs(&matrix_df, "instruction")?,
        strs(&matrix_df, "backend")?,
    );
    let (mr, me) = (
        u64s(&matrix_df, "rows")?,
        u64s(&matrix_df, Class::Exact.name())?,
    );
    let (mu, mx) = (
        u64s(&matrix_df, "max_ulp")?,
        u64s(&matrix_df, "unexpected")?,
    );
    let matrix = (0..matrix_df.height())
        .map(|i| {
            let (rows, exact) = (mr[i].unwrap_or(0), me[i].unwrap_or(0));
            MatrixCell {
                instruction: mi[i].clone(),
                backend: mb[i].clone(),
                rows,
                exact,
                exact_share: share(exact, rows),
                max_ulp: mu[i],
                unexpected: mx[i].unwrap_or(0),
            }
        })
        .collect();

    let hist_df = fine
        .filter(col("class").neq(lit(Class::Exact.code())))
        .group_by([col("instruction"), col("backend"), col("bucket")])
        .agg([col("rows").sum().alias("rows")])
        .sort(
            ["instruction", "backend", "bucket"],
            SortMultipleOptions::default(),
        )
        .collect()
        .map_err(pe("ULP histograms"))?;
    let (hi, hb) = (strs(&hist_df, "instruction")?, strs(&hist_df, "backend")?);
    let (hk, hr) = (u64s(&hist_df, "bucket")?, u64s(&hist_df, "rows")?);
    let mut histograms: Vec<Histogram> = Vec::new();
    for i in 0..hist_df.height() {
        let bucket = (hk[i].unwrap_or(0) as u32, hr[i].unwrap_or(0));
        match histograms.last_mut() {
            Some(h) if h.instruction == hi[i] && h.backend == hb[i] => h.buckets.push(bucket),
            _ => histograms.push(Histogram {
                instruction: hi[i].clone(),
                backend: hb[i].clone(),
                buckets: vec![bucket],
            }),
        }
    }
    Ok(Tables {
        groups,
        matrix,
        histograms,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_are_log2() {
        assert_eq!(ulp_bucket(Some(0)), 0);
        assert_eq!(ulp_bucket(Some(1)), 1);
        assert_eq!(ulp_bucket(Some(3)), 2);
        assert_eq!(ulp_bucket(Some(4)), 3);
        assert_eq!(ulp_bucket(Some(u64::MAX)), 64);
        assert_eq!(ulp_bucket(None), NO_DISTANCE);
        assert_eq!(bucket_label(3), "4-7");
        assert_eq!(bucket_label(64), "2^63+");
    }
}
