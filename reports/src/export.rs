//! Parquet export: datasets (hardware and replay outputs) and diff CSVs as hive-partitioned
//! Parquet, so DuckDB or Spark can query a lab's worth of runs.
//!
//! Layout under the target directory:
//! `datasets/instruction=<mnemonic>/backend=<backend>/part-<n>.parquet` and
//! `diffs/instruction=<mnemonic>/backend=<backend>/part-<n>.parquet` (two roots, because the
//! two kinds have different columns). Partition values are percent-encoded outside
//! `[A-Za-z0-9_.-]` as Hive does (`vulkan:lavapipe` -> `vulkan%3Alavapipe`). The full
//! instruction text is the column `instruction_text` (the partition column `instruction` is
//! the instruction under test, [`crate::subject`]; a diff CSV carries no `gfx` cell, so its
//! bodies are named as on the default target and its file stem is the family name). Dataset files hold every schema v1 column typed (hex cells as UInt32,
//! empty cells as null), `status`, the source `file`, and the extra columns as one JSON
//! object `extra`. Diff files hold the diff CSV columns (docs/reports.md), `max_ulp` and
//! `reference_row` as UInt64. The export replaces the target directory as a whole (written
//! beside it, then renamed).

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

use polars::prelude::*;

use rdnaprobe_dataset::Target;

use crate::error::{Error, Result};
use crate::format;
use crate::input::{family_of, Input};
use crate::output::CSV_COLUMNS;
use crate::report::aggregate::pe;
use crate::subject::instruction_under_test;

/// Buffered rows per partition before a part file is written.
const PART_ROWS: usize = 1 << 17;

/// Rows per row group of [`export_dataset_file`] as the export sizes its parts.
pub const ROW_GROUP_ROWS: usize = PART_ROWS;

/// What the export wrote.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct ExportSummary {
    pub dataset_rows: u64,
    pub diff_rows: u64,
    pub files: u64,
    pub partitions: u64,
}

/// Percent-encodes a hive partition value.
pub fn partition_value(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    if out.is_empty() {
        "__empty__".into()
    } else {
        out
    }
}

#[derive(Default)]
struct DatasetPart {
    text: Vec<String>,
    encoding: Vec<String>,
    wave: Vec<Option<u32>>,
    mode: [Vec<Option<u32>>; 7],
    inputs: [Vec<u32>; 6],
    outputs: [Vec<Option<u32>>; 16],
    gfx: Vec<String>,
    source: Vec<String>,
    note: Vec<String>,
    status: Vec<String>,
    file: Vec<String>,
    extra: Vec<String>,
}

/// The mode columns: schema v1's `ieee` .. `fp16_overflow`, in the order of `ModeCells`.
const MODE_NAMES: &[&str] = rdnaprobe_dataset::V1_COLUMNS.split_at(3).1.split_at(7).0;

impl DatasetPart {
    fn len(&self) -> usize {
        self.text.len()
    }

    fn push(&mut self, item: &crate::input::Item, extra_names: &[String], file: &str) {
        let row = &item.row;
        self.text.push(row.instruction.clone());
        self.encoding.push(format::encoding(&row.encoding));
        self.wave.push(row.wave);
        for (v, field) in self.mode.iter_mut().zip(rdnaprobe_dataset::ModeField::ALL) {
            v.push(row.mode.get(field).map(u32::from));
        }
        for (v, x) in self.inputs.iter_mut().zip(row.inputs) {
            v.push(x);
        }
        for (v, x) in self.outputs.iter_mut().zip(row.outputs) {
            v.push(x);
        }
        self.gfx.push(row.gfx.clone());
        self.source.push(row.source.clone());
        self.note.push(row.note.clone());
        self.status.push(item.status.to_string());
        self.file.push(file.to_string());
        let extra: serde_json::Map<String, serde_json::Value> = extra_names
            .iter()
            .zip(&row.extra)
            .filter(|(n, _)| *n != "backend" && *n != "status")
            .map(|(n, v)| (n.clone(), serde_json::Value::String(v.clone())))
            .collect();
        self.extra
            .push(serde_json::Value::Object(extra).to_string());
    }

