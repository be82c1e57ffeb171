//! Parquet inputs of the diff and the report: a dataset or replay output as `rdnaprobe export`
//! writes it (docs/reports.md), read row group by row group with only the columns the diff
//! needs. Each row group is cut into blocks of [`BLOCK_ROWS`] rows, and each block becomes, on
//! the thread pool, the same compact records as a block of CSV ([`super::block`]): the strings
//! copied into the block's text (a run of equal cells shares one copy), hex and integer cells
//! straight into the record. Nothing downstream knows which format a row came from, so a
//! Parquet file and a CSV file holding the same rows give the same diff, byte for byte.
//!
//! Columns: `instruction_text` (or `instruction`), `encoding`, `wave`, the seven mode cells,
//! `in0..in5` and `out0..out15` are required; numbers are any integer type or hex/decimal text
//! as in the CSV, nulls are empty cells. `gfx`, `source`, `note`, `status` and `backend` are
//! read when present. `file` (the exported CSV) gives the family name of bodies without one op
//! under test, as the CSV's stem does. `extra` (a JSON object of the extra columns) is parsed
//! only when it holds a wave's uniform columns. A file without a `backend` column takes its
//! backend from a hive directory `backend=...` above it, then as a CSV does (manifest beside
//! it, `hardware` without a `status` column, else the file stem). The report takes a file
//! whose backend is `hardware` as a reference, any other as a candidate.
//!
//! Memory: the row group being read, the blocks waiting in the side's queue and the row group
//! they point into; never the whole file.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{sync_channel, SyncSender};
use std::sync::Arc;

use polars::prelude::*;
use rdnaprobe_dataset::{Manifest, ModeField, V1_COLUMNS};

use super::block::FileInfo;
use super::split::Msg;
use crate::error::{Error, Result};
use crate::input::HARDWARE;
use crate::uniform::UniformColumns;
use rows::{build, Columns, Place, IN0, OUT0};

mod rows;

/// Rows per block handed to the thread pool.
const BLOCK_ROWS: usize = 4_096;

fn fail(path: &Path, message: impl Into<String>) -> Error {
    Error::Parquet {
        path: path.to_path_buf(),
        message: message.into(),
    }
}

/// A Parquet file opened for reading: its metadata, what its columns are and its labels.
pub(crate) struct Source {
    pub info: FileInfo,
    metadata: FileMetadataRef,
    /// The columns read per row group, in [`Columns`] order.
    columns: Vec<String>,
    has: Has,
    extra_names: Vec<String>,
    /// The `backend` cell of the first row (a file with a `backend` column).
    pub first_backend: Option<String>,
    pub manifest: Option<Manifest>,
}

/// Which optional columns the file has.
#[derive(Clone, Copy, Debug, Default)]
struct Has {
    gfx: bool,
    source: bool,
    note: bool,
    status: bool,
    backend: bool,
    /// `extra` holds a wave's uniform columns and is read.
    extra: bool,
}

/// The value of a hive directory `KEY=VALUE` nearest above `path` (percent-decoded).
fn hive_value(path: &Path, key: &str) -> Option<String> {
    let prefix = format!("{key}=");
    path.parent()?.components().rev().find_map(|c| {
        let c = c.as_os_str().to_str()?;
        let v = c.strip_prefix(&prefix)?;
        if v == "__empty__" {
            return Some(String::new());
        }
        let b = v.as_bytes();
        let mut out = Vec::with_capacity(b.len());
        let mut i = 0;
        while i < b.len() {
            let byte = (b[i] == b'%')
                .then(|| b.get(i + 1..i + 3))
                .flatten()
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok());
            match byte {
                Some(x) => {
                    out.push(x);
                    i += 3;
                }
                None => {
                    out.push(b[i]);
                    i += 1;
                }
            }
        }
        String::from_utf8(out).ok()
    })
}

/// `NAME.parquet` -> `NAME.manifest.json`.
fn manifest_of(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = name.strip_suffix(".parquet").unwrap_or(&name);
    path.with_file_name(format!("{stem}.manifest.json"))
}

