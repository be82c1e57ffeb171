//! Reading schema v1 CSV: a streaming [`Reader`] that yields one [`Row`] at a time, and
//! [`read_dataset`] that loads a whole file into a [`Dataset`].
//!
//! The header must start with the 35 [`V1_COLUMNS`] in order; any further columns are the
//! dataset's extra columns, carried through as [`Row::extra`]. Cells are checked strictly:
//! inputs and outputs are `0x` hex (an empty output is "not captured"), `encoding` is `0x`
//! words separated by spaces or `n/a`, and every mode cell is empty ("not stated") or in its
//! range. Nothing in a file can make the reader panic; every problem is a [`DatasetError`].

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;
use std::sync::{Arc, Mutex};

use crate::error::{DatasetError, Source};
use crate::row::{ModeCells, Row, V1_COLUMNS};
use crate::wave::{WaveChecker, WaveLayout};
use rdnaprobe_contract::ModeField;

/// Column indices of the schema v1 cells (positions in [`V1_COLUMNS`]).
pub(crate) mod col {
    pub const INSTRUCTION: usize = 0;
    pub const ENCODING: usize = 1;
    pub const WAVE: usize = 2;
    /// The first mode cell; the seven follow in [`rdnaprobe_contract::ModeField::ALL`] order.
    pub const MODE0: usize = 3;
    pub const IN0: usize = 10;
    pub const OUT0: usize = 16;
    pub const GFX: usize = 32;
    pub const SOURCE: usize = 33;
    pub const NOTE: usize = 34;
}

/// A whole dataset in memory: the names of the extra columns (after the v1 columns, in file
/// order) and the rows, whose `extra` vectors line up with `extra_columns`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dataset {
    pub extra_columns: Vec<String>,
    pub rows: Vec<Row>,
}

/// Line numbers of CSV records, counted from the bytes themselves: the csv crate's own line
/// counter skips a line after a `\r\n` header. The input adapter queues the offsets of the
/// `\n` bytes it passes on; looking up a record's byte offset drops the queued offsets before
/// it, so the queue never holds more than the parser's read-ahead.
#[derive(Default)]
struct LineIndex {
    newlines: VecDeque<u64>,
    before: u64,
    offset: u64,
}

impl LineIndex {
    /// 1-based line of a record starting at `byte`. After a `\r\n` the csv crate reports the
    /// record as starting at the `\n`, hence `<=`: a record never starts with any other `\n`.
    fn line_of(&mut self, byte: u64) -> u64 {
        while self.newlines.front().is_some_and(|&n| n <= byte) {
            self.newlines.pop_front();
            self.before += 1;
        }
        self.before + 1
    }
}

struct Counting<R> {
    inner: R,
    index: Arc<Mutex<LineIndex>>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if let Ok(mut index) = self.index.lock() {
            let base = index.offset;
            for (i, b) in buf[..n].iter().enumerate() {
                if *b == b'\n' {
                    index.newlines.push_back(base + i as u64);
                }
            }
            index.offset += n as u64;
        }
        Ok(n)
    }
}

fn line_at(index: &Arc<Mutex<LineIndex>>, pos: Option<&csv::Position>) -> u64 {
    match (pos, index.lock()) {
        (Some(p), Ok(mut i)) => i.line_of(p.byte()),
        _ => 0,
    }
}

/// Streams rows from schema v1 CSV. The header is read and checked by [`Reader::new`].
pub struct Reader<R: Read> {
    file: Source,
    csv: csv::Reader<Counting<R>>,
    lines: Arc<Mutex<LineIndex>>,
    record: csv::StringRecord,
    extra_columns: Vec<String>,
    width: usize,
    done: bool,
    /// The wave rules, for a dataset with wave columns.
    wave: Option<WaveChecker>,
}

impl Reader<File> {
    /// Opens `path` and checks its header.
    pub fn open(path: &Path) -> Result<Reader<File>, DatasetError> {
        let label = path.display().to_string();
        let file = File::open(path).map_err(|e| DatasetError::io(label.clone(), "open", e))?;
        Reader::new(file, label)
    }
}

