//! Writing schema v1 CSV. Hex cells are written as `0x%08x`, unstated cells stay empty, and a
//! file on disk is only ever replaced whole: [`AtomicFile`] writes a temporary file in the
//! target's directory, fsyncs it and renames it over the target, so a crash leaves either the
//! old file or the complete new one, never a half-written output.

use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use rdnaprobe_contract::ModeField;

use crate::error::DatasetError;
use crate::read::Dataset;
use crate::row::{Row, V1_COLUMNS};

/// `0x%08x`.
pub fn hex(v: u32) -> String {
    let mut s = String::with_capacity(10);
    push_hex(&mut s, v);
    s
}

/// Appends `0x%08x` (lowercase digits) to `s`.
pub fn push_hex(s: &mut String, v: u32) {
    s.push_str(std::str::from_utf8(&hex_bytes(v)).unwrap_or_default());
}

/// `0x%08x` as bytes.
fn hex_bytes(v: u32) -> [u8; 10] {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut b = *b"0x00000000";
    for (i, d) in b[2..].iter_mut().enumerate() {
        *d = DIGITS[(v >> (28 - 4 * i) & 0xf) as usize];
    }
    b
}

/// The `encoding` cell: words as `0x%08x` separated by one space, or `n/a` for no words.
pub fn encoding_cell(words: &[u32]) -> String {
    if words.is_empty() {
        return "n/a".into();
    }
    let mut s = String::with_capacity(11 * words.len());
    for (i, w) in words.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        push_hex(&mut s, *w);
    }
    s
}

fn opt(v: Option<impl ToString>) -> String {
    v.map(|v| v.to_string()).unwrap_or_default()
}

/// The 35 schema v1 cells of a row, as written.
pub fn v1_cells(row: &Row) -> Vec<String> {
    let m = &row.mode;
    let mut cells = Vec::with_capacity(V1_COLUMNS.len());
    cells.push(row.instruction.clone());
    cells.push(encoding_cell(&row.encoding));
    cells.push(opt(row.wave));
    for field in ModeField::ALL {
        cells.push(opt(m.get(field)));
    }
    cells.extend(row.inputs.iter().map(|v| hex(*v)));
    cells.extend(row.outputs.iter().map(|v| v.map(hex).unwrap_or_default()));
    cells.push(row.gfx.clone());
    cells.push(row.source.clone());
    cells.push(row.note.clone());
    cells
}

/// Writes schema v1 CSV to any byte sink. The header is the v1 columns, then `inserted`
/// (columns a command adds, such as replay's `backend` and `status`, whose values are passed
/// per row), then the dataset's extra columns.
pub struct Writer<W: Write> {
    csv: csv::Writer<W>,
    inserted: usize,
    extra: usize,
    label: String,
    rows: u64,
}

impl<W: Write> Writer<W> {
    /// Writes the header; `label` names the sink in errors.
    pub fn new(
        sink: W,
        label: impl Into<String>,
        inserted: &[&str],
        extra_columns: &[String],
    ) -> Result<Writer<W>, DatasetError> {
        let label = label.into();
        let mut csv = csv::WriterBuilder::new()
            .quote_style(csv::QuoteStyle::Necessary)
            .from_writer(sink);
        let header = V1_COLUMNS
            .iter()
            .copied()
            .chain(inserted.iter().copied())
            .chain(extra_columns.iter().map(String::as_str));
        csv.write_record(header)
            .map_err(|e| to_io(&label, "write", e))?;
        Ok(Writer {
            csv,
            inserted: inserted.len(),
            extra: extra_columns.len(),
            label,
            rows: 0,
        })
    }

    /// A writer that appends rows to a sink that already has its header (sweep chunks): the
    /// counts say how many inserted and extra cells each row must have.
    pub fn headless(sink: W, label: impl Into<String>, inserted: usize, extra: usize) -> Writer<W> {
        Writer {
            csv: csv::WriterBuilder::new()
                .quote_style(csv::QuoteStyle::Necessary)
                .from_writer(sink),
            inserted,
            extra,
            label: label.into(),
            rows: 0,
        }
    }

    /// Writes one row; `inserted` gives the values of the inserted columns.
    pub fn write_row(&mut self, row: &Row, inserted: &[&str]) -> Result<(), DatasetError> {
        self.write_row_with_outputs(row, &row.outputs, inserted)
    }