/// Reads rows `first..first + rows` (one row group) of `columns`.
fn read_rows(
    file: &mut File,
    metadata: &FileMetadataRef,
    columns: &[String],
    first: usize,
    rows: usize,
) -> PolarsResult<DataFrame> {
    let mut reader = ParquetReader::new(file)
        .with_columns(Some(columns.to_vec()))
        .with_slice(Some((first, rows)))
        .read_parallel(ParallelStrategy::RowGroups);
    reader.set_metadata(metadata.clone());
    reader.finish()
}

impl Source {
    /// Opens `path`: footer, schema, the required columns, labels and the first row's `file`,
    /// `extra` and `backend` cells.
    pub fn open(path: &Path) -> Result<Source> {
        let mut file = File::open(path).map_err(|e| Error::io(path, e))?;
        let mut reader = ParquetReader::new(&mut file);
        let unreadable = |e: PolarsError| {
            fail(
                path,
                format!("not a readable Parquet file (truncated or corrupt footer?): {e}"),
            )
        };
        let metadata = reader.get_metadata().map_err(unreadable)?.clone();
        let schema = reader.schema().map_err(unreadable)?;
        let has_col = |name: &str| schema.contains(name);
        let instruction = ["instruction_text", "instruction"]
            .into_iter()
            .find(|c| has_col(c))
            .ok_or_else(|| {
                fail(
                    path,
                    "no column `instruction_text` (or `instruction`): not a dataset as \
                     `rdnaprobe export` writes it",
                )
            })?;
        let mut columns = vec![instruction.to_string(), "encoding".into(), "wave".into()];
        columns.extend(ModeField::ALL.iter().map(|f| f.name().to_string()));
        columns.extend(V1_COLUMNS[IN0..OUT0 + 16].iter().map(|c| c.to_string()));
        if let Some(missing) = columns.iter().find(|c| !has_col(c)) {
            return Err(fail(
                path,
                format!(
                    "no column `{missing}` (a dataset needs `instruction_text`, `encoding`, \
                     `wave`, the mode cells, `in0..in5` and `out0..out15`)"
                ),
            ));
        }
        let mut has = Has {
            gfx: has_col("gfx"),
            source: has_col("source"),
            note: has_col("note"),
            status: has_col("status"),
            backend: has_col("backend"),
            extra: false,
        };
        for (name, present) in [
            ("gfx", has.gfx),
            ("source", has.source),
            ("note", has.note),
            ("status", has.status),
            ("backend", has.backend),
        ] {
            if present {
                columns.push(name.into());
            }
        }
        // The first row's `file`, `extra` and `backend`: the family, the extra column names.
        let first: Vec<String> = ["file", "extra", "backend"]
            .into_iter()
            .filter(|c| has_col(c))
            .map(String::from)
            .collect();
        let head = if metadata.num_rows > 0 && !first.is_empty() {
            let rows = metadata.row_groups.first().map_or(0, |g| g.num_rows());
            Some(
                read_rows(&mut file, &metadata, &first, 0, rows.min(1))
                    .map_err(|e| fail(path, format!("row group 1: {e}")))?,
            )
        } else {
            None
        };
        let cell = |name: &str| -> Option<String> {
            let col = head.as_ref()?.column(name).ok()?;
            col.str().ok()?.get(0).map(str::to_string)
        };
        let family = cell("file")
            .map(|f| crate::input::family_of(Path::new(&f)))
            .filter(|f| !f.is_empty())
            .unwrap_or_else(|| crate::input::family_of(path));
        let extra_names: Vec<String> = cell("extra")
            .and_then(|e| {
                serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(&e).ok()
            })
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default();
        let uniform = UniformColumns::from_columns(&extra_names);
        if uniform.is_some() {
            has.extra = true;
            columns.push("extra".into());
        }
        let first_backend = cell("backend")
            .map(|b| b.trim().to_string())
            .filter(|b| !b.is_empty());
        let hive_backend = hive_value(path, "backend");
        let manifest_file = manifest_of(path);
        let manifest = if manifest_file.exists() {
            Some(Manifest::read(&manifest_file)?)
        } else {
            None
        };
        let default_backend = match &hive_backend {
            Some(b) => b.clone(),
            None if !has.status => HARDWARE.to_string(),
            None => manifest
                .as_ref()
                .map(|m| m.producer.backend.trim().to_string())
                .filter(|b| !b.is_empty())
                .unwrap_or_else(|| crate::input::family_of(path)),
        };
        Ok(Source {
            info: FileInfo {
                path: path.to_path_buf(),
                label: path.display().to_string(),
                width: V1_COLUMNS.len() + extra_names.len(),
                backend_column: None,
                status_column: None,
                default_backend,
                family,
                header: Vec::new(),
                header_lines: 0,
                uniform,
                pool: Default::default(),
            },
            metadata,
            columns,
            has,
            extra_names,
            first_backend,
            manifest,
        })
    }
}