impl<R: Read> Reader<R> {
    /// Wraps a byte stream; `label` names it in errors (a path, or `<stdin>`).
    pub fn new(input: R, label: impl Into<Source>) -> Result<Reader<R>, DatasetError> {
        let file = label.into();
        let lines = Arc::new(Mutex::new(LineIndex::default()));
        let mut csv = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(Counting {
                inner: input,
                index: lines.clone(),
            });
        let mut header = csv::StringRecord::new();
        let got = csv
            .read_record(&mut header)
            .map_err(|e| csv_error(&file, &lines, e))?;
        if !got || (header.len() == 1 && header[0].trim().is_empty()) {
            return Err(DatasetError::Empty { file });
        }
        let line = line_at(&lines, header.position());
        for (i, expected) in V1_COLUMNS.iter().enumerate() {
            match header.get(i) {
                Some(found) if found.trim() == *expected => {}
                Some(found) => {
                    return Err(DatasetError::Header {
                        file,
                        line,
                        column: i + 1,
                        expected,
                        found: found.to_string(),
                    })
                }
                None => {
                    return Err(DatasetError::ShortHeader {
                        file,
                        line,
                        found: header.len(),
                    })
                }
            }
        }
        let mut extra_columns: Vec<String> = Vec::new();
        for (i, name) in header.iter().enumerate().skip(V1_COLUMNS.len()) {
            let name = name.trim().to_string();
            if V1_COLUMNS.contains(&name.as_str()) || extra_columns.contains(&name) {
                return Err(DatasetError::DuplicateColumn {
                    file,
                    line,
                    column: i + 1,
                    name,
                });
            }
            extra_columns.push(name);
        }
        Ok(Reader {
            file,
            csv,
            lines,
            record: csv::StringRecord::new(),
            width: header.len(),
            wave: WaveLayout::from_columns(&extra_columns).map(WaveChecker::new),
            extra_columns,
            done: false,
        })
    }

    /// Names of the columns after the v1 columns, in file order.
    pub fn extra_columns(&self) -> &[String] {
        &self.extra_columns
    }

    /// Where the wave columns are, for a wave dataset (`None`: a lane-contract dataset).
    pub fn wave_layout(&self) -> Option<&WaveLayout> {
        self.wave.as_ref().map(WaveChecker::layout)
    }

    /// Shifts the line numbers of every later row and error by `lines`: for a reader over a
    /// header followed by a slice of a file's data, so that errors name the file's own lines.
    pub fn offset_lines(&mut self, lines: u64) {
        if let Ok(mut index) = self.lines.lock() {
            index.before += lines;
        }
    }

    /// The label errors use for this input.
    pub fn label(&self) -> &str {
        &self.file
    }

    /// Reads the next row; `Ok(None)` at the end of the file.
    pub fn read_row(&mut self) -> Result<Option<Row>, DatasetError> {
        if self.done {
            return Ok(None);
        }
        loop {
            let got = self
                .csv
                .read_record(&mut self.record)
                .map_err(|e| csv_error(&self.file, &self.lines, e));
            match got {
                Ok(true) => {}
                Ok(false) => {
                    self.done = true;
                    return Ok(None);
                }
                Err(e) => {
                    self.done = true;
                    return Err(e);
                }
            }
            // A blank line (for example a trailing one) is not a row.
            if self.record.len() == 1 && self.record[0].is_empty() {
                continue;
            }
            let line = line_at(&self.lines, self.record.position());
            if self.record.len() != self.width {
                return Err(DatasetError::FieldCount {
                    file: self.file.clone(),
                    line,
                    expected: self.width,
                    found: self.record.len(),
                });
            }
            let row = parse_record(&self.file, line, &self.record)?;
            if let Some(checker) = &mut self.wave {
                checker.check(&row, line).map_err(|(c, reason)| {
                    let layout = checker.layout();
                    DatasetError::Cell {
                        file: self.file.clone(),
                        line,
                        column: layout.file_column(c),
                        name: c.name().to_string(),
                        cell: layout.cell(&row, c).to_string(),
                        reason,
                    }
                })?;
            }
            return Ok(Some(row));
        }
    }

    /// Reads every remaining row into a [`Dataset`].
    pub fn into_dataset(mut self) -> Result<Dataset, DatasetError> {
        let mut rows = Vec::new();
        while let Some(row) = self.read_row()? {
            rows.push(row);
        }
        Ok(Dataset {
            extra_columns: self.extra_columns,
            rows,
        })
    }
}

impl<R: Read> Iterator for Reader<R> {
    type Item = Result<Row, DatasetError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.read_row().transpose()
    }
}

/// Loads the dataset at `path`.
pub fn read_dataset(path: &Path) -> Result<Dataset, DatasetError> {
    Reader::open(path)?.into_dataset()
}

/// Parses a dataset held in memory; `label` names it in errors.
pub fn parse_dataset(bytes: &[u8], label: &str) -> Result<Dataset, DatasetError> {
    Reader::new(io::Cursor::new(bytes), label)?.into_dataset()
}