    fn frame(self) -> PolarsResult<DataFrame> {
        let mut cols: Vec<Column> = vec![
            Column::new("instruction_text".into(), self.text),
            Column::new("encoding".into(), self.encoding),
            Column::new("wave".into(), self.wave),
        ];
        for (name, v) in MODE_NAMES.iter().zip(self.mode) {
            cols.push(Column::new((*name).into(), v));
        }
        for (i, v) in self.inputs.into_iter().enumerate() {
            cols.push(Column::new(format!("in{i}").into(), v));
        }
        for (i, v) in self.outputs.into_iter().enumerate() {
            cols.push(Column::new(format!("out{i}").into(), v));
        }
        cols.push(Column::new("gfx".into(), self.gfx));
        cols.push(Column::new("source".into(), self.source));
        cols.push(Column::new("note".into(), self.note));
        cols.push(Column::new("status".into(), self.status));
        cols.push(Column::new("file".into(), self.file));
        cols.push(Column::new("extra".into(), self.extra));
        DataFrame::new_infer_height(cols)
    }
}

#[derive(Default)]
struct DiffPart {
    text: Vec<Vec<String>>,
    max_ulp: Vec<Option<u64>>,
    reference_row: Vec<Option<u64>>,
}

impl DiffPart {
    fn len(&self) -> usize {
        self.max_ulp.len()
    }

    fn frame(self, names: &[&str]) -> PolarsResult<DataFrame> {
        let mut cols: Vec<Column> = Vec::new();
        for (i, name) in names.iter().enumerate() {
            let values: Vec<String> = self.text.iter().map(|r| r[i].clone()).collect();
            let name = if *name == "instruction" {
                "instruction_text"
            } else {
                name
            };
            cols.push(Column::new(name.into(), values));
        }
        cols.push(Column::new("max_ulp".into(), self.max_ulp));
        cols.push(Column::new("reference_row".into(), self.reference_row));
        DataFrame::new_infer_height(cols)
    }
}

/// Diff CSV columns kept as text (the numeric ones become typed columns).
fn diff_text_columns() -> Vec<&'static str> {
    CSV_COLUMNS
        .iter()
        .copied()
        .filter(|c| *c != "max_ulp" && *c != "reference_row")
        .collect()
}

struct Writer {
    root: PathBuf,
    next_part: HashMap<(String, String, String), u32>,
    files: u64,
}

impl Writer {
    fn write(
        &mut self,
        kind: &str,
        instruction: &str,
        backend: &str,
        mut df: DataFrame,
    ) -> Result<()> {
        let key = (
            kind.to_string(),
            instruction.to_string(),
            backend.to_string(),
        );
        let n = self.next_part.entry(key).or_insert(0);
        let dir = self
            .root
            .join(kind)
            .join(format!("instruction={}", partition_value(instruction)))
            .join(format!("backend={}", partition_value(backend)));
        fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
        let path = dir.join(format!("part-{n}.parquet"));
        *n += 1;
        let file = fs::File::create(&path).map_err(|e| Error::io(&path, e))?;
        ParquetWriter::new(file)
            .finish(&mut df)
            .map_err(pe(&path.display().to_string()))?;
        self.files += 1;
        Ok(())
    }
}

fn is_diff_csv(path: &Path) -> Result<bool> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_path(path)
        .map_err(|e| Error::io(path, std::io::Error::other(e.to_string())))?;
    let mut header = csv::StringRecord::new();
    let got = reader
        .read_record(&mut header)
        .map_err(|e| Error::io(path, std::io::Error::other(e.to_string())))?;
    Ok(got && header.iter().eq(CSV_COLUMNS.iter().copied()))
}