/// Sends the blocks of the Parquet file `path`, row group by row group; `Ok` also when the
/// receiver has gone (the diff stopped).
pub(crate) fn read_file(path: &Path, tx: &SyncSender<Msg>) -> Result<()> {
    let source = Source::open(path)?;
    let mut file = File::open(path).map_err(|e| Error::io(path, e))?;
    let info = Arc::new(source.info);
    let groups = source.metadata.row_groups.len();
    let mut first = 0usize;
    for (g, group) in source.metadata.row_groups.iter().enumerate() {
        let rows = group.num_rows();
        let at = format!(
            "row group {} of {groups} (data rows {}..={})",
            g + 1,
            first + 1,
            first + rows
        );
        let df = read_rows(&mut file, &source.metadata, &source.columns, first, rows)
            .map_err(|e| fail(path, format!("{at}: {e}")))?;
        let cols = Arc::new(
            Columns::of(&df, source.has, &source.extra_names)
                .map_err(|m| fail(path, format!("{at}: {m}")))?,
        );
        for start in (0..rows).step_by(BLOCK_ROWS) {
            let len = BLOCK_ROWS.min(rows - start);
            let (done_tx, done_rx) = sync_channel(1);
            let (info, cols) = (info.clone(), cols.clone());
            let place = Place {
                group: g + 1,
                first_row: first as u64,
            };
            rayon::spawn(move || {
                let _ = done_tx.send(build(info, &cols, start, len, place));
            });
            if tx.send(Msg::Block(done_rx)).is_err() {
                return Ok(());
            }
        }
        first += rows;
    }
    Ok(())
}

/// The label the report gives a Parquet file (its first row's backend), whether that names a
/// backend (a candidate: anything but `hardware`, since the export writes a measured
/// dataset's rows as `hardware`), and its manifest.
pub(crate) fn label(path: &Path) -> Result<(String, bool, Option<Manifest>)> {
    let source = Source::open(path)?;
    let label = source
        .first_backend
        .clone()
        .unwrap_or_else(|| source.info.default_backend.clone());
    let names = label != HARDWARE;
    Ok((label, names, source.manifest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_and_output_columns_are_where_the_schema_has_them() {
        assert_eq!(V1_COLUMNS[IN0], "in0");
        assert_eq!(V1_COLUMNS[OUT0 - 1], "in5");
        assert_eq!(V1_COLUMNS[OUT0 + 15], "out15");
    }

    #[test]
    fn hive_values_are_percent_decoded() {
        let p =
            Path::new("x/datasets/instruction=v_add_f32/backend=vulkan%3Alavapipe/part-0.parquet");
        assert_eq!(hive_value(p, "backend").as_deref(), Some("vulkan:lavapipe"));
        assert_eq!(hive_value(p, "instruction").as_deref(), Some("v_add_f32"));
        assert_eq!(hive_value(Path::new("a/b.parquet"), "backend"), None);
        let empty = Path::new("backend=__empty__/part-0.parquet");
        assert_eq!(hive_value(empty, "backend").as_deref(), Some(""));
        assert_eq!(
            manifest_of(Path::new("d/cpu.parquet")),
            Path::new("d/cpu.manifest.json")
        );
    }
}