    /// [`Self::write_row`] with `outputs` in place of the row's out0..out15: the cells of
    /// [`v1_cells`], written without building them as strings first.
    pub fn write_row_with_outputs(
        &mut self,
        row: &Row,
        outputs: &[Option<u32>; 16],
        inserted: &[&str],
    ) -> Result<(), DatasetError> {
        if inserted.len() != self.inserted || row.extra.len() != self.extra {
            return Err(DatasetError::InvalidRow {
                file: self.label.clone(),
                index: self.rows,
                reason: format!(
                    "row has {} inserted and {} extra cells, the header has {} and {}",
                    inserted.len(),
                    row.extra.len(),
                    self.inserted,
                    self.extra
                ),
            });
        }
        let csv = &mut self.csv;
        let mut cells = || -> csv::Result<()> {
            let small = |v: Option<u32>| v.map(|v| v.to_string()).unwrap_or_default();
            csv.write_field(&row.instruction)?;
            csv.write_field(encoding_cell(&row.encoding))?;
            csv.write_field(small(row.wave))?;
            for field in ModeField::ALL {
                csv.write_field(small(row.mode.get(field).map(u32::from)))?;
            }
            for v in row.inputs {
                csv.write_field(hex_bytes(v))?;
            }
            for v in outputs {
                match v {
                    Some(v) => csv.write_field(hex_bytes(*v))?,
                    None => csv.write_field([])?,
                }
            }
            csv.write_field(&row.gfx)?;
            csv.write_field(&row.source)?;
            csv.write_field(&row.note)?;
            for cell in inserted {
                csv.write_field(cell)?;
            }
            for cell in &row.extra {
                csv.write_field(cell)?;
            }
            csv.write_record(std::iter::empty::<&[u8]>())
        };
        cells().map_err(|e| to_io(&self.label, "write", e))?;
        self.rows += 1;
        Ok(())
    }

    /// Rows written so far.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Flushes and returns the sink.
    pub fn finish(self) -> Result<W, DatasetError> {
        let label = self.label;
        self.csv
            .into_inner()
            .map_err(|e| DatasetError::io(label, "flush", e.into_error()))
    }
}

fn to_io(label: &str, op: &'static str, e: csv::Error) -> DatasetError {
    match e.into_kind() {
        csv::ErrorKind::Io(io) => DatasetError::io(label, op, io),
        other => DatasetError::io(label, op, io::Error::other(format!("{other:?}"))),
    }
}

/// Serialises a dataset to CSV bytes (v1 columns, then its extra columns).
pub fn dataset_to_bytes(ds: &Dataset) -> Result<Vec<u8>, DatasetError> {
    let mut w = Writer::new(Vec::new(), "<memory>", &[], &ds.extra_columns)?;
    for row in &ds.rows {
        w.write_row(row, &[])?;
    }
    w.finish()
}

/// Writes `ds` to `path` atomically.
pub fn write_dataset(path: &Path, ds: &Dataset) -> Result<(), DatasetError> {
    let file = AtomicFile::create(path)?;
    let label = path.display().to_string();
    let mut w = Writer::new(file, label, &[], &ds.extra_columns)?;
    for row in &ds.rows {
        w.write_row(row, &[])?;
    }
    w.finish()?.commit()
}

static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// A file that appears at its path only when [`AtomicFile::commit`] succeeds. Dropping it
/// uncommitted removes the temporary file.
pub struct AtomicFile {
    target: PathBuf,
    temp: PathBuf,
    file: Option<BufWriter<File>>,
}

impl AtomicFile {
    /// Creates the temporary file next to `target` (same directory, so the rename is atomic).
    pub fn create(target: &Path) -> Result<AtomicFile, DatasetError> {
        let label = target.display().to_string();
        let name = target.file_name().ok_or_else(|| {
            DatasetError::io(
                label.clone(),
                "create",
                io::Error::new(io::ErrorKind::InvalidInput, "not a file path"),
            )
        })?;
        let n = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
        let mut temp_name = std::ffi::OsString::from(".");
        temp_name.push(name);
        temp_name.push(format!(".tmp{}.{n}", std::process::id()));
        let temp = target.with_file_name(temp_name);
        let file = File::create(&temp).map_err(|e| {
            DatasetError::io(temp.display().to_string(), "create temporary file", e)
        })?;
        Ok(AtomicFile {
            target: target.to_path_buf(),
            temp,
            file: Some(BufWriter::new(file)),
        })
    }

    /// Flushes, fsyncs, renames over the target and fsyncs the directory.
    pub fn commit(mut self) -> Result<(), DatasetError> {
        let label = self.target.display().to_string();
        let Some(buf) = self.file.take() else {
            return Ok(());
        };
        let file = buf
            .into_inner()
            .map_err(|e| DatasetError::io(label.clone(), "flush", e.into_error()))?;
        file.sync_all()
            .map_err(|e| DatasetError::io(label.clone(), "fsync", e))?;
        drop(file);
        fs::rename(&self.temp, &self.target)
            .map_err(|e| DatasetError::io(label.clone(), "rename temporary file", e))?;
        sync_dir(&self.target);
        Ok(())
    }
}

/// Makes a rename durable. Best effort: some filesystems refuse to open or fsync a directory.
pub fn sync_dir(path: &Path) {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self.file.as_mut() {
            Some(f) => f.write(buf),
            None => Err(io::Error::other("atomic file already committed")),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self.file.as_mut() {
            Some(f) => f.flush(),
            None => Ok(()),
        }
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = fs::remove_file(&self.temp);
        }
    }
}