fn export_dataset(path: &Path, w: &mut Writer, summary: &mut ExportSummary) -> Result<()> {
    let mut input = Input::open(path)?;
    let extra_names: Vec<String> = input.extra_columns().to_vec();
    let file = path.display().to_string();
    let mut parts: HashMap<(String, String), DatasetPart> = HashMap::new();
    while let Some(item) = input.next_item()? {
        let key = (item.under_test.to_string(), item.backend.clone());
        let p = parts.entry(key.clone()).or_default();
        p.push(&item, &extra_names, &file);
        summary.dataset_rows += 1;
        if p.len() >= PART_ROWS {
            let full = parts.remove(&key).unwrap_or_default();
            let df = full.frame().map_err(pe(&file))?;
            w.write("datasets", &key.0, &key.1, df)?;
        }
    }
    for ((instr, backend), p) in parts {
        let df = p.frame().map_err(pe(&file))?;
        w.write("datasets", &instr, &backend, df)?;
    }
    Ok(())
}

fn export_diff(path: &Path, w: &mut Writer, summary: &mut ExportSummary) -> Result<()> {
    let file = path.display().to_string();
    let mut reader = csv::Reader::from_path(path)
        .map_err(|e| Error::io(path, std::io::Error::other(e.to_string())))?;
    let names = diff_text_columns();
    let idx = |n: &str| CSV_COLUMNS.iter().position(|c| *c == n).unwrap_or(0);
    let (i_instr, i_encoding, i_backend, i_ulp, i_ref) = (
        idx("instruction"),
        idx("encoding"),
        idx("backend"),
        idx("max_ulp"),
        idx("reference_row"),
    );
    let text_idx: Vec<usize> = names.iter().map(|n| idx(n)).collect();
    let mut parts: HashMap<(String, String), DiffPart> = HashMap::new();
    for (n, rec) in reader.records().enumerate() {
        let rec = rec.map_err(|e| Error::io(path, std::io::Error::other(e.to_string())))?;
        let line = n as u64 + 2;
        let number = |i: usize| -> Result<Option<u64>> {
            let cell = rec.get(i).unwrap_or("").trim();
            if cell.is_empty() {
                return Ok(None);
            }
            cell.parse().map(Some).map_err(|_| {
                Error::io(
                    path,
                    std::io::Error::other(format!(
                        "line {line}, column {} ({}): {cell:?} is not a number",
                        i + 1,
                        CSV_COLUMNS[i]
                    )),
                )
            })
        };
        let instruction = rec.get(i_instr).unwrap_or("");
        let words = rdnaprobe_dataset::parse_encoding(rec.get(i_encoding).unwrap_or(""))
            .unwrap_or_default();
        let under_test =
            instruction_under_test(&words, instruction, Target::DEFAULT, &family_of(path));
        let key = (under_test, rec.get(i_backend).unwrap_or("").to_string());
        let max_ulp = number(i_ulp)?;
        let reference_row = number(i_ref)?;
        let p = parts.entry(key.clone()).or_default();
        p.text.push(
            text_idx
                .iter()
                .map(|i| rec.get(*i).unwrap_or("").to_string())
                .collect(),
        );
        p.max_ulp.push(max_ulp);
        p.reference_row.push(reference_row);
        summary.diff_rows += 1;
        if p.len() >= PART_ROWS {
            let full = parts.remove(&key).unwrap_or_default();
            w.write(
                "diffs",
                &key.0,
                &key.1,
                full.frame(&names).map_err(pe(&file))?,
            )?;
        }
    }
    for ((instr, backend), p) in parts {
        w.write(
            "diffs",
            &instr,
            &backend,
            p.frame(&names).map_err(pe(&file))?,
        )?;
    }
    Ok(())
}

