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
use rdnaprobe_dataset::{Manifest, ModeCells, ModeField, V1_COLUMNS};

use super::block::{hex, status_cell, trim_span, Block, FileInfo, Rec, Span, StatusCell};
use super::split::Msg;
use crate::error::{Error, Result};
use crate::input::HARDWARE;
use crate::uniform::{cells_valid, UniformColumns};

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

/// A number column: integers, or text cells read as the CSV reads them.
enum Num {
    Int(UInt32Chunked),
    Text(StringChunked),
}

/// The columns of one row group, each in one chunk.
struct Columns {
    instruction: StringChunked,
    encoding: StringChunked,
    wave: Num,
    modes: Vec<Num>,
    inputs: Vec<Num>,
    outputs: Vec<Num>,
    gfx: Option<StringChunked>,
    source: Option<StringChunked>,
    note: Option<StringChunked>,
    status: Option<StringChunked>,
    backend: Option<StringChunked>,
    extra: Option<StringChunked>,
    extra_names: Vec<String>,
}

fn text(df: &DataFrame, name: &str) -> std::result::Result<StringChunked, String> {
    let col = df.column(name).map_err(|e| e.to_string())?;
    match col.dtype() {
        DataType::String => Ok(col.rechunk().str().map_err(|e| e.to_string())?.clone()),
        other => Err(format!("column `{name}` has type {other}, not String")),
    }
}

fn num(df: &DataFrame, name: &str) -> std::result::Result<Num, String> {
    let col = df.column(name).map_err(|e| e.to_string())?;
    match col.dtype() {
        DataType::String => Ok(Num::Text(
            col.rechunk().str().map_err(|e| e.to_string())?.clone(),
        )),
        DataType::UInt32 => Ok(Num::Int(
            col.rechunk().u32().map_err(|e| e.to_string())?.clone(),
        )),
        t if t.is_integer() => {
            let cast = col.strict_cast(&DataType::UInt32).map_err(|_| {
                format!("column `{name}`: a value out of the range of a dword (0..=0xffffffff)")
            })?;
            Ok(Num::Int(
                cast.rechunk().u32().map_err(|e| e.to_string())?.clone(),
            ))
        }
        other => Err(format!(
            "column `{name}` has type {other}, not an integer type or String"
        )),
    }
}

impl Columns {
    fn of(df: &DataFrame, has: Has, extra_names: &[String]) -> std::result::Result<Self, String> {
        let opt = |on: bool, name: &str| on.then(|| text(df, name)).transpose();
        let instruction = if df.column("instruction_text").is_ok() {
            "instruction_text"
        } else {
            "instruction"
        };
        Ok(Columns {
            instruction: text(df, instruction)?,
            encoding: text(df, "encoding")?,
            wave: num(df, "wave")?,
            modes: ModeField::ALL
                .iter()
                .map(|f| num(df, f.name()))
                .collect::<std::result::Result<_, _>>()?,
            inputs: V1_COLUMNS[IN0..OUT0]
                .iter()
                .map(|c| num(df, c))
                .collect::<std::result::Result<_, _>>()?,
            outputs: V1_COLUMNS[OUT0..OUT0 + 16]
                .iter()
                .map(|c| num(df, c))
                .collect::<std::result::Result<_, _>>()?,
            gfx: opt(has.gfx, "gfx")?,
            source: opt(has.source, "source")?,
            note: opt(has.note, "note")?,
            status: opt(has.status, "status")?,
            backend: opt(has.backend, "backend")?,
            extra: opt(has.extra, "extra")?,
            extra_names: extra_names.to_vec(),
        })
    }
}

/// Where a block's rows sit in its file, for error messages.
#[derive(Clone, Copy)]
struct Place {
    /// 1-based row group number.
    group: usize,
    /// Data rows before the row group.
    first_row: u64,
}