fn csv_error(file: &str, lines: &Arc<Mutex<LineIndex>>, err: csv::Error) -> DatasetError {
    let line = line_at(lines, err.position());
    match err.into_kind() {
        csv::ErrorKind::Io(e) => DatasetError::io(file, "read", e),
        csv::ErrorKind::Utf8 { err, .. } => DatasetError::Csv {
            file: file.to_string(),
            line,
            message: format!("invalid UTF-8 in field {}: {err}", err.field() + 1),
        },
        other => DatasetError::Csv {
            file: file.to_string(),
            line,
            message: format!("{other:?}"),
        },
    }
}

fn parse_record(file: &str, line: u64, rec: &csv::StringRecord) -> Result<Row, DatasetError> {
    let cell_err = |i: usize, reason: String| DatasetError::Cell {
        file: file.to_string(),
        line,
        column: i + 1,
        name: V1_COLUMNS[i].to_string(),
        cell: rec[i].to_string(),
        reason,
    };
    let wave = match rec[col::WAVE].trim() {
        "" => None,
        "32" => Some(32),
        "64" => Some(64),
        _ => return Err(cell_err(col::WAVE, "wave must be 32, 64 or empty".into())),
    };
    let encoding = parse_encoding(&rec[col::ENCODING]).map_err(|r| cell_err(col::ENCODING, r))?;
    let mut mode_cells = ModeCells::default();
    for (k, field) in ModeField::ALL.into_iter().enumerate() {
        let i = col::MODE0 + k;
        *mode_cells.get_mut(field) = field.parse_cell(&rec[i]).map_err(|r| cell_err(i, r))?;
    }
    let mut inputs = [0u32; 6];
    for (k, slot) in inputs.iter_mut().enumerate() {
        let i = col::IN0 + k;
        let cell = rec[i].trim();
        if cell.is_empty() {
            return Err(cell_err(
                i,
                "input cells must be filled (`0x00000000` for an unused input)".into(),
            ));
        }
        *slot = parse_hex(cell).map_err(|r| cell_err(i, r))?;
    }
    let mut outputs = [None; 16];
    for (k, slot) in outputs.iter_mut().enumerate() {
        let i = col::OUT0 + k;
        let cell = rec[i].trim();
        if !cell.is_empty() {
            *slot = Some(parse_hex(cell).map_err(|r| cell_err(i, r))?);
        }
    }
    Ok(Row {
        instruction: rec[col::INSTRUCTION].to_string(),
        encoding,
        wave,
        mode: mode_cells,
        inputs,
        outputs,
        gfx: rec[col::GFX].to_string(),
        source: rec[col::SOURCE].to_string(),
        note: rec[col::NOTE].to_string(),
        extra: rec
            .iter()
            .skip(V1_COLUMNS.len())
            .map(str::to_string)
            .collect(),
    })
}

/// Parses one `0x`-prefixed hex dword (1 to 8 digits, either case).
pub fn parse_hex(cell: &str) -> Result<u32, String> {
    let digits = cell
        .strip_prefix("0x")
        .or_else(|| cell.strip_prefix("0X"))
        .ok_or_else(|| "expected 0x-prefixed hex such as 0x3f800000".to_string())?;
    let bad = || "expected 1 to 8 hex digits after 0x (a 32-bit dword)".to_string();
    if digits.is_empty() || digits.len() > 8 {
        return Err(bad());
    }
    // One pass: wave datasets carry LDS and memory contents as thousands of these.
    digits.bytes().try_fold(0u32, |v, b| {
        let d = match b {
            b'0'..=b'9' => b - b'0',
            b'a'..=b'f' => b - b'a' + 10,
            b'A'..=b'F' => b - b'A' + 10,
            _ => return Err(bad()),
        };
        Ok(v << 4 | u32::from(d))
    })
}

/// Parses an `encoding` cell: `0x` words separated by whitespace, or `n/a` for no words.
pub fn parse_encoding(cell: &str) -> Result<Vec<u32>, String> {
    let cell = cell.trim();
    if cell == "n/a" {
        return Ok(Vec::new());
    }
    if cell.is_empty() {
        return Err("encoding is empty: give the body's words (0x... 0x...) or n/a".into());
    }
    cell.split_whitespace()
        .enumerate()
        .map(|(n, w)| parse_hex(w).map_err(|r| format!("word {}: `{w}`: {r}", n + 1)))
        .collect()
}