/// Writes one dataset or replay output as one Parquet file: the dataset columns of
/// [`export_parquet`] plus `backend` (the row's backend, since no partition directory names
/// it), the rows in file order, in row groups of `group_rows` rows ([`ROW_GROUP_ROWS`] is the
/// export's part size) written as they fill: the memory holds one row group. `diff` and
/// `report` read it as they read the CSV. Returns the row count.
pub fn export_dataset_file(input: &Path, output: &Path, group_rows: usize) -> Result<u64> {
    let group_rows = group_rows.max(1);
    let context = output.display().to_string();
    let mut reader = Input::open(input)?;
    let extra_names: Vec<String> = reader.extra_columns().to_vec();
    let file = input.display().to_string();
    let out = fs::File::create(output).map_err(|e| Error::io(output, e))?;
    let mut writer: Option<polars::io::parquet::write::BatchedWriter<fs::File>> = None;
    let mut out = Some(out);
    let mut rows = 0u64;
    let mut part = DatasetPart::default();
    let mut backends: Vec<String> = Vec::new();
    let mut flush = |part: DatasetPart,
                     backends: Vec<String>,
                     writer: &mut Option<polars::io::parquet::write::BatchedWriter<fs::File>>|
     -> Result<()> {
        let mut df = part.frame().map_err(pe(&context))?;
        df.with_column(Column::new("backend".into(), backends))
            .map_err(pe(&context))?;
        if writer.is_none() {
            let file = out.take().expect("one writer");
            *writer = Some(
                ParquetWriter::new(file)
                    .batched(df.schema())
                    .map_err(pe(&context))?,
            );
        }
        let w = writer.as_mut().expect("writer");
        w.write_batch(&df).map_err(pe(&context))
    };
    while let Some(item) = reader.next_item()? {
        part.push(&item, &extra_names, &file);
        backends.push(item.backend.clone());
        rows += 1;
        if part.len() >= group_rows {
            flush(
                std::mem::take(&mut part),
                std::mem::take(&mut backends),
                &mut writer,
            )?;
        }
    }
    if part.len() > 0 || writer.is_none() {
        flush(part, backends, &mut writer)?;
    }
    writer.expect("writer").finish().map_err(pe(&context))?;
    Ok(rows)
}

/// Exports `inputs` (datasets, replay outputs, diff CSVs) as partitioned Parquet under `dir`.
pub fn export_parquet(inputs: &[PathBuf], dir: &Path) -> Result<ExportSummary> {
    if inputs.is_empty() {
        return Err(Error::Usage("export: no input files".into()));
    }
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| Error::Usage(format!("{}: not a directory name", dir.display())))?;
    fs::create_dir_all(&parent).map_err(|e| Error::io(&parent, e))?;
    let tmp = parent.join(format!(".{name}.tmp-{}", std::process::id()));
    if tmp.exists() {
        fs::remove_dir_all(&tmp).map_err(|e| Error::io(&tmp, e))?;
    }
    let mut w = Writer {
        root: tmp.clone(),
        next_part: HashMap::new(),
        files: 0,
    };
    let mut summary = ExportSummary::default();
    let result = (|| {
        for path in inputs {
            if is_diff_csv(path)? {
                export_diff(path, &mut w, &mut summary)?;
            } else {
                export_dataset(path, &mut w, &mut summary)?;
            }
        }
        Ok::<(), Error>(())
    })();
    if let Err(e) = result {
        let _ = fs::remove_dir_all(&tmp);
        return Err(e);
    }
    summary.files = w.files;
    summary.partitions = w.next_part.len() as u64;
    let old = parent.join(format!(".{name}.old-{}", std::process::id()));
    let had_old = dir.exists();
    if had_old {
        fs::rename(dir, &old).map_err(|e| Error::io(dir, e))?;
    }
    if !tmp.exists() {
        fs::create_dir_all(&tmp).map_err(|e| Error::io(&tmp, e))?;
    }
    fs::rename(&tmp, dir).map_err(|e| Error::io(dir, e))?;
    if had_old {
        fs::remove_dir_all(&old).map_err(|e| Error::io(&old, e))?;
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partition_values_are_percent_encoded() {
        assert_eq!(partition_value("vulkan:lavapipe"), "vulkan%3Alavapipe");
        assert_eq!(partition_value("v_add_f32"), "v_add_f32");
        assert_eq!(partition_value("a/b c"), "a%2Fb%20c");
        assert_eq!(partition_value(""), "__empty__");
    }

    #[test]
    fn mode_columns_are_the_schema_mode_cells() {
        assert_eq!(
            MODE_NAMES,
            [
                "ieee",
                "dx10_clamp",
                "denorm32",
                "denorm16",
                "round32",
                "round16",
                "fp16_overflow"
            ]
        );
    }
}