/// The last string copied into the block per string column, and the last encoding's words: a
/// run of equal cells (sweeps write runs of one body and mode) is copied once.
#[derive(Default)]
struct Memo<'a> {
    strings: [Option<(&'a str, Span)>; 6],
    encoding: Option<(&'a str, Span)>,
}

/// Positions of `in0` and `out0` in the schema v1 columns.
const IN0: usize = 10;
const OUT0: usize = 16;

const INSTRUCTION: usize = 0;
const GFX: usize = 1;
const SOURCE: usize = 2;
const NOTE: usize = 3;
const BACKEND: usize = 4;
const STATUS: usize = 5;

fn intern<'a>(block: &mut Block, memo: &mut Memo<'a>, slot: usize, s: &'a str) -> Span {
    if let Some((last, span)) = memo.strings[slot] {
        if last == s {
            return span;
        }
    }
    let span = block.push_str(s);
    memo.strings[slot] = Some((s, span));
    span
}

/// Rows `start..start + len` of the row group as a block; a bad cell ends the block with an
/// error after the rows before it.
fn build(info: Arc<FileInfo>, cols: &Columns, start: usize, len: usize, place: Place) -> Block {
    let mut block = Block::empty(info);
    block.recs.reserve(len);
    let mut memo = Memo::default();
    let mut json = String::new();
    for i in start..start + len {
        match record(&mut block, cols, i, &mut memo, &mut json) {
            Ok(rec) => block.recs.push(rec),
            Err((column, message)) => {
                let path = block.file.path.clone();
                block.error = Some(fail(
                    &path,
                    format!(
                        "row group {}, data row {}, column `{column}`: {message}",
                        place.group,
                        place.first_row + i as u64 + 1
                    ),
                ));
                break;
            }
        }
    }
    block
}

type CellResult<T> = std::result::Result<T, (String, String)>;

fn bad(column: &str, message: impl Into<String>) -> (String, String) {
    (column.to_string(), message.into())
}

/// A hex dword cell (`None`: null or empty).
fn hex_cell(n: &Num, i: usize, column: &str) -> CellResult<Option<u32>> {
    match n {
        Num::Int(c) => Ok(c.get(i)),
        Num::Text(c) => match c.get(i).map(str::trim_ascii) {
            None | Some("") => Ok(None),
            Some(s) => hex(s)
                .map(Some)
                .ok_or_else(|| bad(column, format!("{s:?} is not a 0x hex dword"))),
        },
    }
}

/// A small decimal cell (`wave`, the mode cells; `None`: null or empty).
fn small_cell(n: &Num, i: usize, column: &str) -> CellResult<Option<u32>> {
    match n {
        Num::Int(c) => Ok(c.get(i)),
        Num::Text(c) => match c.get(i).map(str::trim) {
            None | Some("") => Ok(None),
            Some(s) => s
                .parse()
                .map(Some)
                .map_err(|_| bad(column, format!("{s:?} is not a number"))),
        },
    }
}

fn record<'a>(
    block: &mut Block,
    cols: &'a Columns,
    i: usize,
    memo: &mut Memo<'a>,
    json: &mut String,
) -> CellResult<Rec> {
    let instruction = intern(
        block,
        memo,
        INSTRUCTION,
        cols.instruction.get(i).unwrap_or(""),
    );
    let encoding = cols.encoding.get(i).unwrap_or("");
    let words = match memo.encoding {
        Some((last, span)) if last == encoding => span,
        _ => {
            let start = block.words.len();
            let cell = encoding.trim();
            if cell.is_empty() {
                return Err(bad(
                    "encoding",
                    "encoding is empty: give the body's words (0x... 0x...) or n/a",
                ));
            }
            if cell != "n/a" {
                for (n, w) in cell.split_whitespace().enumerate() {
                    let word = hex(w).ok_or_else(|| {
                        bad(
                            "encoding",
                            format!("word {}: `{w}` is not a 0x hex dword", n + 1),
                        )
                    })?;
                    block.words.push(word);
                }
            }
            let span = Span::new(start, block.words.len());
            memo.encoding = Some((encoding, span));
            span
        }
    };
    let wave = match small_cell(&cols.wave, i, "wave")? {
        None => None,
        Some(w @ (32 | 64)) => Some(w),
        Some(w) => return Err(bad("wave", format!("{w}: wave must be 32, 64 or empty"))),
    };
    let mut mode = ModeCells::default();
    for (field, col) in ModeField::ALL.into_iter().zip(&cols.modes) {
        *mode.get_mut(field) = match small_cell(col, i, field.name())? {
            None => None,
            Some(v) => Some(field.check(v).map_err(|_| {
                bad(
                    field.name(),
                    format!("{v}: expected 0..={} or null (not stated)", field.max()),
                )
            })?),
        };
    }
    let mut inputs = [0u32; 6];
    for (k, (slot, col)) in inputs.iter_mut().zip(&cols.inputs).enumerate() {
        let name = V1_COLUMNS[IN0 + k];
        *slot = hex_cell(col, i, name)?.ok_or_else(|| {
            bad(
                name,
                "input cells must be filled (`0x00000000` for an unused input)",
            )
        })?;
    }
    let mut outputs = [None; 16];
    for (k, (slot, col)) in outputs.iter_mut().zip(&cols.outputs).enumerate() {
        *slot = hex_cell(col, i, V1_COLUMNS[OUT0 + k])?;
    }
    let string = |c: &'a Option<StringChunked>| c.as_ref().and_then(|c| c.get(i)).unwrap_or("");
    let gfx = intern(block, memo, GFX, string(&cols.gfx));
    let source = intern(block, memo, SOURCE, string(&cols.source));
    let note = intern(block, memo, NOTE, string(&cols.note));
    let backend = cols.backend.as_ref().map(|c| {
        let span = intern(block, memo, BACKEND, c.get(i).unwrap_or(""));
        trim_span(&block.text, span)
    });
    let backend = backend.filter(|s| !block.str(*s).is_empty());
    let status = match &cols.status {
        None => StatusCell::Ok,
        Some(c) => {
            let span = intern(block, memo, STATUS, c.get(i).unwrap_or(""));
            status_cell(&block.text, trim_span(&block.text, span))
        }
    };
    let extra_start = block.extra.len();
    if let (Some(c), Some(u)) = (&cols.extra, block.file.uniform) {
        json.clear();
        json.push_str(c.get(i).unwrap_or("{}"));
        let map: serde_json::Map<String, serde_json::Value> = serde_json::from_str(json)
            .map_err(|e| bad("extra", format!("not a JSON object of extra cells: {e}")))?;
        for name in &cols.extra_names {
            let span = match map.get(name) {
                Some(serde_json::Value::String(s)) => block.push_str(s),
                Some(serde_json::Value::Null) | None => block.push_str(""),
                Some(v) => block.push_str(&v.to_string()),
            };
            block.extra.push(span);
        }
        let extra = &block.extra[extra_start..];
        if !cells_valid(&u.cells(|k| extra.get(k).map(|s| block.str(*s)))) {
            return Err(bad(
                "extra",
                "a wave uniform cell (s_out, vcc_out, exec_out, ...) is malformed",
            ));
        }
    }
    Ok(Rec {
        instruction,
        gfx,
        source,
        note,
        words,
        extra: Span::new(extra_start, block.extra.len()),
        wave,
        mode,
        inputs,
        outputs,
        backend,
        status,
    })
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
